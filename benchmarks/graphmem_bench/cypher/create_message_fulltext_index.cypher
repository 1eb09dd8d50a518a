// Benchmark baselines (LoCoMo): Lucene full-text index (BM25 scoring) over single-message
// text, the "bm25" baseline's search channel. No stop words are dropped by the analyzer;
// the caller leaves function words out of its query instead.
// Parameters: none.
CREATE FULLTEXT INDEX bench_message_text IF NOT EXISTS
FOR (m:BenchMessage) ON EACH [m.text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words'}}
