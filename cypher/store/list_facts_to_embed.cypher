// Re-embedding (graphmem reembed): a page of fact versions (every status) in fact_id
// order after $after, with the sentence that is embedded.
// Parameters: $after (STRING: the last fact_id of the page before; '' for the first),
// $limit (INTEGER).
MATCH (f:Fact)
WHERE f.fact_id > $after
RETURN f.fact_id AS fact_id, f.user_id AS user_id, f.sentence AS sentence
ORDER BY f.fact_id
LIMIT $limit
