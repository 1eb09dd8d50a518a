// Which episodes the online path's facts were read in are another raw buffer's: the
// episode is stored (or was begun by another online fact) with another first message, or
// the message a fact was said in is stored with other text. Two buffers that both write a
// session number its messages from 1, so their episodes get the same id; the first in
// Neo4j keeps it, and the other's facts are refused with its episode, never attached to
// the first's. An episode stored before anchors were kept is compared by its first message.
// Run after store/lock_users, in the transaction that would store the facts.
// Parameters: $claims — list of maps {event_id, anchor, first_message_id, first_content,
//   message_id, content}: the episode, its anchor (graphmem.store.ids.episode_anchor), its
//   first message's node id and text, and the message the facts were said in.
UNWIND $claims AS c
OPTIONAL MATCH (e:Episode {event_id: c.event_id})
OPTIONAL MATCH (said:Message {message_id: c.message_id})
OPTIONAL MATCH (first:Message {message_id: c.first_message_id})
WITH c WHERE (e.anchor IS NOT NULL AND e.anchor <> c.anchor)
          OR (said.content IS NOT NULL AND said.content <> c.content)
          OR (first.content IS NOT NULL AND first.content <> c.first_content)
RETURN collect(DISTINCT c.event_id) AS foreign
