// Records an ambiguous entity match for review instead of merging it silently.
// Parameters: $pairs — list of maps {entity_id, other_id, score}.
UNWIND $pairs AS p
MATCH (a:Entity {entity_id: p.entity_id}), (b:Entity {entity_id: p.other_id})
MERGE (a)-[r:MAYBE_SAME_AS]->(b)
SET r.score = p.score
RETURN count(r) AS pairs
