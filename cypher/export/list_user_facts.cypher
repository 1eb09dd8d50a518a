// Export: every version of a user's facts (all statuses) with every property but the
// embedding (returned on its own), its subject and value entities, the versions it
// SUPERSEDES and the episodes it is DERIVED_FROM.
// Parameters: $user_id.
MATCH (f:Fact {user_id: $user_id})
OPTIONAL MATCH (f)-[:ABOUT]->(s:Entity)
OPTIONAL MATCH (f)-[:HAS_VALUE]->(v:Entity)
CALL (f) {
  OPTIONAL MATCH (f)-[:SUPERSEDES]->(old:Fact)
  RETURN collect(old.fact_id) AS supersedes
}
CALL (f) {
  OPTIONAL MATCH (f)-[:DERIVED_FROM]->(ep:Episode)
  RETURN collect(ep.event_id) AS derived_from
}
RETURN f {.*, embedding: null} AS props, f.embedding AS embedding, s.entity_id AS about,
       v.entity_id AS has_value, supersedes, derived_from
ORDER BY f.fact_id
