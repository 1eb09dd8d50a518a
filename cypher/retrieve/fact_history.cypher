// The version chain a fact belongs to, newest first, each with its source episodes — only
// when the fact is the user's (a fact id from elsewhere finds nothing). One row per
// version, even where the chain branches (one version that replaced two).
// Parameters: $fact_id, $user_id.
MATCH (f:Fact {fact_id: $fact_id, user_id: $user_id})
MATCH (head:Fact)-[:SUPERSEDES*0..]->(f)
WHERE NOT ()-[:SUPERSEDES]->(head)
MATCH p = (head)-[:SUPERSEDES*0..]->(v:Fact)
WITH v, min(length(p)) AS depth
CALL (v) {
  OPTIONAL MATCH (v)-[:SUPERSEDES]->(prev:Fact)
  WITH prev ORDER BY prev.valid_from DESC, prev.fact_id
  RETURN collect(prev.fact_id)[0] AS supersedes
}
CALL (v) {
  OPTIONAL MATCH (v)-[:DERIVED_FROM]->(e:Episode)
  WITH e ORDER BY e.start_time
  RETURN collect(e {.event_id, .session_id, .start_time, .raw_span_start, .raw_span_end})
         AS episodes
}
RETURN v {.*, embedding: null} AS fact, supersedes, episodes
ORDER BY depth, v.valid_from DESC, v.fact_id
