// Stores one consolidation worker run's counts (shown by `graphmem stats`) and keeps only
// the newest $keep runs.
// Parameters: $run (map: run_id, owner, started_at, finished_at, duration_s, users,
//   users_leased_elsewhere, episodes, created, verified, superseded, expired, deleted,
//   induced, errors), $keep (INTEGER).
CREATE (r:WorkerRun)
SET r = $run
WITH r
CALL () {
  MATCH (old:WorkerRun)
  WITH old ORDER BY old.finished_at DESC SKIP $keep
  DELETE old
}
RETURN r.run_id AS run_id
