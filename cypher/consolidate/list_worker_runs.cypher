// The newest consolidation worker runs and their counts, newest first (`graphmem stats`:
// an empty run does not hide the one before it that did the work).
// Parameters: $limit (INTEGER).
MATCH (r:WorkerRun)
RETURN r {.*} AS run
ORDER BY r.finished_at DESC
LIMIT $limit
