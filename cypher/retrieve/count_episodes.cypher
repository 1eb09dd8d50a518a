// How many of a user's episodes overlap [since, until) — decides exact scan vs vector index.
// Parameters: $user_id, $since, $until (DATETIME).
MATCH (e:Episode {user_id: $user_id})
WHERE e.start_time < $until AND e.end_time >= $since
RETURN count(e) AS n
