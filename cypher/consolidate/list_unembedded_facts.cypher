// Fact versions still without an embedding (made on the online path, or new).
// Parameters: $limit.
MATCH (f:Fact)
WHERE f.embedding IS NULL AND f.sentence IS NOT NULL
RETURN f.fact_id AS fact_id, f.user_id AS user_id, f.sentence AS sentence
LIMIT $limit
