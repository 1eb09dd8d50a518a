// Facts by id with their similarity to the query, their provenance (episodes, sessions,
// raw spans) and the messages that said the versions they replaced (shown as outdated).
// Facts without an embedding yet (online path) get null similarity.
// Parameters: $ids (LIST<STRING>), $vector (LIST<FLOAT>).
MATCH (f:Fact)
WHERE f.fact_id IN $ids
OPTIONAL MATCH (f)-[:DERIVED_FROM]->(e:Episode)
WITH f, collect(e {.event_id, .session_id, .raw_span_start, .raw_span_end}) AS episodes
OPTIONAL MATCH (f)-[:SUPERSEDES*1..]->(old:Fact)
WITH f, episodes, collect(old.source_messages) AS replaced
RETURN f {.*, embedding: null} AS fact,
       CASE WHEN f.embedding IS NULL THEN null
            ELSE vector.similarity.cosine(f.embedding, $vector) END AS similarity,
       episodes,
       reduce(all = [], ids IN replaced | all + coalesce(ids, [])) AS outdated_messages
