// Gives back a run's claims on episodes it could not distill (their extraction failed), so
// that the next run retries them at once instead of after the lease.
// Parameters: $event_ids (LIST<STRING>), $token (the claiming run).
MATCH (e:Episode)
WHERE e.event_id IN $event_ids AND e.claimed_by = $token AND e.consolidated_at IS NULL
SET e.claimed_by = null, e.claimed_until = null
RETURN count(e) AS released
