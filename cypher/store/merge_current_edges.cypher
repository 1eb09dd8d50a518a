// The typed edge (entity)-[:PREDICATE]->(value) of each current fact version.
// rel_type is made by graphmem (graphmem.store.cypher.relationship_type) before it gets here.
// Only a version that is current gets its edge: a version decided again after it ended
// (the same episode distilled again once the chain expired) is not revived as an edge.
// Parameters: $edges — list of maps {fact_id, entity_id, value_id, rel_type, confidence,
//   negated, since}.
UNWIND $edges AS e
MATCH (:Fact {fact_id: e.fact_id, status: 'current'})
MATCH (s:Entity {entity_id: e.entity_id}), (v:Entity {entity_id: e.value_id})
MERGE (s)-[r:$(e.rel_type) {fact_id: e.fact_id}]->(v)
SET r.confidence = e.confidence, r.negated = e.negated, r.since = e.since
RETURN count(r) AS edges
