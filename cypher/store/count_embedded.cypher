// Re-embedding (graphmem reembed): how many episodes and fact versions there are to
// embed again.
// Parameters: none.
CALL () { MATCH (e:Episode) RETURN count(e) AS episodes }
CALL () { MATCH (f:Fact) RETURN count(f) AS facts }
RETURN episodes, facts
