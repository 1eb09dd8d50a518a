// Import: entities with their exported properties (aliases included); a value entity
// gets the :Value label back.
// Parameters: $entities — list of maps {props, is_value}.
UNWIND $entities AS ent
MERGE (n:Entity {entity_id: ent.props.entity_id})
SET n = ent.props
WITH n, ent
CALL (n, ent) {
  WITH n, ent WHERE ent.is_value
  SET n:Value
}
RETURN count(n) AS entities
