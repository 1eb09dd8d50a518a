// Re-links each user's episodes in time order with [:NEXT], from just before the earliest
// new episode onward — correct across sessions and when episodes arrive out of order.
// Parameters: $users — list of maps {user_id, since} (since = earliest new start_time).
UNWIND $users AS u
CALL (u) {
  OPTIONAL MATCH (p:Episode {user_id: u.user_id})
  WHERE p.start_time < u.since
  WITH p ORDER BY p.start_time DESC, p.event_id DESC LIMIT 1
  RETURN collect(p) AS before
}
CALL (u) {
  MATCH (e:Episode {user_id: u.user_id})
  WHERE e.start_time >= u.since
  WITH e ORDER BY e.start_time, e.event_id
  RETURN collect(e) AS after
}
WITH u, before + after AS chain
CALL (chain) {
  UNWIND chain AS e
  MATCH (e)-[r:NEXT]->()
  DELETE r
}
CALL (chain) {
  UNWIND range(0, size(chain) - 2) AS i
  WITH chain[i] AS a, chain[i + 1] AS b
  MERGE (a)-[:NEXT]->(b)
}
RETURN count(u) AS users
