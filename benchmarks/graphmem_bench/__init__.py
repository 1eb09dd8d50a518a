"""Benchmarks. Each lives in its own module and is imported on demand:

- ``graphmem_bench.generate`` / ``graphmem_bench.ingest``: synthetic ingest throughput.
- ``graphmem_bench.scale``: ingest, consolidation and ``query_memory`` from 10k messages up
  on a seeded ``ScaleCorpus``; brute-force, 5.26 oversampling and filtered-index vector
  search side by side (``graphmem_bench.svgplot`` draws the chart).
- ``graphmem_bench.locomo``: retrieval quality on LoCoMo (``run_locomo``), graphmem
  against equal-token baselines from ``graphmem_bench.baselines`` (``flat`` vector
  search over single messages, ``bm25`` full-text search over single messages).

Nothing is imported here, so a benchmark's dependencies load only when it runs.
"""
