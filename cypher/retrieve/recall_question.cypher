// One question's recall in one statement (Neo4j 2026.x: Cypher 25 SEARCH over the
// filtered vector indexes). Every channel of graphmem/retrieve/channels.py, read at once:
//   1. keyword messages: BM25 over the user's raw messages (Lucene scoped to the user by
//      $tenant; a word of a speaker's name (weighted a tenth) or a weak word optional when
//      the question has other words — as in search_messages_fulltext), inside
//      [$said_since, $said_until);
//   2. the same words inside the question's time window [$since, $until) when $second;
//   3. the $fact_pool facts of any version nearest $vector (in-index filter on the user);
//   4. the $fact_k facts whose sentence or value has the question's words ($fact_query,
//      Lucene with the tenant clause; true at $now unless $include_superseded);
//   5. the messages the nearest facts were said in (each fact's latest first), $fact_pointers
//      in all, inside [$said_since, $said_until) (a fact's last $fact_pointers are enough:
//      one said in thousands of messages made this quadratic);
//   6. when $episode_k > 0 and the question is only about a time ($strict) or the keyword
//      channel found fewer than $few_keywords messages: the $episode_k episodes nearest
//      $vector overlapping [$since, $until), at least $episode_floor near in meaning
//      (cosine; null: any), with their messages in order;
//   7. the $message_k messages nearest $vector (in-index filter on the user and
//      [$said_since, $said_until)), at least $message_floor near in meaning, when
//      $message_k > 0.
// Messages come back once each (with the message after it and its episode); the channels
// as lists of message ids in rank order. Facts come back with their similarity to $vector,
// their 8 latest source episodes and the messages of the last 8 versions they replaced
// (as get_fact_hits).
// Times come as [epochMillis, offsetSeconds] pairs (cheap for the driver to read).
// A keyword channel that kept fewer than $k inside its window while Lucene had more
// (said_seen / window_seen = the candidates Lucene returned) is widened by the caller with
// search_messages_fulltext: a second round trip, rare.
// Parameters: $user_id, $tenant, $terms (list of {word, term, weak}), $vector, $now,
//   $said_since, $said_until, $said_candidates, $since, $until, $second, $window_candidates,
//   $k (keyword messages per channel), $fact_pool, $fact_candidates, $latest, $fact_query,
//   $fact_k, $include_superseded, $fact_pointers, $episode_k, $episode_candidates,
//   $episode_floor, $strict, $few_keywords, $message_k, $message_candidates, $message_floor.
CYPHER 25
OPTIONAL MATCH (u:User {user_id: $user_id})
WITH [t IN $terms WHERE NOT t.word IN coalesce(u.speakers, [])] AS others,
     [t IN $terms WHERE t.word IN coalesce(u.speakers, []) | t.term + '^0.1'] AS names
WITH [t IN others WHERE NOT coalesce(t.weak, false) | t.term] AS strong,
     [t IN others WHERE coalesce(t.weak, false) | t.term] AS weak, names
WITH CASE WHEN size(strong) > 0 THEN strong ELSE weak END AS said,
     names + CASE WHEN size(strong) > 0 THEN weak ELSE [] END AS optional
WITH CASE WHEN size(said) + size(optional) = 0 THEN null
       WHEN size(said) = 0 OR size(optional) = 0
       THEN $tenant + ' AND (' + reduce(q = '', t IN said + optional |
              q + CASE WHEN q = '' THEN '' ELSE ' OR ' END + t) + ')'
       ELSE '+' + $tenant + ' +(' + reduce(q = '', t IN said |
              q + CASE WHEN q = '' THEN '' ELSE ' OR ' END + t) + ')'
            + reduce(q = '', t IN optional | q + ' ' + t)
     END AS words
