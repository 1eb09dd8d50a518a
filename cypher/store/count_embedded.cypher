// Re-embedding (graphmem reembed): how many episodes and fact versions there are to
// embed again.
// Parameters: none.
CALL () {
  MATCH (e:Episode) WHERE e.raw_span_start IS NOT NULL  // stored, not only begun
  RETURN count(e) AS episodes
}
CALL () { MATCH (f:Fact) RETURN count(f) AS facts }
RETURN episodes, facts
