// Records that the schema was applied in full (store/schema.apply_schema): its fingerprint,
// the server it was applied on and the vector search that server offers, so that the next
// connect checks these in one read (admin/check_schema) instead of applying it again.
// Parameters: $fingerprint (STRING), $server (STRING), $search_clause (BOOLEAN),
//   $filtered_indexes (LIST<STRING>).
MERGE (g:GraphmemSchema {key: 'graph'})
SET g.schema = $fingerprint, g.server = $server, g.search_clause = $search_clause,
    g.filtered_indexes = $filtered_indexes, g.applied_at = datetime()
RETURN g.schema AS schema
