// Re-embedding (graphmem reembed): a page of episodes in event_id order after $after,
// each with what its embedded text is built from (goal, result, the stored actions). An
// episode online facts began but that was never stored (its messages were refused) has
// nothing to embed.
// Parameters: $after (STRING: the last event_id of the page before; '' for the first),
// $limit (INTEGER).
MATCH (e:Episode)
WHERE e.event_id > $after AND e.raw_span_start IS NOT NULL  // stored, not only begun
RETURN e {.event_id, .user_id, .session_id, .start_time, .end_time, .goal, .result,
          .actions, .action_times, .raw_span_start, .raw_span_end, .participants} AS episode
ORDER BY e.event_id
LIMIT $limit
