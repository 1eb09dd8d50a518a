// Time channel ∩ vector channel inside the vector index (Neo4j 2026.x, Cypher 25 SEARCH):
// the $k nearest of the user's episodes overlapping [since, until), found by one index
// operator that filters on the properties episode_embedding holds (user_id, start_time,
// end_time). It is asked for $candidates ≥ $k (a wider search inside the filter: recall
// 0.98 → 0.999 on large users, docs/vector-search.md) and the $k best are kept.
// Parameters: $vector (LIST<FLOAT>), $user_id, $since, $until, $candidates, $k.
CYPHER 25
MATCH (e:Episode)
  SEARCH e IN (
    VECTOR INDEX episode_embedding
    FOR $vector
    WHERE e.user_id = $user_id AND e.start_time < $until AND e.end_time >= $since
    LIMIT $candidates
  ) SCORE AS score
RETURN e.event_id AS id, score
ORDER BY score DESC, id
LIMIT $k
