// A user's entity resolution at a glance: entities merged from several surface forms
// (status 'merged': every alias now names one entity) and pairs too alike to ignore but not
// alike enough to merge silently (status 'review': MAYBE_SAME_AS, with the fuzzy score).
// Parameters: $user_id (STRING).
MATCH (n:Entity {user_id: $user_id})
WHERE size(n.aliases) > 1
RETURN 'merged' AS status, n.name AS entity, n.kind AS kind, n.aliases AS aliases,
       null AS maybe_same_as, null AS score
UNION ALL
MATCH (n:Entity {user_id: $user_id})-[r:MAYBE_SAME_AS]->(other:Entity)
RETURN 'review' AS status, n.name AS entity, n.kind AS kind, n.aliases AS aliases,
       other.name AS maybe_same_as, r.score AS score
