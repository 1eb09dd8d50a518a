"""Long user↔assistant histories: LongMemEval (``graphmem bench longmemeval``) and
graphmem's own chat sets in English and Chinese (``graphmem bench chat``). ``data`` reads
them, ``baselines`` ranks single turns (BM25, dense, hybrid), ``score`` scores a context,
``run`` ingests, asks and tabulates."""
