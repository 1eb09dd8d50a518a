// Episode keyword channel: full-text (cjk analyzer) over goal/result/actions. $query
// requires the user's tenant key, so only this user's episodes come back; the time window
// is applied after.
// Parameters: $query (Lucene, escaped, with the tenant clause), $user_id, $since, $until, $k.
CALL db.index.fulltext.queryNodes('episode_fulltext', $query, {limit: $k * 20})
YIELD node AS e, score
WHERE e.user_id = $user_id AND e.start_time < $until AND e.end_time >= $since
RETURN e.event_id AS id, score
ORDER BY score DESC, id
LIMIT $k
