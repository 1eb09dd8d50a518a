// Time channel ∩ vector channel, exact: cosine over only the user's episodes in the window.
// Used when the window holds few episodes (by count). Parameters: $user_id, $since, $until,
// $vector (LIST<FLOAT>), $k.
MATCH (e:Episode {user_id: $user_id})
WHERE e.start_time < $until AND e.end_time >= $since AND e.embedding IS NOT NULL
WITH e, vector.similarity.cosine(e.embedding, $vector) AS score
ORDER BY score DESC, e.event_id
LIMIT $k
RETURN e.event_id AS id, score
