// Stores fact sentence embeddings (indexed by the fact_embedding vector index).
// Parameters: $rows — list of maps {fact_id, embedding}.
UNWIND $rows AS row
MATCH (f:Fact {fact_id: row.fact_id})
CALL db.create.setNodeVectorProperty(f, 'embedding', row.embedding)
RETURN count(f) AS embedded
