// Users whose User node lacks `speakers` (written before graphmem kept the words of its
// speakers' names there), with the names their messages carry ("Caroline: …"), to
// backfill it (graphmem.store.migrate).
// Parameters: $limit.
MATCH (u:User) WHERE u.speakers IS NULL
WITH u ORDER BY u.user_id LIMIT $limit
OPTIONAL MATCH (m:Message {user_id: u.user_id}) WHERE m.speaker <> m.role
RETURN u.user_id AS user_id, collect(DISTINCT m.speaker) AS names
