// Semantic channel, exact: cosine over only this user's facts in the wanted statuses.
// Parameters: $user_id, $now, $statuses, $vector (LIST<FLOAT>), $k.
MATCH (f:Fact {user_id: $user_id})
WHERE f.status IN $statuses AND (f.valid_until IS NULL OR f.valid_until > $now
                                 OR f.status <> 'current')
  AND f.embedding IS NOT NULL
WITH f, vector.similarity.cosine(f.embedding, $vector) AS score
ORDER BY score DESC
LIMIT $k
RETURN f.fact_id AS id, score
