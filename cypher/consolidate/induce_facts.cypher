// Cross-episode induction: a current fact whose normalized form (entity, predicate, value,
// polarity) is supported by at least $min_episodes distinct episodes — over all its
// versions, e.g. said, replaced, said again — gets confidence
//   max(confidence, min(0.99, 1 - (1 - $base) * 0.5 ^ (support - $min_episodes)))
// (graphmem.worker.induced_confidence), support = that number of episodes, and every one
// of those episodes in source_episodes and as DERIVED_FROM. Idempotent: a fact already
// induced with the same support is not touched. The user's node is locked first (as
// store/lock_users).
// Parameters: $user_id, $min_episodes (INTEGER), $base (FLOAT), $now (DATETIME).
MATCH (u:User {user_id: $user_id})
SET u.written_at = datetime()
WITH u
MATCH (f:Fact {user_id: $user_id, status: 'current'})
MATCH (same:Fact {user_id: $user_id, entity_id: f.entity_id, predicate: f.predicate,
                  value_id: f.value_id})
WHERE same.negated = f.negated
UNWIND same.source_episodes AS episode_id
WITH f, collect(DISTINCT episode_id) AS episodes
WITH f, episodes, size(episodes) AS support
WHERE support >= $min_episodes AND coalesce(f.support, 0) <> support
WITH f, episodes, support,
     1.0 - (1.0 - $base) * 0.5 ^ (support - $min_episodes) AS raw
WITH f, episodes, support, CASE WHEN raw > 0.99 THEN 0.99 ELSE raw END AS induced
SET f.confidence = CASE WHEN induced > f.confidence THEN induced ELSE f.confidence END,
    f.support = support, f.induced_at = $now,
    f.source_episodes = f.source_episodes +
                        [e IN episodes WHERE NOT e IN f.source_episodes]
WITH f, episodes
CALL (f, episodes) {
  UNWIND episodes AS episode_id
  MATCH (ep:Episode {event_id: episode_id})
  MERGE (f)-[:DERIVED_FROM]->(ep)
  SET ep.semantics_refs = CASE WHEN f.fact_id IN coalesce(ep.semantics_refs, [])
                               THEN ep.semantics_refs
                               ELSE coalesce(ep.semantics_refs, []) + f.fact_id END
}
CALL (f) {
  OPTIONAL MATCH (:Entity {entity_id: f.entity_id})-[r {fact_id: f.fact_id}]->()
  SET r.confidence = f.confidence
}
RETURN count(f) AS induced
