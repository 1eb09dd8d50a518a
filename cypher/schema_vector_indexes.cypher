// Vector indexes on servers without Cypher 25's SEARCH (Neo4j 5.26 LTS): the vector only.
// Filters (user, time window, validity) are applied after an oversampled
// db.index.vector.queryNodes, or by an exact scan of a small filtered set
// (graphmem.store.search).
// Parameters: $dimension (the embedder's vector size, e.g. 384).
CREATE VECTOR INDEX episode_embedding IF NOT EXISTS
FOR (e:Episode) ON e.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};

CREATE VECTOR INDEX fact_embedding IF NOT EXISTS
FOR (f:Fact) ON f.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};;

CREATE VECTOR INDEX message_embedding IF NOT EXISTS
FOR (m:Message) ON m.embedding
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}};
