// On connect, one round trip: what the server is (its components, as
// admin/server_components) and what graphmem recorded when it last applied the schema to
// this database (the GraphmemSchema node: a fingerprint of the schema files and embedding
// dimension, the server it was applied on, the vector search it found, the graph version).
// When both still match, Memory.connect applies nothing (`graphmem init` always does).
// Parameters: none.
CALL dbms.components() YIELD name, versions, edition
WITH collect({name: name, versions: versions, edition: edition}) AS components
OPTIONAL MATCH (g:GraphmemSchema {key: 'graph'})
RETURN components, g {.*} AS state
