// Re-embedding (graphmem reembed): every episode's messages wait to be embedded again
// (consolidation's nearest-messages vectors, made with the new embedder).
// Parameters: none.
MATCH (e:Episode)
SET e.messages_pending = true
RETURN count(e) AS episodes
