// The version a correction or retraction starts from — only if it is the user's: its
// properties, its subject's key (the user's own entity is 'user'), its value's kind, and the
// head of its chain (the newest version, which may be this one).
// Parameters: $user_id (STRING), $fact_id (STRING).
MATCH (f:Fact {fact_id: $fact_id, user_id: $user_id})
OPTIONAL MATCH (f)-[:ABOUT]->(s:Entity)
OPTIONAL MATCH (f)-[:HAS_VALUE]->(v:Entity)
CALL (f) {
  MATCH (head:Fact)-[:SUPERSEDES*0..]->(f)
  WHERE NOT ()-[:SUPERSEDES]->(head)
  RETURN head ORDER BY head.valid_from DESC LIMIT 1
}
RETURN f {.*, embedding: null} AS fact, s.key AS subject_key, v.kind AS value_kind,
       head.fact_id AS head_id, head.status AS head_status
