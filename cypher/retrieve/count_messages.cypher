// How many of a user's embedded messages were said in [since, until) — decides exact scan
// vs vector index for the nearest-messages channel (Neo4j 5.26).
// Parameters: $user_id, $since, $until (DATETIME).
MATCH (m:Message {user_id: $user_id})
WHERE m.ts >= $since AND m.ts < $until AND m.embedding IS NOT NULL
RETURN count(m) AS n
