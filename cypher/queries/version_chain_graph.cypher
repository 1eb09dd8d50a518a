// For Neo4j Browser: a fact's whole version chain as a graph — every version (newest at the
// head of SUPERSEDES), the episodes each came from and the raw messages of those episodes,
// plus the entity and value of each version. Style it with docs/graphmem.grass.
// Parameters: $fact_id (STRING: any version of the fact).
MATCH (f:Fact {fact_id: $fact_id})
MATCH (head:Fact)-[:SUPERSEDES*0..]->(f)
WHERE NOT ()-[:SUPERSEDES]->(head)
MATCH chain = (head)-[:SUPERSEDES*0..]->(v:Fact)
OPTIONAL MATCH source = (v)-[:DERIVED_FROM]->(:Episode)-[:HAS_MESSAGE]->(:Message)
OPTIONAL MATCH about = (:Entity)<-[:ABOUT]-(v)-[:HAS_VALUE]->(:Entity)
RETURN chain, source, about
