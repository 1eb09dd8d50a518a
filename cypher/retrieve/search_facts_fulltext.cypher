// Keyword channel over fact sentences and values (cjk analyzer): this user's facts true at
// $now (or all versions).
// Parameters: $query (escaped Lucene query), $user_id, $now, $all_versions, $k.
CALL db.index.fulltext.queryNodes('fact_text', $query, {limit: $k * 20})
YIELD node AS f, score
WHERE f.user_id = $user_id
  AND ($all_versions OR (f.valid_from <= $now AND (f.valid_until IS NULL OR f.valid_until > $now)))
RETURN f.fact_id AS id, score
ORDER BY score DESC
LIMIT $k
