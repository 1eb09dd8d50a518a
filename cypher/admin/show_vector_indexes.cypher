// Which vector indexes exist, their state and dimension — the first check when recall looks wrong.
// Parameters: none.
SHOW VECTOR INDEXES
YIELD name, state, labelsOrTypes, properties, options
RETURN name, state, labelsOrTypes, properties,
       options.indexConfig.`vector.dimensions` AS dimension,
       options.indexConfig.`vector.similarity_function` AS similarity
ORDER BY name
