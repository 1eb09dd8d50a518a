// Keyword channel: full-text (cjk analyzer) over goal/result/actions, the user's window only.
// Parameters: $query (Lucene query string, escaped), $user_id, $since, $until, $k.
CALL db.index.fulltext.queryNodes('episode_text', $query, {limit: $k * 20})
YIELD node AS e, score
WHERE e.user_id = $user_id AND e.start_time < $until AND e.end_time >= $since
RETURN e.event_id AS id, score
ORDER BY score DESC
LIMIT $k
