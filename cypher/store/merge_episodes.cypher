// Stores closed episodes, idempotently (MERGE on event_id), with their user and session.
// Parameters: $episodes — list of maps {event_id, user_id, session_id, start_time, end_time,
//   goal, result, actions, actions_text, action_times, raw_span_start, raw_span_end, participants, embedding}.
UNWIND $episodes AS ep
MERGE (u:User {user_id: ep.user_id})
MERGE (s:Session {session_id: ep.session_id})
  ON CREATE SET s.user_id = ep.user_id, s.started_at = ep.start_time
MERGE (u)-[:HAS_SESSION]->(s)
MERGE (e:Episode {event_id: ep.event_id})
SET e.user_id = ep.user_id,
    e.session_id = ep.session_id,
    e.start_time = ep.start_time,
    e.end_time = ep.end_time,
    e.goal = ep.goal,
    e.result = ep.result,
    e.actions = ep.actions,
    e.actions_text = ep.actions_text,
    e.action_times = ep.action_times,
    e.raw_span_start = ep.raw_span_start,
    e.raw_span_end = ep.raw_span_end,
    e.participants = ep.participants,
    e.semantics_refs = coalesce(e.semantics_refs, [])
MERGE (s)-[:HAS_EPISODE]->(e)
WITH e, ep
CALL db.create.setNodeVectorProperty(e, 'embedding', ep.embedding)
RETURN count(e) AS stored
