// Fact keyword channel over sentences and values (cjk analyzer). $query requires the
// user's tenant key, so only this user's facts come back; those true at $now (or all
// versions) are kept.
// Parameters: $query (Lucene, escaped, with the tenant clause), $user_id, $now,
// $all_versions, $k.
CALL db.index.fulltext.queryNodes('fact_fulltext', $query, {limit: $k * 20})
YIELD node AS f, score
WHERE f.user_id = $user_id
  AND ($all_versions OR (f.valid_from <= $now AND (f.valid_until IS NULL OR f.valid_until > $now)))
RETURN f.fact_id AS id, score
ORDER BY score DESC, id
LIMIT $k
