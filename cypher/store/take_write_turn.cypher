// Take graphmem's one write turn: the first statement of every write transaction
// (store/runner.py, MemoryConfig.neo4j_serial_writes). Setting a property of the one
// WriteGate node takes its write lock until the transaction ends, so the write transactions
// of every process commit one at a time and a read never shares the CPU with a queue of
// them (on a small server, eight writers at once starved the questions asked beside them).
// A writer waiting here holds no other lock: it is taken before any other.
// Parameters: none.
MERGE (g:WriteGate {key: 'writes'})
SET g.turns = coalesce(g.turns, 0) + 1
