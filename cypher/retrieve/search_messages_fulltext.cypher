// Message keyword channel: full-text (BM25, `english` analyzer: stemmed) over the user's
// raw messages, each with the message after it (what answers it, when it is a question)
// and its episode (provenance).
// The Lucene query is the user's tenant key AND an OR of $terms (escaped by graphmem), so
// Lucene itself returns only this user's messages. A term that is a word of the name of
// one of the user's speakers (User.speakers) is optional when the question has other
// words, and counts a tenth: a name is in most messages of a conversation, and every
// short message that says it ("Thanks, John!") would otherwise be a hit. A weak word (in
// nearly every chat message: enjoy, like, kind, time — graphmem.retrieve.lucene.WEAK_WORDS)
// is optional too when the question has other words ("What outdoor activities does John
// enjoy?": "Enjoy!" alone is no hit; conversations 1-5 at 512 tokens 65.9 -> 66.8). The time window is applied after;
// the caller widens $candidates when fewer than $k survive it.
// Times come as [epochMillis, offsetSeconds] pairs: far cheaper for the driver to
// read than temporal values, which dominate a question's time otherwise.
// Parameters: $tenant (Lucene tenant clause), $terms (list of {word, term, weak}), $candidates,
//   $user_id, $since, $until, $k.
OPTIONAL MATCH (u:User {user_id: $user_id})
WITH [t IN $terms WHERE NOT t.word IN coalesce(u.speakers, [])] AS others,
     [t IN $terms WHERE t.word IN coalesce(u.speakers, []) | t.term + '^0.1'] AS names
WITH [t IN others WHERE NOT coalesce(t.weak, false) | t.term] AS strong,
     [t IN others WHERE coalesce(t.weak, false) | t.term] AS weak, names
WITH CASE WHEN size(strong) > 0 THEN strong ELSE weak END AS said,
     names + CASE WHEN size(strong) > 0 THEN weak ELSE [] END AS optional
WITH CASE WHEN size(said) = 0 OR size(optional) = 0
       THEN $tenant + ' AND (' + reduce(q = '', t IN said + optional |
              q + CASE WHEN q = '' THEN '' ELSE ' OR ' END + t) + ')'
       ELSE '+' + $tenant + ' +(' + reduce(q = '', t IN said |
              q + CASE WHEN q = '' THEN '' ELSE ' OR ' END + t) + ')'
            + reduce(q = '', t IN optional | q + ' ' + t)
     END AS query
CALL db.index.fulltext.queryNodes('message_fulltext', query, {limit: $candidates})
YIELD node AS m, score
WHERE m.user_id = $user_id AND m.ts >= $since AND m.ts < $until
WITH m, score ORDER BY score DESC, m.msg_id, m.message_id LIMIT $k
OPTIONAL MATCH (n:Message {user_id: m.user_id, session_id: m.session_id, msg_id: m.msg_id + 1})
OPTIONAL MATCH (e:Episode {event_id: m.event_id})
RETURN m {.message_id, .event_id, .session_id, .msg_id, .role, .content,
           ts: [m.ts.epochMillis, m.ts.offsetSeconds]} AS message,
       n {.message_id, .event_id, .session_id, .msg_id, .role, .content,
           ts: [n.ts.epochMillis, n.ts.offsetSeconds]} AS next,
       e {.event_id, .session_id, .raw_span_start, .raw_span_end,
           start_time: [e.start_time.epochMillis, e.start_time.offsetSeconds],
           end_time: [e.end_time.epochMillis, e.end_time.offsetSeconds]}
         AS episode, score
ORDER BY score DESC, message.msg_id, message.message_id
