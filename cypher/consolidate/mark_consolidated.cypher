// Marks episodes as distilled (and ends their claim) — only those not marked yet, and
// returns which: run after store/lock_users in the transaction that stores the episode's
// facts, an episode another consolidation already distilled comes back unmarked and its
// facts are not stored twice.
// Parameters: $event_ids (LIST<STRING>), $at (DATETIME).
MATCH (e:Episode)
WHERE e.event_id IN $event_ids AND e.consolidated_at IS NULL
SET e.consolidated_at = $at, e.claimed_by = null, e.claimed_until = null
RETURN collect(e.event_id) AS marked
