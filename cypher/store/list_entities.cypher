// A user's entities with their aliases (loads the alias table).
// Parameters: $user_id.
MATCH (n:Entity {user_id: $user_id})
RETURN n.key AS key, n.name AS name, n.kind AS kind, n.aliases AS aliases
