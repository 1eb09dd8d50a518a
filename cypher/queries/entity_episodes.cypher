// Episodes that mention an entity, oldest first: those a fact about it (as subject or as
// value) was distilled from, and those whose raw messages name one of its aliases as a
// whole word ('trip' is not in 'Stripe'; a Chinese alias anywhere in a Chinese sentence).
// The entity is found by its name, its normalized key (wechat, girlfriend) or any alias.
// Parameters: $user_id (STRING), $entity (STRING: a name, key or alias, any case).
MATCH (n:Entity {user_id: $user_id})
WHERE n.name = $entity OR n.key = toLower($entity) OR toLower($entity) IN n.aliases
CALL (n) {
  MATCH (n)<-[:ABOUT|HAS_VALUE]-(f:Fact)-[:DERIVED_FROM]->(e:Episode)
  RETURN e, collect(DISTINCT f.sentence) AS facts
  UNION
  MATCH (e:Episode {user_id: n.user_id})-[:HAS_MESSAGE]->(m:Message)
  WHERE any(alias IN n.aliases WHERE toLower(m.content) CONTAINS alias
            AND m.content =~ ('(?is).*(?<![a-z0-9])\\Q' + replace(alias, '\\E', '\\E\\\\E\\Q')
                              + '\\E(?![a-z0-9]).*'))
  RETURN e, [] AS facts
}
WITH n, e, reduce(acc = [], fs IN collect(facts) | acc + [x IN fs WHERE NOT x IN acc]) AS facts
RETURN n.name AS entity, e.start_time AS start_time, e.session_id AS session_id,
       e.event_id AS event_id, e.goal AS goal, [e.raw_span_start, e.raw_span_end] AS raw_span,
       facts
ORDER BY start_time, event_id
