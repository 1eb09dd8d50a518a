// Extraction benchmark (LoCoMo): every fact version (any status) DERIVED_FROM the given
// episodes, one row per (episode, fact), with the fact's sentence and embedding (null if
// consolidation did not embed it; the caller embeds the sentence then).
// Parameters: $event_ids (LIST<STRING>).
MATCH (f:Fact)-[:DERIVED_FROM]->(e:Episode)
WHERE e.event_id IN $event_ids
RETURN e.event_id AS event_id, f.fact_id AS fact_id, f.sentence AS sentence,
       f.embedding AS embedding
ORDER BY event_id, fact_id
