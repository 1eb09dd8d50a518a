// Stores message embeddings (indexed by the message_embedding vector index) and marks
// their episodes done: messages_pending goes, messages_embedded_at records when.
// Parameters: $rows — list of maps {message_id, embedding}; $event_ids (LIST<STRING>).
CALL () {
  UNWIND $rows AS row
  MATCH (m:Message {message_id: row.message_id})
  CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)
  RETURN count(m) AS embedded
}
CALL () {
  UNWIND $event_ids AS event_id
  MATCH (e:Episode {event_id: event_id})
  SET e.messages_pending = null, e.messages_embedded_at = datetime()
  RETURN count(e) AS episodes
}
RETURN embedded, episodes
