// Same fact seen again in another episode: raise confidence, move last_verified,
// add the episode as provenance, and refresh the typed edge's confidence.
// Parameters: $items — list of maps {fact_id, confidence, verified_at, episode_id,
//   message_id (or null), anchor (of an episode not stored yet, see
//   store/create_fact_versions; or null), rel_type}.
UNWIND $items AS i
MATCH (f:Fact {fact_id: i.fact_id})
SET f.confidence = i.confidence,
    f.last_verified = CASE WHEN i.verified_at > f.last_verified THEN i.verified_at
                           ELSE f.last_verified END,
    f.source_episodes = CASE WHEN i.episode_id IN f.source_episodes THEN f.source_episodes
                             ELSE f.source_episodes + i.episode_id END,
    f.source_messages = CASE WHEN i.message_id IS NULL
                               OR i.message_id IN coalesce(f.source_messages, [])
                             THEN coalesce(f.source_messages, [])
                             ELSE coalesce(f.source_messages, []) + i.message_id END
MERGE (ep:Episode {event_id: i.episode_id})
  ON CREATE SET ep.user_id = f.user_id, ep.semantics_refs = [], ep.anchor = i.anchor
MERGE (f)-[:DERIVED_FROM]->(ep)
SET ep.semantics_refs = CASE WHEN f.fact_id IN coalesce(ep.semantics_refs, [])
                             THEN ep.semantics_refs
                             ELSE coalesce(ep.semantics_refs, []) + f.fact_id END
WITH f, i
OPTIONAL MATCH (:Entity {entity_id: f.entity_id})-[r:$(i.rel_type) {fact_id: f.fact_id}]->()
SET r.confidence = i.confidence
RETURN count(f) AS verified
