// Backfills `tenant` (graphmem.store.ids.tenant_key, computed by graphmem) on a user's
// Episode, Fact and Message nodes that lack it. Run after store/lock_users.
// Parameters: $users — list of maps {user_id, tenant}.
UNWIND $users AS u
CALL (u) {
  MATCH (n:Episode {user_id: u.user_id}) WHERE n.tenant IS NULL SET n.tenant = u.tenant
  RETURN count(n) AS episodes
}
CALL (u) {
  MATCH (n:Fact {user_id: u.user_id}) WHERE n.tenant IS NULL SET n.tenant = u.tenant
  RETURN count(n) AS facts
}
CALL (u) {
  MATCH (n:Message {user_id: u.user_id}) WHERE n.tenant IS NULL SET n.tenant = u.tenant
  RETURN count(n) AS messages
}
RETURN sum(episodes + facts + messages) AS updated
