// Consolidation read an episode whole and did not find a fact the online path had read in
// one of its messages, alone (before the names of the people in it were known, or before a
// later message said whose it was): that online version — the episode its only evidence,
// no version before it, never corrected — is retracted. Status 'retracted', change
// 'unconfirmed', valid from and until its first sighting (it was never the truth), its
// typed edge gone; the version and its DERIVED_FROM stay, so history() shows what was read.
// Parameters: $user_id (STRING), $episodes (LIST OF MAP {event_id: STRING, read: LIST OF
//   STRING}: the ids of the versions consolidation read in the episode — a fact's id is
//   given by its statement and episode, so the online version has the one its reading
//   would), $at (DATETIME), $reason (STRING).
UNWIND $episodes AS ep
MATCH (f:Fact {user_id: $user_id, status: 'current'})
      -[:DERIVED_FROM]->(:Episode {event_id: ep.event_id, user_id: $user_id})
WHERE f.change IS NULL AND f.source_episodes = [ep.event_id]
  AND NOT (f)-[:SUPERSEDES]->()
  AND NOT f.fact_id IN ep.read
SET f.status = 'retracted', f.valid_until = f.valid_from, f.change = 'unconfirmed',
    f.reason = $reason, f.changed_by = 'consolidation', f.changed_at = $at
WITH f
OPTIONAL MATCH (:Entity {entity_id: f.entity_id})-[edge {fact_id: f.fact_id}]->()
DELETE edge
RETURN f.fact_id AS fact_id, f.sentence AS sentence
ORDER BY fact_id
