// Import: fact versions with their exported properties and embedding, linked to their
// subject (ABOUT), value (HAS_VALUE) and source episodes (DERIVED_FROM). SUPERSEDES links
// come after every version exists (export/link_superseded_facts).
// Parameters: $facts — list of maps {props, embedding, about, has_value, derived_from}.
UNWIND $facts AS f
MERGE (fact:Fact {fact_id: f.props.fact_id})
SET fact = f.props
WITH fact, f
CALL (fact, f) {
  WITH fact, f WHERE f.embedding IS NOT NULL
  CALL db.create.setNodeVectorProperty(fact, 'embedding', f.embedding)
}
CALL (fact, f) {
  MATCH (s:Entity {entity_id: f.about})
  MERGE (fact)-[:ABOUT]->(s)
}
CALL (fact, f) {
  MATCH (v:Entity {entity_id: f.has_value})
  MERGE (fact)-[:HAS_VALUE]->(v)
}
CALL (fact, f) {
  UNWIND f.derived_from AS event_id
  MATCH (ep:Episode {event_id: event_id})
  MERGE (fact)-[:DERIVED_FROM]->(ep)
}
RETURN count(fact) AS facts
