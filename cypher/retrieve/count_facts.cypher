// How many current, still valid facts a user has — decides exact scan vs vector index.
// Parameters: $user_id, $now (DATETIME), $statuses (LIST<STRING>, e.g. ['current']).
MATCH (f:Fact {user_id: $user_id})
WHERE f.status IN $statuses AND (f.valid_until IS NULL OR f.valid_until > $now
                                 OR f.status <> 'current')
RETURN count(f) AS n
