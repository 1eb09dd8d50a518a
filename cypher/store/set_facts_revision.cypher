// Records that a user's facts or entities changed (a new random revision), so another
// process holding the user's alias table in memory knows to reload it.
// Parameters: $user_id, $rev.
MATCH (u:User {user_id: $user_id})
SET u.facts_rev = $rev
RETURN u.facts_rev AS facts_rev
