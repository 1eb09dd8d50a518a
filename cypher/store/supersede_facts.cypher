// A new version replaces the current one: old becomes 'superseded', the new version
// SUPERSEDES it, and the old typed edge is removed (edge and node views stay consistent).
// Only a current new version supersedes (one that already ended replaces nothing).
// Parameters: $pairs — list of maps {new_id, old_id, at, rel_type}.
UNWIND $pairs AS p
MATCH (new:Fact {fact_id: p.new_id, status: 'current'}), (old:Fact {fact_id: p.old_id})
SET old.status = 'superseded', old.valid_until = p.at, old.superseded_at = p.at
MERGE (new)-[:SUPERSEDES]->(old)
WITH old, p
OPTIONAL MATCH (:Entity {entity_id: old.entity_id})-[r:$(p.rel_type) {fact_id: old.fact_id}]->()
DELETE r
RETURN count(old) AS superseded
