// Forget a user, first step: the user's tombstone, so every writer refuses what it holds of
// the user from before this moment (graphmem.store.tombstones). $key is a one-way hash of
// the user id (graphmem.store.ids.forget_key): the tombstone keeps nothing of the user but
// when they were forgotten. Run after store/lock_users, before store/delete_user_nodes.
// Parameters: $key.
MERGE (t:Tombstone {key: $key})
SET t.forgotten_at = datetime.realtime()
RETURN t.forgotten_at AS forgotten_at
