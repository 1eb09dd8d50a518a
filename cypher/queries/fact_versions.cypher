// A fact's version chain, newest first — from any version's fact_id — one row per version
// and source episode, with the episode's raw span and what was said there (the messages
// the fact was read from; the whole episode when they are not recorded).
// Parameters: $fact_id (STRING: any version of the fact).
MATCH (f:Fact {fact_id: $fact_id})
MATCH (head:Fact)-[:SUPERSEDES*0..]->(f)
WHERE NOT ()-[:SUPERSEDES]->(head)
MATCH p = (head)-[:SUPERSEDES*0..]->(v:Fact)
WITH v, min(length(p)) AS depth
OPTIONAL MATCH (v)-[:SUPERSEDES]->(prev:Fact)
WITH v, depth, collect(prev.fact_id) AS supersedes
OPTIONAL MATCH (v)-[:DERIVED_FROM]->(e:Episode)
CALL (v, e) {
  OPTIONAL MATCH (e)-[:HAS_MESSAGE]->(m:Message)
  WITH m ORDER BY m.msg_id
  WITH collect(m) AS messages
  WITH messages, [m IN messages WHERE m.message_id IN coalesce(v.source_messages, [])] AS source
  RETURN [m IN CASE WHEN size(source) > 0 THEN source ELSE messages END
          | m.role + ': ' + m.content] AS said
}
RETURN depth + 1 AS version, v.fact_id AS fact_id, v.status AS status,
       v.sentence AS statement, v.confidence AS confidence, v.valid_from AS valid_from,
       v.valid_until AS valid_until, supersedes, e.event_id AS episode,
       e.session_id AS session_id, [e.raw_span_start, e.raw_span_end] AS raw_span, said
ORDER BY version, e.start_time
