// Drops a vector index graphmem rebuilds with other settings: on a server that gained
// Cypher 25's SEARCH (a 5.26 database opened by 2026.x), an index without the filter
// properties. The vectors stay on the nodes; the new index is filled from them.
// Parameters: $index (the index name, e.g. 'episode_embedding').
DROP INDEX $index IF EXISTS
