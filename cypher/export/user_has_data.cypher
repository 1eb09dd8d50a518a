// Import guard: does the database hold any node of this user (through each label's
// user_id index)? An import goes only into a database where the user has nothing.
// Parameters: $user_id.
CALL () {
  MATCH (n:User {user_id: $user_id}) RETURN n LIMIT 1
  UNION
  MATCH (n:Session {user_id: $user_id}) RETURN n LIMIT 1
  UNION
  MATCH (n:Episode {user_id: $user_id}) RETURN n LIMIT 1
  UNION
  MATCH (n:Message {user_id: $user_id}) RETURN n LIMIT 1
  UNION
  MATCH (n:Fact {user_id: $user_id}) RETURN n LIMIT 1
  UNION
  MATCH (n:Entity {user_id: $user_id}) RETURN n LIMIT 1
}
RETURN count(n) > 0 AS has_data
