// Sets the lowercased words of a user's speakers' names on the User node (kept current by
// store/merge_episodes; set here for users written before). Run after store/lock_users.
// Parameters: $users — list of maps {user_id, speakers}.
UNWIND $users AS row
MATCH (u:User {user_id: row.user_id})
SET u.speakers = row.speakers
RETURN count(u) AS updated
