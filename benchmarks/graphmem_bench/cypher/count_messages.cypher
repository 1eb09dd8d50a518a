// Benchmark baselines (LoCoMo): how many BenchMessage nodes exist in all (every user),
// to size the oversampling of index queries that are filtered to one user afterwards.
// Parameters: none.
MATCH (m:BenchMessage)
RETURN count(m) AS n
