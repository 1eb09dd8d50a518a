// Semantic channel through the native vector index, oversampled then filtered to the user's
// facts true at $now (or all versions).
// Parameters: $vector, $candidates, $user_id, $now, $all_versions, $k.
CALL db.index.vector.queryNodes('fact_embedding', $candidates, $vector)
YIELD node AS f, score
WHERE f.user_id = $user_id
  AND ($all_versions OR (f.valid_from <= $now AND (f.valid_until IS NULL OR f.valid_until > $now)))
RETURN f.fact_id AS id, score
ORDER BY score DESC, id
LIMIT $k
