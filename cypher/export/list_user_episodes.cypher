// Export: a user's episodes, each with every property but the embedding (returned on its
// own), its session, the next episode in time ([:NEXT]) and its Message nodes in order.
// Parameters: $user_id.
MATCH (e:Episode {user_id: $user_id})
OPTIONAL MATCH (s:Session)-[:HAS_EPISODE]->(e)
OPTIONAL MATCH (e)-[:NEXT]->(nxt:Episode)
CALL (e) {
  OPTIONAL MATCH (e)-[:HAS_MESSAGE]->(m:Message)
  WITH m ORDER BY m.msg_id
  RETURN collect(properties(m)) AS messages
}
RETURN e {.*, embedding: null} AS props, e.embedding AS embedding, s.session_id AS session,
       nxt.event_id AS next, messages
ORDER BY e.start_time, e.event_id
