// Users with Episode, Fact or Message nodes that lack the `tenant` key every full-text
// query requires (written before it existed): invisible to keyword search until backfilled.
// Parameters: $limit.
CALL () {
  MATCH (n:Episode) WHERE n.tenant IS NULL AND n.user_id IS NOT NULL RETURN n.user_id AS user_id
  UNION
  MATCH (n:Fact) WHERE n.tenant IS NULL AND n.user_id IS NOT NULL RETURN n.user_id AS user_id
  UNION
  MATCH (n:Message) WHERE n.tenant IS NULL AND n.user_id IS NOT NULL RETURN n.user_id AS user_id
}
RETURN user_id
ORDER BY user_id
LIMIT $limit
