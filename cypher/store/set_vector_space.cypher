// Records the vector space (embedding model) and dimension of the database's vectors.
// Parameters: $space (STRING), $dimension (INTEGER).
MERGE (g:GraphmemSchema {key: 'graph'})
SET g.vector_space = $space, g.vector_dimension = $dimension, g.space_set_at = datetime()
RETURN g.vector_space AS space
