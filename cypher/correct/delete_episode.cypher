// Deleting an episode, step 2 (after correct/remove_episode_evidence): its Message nodes and
// the Episode node go; the user's [:NEXT] chain is closed over the gap, and the session goes
// too when no episode is left in it. Returns what went (no row: no such episode of the user).
// Parameters: $user_id (STRING), $event_id (STRING).
MATCH (e:Episode {event_id: $event_id, user_id: $user_id})
OPTIONAL MATCH (before:Episode)-[:NEXT]->(e)
OPTIONAL MATCH (e)-[:NEXT]->(after:Episode)
CALL (before, after) {
  WITH before, after WHERE before IS NOT NULL AND after IS NOT NULL
  MERGE (before)-[:NEXT]->(after)
}
WITH e, e.session_id AS session_id, e.raw_span_start AS first, e.raw_span_end AS last
OPTIONAL MATCH (e)-[:HAS_MESSAGE]->(m:Message)
WITH e, session_id, first, last, collect(m) AS messages
CALL (messages) {
  UNWIND messages AS m
  DETACH DELETE m
}
DETACH DELETE e
WITH session_id, first, last, size(messages) AS deleted
CALL (session_id) {
  MATCH (s:Session {user_id: $user_id, session_id: session_id})
  WHERE NOT (s)-[:HAS_EPISODE]->()
  DETACH DELETE s
}
RETURN session_id, first, last, deleted
