// Nearest messages, exact: cosine over only the user's embedded messages said in
// [since, until). Used when they are few (by count, Neo4j 5.26).
// Parameters: $user_id, $since, $until, $vector (LIST<FLOAT>), $k.
MATCH (m:Message {user_id: $user_id})
WHERE m.ts >= $since AND m.ts < $until AND m.embedding IS NOT NULL
WITH m, vector.similarity.cosine(m.embedding, $vector) AS score
ORDER BY score DESC, m.message_id
LIMIT $k
RETURN m.message_id AS id, score
