// Retention (the article's "只存不删" pitfall): deletes fact versions that stopped being
// true (superseded, expired or retracted) before $before, with their edges; current versions stay.
// Each user's node is locked first, users in sorted order (as store/lock_users).
// Parameters: $before (DATETIME), $user_id (null = every user).
MATCH (f:Fact)
WHERE f.status IN ['superseded', 'expired', 'retracted'] AND f.valid_until < $before
  AND ($user_id IS NULL OR f.user_id = $user_id)
WITH DISTINCT f.user_id AS user_id
ORDER BY user_id
MATCH (u:User {user_id: user_id})
SET u.written_at = datetime()
WITH user_id
MATCH (f:Fact {user_id: user_id})
WHERE f.status IN ['superseded', 'expired', 'retracted'] AND f.valid_until < $before
WITH f, f.fact_id AS fact_id
OPTIONAL MATCH (e:Episode)
WHERE e.event_id IN f.source_episodes
SET e.semantics_refs = [ref IN coalesce(e.semantics_refs, []) WHERE ref <> fact_id]
WITH DISTINCT f
DETACH DELETE f
RETURN count(*) AS deleted
