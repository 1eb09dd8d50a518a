// The newest consolidation worker run and its counts (for `graphmem stats`).
// Parameters: none.
MATCH (r:WorkerRun)
RETURN r {.*} AS run
ORDER BY r.finished_at DESC
LIMIT 1
