// Deleting an episode, step 1: every fact version derived from it loses it as evidence (the
// DERIVED_FROM edge, its id in source_episodes, its messages in source_messages). A current
// version left with no evidence expires at $at — its typed edge goes, and it says why, who
// and when (change 'evidence_deleted'); a version with other evidence stays as it is.
// Parameters: $user_id (STRING), $event_id (STRING), $at (DATETIME), $by (STRING),
//   $reason (STRING).
MATCH (e:Episode {event_id: $event_id, user_id: $user_id})
OPTIONAL MATCH (e)-[:HAS_MESSAGE]->(m:Message)
WITH e, collect(m.message_id) AS said
MATCH (f:Fact)-[d:DERIVED_FROM]->(e)
DELETE d
SET f.source_episodes = [x IN coalesce(f.source_episodes, []) WHERE x <> $event_id],
    f.source_messages = [x IN coalesce(f.source_messages, []) WHERE NOT x IN said]
WITH f, f.status = 'current' AND size(f.source_episodes) = 0 AND NOT (f)-[:DERIVED_FROM]->()
     AS orphaned
CALL (f, orphaned) {
  WITH f WHERE orphaned
  SET f.status = 'expired', f.valid_until = $at, f.change = 'evidence_deleted',
      f.reason = $reason, f.changed_by = $by, f.changed_at = $at
  WITH f
  OPTIONAL MATCH (:Entity {entity_id: f.entity_id})-[edge {fact_id: f.fact_id}]->()
  DELETE edge
}
RETURN f.fact_id AS fact_id, orphaned AS expired
ORDER BY fact_id
