// graphmem schema — applied idempotently by `graphmem init` and on Memory.connect().
// Parameters: $dimension (the embedder's vector size, e.g. 384).
//
// Data model (see README "Data model" for the picture):
//   (:User {user_id})-[:HAS_SESSION]->(:Session {session_id, user_id})
//   (:Session)-[:HAS_EPISODE]->(:Episode {event_id, user_id, session_id, start_time,
//        end_time, goal, result, actions, actions_text, raw_span_start, raw_span_end,
//        participants, semantics_refs, embedding})
//   (:Episode)-[:NEXT]->(:Episode)            each user's episodes in time order
//   (:Entity {entity_id, user_id, name, kind, aliases})
//   (:Fact {fact_id, user_id, entity_id, predicate, value, value_id, negated, sentence,
//        confidence, status, first_seen, last_verified, valid_from, valid_until,
//        source_episodes, embedding})       one node per version of a fact
//   (:Fact)-[:ABOUT]->(:Entity)  (:Fact)-[:HAS_VALUE]->(:Entity)
//   (:Fact)-[:SUPERSEDES]->(:Fact)            newer version -> the version it replaced
//   (:Fact)-[:DERIVED_FROM]->(:Episode)       provenance of every version
//   (:Entity)-[:<PREDICATE> {fact_id, confidence, negated}]->(:Entity)
//                                             the typed edge of the *current* version only
//   (:Entity)-[:MAYBE_SAME_AS {score}]->(:Entity)   ambiguous merges, for review

CREATE CONSTRAINT user_id_unique IF NOT EXISTS FOR (u:User) REQUIRE u.user_id IS UNIQUE;
CREATE CONSTRAINT session_id_unique IF NOT EXISTS FOR (s:Session) REQUIRE s.session_id IS UNIQUE;
CREATE CONSTRAINT episode_id_unique IF NOT EXISTS FOR (e:Episode) REQUIRE e.event_id IS UNIQUE;
CREATE CONSTRAINT fact_id_unique IF NOT EXISTS FOR (f:Fact) REQUIRE f.fact_id IS UNIQUE;
CREATE CONSTRAINT entity_id_unique IF NOT EXISTS FOR (n:Entity) REQUIRE n.entity_id IS UNIQUE;

CREATE RANGE INDEX episode_user_start IF NOT EXISTS FOR (e:Episode) ON (e.user_id, e.start_time);
CREATE RANGE INDEX episode_start_time IF NOT EXISTS FOR (e:Episode) ON (e.start_time);
CREATE RANGE INDEX episode_end_time IF NOT EXISTS FOR (e:Episode) ON (e.end_time);
CREATE RANGE INDEX fact_user_status IF NOT EXISTS FOR (f:Fact) ON (f.user_id, f.status);
CREATE RANGE INDEX fact_key IF NOT EXISTS FOR (f:Fact) ON (f.user_id, f.entity_id, f.predicate);
CREATE RANGE INDEX fact_last_verified IF NOT EXISTS FOR (f:Fact) ON (f.last_verified);
CREATE RANGE INDEX fact_valid_until IF NOT EXISTS FOR (f:Fact) ON (f.valid_until);
CREATE RANGE INDEX entity_user IF NOT EXISTS FOR (n:Entity) ON (n.user_id);

CREATE VECTOR INDEX episode_embedding IF NOT EXISTS
FOR (e:Episode) ON e.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};

CREATE VECTOR INDEX fact_embedding IF NOT EXISTS
FOR (f:Fact) ON f.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};

CREATE FULLTEXT INDEX episode_text IF NOT EXISTS
FOR (e:Episode) ON EACH [e.goal, e.result, e.actions_text]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}};

CREATE FULLTEXT INDEX fact_text IF NOT EXISTS
FOR (f:Fact) ON EACH [f.sentence, f.value]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'cjk'}};
