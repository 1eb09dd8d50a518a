"""``query_memory`` latency while writer processes ingest (issue 28, "Under load").

    python scripts/query_under_load.py --uri bolt://127.0.0.1:17987 \
        [--writers 8] [--messages 2000] [--rate 4] [--idle 40] [--max-s 600] [--asker-writes]

The measuring process connects its own ``Memory``, writes a history for one user (30
sessions of ten turns, flushed and consolidated, so both stores have something to find)
and times ``query_memory`` in three phases:

1. **idle**: ``--idle`` questions with nothing else running;
2. **load**: ``--writers`` writer processes (each its own ``Memory`` and buffer folder,
   online extraction on, as an application runs) each call ``add_message`` for
   ``--messages`` messages — sessions of ten turns over four users of its own — as fast as
   they can, then ``flush()``; questions go at ``--rate`` per second from the moment every
   writer is connected until the last one has flushed (or ``--max-s``);
3. **after**: ``--idle`` questions once the writers are gone.

With ``--asker-writes`` the measuring process is an application that writes too: a thread
of it calls ``add_message`` for ``--messages`` messages of other users through the same
``Memory`` during the load phase (its embedder, online queue and writer are shared with
the questions).

Per phase: n, p50 / p95 / p99 / max in ms, and where a question's time went: the Neo4j
statements (the tracer's wall times), embedding the question (wall time: its model runs in
threads of its own), the question's other CPU time in this process (``time.thread_time``)
and the rest (waiting: for the CPU, a lock, the driver pool). Plus the writers' throughput
and the load average, and the load phase per 15 s window (``load_by_15s``: when the slow
questions came). Progress goes to stderr, the JSON report to stdout. Use a scratch
server, never one holding data you need (users are named after a fresh ``--prefix``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphmem import Memory, MemoryConfig  # noqa: E402
from graphmem.embed import embed_queries, load_embedder  # noqa: E402
from graphmem.text.language import warmed_up  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
from add_message_latency import percentiles  # noqa: E402  (p50 / p95 / p99 / max in ms)

START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
CITIES = ["Paris", "Berlin", "Lisbon", "Oslo", "Madrid", "Vienna", "Prague", "Dublin"]
LIKES = ["jazz", "roses", "hiking", "sushi", "chess", "tulips", "tea", "cycling"]
COMPANIES = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay"]
TURNS = [
    ("user", "my budget for the trip is now ${budget}"),
    ("assistant", "Noted, I will keep that budget in mind."),
    ("user", "I live in {city} these days and I like {like}"),
    ("assistant", "{city} is a lovely city."),
    ("user", "I work at {company} now, can you help me plan the quarterly review?"),
    ("assistant", "Sure, I will draft an agenda for the {company} review with three parts."),
    ("user", "What is the weather like in {city} next week?"),
    ("assistant", "Next week in {city} looks mild with some rain midweek."),
    ("user", "Please remind me to book the flight to {city} on Friday."),
    ("assistant", "I will remind you on Friday about the flight to {city}."),
]
QUESTIONS = [
    "where do I live?", "what is my budget for the trip?", "what do I like?",
    "where do I work?", "what did we discuss about the quarterly review last week?",
    "when is the flight to Lisbon?", "what was the weather in Oslo like?",
    "which company do I work at and what review did we plan?",
]


def session_turns(user: str, session: str, k: int, t: datetime) -> list[dict[str, Any]]:
    values = {"budget": 100 + 25 * (k % 30), "city": CITIES[k % len(CITIES)],
              "like": LIKES[(k // 3) % len(LIKES)], "company": COMPANIES[(k // 5) % 6]}
    return [{"user_id": user, "session_id": session, "role": role,
             "content": text.format(**values), "ts": t + timedelta(minutes=i)}
            for i, (role, text) in enumerate(TURNS)]


def writer_messages(prefix: str, writer: int, total: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    k = 0
    while len(out) < total:
        user = f"{prefix}-w{writer}-u{k % 4}"
        out += session_turns(user, f"s{k}", k + writer, START + timedelta(hours=3 * k))
        k += 1
    return out[:total]


# -- a writer process ---------------------------------------------------------------------

def run_writer(args: argparse.Namespace) -> int:
    messages = writer_messages(args.prefix, args.writer, args.messages)
    mem = Memory.connect(args.uri, buffer_dir=args.buffer_dir)
    warmed_up(60)  # its models loaded, as in an application that has run a while
    print("connected", flush=True)
    started = time.perf_counter()
    for m in messages:
        mem.add_message(m["user_id"], m["session_id"], m["role"], m["content"], m["ts"])
    sent_s = time.perf_counter() - started
    mem.flush()
    stats = mem.stats()
    mem.close()
    print(json.dumps({"sent": len(messages), "sent_s": round(sent_s, 2),
                      "flushed_s": round(time.perf_counter() - started, 2),
                      "episodes": stats.episodes_written, "rejected": len(stats.rejected)}),
          flush=True)
    return 0


# -- the measuring process --------------------------------------------------------------------

class Timings:
    """Per question: wall time, this thread's CPU time, and the Neo4j statements' time."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.neo4j: list[float] = []
        self.embed: list[float] = []
        self.at: list[float] = []  # when each question was asked (time.monotonic)
        self._statements = 0.0
        self._embedding = 0.0
        self._lock = threading.Lock()

    def embedded(self, ms: float) -> None:
        self._embedding += ms

    def tracer(self, line: str) -> None:  # "<name> <ms> ms"
        with self._lock:
            self._statements += float(line.rsplit(" ", 2)[-2])

    def ask(self, mem: Memory, user: str, question: str) -> None:
        with self._lock:
            self._statements = 0.0
        self._embedding = 0.0
        self.at.append(time.monotonic())
        cpu0, t0 = time.thread_time(), time.perf_counter()
        mem.query_memory(question, user, now=START + timedelta(days=100))
        self.wall.append((time.perf_counter() - t0) * 1000)
        self.cpu.append((time.thread_time() - cpu0) * 1000)
        self.embed.append(self._embedding)
        with self._lock:
            self.neo4j.append(self._statements)

    def report(self) -> dict[str, Any]:
        out = percentiles(self.wall)
        if len(self.wall) >= 2:
            rest = [w - c - n - e for w, c, n, e in
                    zip(self.wall, self.cpu, self.neo4j, self.embed, strict=True)]
            out["neo4j_ms"] = percentiles(self.neo4j)
            out["embed_ms"] = percentiles(self.embed)
            out["own_cpu_ms"] = percentiles(self.cpu)
            out["waiting_ms"] = percentiles(rest)
        return out

    def windows(self, began: float, seconds: float) -> list[dict[str, Any]]:
        """p50 / p95 / max per window of ``seconds`` from ``began``: when the slow ones
        came (a just-started server is slow at first; see docs/deployment.md)."""
        by: dict[int, list[float]] = {}
        for at, ms in zip(self.at, self.wall, strict=True):
            by.setdefault(int((at - began) // seconds), []).append(ms)
        return [{"from_s": int(k * seconds), **percentiles(v)} for k, v in sorted(by.items())]


def spawn_writer(args: argparse.Namespace, writer: int, workdir: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--role", "writer", "--uri", args.uri,
         "--prefix", args.prefix, "--writer", str(writer), "--messages", str(args.messages),
         "--buffer-dir", str(workdir / f"w{writer}")],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)


def measure(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="graphmem-load-"))
    timings = {name: Timings() for name in ("idle", "load", "after")}
    current = {"phase": timings["idle"]}
    model = load_embedder(MemoryConfig())

    class TimedEmbedder:  # the model, its question embeddings timed for the question asked
        def __getattr__(self, name: str) -> Any:  # dimension, space, cosine scales, embed
            return getattr(model, name)

        def embed_query(self, texts: list[str]) -> list[list[float]]:
            started = time.perf_counter()
            try:
                return embed_queries(model, texts)
            finally:
                if threading.current_thread() is threading.main_thread():
                    current["phase"].embedded((time.perf_counter() - started) * 1000)

    mem = Memory.connect(args.uri, buffer_dir=workdir / "query", embedder=TimedEmbedder(),
                         tracer=lambda line: current["phase"].tracer(line))
    user = f"{args.prefix}-asker"
    history = [m for k in range(30)
               for m in session_turns(user, f"s{k}", k, START + timedelta(days=2 * k))]
    mem.add_messages(history)
    mem.flush()
    mem.consolidate(user)
    print(f"history of {len(history)} messages written", file=sys.stderr)

    def ask(phase: str, n: int) -> None:
        current["phase"] = timings[phase]
        for i in range(n):
            timings[phase].ask(mem, user, QUESTIONS[i % len(QUESTIONS)])

    ask("idle", args.idle)
    print(f"idle: {timings['idle'].report()}", file=sys.stderr)
    load1_before = os.getloadavg()[0]
    writers = [spawn_writer(args, w, workdir) for w in range(args.writers)]
    own = threading.Thread(target=lambda: [
        mem.add_message(m["user_id"], m["session_id"], m["role"], m["content"], m["ts"])
        for m in writer_messages(args.prefix, args.writers, args.messages)], daemon=True)
    for proc in writers:  # every writer connected (models loaded) before the clock starts
        assert proc.stdout is not None
        proc.stdout.readline()
    print(f"{len(writers)} writers connected; asking at {args.rate}/s", file=sys.stderr)
    current["phase"] = timings["load"]
    began = time.monotonic()
    if args.asker_writes:
        own.start()
    loads: list[float] = []
    k = 0
    while ((any(p.poll() is None for p in writers) or own.is_alive())
           and time.monotonic() - began < args.max_s):
        wait = began + k / args.rate - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        timings["load"].ask(mem, user, QUESTIONS[k % len(QUESTIONS)])
        k += 1
        if k % 20 == 0:
            loads.append(os.getloadavg()[0])
            print(f"  {k} questions, {time.monotonic() - began:.0f} s", file=sys.stderr)
    load_s = time.monotonic() - began
    results = []
    for proc in writers:
        out, _ = proc.communicate(timeout=args.max_s)
        lines = [line for line in out.splitlines() if line.startswith("{")]
        results.append(json.loads(lines[-1]) if lines else {"exit": proc.returncode})
    mem.flush()
    ask("after", args.idle)
    mem.close()
    sent = sum(r.get("sent", 0) for r in results)
    return {
        "writers": args.writers, "messages_per_writer": args.messages, "rate": args.rate,
        "asker_writes": args.asker_writes,
        "idle": timings["idle"].report(), "load": timings["load"].report(),
        "after": timings["after"].report(),
        "load_by_15s": timings["load"].windows(began, 15.0),
        "load_s": round(load_s, 1), "messages_sent": sent,
        "messages_per_s": round(sent / load_s, 1) if load_s else None,
        "writer_results": results, "load1_before": round(load1_before, 2),
        "load1_during_max": round(max(loads), 2) if loads else None, "cpus": os.cpu_count(),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--messages", type=int, default=2000, help="per writer")
    parser.add_argument("--rate", type=float, default=4.0, help="questions per second")
    parser.add_argument("--idle", type=int, default=40, help="questions when idle")
    parser.add_argument("--max-s", type=float, default=600.0)
    parser.add_argument("--asker-writes", action="store_true",
                        help="the measuring process ingests too (one more writer)")
    parser.add_argument("--prefix", default=f"load-{uuid.uuid4().hex[:6]}")
    parser.add_argument("--role", choices=["measure", "writer"], default="measure")
    parser.add_argument("--writer", type=int, default=0)
    parser.add_argument("--buffer-dir")
    args = parser.parse_args()
    if args.role == "writer":
        return run_writer(args)
    print(json.dumps(measure(args), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
