// Benchmark baselines (LoCoMo): store a batch of messages idempotently (MERGE on bench_id).
// A message already stored with the same text is left untouched, so a rerun does not
// re-index it (Lucene counts a re-indexed document's old copy until its segment merges,
// which moved the bm25 baseline's scores between runs on the same stores).
// Returns which messages still need an embedding: new ones, those never embedded, and
// those whose text changed since they were embedded.
// Parameters: $rows (LIST<MAP>: bench_id, user_id, session_id, msg_id, text, ts).
UNWIND $rows AS row
MERGE (m:BenchMessage {bench_id: row.bench_id})
WITH m, row, (m.embedding IS NULL OR m.text IS NULL OR m.text <> row.text) AS stale,
     (m.text IS NULL OR m.text <> row.text OR m.ts IS NULL OR m.ts <> row.ts) AS changed
FOREACH (_ IN CASE WHEN changed THEN [1] ELSE [] END |
  SET m.user_id = row.user_id,
      m.session_id = row.session_id,
      m.msg_id = row.msg_id,
      m.text = row.text,
      m.ts = row.ts)
RETURN m.bench_id AS bench_id, stale
