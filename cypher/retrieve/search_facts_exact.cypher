// Semantic channel, exact: cosine over only this user's facts true at $now (or all versions).
// Parameters: $user_id, $now, $all_versions, $vector (LIST<FLOAT>), $k.
MATCH (f:Fact {user_id: $user_id})
WHERE ($all_versions OR (f.valid_from <= $now AND (f.valid_until IS NULL OR f.valid_until > $now)))
  AND f.embedding IS NOT NULL
WITH f, vector.similarity.cosine(f.embedding, $vector) AS score
ORDER BY score DESC, f.fact_id
LIMIT $k
RETURN f.fact_id AS id, score
