// Where each of a user's sessions was written: the raw buffers ("host:/folder") whose
// writers stored its episodes — forget_user, delete_episode and export name the ones they
// could not reach. An empty list: stored before graphmem recorded it.
// Parameters: $user_id (STRING).
MATCH (s:Session {user_id: $user_id})
RETURN s.session_id AS session_id, coalesce(s.buffers, []) AS buffers
ORDER BY session_id
