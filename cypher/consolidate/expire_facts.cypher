// Facts whose validity period has passed become 'expired'; their typed edge goes away.
// Parameters: $now (DATETIME), $user_id (null = every user).
MATCH (f:Fact {status: 'current'})
WHERE f.valid_until IS NOT NULL AND f.valid_until <= $now
  AND ($user_id IS NULL OR f.user_id = $user_id)
SET f.status = 'expired'
WITH f
OPTIONAL MATCH (:Entity {entity_id: f.entity_id})-[r {fact_id: f.fact_id}]->()
DELETE r
RETURN count(f) AS expired
