// Stores new fact versions (idempotent on fact_id) with subject, value and provenance.
// A version created as history (older evidence) starts 'superseded'; otherwise 'current'.
// The value entity also gets the label :Value (Neo4j Browser colours values apart).
// Parameters: $facts — list of maps {fact_id, user_id, tenant, entity_id, entity, predicate, value_id,
//   value, negated, sentence, confidence, observed_at, valid_until, episode_id, message_id
//   (the Message node it was said in, or null), anchor (the episode's, when the online path
//   reads an episode not stored yet: graphmem.store.ids.episode_anchor; else null), status}.
// An episode not stored yet is begun here (its id, user and anchor; store/merge_episodes
// fills it in, and refuses another buffer's episode of the same id).
UNWIND $facts AS f
MATCH (s:Entity {entity_id: f.entity_id}), (v:Entity {entity_id: f.value_id})
MERGE (fact:Fact {fact_id: f.fact_id})
  ON CREATE SET fact.user_id = f.user_id, fact.tenant = f.tenant, fact.entity_id = f.entity_id, fact.entity = f.entity,
                fact.predicate = f.predicate, fact.value_id = f.value_id, fact.value = f.value,
                fact.negated = f.negated, fact.sentence = f.sentence,
                fact.confidence = f.confidence, fact.status = f.status,
                fact.first_seen = f.observed_at, fact.last_verified = f.observed_at,
                fact.valid_from = f.observed_at, fact.valid_until = f.valid_until,
                fact.source_episodes = [f.episode_id],
                fact.source_messages = CASE WHEN f.message_id IS NULL THEN []
                                            ELSE [f.message_id] END
MERGE (fact)-[:ABOUT]->(s)
MERGE (fact)-[:HAS_VALUE]->(v)
SET v:Value
MERGE (ep:Episode {event_id: f.episode_id})
  ON CREATE SET ep.user_id = f.user_id, ep.semantics_refs = [], ep.anchor = f.anchor
MERGE (fact)-[:DERIVED_FROM]->(ep)
SET ep.semantics_refs = CASE WHEN f.fact_id IN coalesce(ep.semantics_refs, [])
                             THEN ep.semantics_refs
                             ELSE coalesce(ep.semantics_refs, []) + f.fact_id END
RETURN count(fact) AS facts
