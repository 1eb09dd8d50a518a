// Benchmark baselines (LoCoMo): native vector index over single-message embeddings,
// the "flat" baseline's search channel.
// Parameters: $dimension (the embedder's vector size, e.g. 384).
CREATE VECTOR INDEX bench_message_embedding IF NOT EXISTS
FOR (m:BenchMessage) ON m.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
