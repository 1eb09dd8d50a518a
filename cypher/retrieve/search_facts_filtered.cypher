// Semantic channel inside the vector index (Neo4j 2026.x, Cypher 25 SEARCH): the
// $candidates facts of the user nearest $vector that began at or before $valid_from_max
// ($now, or the latest instant for all versions) — one index operator filtering on
// fact_embedding's own properties (user_id, valid_from) — each flagged whether it is still
// true at $now. An open validity end is null, which an in-index filter cannot test, so the
// caller keeps the true ones and widens $candidates when fewer than it needs survive.
// Parameters: $vector (LIST<FLOAT>), $user_id, $valid_from_max, $now, $candidates.
CYPHER 25
MATCH (f:Fact)
  SEARCH f IN (
    VECTOR INDEX fact_embedding
    FOR $vector
    WHERE f.user_id = $user_id AND f.valid_from <= $valid_from_max
    LIMIT $candidates
  ) SCORE AS score
RETURN f.fact_id AS id, score, f.valid_until IS NULL OR f.valid_until > $now AS true_now
ORDER BY score DESC, id
