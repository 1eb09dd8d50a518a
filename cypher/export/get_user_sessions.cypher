// Export: a user's User node and Session nodes, every property (embeddings have none).
// Parameters: $user_id.
MATCH (u:User {user_id: $user_id})
OPTIONAL MATCH (u)-[:HAS_SESSION]->(s:Session)
RETURN properties(u) AS user, collect(properties(s)) AS sessions
