// Corrects a current fact version's value: a new current version with the value a person
// gave ($value_id: its entity, merged just before by graphmem), confidence 1.0, saying who
// corrected it, when and why, SUPERSEDES the version it replaces (now 'superseded' at $at);
// the typed edge moves from the old value to the new one. $rel_type is validated by
// graphmem (store/cypher.relationship_type).
// Parameters: $user_id (STRING), $fact_id (STRING: a current version), $new_id (STRING),
//   $value_id (STRING), $value (STRING), $sentence (STRING), $valid_until (DATETIME or null),
//   $reason (STRING), $by (STRING), $at (DATETIME), $rel_type (STRING), $embedding (LIST).
MATCH (old:Fact {fact_id: $fact_id, user_id: $user_id, status: 'current'})
MATCH (old)-[:ABOUT]->(s:Entity)
MATCH (v:Entity {entity_id: $value_id})
CREATE (c:Fact {fact_id: $new_id})
SET c += old {.user_id, .tenant, .entity_id, .entity, .predicate, .negated},
    c.value_id = $value_id, c.value = $value, c.sentence = $sentence, c.confidence = 1.0,
    c.status = 'current', c.change = 'corrected', c.reason = $reason, c.changed_by = $by,
    c.changed_at = $at, c.first_seen = $at, c.last_verified = $at, c.valid_from = $at,
    c.valid_until = $valid_until, c.source_episodes = [], c.source_messages = []
SET v:Value
CREATE (c)-[:SUPERSEDES]->(old), (c)-[:ABOUT]->(s), (c)-[:HAS_VALUE]->(v)
SET old.status = 'superseded', old.valid_until = $at, old.superseded_at = $at
WITH old, c, s, v
OPTIONAL MATCH (s)-[edge {fact_id: old.fact_id}]->()
DELETE edge
WITH c, s, v
MERGE (s)-[r:$($rel_type) {fact_id: c.fact_id}]->(v)
SET r.confidence = c.confidence, r.negated = c.negated, r.since = $at
WITH c
CALL db.create.setNodeVectorProperty(c, 'embedding', $embedding)
RETURN c {.*, embedding: null} AS fact
