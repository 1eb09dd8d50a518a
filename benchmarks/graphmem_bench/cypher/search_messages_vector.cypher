// Benchmark "flat" baseline (LoCoMo): the $candidates nearest messages of everyone through
// the native vector index, kept if they are the user's, best first.
// The caller grows $candidates until $k survive (or all messages were candidates).
// Parameters: $vector (LIST<FLOAT>), $candidates, $user_id, $k.
CALL db.index.vector.queryNodes('bench_message_embedding', $candidates, $vector)
YIELD node AS m, score
WHERE m.user_id = $user_id
RETURN m.session_id AS session_id, m.msg_id AS msg_id, m.text AS text, m.ts AS ts, score
ORDER BY score DESC, msg_id
LIMIT $k
