// Time channel ∩ vector channel through the native vector index: the $candidates nearest
// episodes of everyone, kept if they are the user's and inside [since, until).
// The caller grows $candidates until $k survive (or a cap). Parameters: $vector, $candidates,
// $user_id, $since, $until, $k.
CALL db.index.vector.queryNodes('episode_embedding', $candidates, $vector)
YIELD node AS e, score
WHERE e.user_id = $user_id AND e.start_time < $until AND e.end_time >= $since
RETURN e.event_id AS id, score
ORDER BY score DESC, id
LIMIT $k
