// Takes the write lock of each user's node before a transaction touches anything of theirs,
// and returns the user's facts revision (read after the lock, so it is the latest committed).
// Every graphmem write transaction starts here with its users sorted, and every node it then
// writes belongs to one of them: two transactions never wait on each other in a circle (no
// deadlocks), and two consolidations of one user are serialized.
// Parameters: $user_ids (LIST<STRING>, sorted).
UNWIND $user_ids AS user_id
MERGE (u:User {user_id: user_id})
SET u.written_at = datetime()
RETURN u.user_id AS user_id, u.facts_rev AS facts_rev
