// Retracts a current fact version: a new version heads its chain with status 'retracted'
// (same statement, valid only at the instant $at) and says who retracted it, when and why;
// the version it replaces becomes 'superseded' at $at and its typed edge goes. Nothing is
// deleted: history() shows the retraction above the version it took back.
// Parameters: $user_id (STRING), $fact_id (STRING: a current version), $new_id (STRING),
//   $reason (STRING), $by (STRING), $at (DATETIME).
MATCH (old:Fact {fact_id: $fact_id, user_id: $user_id, status: 'current'})
MATCH (old)-[:ABOUT]->(s:Entity)
MATCH (old)-[:HAS_VALUE]->(v:Entity)
CREATE (r:Fact {fact_id: $new_id})
SET r += old {.user_id, .tenant, .entity_id, .entity, .predicate, .value_id, .value, .negated,
              .sentence, .confidence},
    r.status = 'retracted', r.change = 'retracted', r.reason = $reason, r.changed_by = $by,
    r.changed_at = $at, r.first_seen = $at, r.last_verified = $at, r.valid_from = $at,
    r.valid_until = $at, r.source_episodes = [], r.source_messages = []
CREATE (r)-[:SUPERSEDES]->(old), (r)-[:ABOUT]->(s), (r)-[:HAS_VALUE]->(v)
SET old.status = 'superseded', old.valid_until = $at, old.superseded_at = $at
WITH old, r
OPTIONAL MATCH (:Entity {entity_id: old.entity_id})-[edge {fact_id: old.fact_id}]->()
DELETE edge
RETURN r {.*, embedding: null} AS fact
