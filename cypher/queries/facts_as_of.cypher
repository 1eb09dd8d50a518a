// Time travel: the facts that were true for a user at $at — each version valid from
// valid_from until valid_until (when it was superseded or expired), whatever its status
// today — with the episodes it came from.
// Parameters: $user_id (STRING), $at (DATETIME).
MATCH (f:Fact {user_id: $user_id})
WHERE f.valid_from <= $at AND (f.valid_until IS NULL OR f.valid_until > $at)
CALL (f) {
  OPTIONAL MATCH (f)-[:DERIVED_FROM]->(e:Episode)
  WITH e ORDER BY e.start_time
  RETURN collect(e.event_id) AS episodes
}
RETURN f.entity AS entity, f.predicate AS predicate,
       CASE WHEN f.negated THEN 'NOT ' ELSE '' END + f.value AS value,
       f.confidence AS confidence, f.valid_from AS valid_from, f.valid_until AS valid_until,
       f.status AS status_today, f.fact_id AS fact_id, episodes
ORDER BY entity, predicate, valid_from DESC
