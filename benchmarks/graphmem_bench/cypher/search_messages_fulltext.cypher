// Benchmark "bm25" baseline (LoCoMo): the $candidates best full-text (Lucene BM25) matches
// of everyone, kept if they are the user's, best first.
// The caller grows $candidates until $k survive (or the index has no more matches).
// Parameters: $query (Lucene query string, escaped), $candidates, $user_id, $k.
CALL db.index.fulltext.queryNodes('bench_message_text', $query, {limit: $candidates})
YIELD node AS m, score
WHERE m.user_id = $user_id
RETURN m.session_id AS session_id, m.msg_id AS msg_id, m.text AS text, m.ts AS ts, score
ORDER BY score DESC, msg_id
LIMIT $k
