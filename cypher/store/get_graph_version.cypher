// The version of graphmem's graph layout this database was last migrated to (null: never,
// i.e. written by a graphmem older than the migrations in graphmem.store.migrate).
// Parameters: none.
OPTIONAL MATCH (g:GraphmemSchema {key: 'graph'})
RETURN g.version AS version
