// Ends a worker's lease on one user — only if this owner still holds it (a lease taken
// over after it ran out is not released by its former holder).
// Parameters: $user_id, $owner.
MATCH (l:Lease {user_id: $user_id, owner: $owner})
SET l.owner = null, l.expires_at = null, l.released_at = datetime()
RETURN count(l) AS released
