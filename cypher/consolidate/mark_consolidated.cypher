// Marks episodes as distilled, so consolidation never reads them twice.
// Parameters: $event_ids (LIST<STRING>), $at (DATETIME).
MATCH (e:Episode)
WHERE e.event_id IN $event_ids
SET e.consolidated_at = $at
RETURN count(e) AS marked
