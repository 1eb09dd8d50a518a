// graphmem schema — applied idempotently by `graphmem init` and on Memory.connect().
// The vector indexes follow from the server: schema_filtered_vector_indexes.cypher where
// Cypher 25's SEARCH exists (Neo4j 2026.x), schema_vector_indexes.cypher on 5.26.
// Parameters: none.
//
// Data model (docs/architecture.md draws it):
//   (:User {user_id})-[:HAS_SESSION]->(:Session {user_id, session_id})   keyed by both
//   (:Session)-[:HAS_EPISODE]->(:Episode {event_id, user_id, tenant, session_id, start_time,
//        end_time, goal, result, actions, actions_text, raw_span_start, raw_span_end,
//        participants, semantics_refs, embedding})
//   (:Episode)-[:HAS_MESSAGE]->(:Message {message_id, user_id, tenant, session_id, event_id,
//        msg_id, role, speaker, content, text, ts})   the raw turns, keyword-searchable
//                                          (text: content without a "Name: " prefix), not embedded
//   (:Episode)-[:NEXT]->(:Episode)            each user's episodes in time order
//   (:Entity {entity_id, user_id, key, name, kind, aliases})
//   (:Fact {fact_id, user_id, entity_id, predicate, value, value_id, negated, sentence,
//        confidence, status, first_seen, last_verified, valid_from, valid_until,
//        source_episodes, source_messages, embedding})   one node per version of a fact;
//                                          source_messages: the Message node ids it was said in
//   (:Fact)-[:ABOUT]->(:Entity)  (:Fact)-[:HAS_VALUE]->(:Entity:Value)
//                                          an entity a fact points at as its value is also :Value
//   (:Fact)-[:SUPERSEDES]->(:Fact)            newer version -> the version it replaced
//   (:Fact)-[:DERIVED_FROM]->(:Episode)       provenance of every version
//   (:Entity)-[:<PREDICATE> {fact_id, confidence, negated}]->(:Entity)
//                                             the typed edge of the *current* version only
//   (:Entity)-[:MAYBE_SAME_AS {score}]->(:Entity)   ambiguous merges, for review
//   (:Lease {user_id, owner, expires_at})   a consolidation worker's hold on one user
//   (:Tombstone {key, forgotten_at})   a forgotten user (key: a one-way hash of the user id);
//                                          writers refuse what they hold from before it
//   (:WriteGate {key, turns})   the one write turn (store/take_write_turn); not a user's
//   (:WorkerRun {run_id, owner, finished_at, episodes, created, ...})   worker run counts

// `tenant` is a hash of user_id that every full-text query requires (graphmem.store.ids).

// Sessions were once keyed by session_id alone; two users may both have a session "s1".
DROP CONSTRAINT session_id_unique IF EXISTS;
// Full-text indexes before they carried the tenant key.
DROP INDEX episode_text IF EXISTS;
DROP INDEX fact_text IF EXISTS;

CREATE CONSTRAINT user_id_unique IF NOT EXISTS FOR (u:User) REQUIRE u.user_id IS UNIQUE;
CREATE CONSTRAINT session_key_unique IF NOT EXISTS
FOR (s:Session) REQUIRE (s.user_id, s.session_id) IS UNIQUE;
CREATE CONSTRAINT message_id_unique IF NOT EXISTS FOR (m:Message) REQUIRE m.message_id IS UNIQUE;
CREATE CONSTRAINT episode_id_unique IF NOT EXISTS FOR (e:Episode) REQUIRE e.event_id IS UNIQUE;
CREATE CONSTRAINT fact_id_unique IF NOT EXISTS FOR (f:Fact) REQUIRE f.fact_id IS UNIQUE;
CREATE CONSTRAINT entity_id_unique IF NOT EXISTS FOR (n:Entity) REQUIRE n.entity_id IS UNIQUE;
// One consolidation-worker lease per user (cypher/consolidate/acquire_lease).
CREATE CONSTRAINT lease_user_unique IF NOT EXISTS FOR (l:Lease) REQUIRE l.user_id IS UNIQUE;
// One tombstone per forgotten user (cypher/store/bury_user).
CREATE CONSTRAINT tombstone_key_unique IF NOT EXISTS FOR (t:Tombstone) REQUIRE t.key IS UNIQUE;
// The one write turn every write transaction takes first (cypher/store/take_write_turn).
CREATE CONSTRAINT write_gate_key_unique IF NOT EXISTS FOR (g:WriteGate) REQUIRE g.key IS UNIQUE;

CREATE RANGE INDEX episode_user_start IF NOT EXISTS FOR (e:Episode) ON (e.user_id, e.start_time);
CREATE RANGE INDEX episode_start_time IF NOT EXISTS FOR (e:Episode) ON (e.start_time);
CREATE RANGE INDEX episode_end_time IF NOT EXISTS FOR (e:Episode) ON (e.end_time);
// episodes whose messages consolidation has not embedded yet
CREATE RANGE INDEX episode_messages_pending IF NOT EXISTS
FOR (e:Episode) ON (e.messages_pending);
CREATE RANGE INDEX fact_user_status IF NOT EXISTS FOR (f:Fact) ON (f.user_id, f.status);
CREATE RANGE INDEX fact_key IF NOT EXISTS FOR (f:Fact) ON (f.user_id, f.entity_id, f.predicate);
CREATE RANGE INDEX fact_last_verified IF NOT EXISTS FOR (f:Fact) ON (f.last_verified);
CREATE RANGE INDEX fact_valid_until IF NOT EXISTS FOR (f:Fact) ON (f.valid_until);
CREATE RANGE INDEX entity_user IF NOT EXISTS FOR (n:Entity) ON (n.user_id);
CREATE RANGE INDEX message_user_session IF NOT EXISTS
FOR (m:Message) ON (m.user_id, m.session_id, m.msg_id);
CREATE RANGE INDEX message_event IF NOT EXISTS FOR (m:Message) ON (m.event_id);

CREATE FULLTEXT INDEX episode_fulltext IF NOT EXISTS
FOR (e:Episode) ON EACH [e.goal, e.result, e.actions_text, e.tenant]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}};

CREATE FULLTEXT INDEX fact_fulltext IF NOT EXISTS
FOR (f:Fact) ON EACH [f.sentence, f.value, f.tenant]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}};

// Raw messages: the `english` analyzer stems ("running" finds "runs"); it splits Chinese
// into single characters, so graphmem asks for a Chinese word as a quoted phrase.
CREATE FULLTEXT INDEX message_fulltext IF NOT EXISTS
FOR (m:Message) ON EACH [m.text, m.speaker, m.tenant]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}};
