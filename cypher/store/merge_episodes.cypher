// Stores closed episodes with their raw messages, idempotently (MERGE on event_id and
// message_id), under their user and session (a session is keyed by (user_id, session_id)).
// Parameters: $episodes — list of maps {event_id, user_id, tenant, session_id, start_time,
//   end_time, goal, result, actions, actions_text, action_times, raw_span_start,
//   raw_span_end, participants, embedding, anchor, buffer, messages: [{message_id, msg_id,
//   role, speaker, content, text, ts}], speakers} — anchor: a digest of the first message
//   (graphmem.store.ids.episode_anchor); text: the content without a transcript's "Name: "
//   prefix; speakers: the lowercased words of the speakers' names, kept on the User
//   (keyword search weighs them less: retrieve/search_messages_fulltext). Times (start_time,
//   end_time, action_times, ts) come as ISO 8601 text with their UTC offset. buffer: the raw
//   buffer that wrote the episode ("host:/folder", or null), added to the Session's `buffers`
//   (forget_user and export name the buffers they could not reach).
// Returns the messages already stored under the same id with other text (`clashes`): a
// session written through another raw buffer numbers its messages from 1 again — and the
// first message of an episode another buffer began (online facts made it first, with
// another anchor). The caller rolls the transaction back when there is any — nothing is
// overwritten.
UNWIND $episodes AS ep
MERGE (u:User {user_id: ep.user_id})
SET u.speakers = coalesce(u.speakers, [])
      + [w IN ep.speakers WHERE NOT w IN coalesce(u.speakers, [])]
MERGE (s:Session {user_id: ep.user_id, session_id: ep.session_id})
  ON CREATE SET s.started_at = datetime(ep.start_time)
SET s.buffers = CASE WHEN ep.buffer IS NULL OR ep.buffer IN coalesce(s.buffers, [])
                     THEN s.buffers ELSE coalesce(s.buffers, []) + ep.buffer END
MERGE (u)-[:HAS_SESSION]->(s)
MERGE (e:Episode {event_id: ep.event_id})
WITH u, s, e, ep, e.anchor IS NOT NULL AND e.anchor <> ep.anchor AS foreign
SET e.user_id = ep.user_id,
    e.anchor = CASE WHEN foreign THEN e.anchor ELSE ep.anchor END,
    e.tenant = ep.tenant,
    e.session_id = ep.session_id,
    e.start_time = datetime(ep.start_time),
    e.end_time = datetime(ep.end_time),
    e.goal = ep.goal,
    e.result = ep.result,
    e.actions = ep.actions,
    e.actions_text = ep.actions_text,
    e.action_times = [t IN ep.action_times | datetime(t)],
    e.raw_span_start = ep.raw_span_start,
    e.raw_span_end = ep.raw_span_end,
    e.participants = ep.participants,
    e.semantics_refs = coalesce(e.semantics_refs, []),
    // its messages wait for consolidation to embed them (once: a replay changes nothing)
    e.messages_pending = CASE WHEN e.messages_embedded_at IS NULL THEN true END
MERGE (s)-[:HAS_EPISODE]->(e)
WITH e, ep, foreign
CALL db.create.setNodeVectorProperty(e, 'embedding', ep.embedding)
WITH e, ep, foreign
CALL (e, ep, foreign) {
  UNWIND ep.messages AS msg
  MERGE (m:Message {message_id: msg.message_id})
  WITH e, ep, foreign, msg, m, m.content IS NOT NULL AND m.content <> msg.content AS clash
  SET m.user_id = ep.user_id,
      m.tenant = ep.tenant,
      m.session_id = ep.session_id,
      m.event_id = ep.event_id,
      m.msg_id = msg.msg_id,
      m.role = msg.role,
      m.speaker = msg.speaker,
      m.content = msg.content,
      m.text = msg.text,
      m.ts = datetime(msg.ts)
  MERGE (e)-[:HAS_MESSAGE]->(m)
  RETURN collect(CASE WHEN clash OR (foreign AND msg.msg_id = ep.raw_span_start)
                      THEN {session_id: ep.session_id, user_id: ep.user_id,
                            msg_id: msg.msg_id} END) AS clashes
}
RETURN count(e) AS stored, reduce(all = [], c IN collect(clashes) | all + c) AS clashes
