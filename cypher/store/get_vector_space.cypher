// The vector space (embedding model) the database's vectors were made in, with its
// dimension, and whether any vector is stored at all: a database written before graphmem
// recorded it has no space but vectors (all-MiniLM-L6-v2, the only model then).
// Parameters: none.
OPTIONAL MATCH (g:GraphmemSchema {key: 'graph'})
CALL () {
  OPTIONAL MATCH (e:Episode) WHERE e.embedding IS NOT NULL
  WITH e LIMIT 1
  RETURN e IS NOT NULL AS embedded
}
RETURN g.vector_space AS space, g.vector_dimension AS dimension, embedded
