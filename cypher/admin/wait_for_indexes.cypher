// Blocks until every index is ONLINE (or the timeout in seconds passes).
// Parameters: none.
CALL db.awaitIndexes(300)
