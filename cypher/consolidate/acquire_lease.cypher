// A worker's lease on one user (graphmem worker): taken if nobody holds it, if this owner
// already does (renewal), or if the holder's lease ran out (a crashed worker's lease frees
// itself). One statement: the MERGE on the unique Lease.user_id, then a write to the node,
// takes its lock before the holder is read, so two workers never both get it. Server time.
// Only for a user who is there: a user forgotten meanwhile gets no lease back (no row).
// Parameters: $user_id, $owner (the worker's id), $lease_s (seconds the lease lasts).
MATCH (:User {user_id: $user_id})
MERGE (l:Lease {user_id: $user_id})
SET l.touched_at = datetime()
WITH l, l.owner AS holder,
     (l.owner IS NULL OR l.owner = $owner OR l.expires_at <= datetime()) AS free
SET l.owner = CASE WHEN free THEN $owner ELSE holder END,
    l.expires_at = CASE WHEN free THEN datetime() + duration({seconds: $lease_s})
                        ELSE l.expires_at END,
    l.takeovers = CASE WHEN free AND holder IS NOT NULL AND holder <> $owner
                       THEN coalesce(l.takeovers, 0) + 1 ELSE coalesce(l.takeovers, 0) END
RETURN free AS acquired, l.owner AS owner, l.expires_at AS expires_at,
       CASE WHEN free AND holder IS NOT NULL AND holder <> $owner THEN holder END AS took_over_from
