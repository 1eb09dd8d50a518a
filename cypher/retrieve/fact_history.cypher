// The version chain a fact belongs to, newest first, each with its source episodes — only
// when the fact is the user's (a fact id from elsewhere finds nothing).
// Parameters: $fact_id, $user_id.
MATCH (f:Fact {fact_id: $fact_id, user_id: $user_id})
MATCH (head:Fact)-[:SUPERSEDES*0..]->(f)
WHERE NOT ()-[:SUPERSEDES]->(head)
MATCH p = (head)-[:SUPERSEDES*0..]->(v:Fact)
OPTIONAL MATCH (v)-[:DERIVED_FROM]->(e:Episode)
OPTIONAL MATCH (v)-[:SUPERSEDES]->(prev:Fact)
WITH v, length(p) AS depth, prev,
     collect(e {.event_id, .session_id, .start_time, .raw_span_start, .raw_span_end}) AS episodes
RETURN v {.*, embedding: null} AS fact, prev.fact_id AS supersedes, episodes
ORDER BY depth
