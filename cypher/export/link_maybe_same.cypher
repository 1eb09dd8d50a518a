// Import: (:Entity)-[:MAYBE_SAME_AS]->(:Entity) pairs with their exported properties.
// Parameters: $pairs — list of maps {entity_id, other_id, props}.
UNWIND $pairs AS p
MATCH (a:Entity {entity_id: p.entity_id}), (b:Entity {entity_id: p.other_id})
MERGE (a)-[r:MAYBE_SAME_AS]->(b)
SET r = p.props
RETURN count(r) AS pairs
