"""What a closed ``Memory`` leaves behind (issue 10): memory, threads, files, objects.

    python scripts/memory_after_close.py --uri bolt://127.0.0.1:18087 \
        [--cycles 20] [--messages 250] [--shared-embedder] [--tracemalloc]

Each cycle, in this one process: ``Memory.connect`` → ``add_messages`` (``--messages``
turns over 5 users) → ``flush`` → ``query_memory`` → ``consolidate`` → ``close``, then the
``Memory`` is dropped and ``gc.collect()`` runs. After each cycle it prints: resident
memory (VmRSS, MB), live threads, open file descriptors, whether the closed ``Memory`` is
garbage (a weak reference to it is dead), the number of live objects of graphmem's own
classes and, with ``--tracemalloc``, the Python heap traced (MB). At the end, the
biggest growths of the Python heap between cycle 2 and the last, and the resident
memory once the spaCy pipelines are dropped and once glibc returns its free arenas
(``malloc_trim``): what is left is live, what went away was held, not leaked.

By default each ``connect`` loads its own embedder (what an application does when it
passes none); ``--shared-embedder`` loads one and passes it to every cycle. The spaCy
pipelines are loaded once per process either way (``graphmem.text.language``). A leak shows as
RSS, objects or threads that keep growing cycle after cycle; a plateau after the first
cycles is the models and the allocator keeping freed arenas. Use a scratch server (it
writes users named after a fresh prefix).
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import json
import os
import sys
import tempfile
import threading
import time
import tracemalloc
import uuid
import weakref
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphmem import Memory  # noqa: E402
from graphmem._config import MemoryConfig  # noqa: E402
from graphmem.embed import load_embedder  # noqa: E402
from graphmem.text.language import chinese_nlp, english_nlp  # noqa: E402

START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
TURNS = ["I live in {x} these days", "I like {x}", "my budget is now ${n}",
         "Can you help me plan a trip to {x}?", "we talked about {x} yesterday"]
PLACES = ["Paris", "Berlin", "Lisbon", "Oslo", "Madrid", "jazz", "hiking", "sushi"]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def graphmem_objects() -> Counter[str]:
    """Live objects whose class is defined in graphmem, by class name."""
    found: Counter[str] = Counter()
    for o in gc.get_objects():
        module = type(o).__dict__.get("__module__")
        if isinstance(module, str) and module.startswith("graphmem"):
            found[type(o).__qualname__] += 1
    return found


def messages(prefix: str, cycle: int, n: int) -> list[dict]:
    return [{"user_id": f"{prefix}-u{k % 5}", "session_id": f"c{cycle}-s{k // 50}",
             "role": "user" if k % 2 == 0 else "assistant",
             "content": TURNS[k % 5].format(x=PLACES[(k + cycle) % 8], n=100 + k),
             "ts": START + timedelta(days=cycle, minutes=k)} for k in range(n)]


def cycle(uri: str, buffer_dir: Path, prefix: str, i: int, n: int, embedder) -> weakref.ref:
    mem = Memory.connect(uri, buffer_dir=buffer_dir, embedder=embedder)
    try:
        mem.add_messages(messages(prefix, i, n))
        mem.flush()
        mem.query_memory("where do I live?", f"{prefix}-u0", now=START + timedelta(days=i + 1))
        mem.consolidate(now=START + timedelta(days=i + 1))
    finally:
        mem.close()
    return weakref.ref(mem)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--cycles", type=int, default=20)
    parser.add_argument("--messages", type=int, default=250)
    parser.add_argument("--shared-embedder", action="store_true")
    parser.add_argument("--tracemalloc", action="store_true")
    args = parser.parse_args()
    prefix = f"mem{uuid.uuid4().hex[:6]}"
    embedder = load_embedder(MemoryConfig(neo4j_uri=args.uri)) if args.shared_embedder else None
    if args.tracemalloc:
        tracemalloc.start(10)
    rows, snapshot2 = [], None
    baseline = {"rss_mb": round(rss_mb(), 1), "threads": threading.active_count(),
                "fds": len(os.listdir("/proc/self/fd"))}
    print(json.dumps({"before": baseline}), flush=True)
    with tempfile.TemporaryDirectory(prefix="graphmem-memory-") as tmp:
        for i in range(1, args.cycles + 1):
            began = time.monotonic()
            ref = cycle(args.uri, Path(tmp) / "buffer", prefix, i, args.messages, embedder)
            gc.collect()
            row = {"cycle": i, "s": round(time.monotonic() - began, 1),
                   "rss_mb": round(rss_mb(), 1), "threads": threading.active_count(),
                   "fds": len(os.listdir("/proc/self/fd")), "memory_collected": ref() is None,
                   "thread_names": sorted(t.name for t in threading.enumerate()
                                          if t is not threading.main_thread()),
                   "graphmem_objects": sum(graphmem_objects().values())}
            if args.tracemalloc:
                row["traced_mb"] = round(tracemalloc.get_traced_memory()[0] / 2**20, 1)
                if i == 2:
                    snapshot2 = tracemalloc.take_snapshot()
            rows.append(row)
            print(json.dumps(row), flush=True)
    result = {"cycles": args.cycles, "messages_per_cycle": args.messages,
              "shared_embedder": args.shared_embedder,
              "rss_growth_mb_after_cycle_2":
                  round(rows[-1]["rss_mb"] - rows[min(1, len(rows) - 1)]["rss_mb"], 1),
              "live_graphmem_objects": dict(graphmem_objects().most_common(10))}
    result["rss_mb_at_end"] = round(rss_mb(), 1)
    english_nlp.cache_clear()  # the process-wide spaCy pipelines (see graphmem.text.language)
    chinese_nlp.cache_clear()
    gc.collect()
    result["rss_mb_after_dropping_spacy"] = round(rss_mb(), 1)
    try:  # what of the rest is freed memory glibc keeps in its arenas
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        result["rss_mb_after_malloc_trim"] = round(rss_mb(), 1)
    except (OSError, AttributeError):  # not glibc
        pass
    if snapshot2 is not None:
        top = tracemalloc.take_snapshot().compare_to(snapshot2, "lineno")[:10]
        result["heap_growth_since_cycle_2"] = [
            f"{s.size_diff / 1024:+.0f} KiB {s.count_diff:+d} blocks "
            f"{s.traceback[0].filename}:{s.traceback[0].lineno}" for s in top]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
