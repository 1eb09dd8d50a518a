// Claims up to $limit of a user's episodes not yet distilled, oldest first, each with its raw
// messages in order (extraction reads what was said, not the truncated actions). Run after
// store/lock_users in the same transaction, so two consolidations never claim one episode;
// a claim is a lease of $lease_s seconds (server time), so a crashed claimer frees its
// episodes by itself.
// Message times come as ISO 8601 text (exact, and much cheaper for the driver to read than
// datetimes).
// Parameters: $user_id, $token (the claiming run), $lease_s, $limit.
MATCH (e:Episode {user_id: $user_id})
WHERE e.consolidated_at IS NULL AND e.start_time IS NOT NULL AND e.raw_span_start IS NOT NULL
  AND (e.claimed_until IS NULL OR e.claimed_until < datetime())
WITH e ORDER BY e.start_time, e.event_id LIMIT $limit
SET e.claimed_by = $token,
    e.claimed_until = datetime() + duration({seconds: $lease_s})
WITH e
CALL (e) {
  OPTIONAL MATCH (e)-[:HAS_MESSAGE]->(m:Message)
  WITH m ORDER BY m.msg_id
  RETURN collect(m {.msg_id, .role, .content, ts: toString(m.ts)}) AS messages
}
RETURN e {.event_id, .user_id, .session_id, .start_time, .end_time, .goal, .result, .actions,
          .action_times, .raw_span_start, .raw_span_end, .participants, .semantics_refs} AS episode,
       messages
ORDER BY e.start_time, e.event_id
