// Facts whose validity period has passed become 'expired'; their typed edge goes away.
// Each user's node is locked first, users in sorted order (as store/lock_users), and the
// facts are matched again under the lock.
// Parameters: $now (DATETIME), $user_id (null = every user).
MATCH (f:Fact {status: 'current'})
WHERE f.valid_until IS NOT NULL AND f.valid_until <= $now
  AND ($user_id IS NULL OR f.user_id = $user_id)
WITH DISTINCT f.user_id AS user_id
ORDER BY user_id
MATCH (u:User {user_id: user_id})
SET u.written_at = datetime()
WITH user_id
MATCH (f:Fact {user_id: user_id, status: 'current'})
WHERE f.valid_until IS NOT NULL AND f.valid_until <= $now
SET f.status = 'expired'
WITH f
OPTIONAL MATCH (:Entity {entity_id: f.entity_id})-[r {fact_id: f.fact_id}]->()
DELETE r
RETURN count(DISTINCT f) AS expired
