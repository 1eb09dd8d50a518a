// Import: a user's User node and Session nodes with their exported properties.
// Parameters: $user (map of User properties), $sessions (list of Session property maps).
MERGE (u:User {user_id: $user.user_id})
SET u = $user
WITH u
UNWIND $sessions AS props
MERGE (s:Session {user_id: props.user_id, session_id: props.session_id})
SET s = props
MERGE (u)-[:HAS_SESSION]->(s)
RETURN count(s) AS sessions
