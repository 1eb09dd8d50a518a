// Re-embedding (graphmem reembed): stores new episode embeddings (indexed by the
// episode_embedding vector index).
// Parameters: $rows — list of maps {event_id, embedding}.
UNWIND $rows AS row
MATCH (e:Episode {event_id: row.event_id})
CALL db.create.setNodeVectorProperty(e, 'embedding', row.embedding)
RETURN count(e) AS embedded
