// When each of these users was last forgotten (users never forgotten are left out). Every
// write that creates a user's data reads it after store/lock_users, so a writer holding
// data of the user from before that moment finds out (graphmem.store.tombstones).
// Parameters: $users — list of maps {user_id, key} (key: graphmem.store.ids.forget_key).
UNWIND $users AS u
MATCH (t:Tombstone {key: u.key})
RETURN u.user_id AS user_id, t.forgotten_at AS forgotten_at
