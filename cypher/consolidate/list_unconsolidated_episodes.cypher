// Episodes not yet distilled into facts, oldest first (per user, or everyone's), each with
// its raw messages in order (extraction reads what was said, not the truncated actions).
// Parameters: $user_id (null = every user), $limit.
MATCH (e:Episode)
WHERE e.consolidated_at IS NULL AND e.start_time IS NOT NULL
  AND ($user_id IS NULL OR e.user_id = $user_id)
WITH e ORDER BY e.start_time, e.event_id LIMIT $limit
CALL (e) {
  OPTIONAL MATCH (e)-[:HAS_MESSAGE]->(m:Message)
  WITH m ORDER BY m.msg_id
  RETURN collect(m {.msg_id, .role, .content, .ts}) AS messages
}
RETURN e {.event_id, .user_id, .session_id, .start_time, .end_time, .goal, .result, .actions,
          .action_times, .raw_span_start, .raw_span_end, .participants, .semantics_refs} AS episode,
       messages
ORDER BY e.start_time, e.event_id
