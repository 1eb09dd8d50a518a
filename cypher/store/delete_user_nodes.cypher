// Forget a user: deletes up to $batch of the user's nodes (messages, episodes, fact
// versions, entities, sessions, a consolidation worker's lease) with their relationships. Run until it returns 0, then
// store/delete_user_node (the User node is what each batch locks first). Every node graphmem stores for a user carries its user_id (each label's
// user_id index finds them).
// Parameters: $user_id, $batch.
CALL () {
  MATCH (n:Message {user_id: $user_id}) RETURN n LIMIT $batch
  UNION
  MATCH (n:Episode {user_id: $user_id}) RETURN n LIMIT $batch
  UNION
  MATCH (n:Fact {user_id: $user_id}) RETURN n LIMIT $batch
  UNION
  MATCH (n:Entity {user_id: $user_id}) RETURN n LIMIT $batch
  UNION
  MATCH (n:Session {user_id: $user_id}) RETURN n LIMIT $batch
  UNION
  MATCH (n:Lease {user_id: $user_id}) RETURN n LIMIT $batch
}
WITH n LIMIT $batch
DETACH DELETE n
RETURN count(*) AS n
