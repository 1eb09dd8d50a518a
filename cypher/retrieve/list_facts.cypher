// A user's facts, optionally about one entity (as subject or value) and/or one predicate;
// current only unless asked. One row per version: a version that replaced several (a new
// channel after "no WeChat, use email") names the latest of them as `supersedes`.
// Parameters: $user_id, $entity_id (or null), $predicate (or null), $include_superseded.
MATCH (f:Fact {user_id: $user_id})
WHERE ($entity_id IS NULL OR f.entity_id = $entity_id OR f.value_id = $entity_id)
  AND ($predicate IS NULL OR f.predicate = $predicate)
  AND ($include_superseded OR f.status = 'current')
OPTIONAL MATCH (f)-[:SUPERSEDES]->(prev:Fact)
WITH f, prev ORDER BY prev.valid_from DESC, prev.fact_id
WITH f, collect(prev.fact_id) AS replaced
RETURN f {.*, embedding: null} AS fact, replaced[0] AS supersedes
ORDER BY f.entity, f.predicate, f.valid_from DESC
