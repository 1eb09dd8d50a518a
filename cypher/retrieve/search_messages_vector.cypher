// Nearest messages through the native vector index (Neo4j 5.26): the $candidates nearest
// messages of everyone, kept if they are the user's and said in [since, until). The caller
// grows $candidates until $k survive (or a cap).
// Parameters: $vector, $candidates, $user_id, $since, $until, $k.
CALL db.index.vector.queryNodes('message_embedding', $candidates, $vector)
YIELD node AS m, score
WHERE m.user_id = $user_id AND m.ts >= $since AND m.ts < $until
RETURN m.message_id AS id, score
ORDER BY score DESC, id
LIMIT $k
