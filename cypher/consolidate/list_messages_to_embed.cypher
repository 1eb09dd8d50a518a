// Episodes whose messages are not embedded yet (messages_pending), up to $limit, each with
// its messages (fillers too: the caller leaves them out); one user's only when $user_id is
// set.
// Parameters: $limit (INTEGER), $user_id (STRING or null: every user).
MATCH (e:Episode {messages_pending: true})
WHERE $user_id IS NULL OR e.user_id = $user_id
WITH e LIMIT $limit
MATCH (e)-[:HAS_MESSAGE]->(m:Message)
WITH e, m ORDER BY m.msg_id
RETURN e.event_id AS event_id, e.user_id AS user_id,
       collect({message_id: m.message_id, role: m.role, content: m.content}) AS messages
