// Import: episodes with their exported properties, embedding (a vector property, as the
// writer stores it) and Message nodes, under their session.
// Parameters: $episodes — list of maps {props, embedding, session, messages: [props]}.
UNWIND $episodes AS ep
MERGE (e:Episode {event_id: ep.props.event_id})
SET e = ep.props
WITH e, ep
CALL (e, ep) {
  WITH e, ep WHERE ep.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(e, 'embedding', ep.embedding)
}
CALL (e, ep) {
  WITH e, ep WHERE ep.session IS NOT NULL
  MATCH (s:Session {user_id: e.user_id, session_id: ep.session})
  MERGE (s)-[:HAS_EPISODE]->(e)
}
CALL (e, ep) {
  UNWIND ep.messages AS props
  MERGE (m:Message {message_id: props.message_id})
  SET m = props
  MERGE (e)-[:HAS_MESSAGE]->(m)
}
RETURN count(e) AS episodes
