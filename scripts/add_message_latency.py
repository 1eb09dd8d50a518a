"""``add_message`` latency with and without a concurrent consolidation run (issue 11).

    python scripts/add_message_latency.py --uri bolt://127.0.0.1:33687 \
        [--backlog-users 10] [--backlog-sessions 20] [--messages 1500]

1. A backlog: ``--backlog-users`` users with ``--backlog-sessions`` closed, not yet
   consolidated sessions each (what a worker finds after a busy day).
2. Baseline: ``--messages`` calls of ``add_message`` (fresh users, online extraction on,
   the episode writer working in the background as in production), each call timed.
3. Concurrent: ``graphmem worker --once`` starts in its own process on the backlog; the
   ``add_message`` calls are timed from the moment its run starts (it logs it) until it
   has finished, so every sample overlaps the consolidation run.

Prints p50 / p95 / p99 in milliseconds for both, the ratio of the p95s and the worker's
run summary, as JSON. Use a test server, never one holding data you need (it writes users
named after a fresh ``--prefix``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphmem import Memory  # noqa: E402

START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
TURNS = [
    "I live in {city} these days", "I like {like}", "my budget is now ${budget}",
    "I work at {company} now", "Can you help me plan the review for the {company} team?",
]
CITIES = ["Paris", "Berlin", "Lisbon", "Oslo", "Madrid"]
LIKES = ["jazz", "roses", "hiking", "sushi", "chess"]
COMPANIES = ["Acme", "Globex", "Initech", "Hooli"]


def turn(k: int) -> str:
    return TURNS[k % len(TURNS)].format(city=CITIES[k // 7 % 5], like=LIKES[k // 3 % 5],
                                        budget=200 + 25 * (k % 9),
                                        company=COMPANIES[k // 11 % 4])


def backlog(prefix: str, users: int, sessions: int) -> list[dict]:
    out = []
    for u in range(users):
        for s in range(sessions):
            t = START + timedelta(days=s, minutes=u)
            out += [{"user_id": f"{prefix}-backlog{u}", "session_id": f"s{s}", "role": "user",
                     "content": turn(u * 31 + s * 5 + i), "ts": t + timedelta(minutes=i)}
                    for i in range(5)]
    return out


def timed_calls(mem: Memory, prefix: str, n: int, keep_going=lambda: False) -> list[float]:
    """Latencies (ms) of add_message; continues past ``n`` while ``keep_going()``."""
    samples: list[float] = []
    k = 0
    while k < n or keep_going():
        user, session = f"{prefix}-live{k % 20}", f"s{k // 100}"
        ts = START + timedelta(days=60, seconds=30 * k)
        began = time.perf_counter()
        mem.add_message(user, session, "user", turn(k), ts)
        samples.append((time.perf_counter() - began) * 1000)
        k += 1
    return samples


def percentiles(samples: list[float]) -> dict[str, float]:
    q = statistics.quantiles(samples, n=100)
    return {"n": len(samples), "p50_ms": round(q[49], 3), "p95_ms": round(q[94], 3),
            "p99_ms": round(q[98], 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--backlog-users", type=int, default=10)
    parser.add_argument("--backlog-sessions", type=int, default=20)
    parser.add_argument("--messages", type=int, default=1500)
    parser.add_argument("--prefix", default=f"lat{uuid.uuid4().hex[:6]}")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="graphmem-latency-") as tmp:
        mem = Memory.connect(args.uri, buffer_dir=Path(tmp) / "app")
        with mem:
            mem.add_messages(backlog(args.prefix, args.backlog_users, args.backlog_sessions))
            mem.flush()
            timed_calls(mem, args.prefix + "-warm", 100)  # models and connections warm
            baseline = timed_calls(mem, args.prefix + "-base", args.messages)
            mem.flush()
            env = {**os.environ, "PYTHONPATH": str(ROOT)}
            worker = subprocess.Popen(
                [sys.executable, "-m", "graphmem", "worker", "--once", "--uri", args.uri,
                 "--buffer-dir", str(Path(tmp) / "worker")],
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
            started, lines = threading.Event(), []

            def read_log() -> None:  # the worker logs when its run starts
                for line in worker.stderr:
                    lines.append(line)
                    if "started:" in line:
                        started.set()

            reader = threading.Thread(target=read_log, daemon=True)
            reader.start()
            while not started.is_set() and worker.poll() is None:
                time.sleep(0.05)  # it is loading models and connecting
            began = time.perf_counter()
            during = timed_calls(mem, args.prefix + "-conc", 0,
                                 keep_going=lambda: worker.poll() is None)
            overlap_s = time.perf_counter() - began
            out = worker.stdout.read()
            worker.wait()
            reader.join(timeout=5)
            errors = "".join(lines)
            mem.flush()
    base, conc = percentiles(baseline), percentiles(during)
    print(json.dumps({
        "baseline": base, "during_consolidation": conc,
        "p95_ratio": round(conc["p95_ms"] / base["p95_ms"], 3),
        "overlap_s": round(overlap_s, 1),
        "worker_exit": worker.returncode, "worker": out.strip().splitlines()[-1:],
        "worker_errors": errors.strip().splitlines()[-3:] if worker.returncode else [],
    }, indent=2))


if __name__ == "__main__":
    main()
