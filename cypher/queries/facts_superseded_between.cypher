// Facts superseded in a period: each version that stopped being true in [$since, $until)
// because a newer version replaced it — old and new value side by side, with the episode
// that brought the change. Versions stored already superseded (older evidence read later)
// count at the moment their successor began.
// Parameters: $since (DATETIME), $until (DATETIME), $user_id (STRING, optional: every user if null).
MATCH (new:Fact)-[:SUPERSEDES]->(old:Fact)
WHERE ($user_id IS NULL OR old.user_id = $user_id)
WITH new, old, coalesce(old.superseded_at, old.valid_until, new.valid_from) AS at
WHERE $since <= at < $until
CALL (new) {
  OPTIONAL MATCH (new)-[:DERIVED_FROM]->(e:Episode)
  WITH e ORDER BY e.start_time DESC
  RETURN collect(e.event_id)[0] AS episode
}
RETURN at AS superseded_at, old.user_id AS user_id, old.entity AS entity,
       old.predicate AS predicate,
       CASE WHEN old.negated THEN 'NOT ' ELSE '' END + old.value AS old_value,
       CASE WHEN new.negated THEN 'NOT ' ELSE '' END + new.value AS new_value,
       old.fact_id AS old_fact_id, new.fact_id AS new_fact_id, episode
ORDER BY superseded_at, user_id, entity, predicate, old_fact_id
