// Episodes by id, with what a hit needs (provenance included).
// Parameters: $event_ids (LIST<STRING>).
MATCH (e:Episode)
WHERE e.event_id IN $event_ids
RETURN e {.event_id, .user_id, .session_id, .start_time, .end_time, .goal, .result, .actions, .action_times,
          .raw_span_start, .raw_span_end, .participants, .semantics_refs} AS episode
