// Vector indexes on Neo4j 2026.x: each also holds the properties graphmem filters on, so
// Cypher 25's SEARCH … WHERE finds the k nearest *inside* the filter in one index operator.
// Episodes: the user and the time window. Facts: the user and the start of validity (an open
// validity end is null, and a SEARCH filter takes no OR / IS NULL: checked after). Messages:
// the user and the time said (the vectors consolidation makes of each message).
// Quantization NONE: binary quantization lost recall against exact search when filtered
// (docs/vector-search.md has the measurements).
// Parameters: $dimension (the embedder's vector size, e.g. 384).
CYPHER 25
CREATE VECTOR INDEX episode_embedding IF NOT EXISTS
FOR (e:Episode) ON e.embedding
WITH [e.user_id, e.start_time, e.end_time]
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine',
                       `vector.quantization.type`: 'NONE'}};

CYPHER 25
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS
FOR (f:Fact) ON f.embedding
WITH [f.user_id, f.valid_from]
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine',
                       `vector.quantization.type`: 'NONE'}};;

CYPHER 25
CREATE VECTOR INDEX message_embedding IF NOT EXISTS
FOR (m:Message) ON m.embedding
WITH [m.user_id, m.ts]
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine',
                       `vector.quantization.type`: 'NONE'}};
