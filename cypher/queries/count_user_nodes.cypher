// Proof that a user is forgotten: every node anywhere in the database that carries the
// user's id, counted by label (a full scan, whatever the label). The Episode, Fact and
// Message nodes that carry the tenant key (graphmem.store.ids) carry the user_id beside it,
// so an empty result means nothing of the user remains.
// Parameters: $user_id (STRING).
MATCH (n)
WHERE n.user_id = $user_id
UNWIND labels(n) AS label
RETURN label, count(*) AS n
ORDER BY label
