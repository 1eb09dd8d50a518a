// Keyword channel over fact sentences and values (cjk analyzer), this user only.
// Parameters: $query (escaped Lucene query), $user_id, $now, $statuses, $k.
CALL db.index.fulltext.queryNodes('fact_text', $query, {limit: $k * 20})
YIELD node AS f, score
WHERE f.user_id = $user_id AND f.status IN $statuses
  AND (f.valid_until IS NULL OR f.valid_until > $now OR f.status <> 'current')
RETURN f.fact_id AS id, score
ORDER BY score DESC
LIMIT $k
