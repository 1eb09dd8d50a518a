// Nearest messages inside the vector index (Neo4j 2026.x, Cypher 25 SEARCH): the $k nearest
// of the user's messages said in [since, until), found by one index operator that filters
// on the properties message_embedding holds (user_id, ts), asked for $candidates ≥ $k.
// Parameters: $vector (LIST<FLOAT>), $user_id, $since, $until, $candidates, $k.
CYPHER 25
MATCH (m:Message)
  SEARCH m IN (
    VECTOR INDEX message_embedding
    FOR $vector
    WHERE m.user_id = $user_id AND m.ts >= $since AND m.ts < $until
    LIMIT $candidates
  ) SCORE AS score
RETURN m.message_id AS id, score
ORDER BY score DESC, id
LIMIT $k
