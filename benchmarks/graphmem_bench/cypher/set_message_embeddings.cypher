// Benchmark baselines (LoCoMo): attach embeddings to stored messages, as vector-typed
// properties (db.create.setNodeVectorProperty) so the vector index picks them up.
// Parameters: $rows (LIST<MAP>: bench_id, embedding LIST<FLOAT>).
UNWIND $rows AS row
MATCH (m:BenchMessage {bench_id: row.bench_id})
CALL db.create.setNodeVectorProperty(m, 'embedding', row.embedding)
RETURN count(m) AS n
