// Creates or updates a user's entities, their display names (a relative or pet named later
// is shown by its name) and their aliases (the persisted alias table).
// Parameters: $entities — list of maps {entity_id, user_id, key, name, kind, aliases}.
UNWIND $entities AS ent
MERGE (n:Entity {entity_id: ent.entity_id})
  ON CREATE SET n.user_id = ent.user_id, n.key = ent.key, n.name = ent.name, n.kind = ent.kind,
                n.aliases = []
SET n.name = ent.name,
    n.aliases = reduce(acc = n.aliases, a IN ent.aliases |
                       CASE WHEN a IN acc THEN acc ELSE acc + a END)
RETURN count(n) AS entities
