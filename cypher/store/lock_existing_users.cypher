// Takes the write lock of each user's node, as store/lock_users does, for a transaction that
// only touches what the users already have (claims, consolidation marks, embeddings): a
// user who is not there (forgotten meanwhile) is not created again. Returns the facts
// revision of those found.
// Parameters: $user_ids (LIST<STRING>, sorted).
UNWIND $user_ids AS user_id
MATCH (u:User {user_id: user_id})
SET u.written_at = datetime()
RETURN u.user_id AS user_id, u.facts_rev AS facts_rev
