// Users with episodes not yet distilled into facts, and how many (per user, or everyone).
// Parameters: $user_id (null = every user).
MATCH (e:Episode)
WHERE e.consolidated_at IS NULL AND e.start_time IS NOT NULL
  AND ($user_id IS NULL OR e.user_id = $user_id)
RETURN e.user_id AS user_id, count(e) AS episodes
ORDER BY user_id
