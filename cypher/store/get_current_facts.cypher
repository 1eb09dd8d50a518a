// The current version(s) for normalized (entity, predicate) keys, of one user or several.
// Parameters: $keys — list of maps {user_id, entity_id, predicate}.
UNWIND $keys AS k
MATCH (f:Fact {user_id: k.user_id, entity_id: k.entity_id, predicate: k.predicate})
WHERE f.status = 'current'
RETURN f.user_id AS user_id, f.fact_id AS fact_id, f.entity_id AS entity_id,
       f.predicate AS predicate, f.value_id AS value_id, f.negated AS negated,
       f.confidence AS confidence, f.valid_from AS valid_from,
       f.last_verified AS last_verified, f.source_episodes AS source_episodes
