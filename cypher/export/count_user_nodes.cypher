// Verification: every node anywhere in the database that carries a user's id or tenant
// key, counted by label (a full scan, whatever the label: use it to prove a forget_user
// left nothing behind). An empty result means nothing of the user remains.
// Parameters: $user_id, $tenant.
MATCH (n)
WHERE n.user_id = $user_id OR n.tenant = $tenant
UNWIND labels(n) AS label
RETURN label, count(*) AS n
ORDER BY label
