// How many of a user's facts are true at $now (or all versions) — decides exact scan vs index.
// A version is true from valid_from until valid_until (superseded or expired after that), so
// a $now in the past sees the versions that were true then.
// Parameters: $user_id, $now (DATETIME), $all_versions (BOOLEAN).
MATCH (f:Fact {user_id: $user_id})
WHERE $all_versions OR (f.valid_from <= $now AND (f.valid_until IS NULL OR f.valid_until > $now))
RETURN count(f) AS n
