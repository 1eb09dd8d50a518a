// A user's episodes overlapping [since, until), oldest first — the time channel.
// Parameters: $user_id, $since, $until (DATETIME), $limit.
MATCH (e:Episode {user_id: $user_id})
WHERE e.start_time < $until AND e.end_time >= $since
RETURN e {.event_id, .user_id, .session_id, .start_time, .end_time, .goal, .result, .actions, .action_times,
          .raw_span_start, .raw_span_end, .participants, .semantics_refs} AS episode
ORDER BY e.start_time, e.event_id
LIMIT $limit
