// Messages by id (the user's only), each with the message after it and its episode.
// Parameters: $message_ids (LIST<STRING>), $user_id.
MATCH (m:Message)
WHERE m.message_id IN $message_ids AND m.user_id = $user_id
OPTIONAL MATCH (n:Message {user_id: m.user_id, session_id: m.session_id, msg_id: m.msg_id + 1})
OPTIONAL MATCH (e:Episode {event_id: m.event_id})
RETURN m {.message_id, .event_id, .session_id, .msg_id, .role, .content, .ts} AS message,
       n {.message_id, .event_id, .session_id, .msg_id, .role, .content, .ts} AS next,
       e {.event_id, .session_id, .start_time, .end_time, .raw_span_start, .raw_span_end}
         AS episode
