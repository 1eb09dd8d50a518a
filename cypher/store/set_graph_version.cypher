// Records the graph layout version this database is migrated to.
// Parameters: $version (INTEGER).
MERGE (g:GraphmemSchema {key: 'graph'})
SET g.version = $version, g.migrated_at = datetime()
RETURN g.version AS version
