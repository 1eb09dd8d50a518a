// A user's timeline between two dates: every episode overlapping [$since, $until), oldest
// first, with its session, goal, outcome, raw span and the fact versions distilled from it.
// Parameters: $user_id (STRING), $since (DATETIME), $until (DATETIME).
MATCH (e:Episode {user_id: $user_id})
WHERE e.start_time < $until AND e.end_time >= $since
CALL (e) {
  OPTIONAL MATCH (f:Fact)-[:DERIVED_FROM]->(e)
  WITH f ORDER BY f.valid_from, f.fact_id
  RETURN collect(f.sentence + ' [' + f.status + ']') AS facts
}
RETURN e.start_time AS start_time, e.end_time AS end_time, e.session_id AS session_id,
       e.event_id AS event_id, e.goal AS goal, e.result AS result,
       [e.raw_span_start, e.raw_span_end] AS raw_span, facts
ORDER BY e.start_time, e.event_id
