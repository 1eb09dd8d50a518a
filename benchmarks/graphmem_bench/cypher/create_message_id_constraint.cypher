// Benchmark baselines (LoCoMo): one BenchMessage node per message, unique by bench_id,
// so storing messages is an idempotent MERGE. Run before the indexes below.
// Parameters: none.
CREATE CONSTRAINT bench_message_id_unique IF NOT EXISTS
FOR (m:BenchMessage) REQUIRE m.bench_id IS UNIQUE