CALL (words) {
  WITH words WHERE words IS NOT NULL
  CALL db.index.fulltext.queryNodes('message_fulltext', words, {limit: $said_candidates})
  YIELD node AS m, score
  WITH m, m.user_id = $user_id AND m.ts >= $said_since AND m.ts < $said_until AS inside
  ORDER BY score DESC, m.msg_id, m.message_id
  WITH count(*) AS seen, collect(CASE WHEN inside THEN m END) AS ms
  RETURN seen AS said_seen, ms[..$k] AS said_ms
}
CALL (words) {
  WITH words WHERE words IS NOT NULL AND $second
  CALL db.index.fulltext.queryNodes('message_fulltext', words, {limit: $window_candidates})
  YIELD node AS m, score
  WITH m, m.user_id = $user_id AND m.ts >= $since AND m.ts < $until AS inside
  ORDER BY score DESC, m.msg_id, m.message_id
  WITH count(*) AS seen, collect(CASE WHEN inside THEN m END) AS ms
  RETURN seen AS window_seen, ms[..$k] AS window_ms
}
CALL () {
  WITH 1 AS asked WHERE $fact_pool > 0
  MATCH (f:Fact)
    SEARCH f IN (
      VECTOR INDEX fact_embedding
      FOR $vector
      WHERE f.user_id = $user_id AND f.valid_from <= $latest
      LIMIT $fact_candidates
    ) SCORE AS score
  WITH f, score ORDER BY score DESC, f.fact_id LIMIT $fact_pool
  RETURN collect(f) AS near_facts
}
CALL () {
  WITH 1 AS asked WHERE $fact_k > 0 AND $fact_query <> ''
  CALL db.index.fulltext.queryNodes('fact_fulltext', $fact_query, {limit: $fact_k * 20})
  YIELD node AS f, score
  WHERE f.user_id = $user_id
    AND ($include_superseded
         OR (f.valid_from <= $now AND (f.valid_until IS NULL OR f.valid_until > $now)))
  WITH f, score ORDER BY score DESC, f.fact_id LIMIT $fact_k
  RETURN collect(f) AS word_facts
}
CALL (near_facts, word_facts) {
  UNWIND near_facts + word_facts AS f
  WITH DISTINCT f
  WITH f, COLLECT {
    MATCH (f)-[:DERIVED_FROM]->(e:Episode)
    RETURN e {.event_id, .session_id, .raw_span_start, .raw_span_end} AS episode
    ORDER BY e.end_time DESC, e.event_id LIMIT 8
  } AS episodes
  OPTIONAL MATCH (f)-[:SUPERSEDES*1..8]->(old:Fact)
  WITH f, episodes, collect(old.source_messages) AS replaced
  RETURN collect({
    fact: f {.fact_id, .entity, .predicate, .value, .negated, .confidence, .status, .sentence,
             .source_messages,
             last_verified: [f.last_verified.epochMillis, f.last_verified.offsetSeconds],
             valid_from: [f.valid_from.epochMillis, f.valid_from.offsetSeconds],
             valid_until: CASE WHEN f.valid_until IS NULL THEN null
                          ELSE [f.valid_until.epochMillis, f.valid_until.offsetSeconds] END},
    similarity: CASE WHEN f.embedding IS NULL THEN null
                     ELSE vector.similarity.cosine(f.embedding, $vector) END,
    episodes: episodes,
    outdated_messages: reduce(all = [], ids IN replaced | all + coalesce(ids, []))
  }) AS facts
}
WITH said_seen, said_ms, window_seen, window_ms, near_facts, word_facts, facts,
     reduce(seen = [], id IN reduce(all = [], f IN near_facts |
                                    all + CASE WHEN $fact_pointers > 0
                                          THEN reverse(coalesce(f.source_messages, [])[-$fact_pointers..])
                                          ELSE [] END) |
            CASE WHEN id IN seen THEN seen ELSE seen + id END)[..$fact_pointers] AS pointed
CALL (pointed) {
  MATCH (m:Message)
  WHERE m.message_id IN pointed AND m.user_id = $user_id
    AND m.ts >= $said_since AND m.ts < $said_until
  RETURN collect(m) AS pointed_ms
}
CALL (said_ms) {
  WITH said_ms WHERE $episode_k > 0 AND ($strict OR size(said_ms) < $few_keywords)
  MATCH (e:Episode)
    SEARCH e IN (
      VECTOR INDEX episode_embedding
      FOR $vector
      WHERE e.user_id = $user_id AND e.start_time < $until AND e.end_time >= $since
      LIMIT $episode_candidates
    ) SCORE AS score
  WITH e, score ORDER BY score DESC, e.event_id LIMIT $episode_k
  WITH e, score WHERE $episode_floor IS NULL OR 2 * score - 1 >= $episode_floor
  CALL (e) {
    MATCH (e)-[:HAS_MESSAGE]->(m:Message)
    WITH m ORDER BY m.msg_id
    RETURN collect(m {.message_id, .msg_id, .role, .content,
                      ts: [m.ts.epochMillis, m.ts.offsetSeconds]}) AS messages
  }
  RETURN collect({event_id: e.event_id, session_id: e.session_id, score: score,
                  start_time: [e.start_time.epochMillis, e.start_time.offsetSeconds],
                  end_time: [e.end_time.epochMillis, e.end_time.offsetSeconds],
                  raw_span_start: e.raw_span_start, raw_span_end: e.raw_span_end,
                  messages: messages}) AS episodes
}
CALL () {
  WITH 1 AS asked WHERE $message_k > 0
  MATCH (m:Message)
    SEARCH m IN (
      VECTOR INDEX message_embedding
      FOR $vector
      WHERE m.user_id = $user_id AND m.ts >= $said_since AND m.ts < $said_until
      LIMIT $message_candidates
    ) SCORE AS score
  WITH m, score WHERE $message_floor IS NULL OR 2 * score - 1 >= $message_floor
  WITH m, score ORDER BY score DESC, m.message_id LIMIT $message_k
  RETURN collect(m) AS near_ms
}
CALL (said_ms, window_ms, pointed_ms, near_ms) {
  UNWIND said_ms + window_ms + pointed_ms + near_ms AS m
  WITH DISTINCT m
  OPTIONAL MATCH (n:Message {user_id: m.user_id, session_id: m.session_id, msg_id: m.msg_id + 1})
  OPTIONAL MATCH (e:Episode {event_id: m.event_id})
  RETURN collect({
    message: m {.message_id, .event_id, .session_id, .msg_id, .role, .content,
                ts: [m.ts.epochMillis, m.ts.offsetSeconds]},
    next: n {.message_id, .event_id, .session_id, .msg_id, .role, .content,
             ts: [n.ts.epochMillis, n.ts.offsetSeconds]},
    episode: e {.event_id, .session_id, .raw_span_start, .raw_span_end,
                start_time: [e.start_time.epochMillis, e.start_time.offsetSeconds],
                end_time: [e.end_time.epochMillis, e.end_time.offsetSeconds]}
  }) AS messages
}
RETURN [m IN said_ms | m.message_id] AS said, said_seen,
       [m IN window_ms | m.message_id] AS in_window, window_seen,
       [id IN pointed WHERE id IN [m IN pointed_ms | m.message_id]] AS pointed,
       [f IN near_facts | f.fact_id] AS near_facts,
       [m IN near_ms | m.message_id] AS near_messages,
       [f IN word_facts | f.fact_id] AS word_facts,
       facts, episodes, messages
