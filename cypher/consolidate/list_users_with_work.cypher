// Users a consolidation worker has something to do for: episodes not yet distilled,
// current facts past their validity, and (with a retention) versions to delete.
// Parameters: $now (DATETIME), $before (DATETIME, or null = no retention).
CALL () {
  MATCH (e:Episode)
  WHERE e.consolidated_at IS NULL AND e.start_time IS NOT NULL
  RETURN DISTINCT e.user_id AS user_id
  UNION
  MATCH (f:Fact {status: 'current'})
  WHERE f.valid_until IS NOT NULL AND f.valid_until <= $now
  RETURN DISTINCT f.user_id AS user_id
  UNION
  MATCH (f:Fact)
  WHERE $before IS NOT NULL AND f.status IN ['superseded', 'expired', 'retracted']
    AND f.valid_until < $before
  RETURN DISTINCT f.user_id AS user_id
}
RETURN user_id
ORDER BY user_id
