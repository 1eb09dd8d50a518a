"""``query_memory`` latency on long user↔assistant histories, one cold question each (issue 25).

    python scripts/history_latency.py --uri bolt://127.0.0.1:17987 \
        [--run-tag lme] [--budget 512] [--per-type 10] [--rounds 3]

Asks each LongMemEval question of the development split once, in a fresh process per round,
over the histories an earlier ``graphmem bench longmemeval --run-tag <tag>`` stored (users
``<tag>-<history id>``), at a fixed token budget with the top-k that bench asks for
(budget / 16). Every history is asked one question, so nothing a question needs was read or
cut before (the per-process caches of sentence splits and words are cold) — unlike the
bench's own latency line, where the 512-token question follows the 128-token one. The query
embedding is included. Prints p50 / p95 / max in ms per round as JSON lines on stdout.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "bench" / "longmemeval" / "longmemeval_s_dev120.jsonl.gz"


def one_round(args: argparse.Namespace) -> dict[str, float]:
    from graphmem_bench.histories.data import load_longmemeval
    from graphmem_bench.histories.run import user_id_for

    from graphmem import Memory

    histories = load_longmemeval(Path(args.data), per_type=args.per_type or None)
    took: list[float] = []
    with tempfile.TemporaryDirectory() as buffer, \
            Memory.connect(args.uri, buffer_dir=Path(buffer)) as mem:
        for history in histories:
            user = user_id_for(args.run_tag, history.history_id)
            for q in history.questions:
                began = time.perf_counter()
                mem.query_memory(q.text, user, now=q.date, token_budget=args.budget,
                                 top_k_episodes=max(3, args.budget // 16),
                                 top_k_facts=max(5, args.budget // 16))
                took.append((time.perf_counter() - began) * 1000)
    took.sort()
    return {"n": len(took), "p50_ms": round(statistics.median(took), 1),
            "p95_ms": round(took[max(0, int(0.95 * len(took)) - 1)], 1),
            "max_ms": round(took[-1], 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--run-tag", default="lme")
    parser.add_argument("--budget", type=int, default=512)
    parser.add_argument("--per-type", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--data", default=str(DATA))
    parser.add_argument("--one-round", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one_round:
        print(json.dumps(one_round(args)), flush=True)
        return
    for _ in range(args.rounds):  # a process a round: every cache starts cold
        subprocess.run([sys.executable, __file__, "--one-round", *sys.argv[1:]], check=True)


if __name__ == "__main__":
    main()
