// Episodes by id with their raw messages in order: what passages are cut from, and the
// provenance of each hit (session, time span, raw span). The user's episodes only.
// Times come as [epochMillis, offsetSeconds] pairs (cheap for the driver to read).
// Parameters: $event_ids (LIST<STRING>), $user_id.
MATCH (e:Episode)
WHERE e.event_id IN $event_ids AND e.user_id = $user_id
CALL (e) {
  MATCH (e)-[:HAS_MESSAGE]->(m:Message)
  WITH m ORDER BY m.msg_id
  RETURN collect(m {.message_id, .msg_id, .role, .content,
                    ts: [m.ts.epochMillis, m.ts.offsetSeconds]}) AS messages
}
RETURN e.event_id AS event_id, e.session_id AS session_id,
       [e.start_time.epochMillis, e.start_time.offsetSeconds] AS start_time,
       [e.end_time.epochMillis, e.end_time.offsetSeconds] AS end_time,
       e.raw_span_start AS raw_span_start, e.raw_span_end AS raw_span_end, messages
