// Messages by id (the user's only), each with the message after it and its episode.
// Times come as [epochMillis, offsetSeconds] pairs: far cheaper for the driver to
// read than temporal values, which dominate a question's time otherwise.
// Parameters: $message_ids (LIST<STRING>), $user_id.
MATCH (m:Message)
WHERE m.message_id IN $message_ids AND m.user_id = $user_id
OPTIONAL MATCH (n:Message {user_id: m.user_id, session_id: m.session_id, msg_id: m.msg_id + 1})
OPTIONAL MATCH (e:Episode {event_id: m.event_id})
RETURN m {.message_id, .event_id, .session_id, .msg_id, .role, .content,
           ts: [m.ts.epochMillis, m.ts.offsetSeconds]} AS message,
       n {.message_id, .event_id, .session_id, .msg_id, .role, .content,
           ts: [n.ts.epochMillis, n.ts.offsetSeconds]} AS next,
       e {.event_id, .session_id, .raw_span_start, .raw_span_end,
           start_time: [e.start_time.epochMillis, e.start_time.offsetSeconds],
           end_time: [e.end_time.epochMillis, e.end_time.offsetSeconds]}
         AS episode
