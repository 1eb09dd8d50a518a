// Does the server know Cypher 25's SEARCH clause with an in-index filter? Plans (never runs)
// a search of an index that does not exist: "no such index" means yes; a refused statement
// (5.26: no Cypher 25) means no. Used on connect by graphmem.store.server.
// Parameters: none.
CYPHER 25 EXPLAIN
MATCH (n:GraphmemProbe)
  SEARCH n IN (VECTOR INDEX graphmem_probe_no_such_index FOR [1.0] WHERE n.user_id = '' LIMIT 1)
  SCORE AS score
RETURN n, score
