// Import: the typed edges (entity)-[:PREDICATE]->(value) of current fact versions.
// rel_type is made by graphmem (graphmem.store.cypher.relationship_type of the fact's predicate)
// before it gets here.
// Parameters: $edges — list of maps {entity_id, value_id, rel_type, props}.
UNWIND $edges AS e
MATCH (s:Entity {entity_id: e.entity_id}), (v:Entity {entity_id: e.value_id})
MERGE (s)-[r:$(e.rel_type) {fact_id: e.props.fact_id}]->(v)
SET r = e.props
RETURN count(r) AS edges
