// The Neo4j server's components: "Neo4j Kernel" (version, edition) on every server, and on
// 2026.x also "Cypher" with the language versions it speaks (5, 25). Used on connect and by
// `graphmem doctor`.
// Parameters: none.
CALL dbms.components() YIELD name, versions, edition
RETURN name, versions, edition
