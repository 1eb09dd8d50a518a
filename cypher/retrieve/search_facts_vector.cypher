// Semantic channel through the native vector index, oversampled then filtered to the user.
// Parameters: $vector, $candidates, $user_id, $now, $statuses, $k.
CALL db.index.vector.queryNodes('fact_embedding', $candidates, $vector)
YIELD node AS f, score
WHERE f.user_id = $user_id AND f.status IN $statuses
  AND (f.valid_until IS NULL OR f.valid_until > $now OR f.status <> 'current')
RETURN f.fact_id AS id, score
ORDER BY score DESC
LIMIT $k
