// Which vector indexes exist, their state, dimension, filter properties (2026.x: the
// properties after the vector) and quantization — the first check when recall looks wrong.
// Parameters: none.
SHOW VECTOR INDEXES
YIELD name, state, labelsOrTypes, properties, options
RETURN name, state, labelsOrTypes, properties,
       options.indexConfig.`vector.dimensions` AS dimension,
       options.indexConfig.`vector.similarity_function` AS similarity,
       options.indexConfig.`vector.quantization.type` AS quantization
ORDER BY name
