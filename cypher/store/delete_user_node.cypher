// Forget a user, last step: the User node itself (after store/delete_user_nodes returned 0;
// it is what writers lock, so it goes last, in a transaction that locked it).
// Parameters: $user_id.
MATCH (u:User {user_id: $user_id})
DETACH DELETE u
RETURN count(*) AS n
