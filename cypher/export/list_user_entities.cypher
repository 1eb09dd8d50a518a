// Export: a user's entities (aliases included), whether each is also a :Value, its
// MAYBE_SAME_AS pairs for review and the typed edges of current facts that leave it.
// Parameters: $user_id.
MATCH (n:Entity {user_id: $user_id})
CALL (n) {
  OPTIONAL MATCH (n)-[r:MAYBE_SAME_AS]->(o:Entity)
  RETURN collect(CASE WHEN o IS NULL THEN null
                      ELSE {other_id: o.entity_id, props: properties(r)} END) AS maybe_same
}
CALL (n) {
  OPTIONAL MATCH (n)-[r]->(v:Entity)
  WHERE r.fact_id IS NOT NULL
  RETURN collect(CASE WHEN v IS NULL THEN null
                      ELSE {rel_type: type(r), value_id: v.entity_id, props: properties(r)}
                 END) AS edges
}
RETURN properties(n) AS props, n:Value AS is_value, maybe_same, edges
ORDER BY n.entity_id
