// A user's episodes overlapping [since, until), oldest first — the time channel. One page
// of $limit: the next page starts after ($after_time, $after_id), the last row of this one
// (both null for the first page). $after_time comes with a fixed offset, as times are
// stored: a datetime with a zone name ("[UTC]") does not compare equal to one with an offset.
// Each comes with its raw messages in order (its actions are its whole messages).
// Parameters: $user_id, $since, $until (DATETIME), $limit, $after_time, $after_id.
MATCH (e:Episode {user_id: $user_id})
WHERE e.start_time < $until AND e.end_time >= $since
  AND ($after_time IS NULL OR e.start_time > $after_time
       OR (e.start_time = $after_time AND e.event_id > $after_id))
WITH e ORDER BY e.start_time, e.event_id LIMIT $limit
CALL (e) {
  OPTIONAL MATCH (e)-[:HAS_MESSAGE]->(m:Message)
  WITH m ORDER BY m.msg_id
  RETURN collect(m {.msg_id, .role, .content, ts: toString(m.ts)}) AS messages
}
RETURN e {.event_id, .user_id, .session_id, .start_time, .end_time, .goal, .result, .actions, .action_times,
          .raw_span_start, .raw_span_end, .participants, .semantics_refs} AS episode,
       messages
ORDER BY e.start_time, e.event_id
