// Episodes by id, with what a hit needs (provenance included) and their raw messages in
// order (an episode's actions are its whole messages, each with its msg_id).
// Parameters: $event_ids (LIST<STRING>).
MATCH (e:Episode)
WHERE e.event_id IN $event_ids
CALL (e) {
  OPTIONAL MATCH (e)-[:HAS_MESSAGE]->(m:Message)
  WITH m ORDER BY m.msg_id
  RETURN collect(m {.msg_id, .role, .content, ts: toString(m.ts)}) AS messages
}
RETURN e {.event_id, .user_id, .session_id, .start_time, .end_time, .goal, .result, .actions, .action_times,
          .raw_span_start, .raw_span_end, .participants, .semantics_refs} AS episode,
       messages
