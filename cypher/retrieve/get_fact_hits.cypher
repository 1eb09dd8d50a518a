// Facts by id with their similarity to the query, their provenance (the 8 latest episodes
// that said or re-verified it: a preference restated every day has thousands; `history`
// has them all) and the messages that said the versions they replaced (shown as outdated) —
// the last 8 versions: a preference changed every week has thousands (19,420 old versions
// for the largest user of the 1M scale run: 250 ms per question), and a message that old
// is rarely what a question brings back.
// Facts without an embedding yet (online path) get null similarity.
// Times come as [epochMillis, offsetSeconds] pairs (cheap for the driver to read).
// Parameters: $ids (LIST<STRING>), $vector (LIST<FLOAT>).
MATCH (f:Fact)
WHERE f.fact_id IN $ids
WITH f, COLLECT {
  MATCH (f)-[:DERIVED_FROM]->(e:Episode)
  RETURN e {.event_id, .session_id, .raw_span_start, .raw_span_end} AS episode
  ORDER BY e.end_time DESC, e.event_id LIMIT 8
} AS episodes
OPTIONAL MATCH (f)-[:SUPERSEDES*1..8]->(old:Fact)
WITH f, episodes, collect(old.source_messages) AS replaced
RETURN f {.fact_id, .entity, .predicate, .value, .negated, .confidence, .status, .sentence,
          .source_messages,
          last_verified: [f.last_verified.epochMillis, f.last_verified.offsetSeconds],
          valid_from: [f.valid_from.epochMillis, f.valid_from.offsetSeconds],
          valid_until: CASE WHEN f.valid_until IS NULL THEN null
                       ELSE [f.valid_until.epochMillis, f.valid_until.offsetSeconds] END} AS fact,
       CASE WHEN f.embedding IS NULL THEN null
            ELSE vector.similarity.cosine(f.embedding, $vector) END AS similarity,
       episodes,
       reduce(all = [], ids IN replaced | all + coalesce(ids, [])) AS outdated_messages
