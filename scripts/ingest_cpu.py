"""Where ingest's CPU goes: `add_messages` + `flush` of a seeded `bench scale` corpus, with
the CPU time of this process (the embedder and the rest of graphmem) and of the Neo4j server
(from /proc), then the embedder alone on the same episode texts — the ceiling ingest is
measured against.

    python scripts/ingest_cpu.py --uri bolt://127.0.0.1:7687 --neo4j-dir .neo4j \
        [--messages 10000] [--runs 3]

``--neo4j-dir`` is the server's folder (``GRAPHMEM_NEO4J_DIR`` of ``scripts/neo4j-local``;
its ``run/neo4j.pid`` names the process). Each run loads fresh users and leaves them
unconsolidated: run it against a development server, not one that holds data you keep.
The first run on a freshly started server pays the JVM's warm-up; later runs show the
steady state.
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
import uuid
from pathlib import Path

from add_message_latency import cpu_s  # scripts/ is on sys.path when run as a script
from graphmem_bench.generate import ScaleCorpus

from graphmem import Memory

USERS = 200
SEED = 7
BATCH = 500


def process_cpu_s(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (``add_message_latency.cpu_s``)."""
    seconds = cpu_s(pid)
    if seconds is None:
        raise SystemExit(f"process {pid} (the Neo4j server) is gone")
    return seconds


def own_cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def one_run(uri: str, neo4j_pid: int, messages: int) -> None:
    corpus = ScaleCorpus(messages, USERS, SEED, prefix=f"cpu-{uuid.uuid4().hex[:8]}")
    batch = list(corpus.messages())
    with tempfile.TemporaryDirectory(prefix="graphmem-ingest-cpu-") as tmp, \
            Memory.connect(uri=uri, buffer_dir=tmp) as mem:
        mem.embedder.embed(["warm up"] * 8)
        mine, server, began = own_cpu_s(), process_cpu_s(neo4j_pid), time.perf_counter()
        for start in range(0, len(batch), BATCH):
            mem.add_messages(batch[start:start + BATCH])
        mem.flush()
        wall = time.perf_counter() - began
        mine, server = own_cpu_s() - mine, process_cpu_s(neo4j_pid) - server
        texts = [ep.text for u in range(USERS) for ep in mem.episodes(corpus.user_id(u))]
        alone_cpu, alone_began = own_cpu_s(), time.perf_counter()
        for start in range(0, len(texts), 256):
            mem.embedder.embed(texts[start:start + 256])
        alone = time.perf_counter() - alone_began
        alone_cpu = own_cpu_s() - alone_cpu
    print(f"ingest {messages:,} messages: {wall:.2f} s, {messages / wall:,.0f} messages/s; "
          f"CPU graphmem {mine:.1f} s (the embedder ~{alone_cpu:.1f} of it, the rest "
          f"~{max(mine - alone_cpu, 0):.1f}), Neo4j {server:.1f} s")
    print(f"  the embedder alone on the {len(texts):,} episode texts: {alone:.2f} s, "
          f"{messages / alone:,.0f} messages/s, CPU {alone_cpu:.1f} s; "
          f"ingest / embedder alone = {alone / wall:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--neo4j-dir", type=Path, required=True)
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    pid_file = args.neo4j_dir / "run" / "neo4j.pid"
    if not pid_file.is_file():
        parser.error(f"{pid_file} not found: is the server started by scripts/neo4j-local "
                     "with GRAPHMEM_NEO4J_DIR set to --neo4j-dir?")
    neo4j_pid = int(pid_file.read_text().split()[0])
    for _ in range(args.runs):
        one_run(args.uri, neo4j_pid, args.messages)


if __name__ == "__main__":
    main()
