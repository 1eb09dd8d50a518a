"""Several writer processes and concurrent consolidations on one Neo4j: nothing lost,
nothing forked, no deadlocks.

    python scripts/reliability_multiprocess.py --uri bolt://127.0.0.1:27687 \
        [--writers 4] [--messages 5000] [--users 6] [--consolidators 2]

Each writer process has its own buffer folder and writes ``--messages`` messages over
``--users`` users shared by all writers (each writer its own sessions; times interleave
across writers), with online fact extraction on; ``--consolidators`` processes, each
with ``--threads`` threads, run ``consolidate()`` on the same users over and over
meanwhile, then once more at the end. Then the graph is
checked (``check_graph``): every message stored exactly once, each user's ``NEXT`` chain
complete and in time order, no duplicate entities, never two current versions of a
single-valued fact, no duplicate current version, no typed edge without its current
fact, and no transaction the driver had to retry for a deadlock. Prints the figures as
JSON; exits 1 if an invariant is broken. Use a test server, never one holding data you
need (it only reads and writes users named after ``--prefix``).

``tests/test_reliability_processes.py`` runs the same code at a small size.
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
START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
SESSION_LEN = 10
CITIES = ["Paris", "Berlin", "Lisbon", "Oslo", "Madrid", "Vienna", "Prague", "Dublin"]
COMPANIES = ["Acme", "Globex", "Initech", "Umbrella", "Hooli", "Vandelay"]
LIKES = ["jazz", "roses", "hiking", "sushi", "chess", "tulips", "tea", "cycling"]
CHATTER = [
    ("Can you help me plan the quarterly review for the {c} team?",
     "Sure, I will draft an agenda for the {c} review with three parts."),
    ("What is the weather like in {city} next week?",
     "Next week in {city} looks mild with some rain midweek."),
    ("Please summarise the notes from the {c} meeting.",
     "The {c} meeting agreed on the budget and the next milestone."),
]


def writer_messages(prefix: str, writer: int, writers: int, users: int, total: int
                    ) -> list[dict[str, Any]]:
    """``total`` messages of one writer: sessions of ten turns, facts said in some."""
    out: list[dict[str, Any]] = []
    k = 0
    while len(out) < total:
        user = f"{prefix}-u{k % users}"
        session = f"{prefix}-w{writer}-s{k}"
        t = START + timedelta(hours=(k * writers + writer) * 3)
        n = (k * 7 + writer) % 8
        turns = [
            ("user", f"my budget is now ${100 + 10 * ((k + writer) % 30)}"),
            ("assistant", "Noted, I will keep that budget in mind."),
            ("user", f"I live in {CITIES[n]} these days"),
            ("assistant", f"{CITIES[n]} is a lovely city."),
            ("user", f"I like {LIKES[(k + writer) % len(LIKES)]}"),
            ("assistant", "Good to know, I will remember it."),
            ("user", f"I work at {COMPANIES[(k + 2 * writer) % len(COMPANIES)]} now"),
        ]
        chat_u, chat_a = CHATTER[k % len(CHATTER)]
        turns += [("assistant", "Congratulations on the job."),
                  ("user", chat_u.format(c=COMPANIES[n % 6], city=CITIES[n])),
                  ("assistant", chat_a.format(c=COMPANIES[n % 6], city=CITIES[n]))]
        for i, (role, content) in enumerate(turns[:SESSION_LEN]):
            out.append({"user_id": user, "session_id": session, "role": role,
                        "content": content, "ts": t + timedelta(minutes=i)})
        k += 1
    return out[:total]


# -- worker processes -------------------------------------------------------------------------

def _connect(uri: str, buffer_dir: str):
    from graphmem import Memory

    return Memory.connect(uri, buffer_dir=buffer_dir)


def work_ingest(args: argparse.Namespace) -> dict[str, Any]:
    messages = writer_messages(args.prefix, args.writer, args.writers, args.users,
                               args.messages)
    started = time.perf_counter()
    mem = _connect(args.uri, args.buffer_dir)
    try:
        sent = 0
        for i in range(0, len(messages), args.batch):
            sent += len(mem.add_messages(messages[i:i + args.batch]))
        mem.flush()
        return {"sent": sent, "seconds": time.perf_counter() - started,
                "retries": mem.stats().retried, "rejected": len(mem.stats().rejected)}
    finally:
        mem.close()


def work_consolidate(args: argparse.Namespace) -> dict[str, Any]:
    """``--threads`` threads of one process run ``consolidate()`` over every user, again
    and again until the writers are done, then once more."""
    mem = _connect(args.uri, args.buffer_dir)
    stop = Path(args.stop_file) if args.stop_file else None
    keys = ("episodes", "created", "superseded", "reverified", "skipped_episodes")
    totals: dict[str, int] = dict.fromkeys(("runs", "errors", *keys), 0)
    lock = threading.Lock()
    failures: list[BaseException] = []

    def loop() -> None:
        try:
            while True:
                last = stop is None or stop.exists()
                for user in range(args.users):
                    report = mem.consolidate(f"{args.prefix}-u{user}")
                    with lock:
                        totals["runs"] += 1
                        totals["errors"] += len(report.errors)
                        for key in keys:
                            totals[key] += getattr(report, key)
                if last:
                    return
                time.sleep(0.2)
        except BaseException as exc:
            failures.append(exc)

    try:
        threads = [threading.Thread(target=loop) for _ in range(args.threads)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if failures:
            raise failures[0]
        return totals | {"retries": mem.stats().retried}
    finally:
        mem.close()


# -- the run and its checks ------------------------------------------------------------------

SINGLE_VALUED = ["name", "is_from", "diet", "works_as", "works_at", "lives_in",
                 "uses_channel", "date", "deadline", "budget"]


def check_graph(driver, prefix: str) -> dict[str, int]:
    """Counts of everything that must hold (the broken ones should be 0)."""
    def one(query: str, **params: Any) -> int:
        records, _, _ = driver.execute_query(query, prefix=prefix, **params)
        return int(records[0][0])

    scope = "n.user_id STARTS WITH $prefix + '-'"
    return {
        "messages_stored": one(f"MATCH (n:Message) WHERE {scope} RETURN count(n)"),
        "messages_not_in_one_episode": one(
            f"MATCH (n:Message) WHERE {scope} "
            "OPTIONAL MATCH (e:Episode)-[:HAS_MESSAGE]->(n) WITH n, count(e) AS c "
            "WHERE c <> 1 RETURN count(n)"),
        "episodes": one(f"MATCH (n:Episode) WHERE {scope} AND n.start_time IS NOT NULL "
                        "RETURN count(n)"),
        "episodes_unconsolidated": one(
            f"MATCH (n:Episode) WHERE {scope} AND n.start_time IS NOT NULL "
            "AND n.consolidated_at IS NULL RETURN count(n)"),
        "next_links_missing": one(
            f"MATCH (n:Episode) WHERE {scope} AND n.start_time IS NOT NULL "
            "WITH n.user_id AS u, count(n) AS e "
            "OPTIONAL MATCH (a:Episode {user_id: u})-[r:NEXT]->(:Episode) "
            "WITH u, e, count(r) AS links RETURN sum(abs(e - 1 - links))"),
        "next_links_out_of_order": one(
            f"MATCH (n:Episode)-[:NEXT]->(b:Episode) WHERE {scope} AND "
            "(b.user_id <> n.user_id OR b.start_time < n.start_time) RETURN count(*)"),
        "episodes_with_two_next": one(
            f"MATCH (n:Episode) WHERE {scope} AND "
            "(COUNT { (n)-[:NEXT]->() } > 1 OR COUNT { ()-[:NEXT]->(n) } > 1) "
            "RETURN count(n)"),
        "duplicate_entities": one(
            f"MATCH (n:Entity) WHERE {scope} WITH n.user_id AS u, toLower(n.name) AS name, "
            "n.kind AS kind, count(*) AS c WHERE c > 1 RETURN count(*)"),
        "facts": one(f"MATCH (n:Fact) WHERE {scope} RETURN count(n)"),
        "two_current_heads": one(
            f"MATCH (n:Fact {{status: 'current'}}) WHERE {scope} AND n.predicate IN $single "
            "AND NOT n.negated WITH n.user_id AS u, n.entity_id AS e, n.predicate AS p, "
            "count(*) AS c WHERE c > 1 RETURN count(*)", single=SINGLE_VALUED),
        "duplicate_current_versions": one(
            f"MATCH (n:Fact {{status: 'current'}}) WHERE {scope} "
            "WITH n.user_id AS u, n.entity_id AS e, n.predicate AS p, n.value_id AS v, "
            "n.negated AS neg, count(*) AS c WHERE c > 1 RETURN count(*)"),
        "edges_without_current_fact": one(
            f"MATCH (n:Entity)-[r]->(:Entity) WHERE {scope} AND r.fact_id IS NOT NULL "
            "OPTIONAL MATCH (f:Fact {fact_id: r.fact_id, status: 'current'}) "
            "WITH r, f WHERE f IS NULL RETURN count(r)"),
        "superseded_twice": one(
            f"MATCH (n:Fact) WHERE {scope} AND COUNT {{ ()-[:SUPERSEDES]->(n) }} > 1 "
            "RETURN count(n)"),
    }


BROKEN = ("messages_not_in_one_episode", "next_links_missing", "next_links_out_of_order",
          "episodes_with_two_next", "duplicate_entities", "two_current_heads",
          "duplicate_current_versions", "edges_without_current_fact", "superseded_twice",
          "episodes_unconsolidated")


def run(uri: str, writers: int, messages: int, users: int, consolidators: int,
        batch: int = 50, prefix: str | None = None, workdir: Path | None = None,
        threads: int = 2) -> dict[str, Any]:
    """Start the processes, wait for them, check the graph; returns every figure."""
    import neo4j

    prefix = prefix or f"mp{uuid.uuid4().hex[:8]}"
    work = Path(workdir or tempfile.mkdtemp(prefix="graphmem-mp-"))
    stop_file = work / "writers-done"
    env = os.environ | {"PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1",
                        "TRANSFORMERS_OFFLINE": "1"}

    def spawn(*extra: str) -> subprocess.Popen:
        return subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve()), *extra, "--uri", uri,
             "--prefix", prefix, "--writers", str(writers), "--users", str(users),
             "--messages", str(messages), "--batch", str(batch), "--threads", str(threads)],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    started = time.perf_counter()
    procs = [spawn("worker-ingest", "--writer", str(w), "--buffer-dir", str(work / f"w{w}"))
             for w in range(writers)]
    cons = [spawn("worker-consolidate", "--buffer-dir", str(work / f"c{c}"),
                  "--stop-file", str(stop_file)) for c in range(consolidators)]
    results = [_result(p) for p in procs]
    ingest_s = time.perf_counter() - started
    stop_file.touch()
    cons_results = [_result(p) for p in cons]
    total_s = time.perf_counter() - started
    with neo4j.GraphDatabase.driver(uri, auth=None) as driver:
        checks = check_graph(driver, prefix)
    retries: dict[str, int] = {}
    for r in results + cons_results:
        for code, n in r["retries"].items():
            retries[code] = retries.get(code, 0) + n
    return {
        "prefix": prefix, "writers": writers, "users": users, "consolidators": consolidators,
        "threads_per_consolidator": threads,
        "messages_sent": sum(r["sent"] for r in results),
        "rejected": sum(r["rejected"] for r in results),
        "ingest_s": round(ingest_s, 1), "total_s": round(total_s, 1),
        "messages_per_s": round(sum(r["sent"] for r in results) / ingest_s, 1),
        "consolidation": {k: sum(c[k] for c in cons_results)
                          for k in cons_results[0] if k != "retries"} if cons_results else {},
        "retries": retries,
        "deadlock_retries": sum(n for code, n in retries.items() if "Deadlock" in code),
        **checks,
    }


def _result(proc: subprocess.Popen) -> dict[str, Any]:
    out, err = proc.communicate(timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError(f"worker failed ({proc.returncode}):\n{err[-4000:]}")
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", nargs="?", default="run",
                        choices=["run", "worker-ingest", "worker-consolidate"])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--prefix", default=None)
    parser.add_argument("--writers", type=int, default=4)
    parser.add_argument("--writer", type=int, default=0)
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--users", type=int, default=6)
    parser.add_argument("--consolidators", type=int, default=2)
    parser.add_argument("--batch", type=int, default=50)
    parser.add_argument("--threads", type=int, default=2, help="per consolidating process")
    parser.add_argument("--buffer-dir", default=None)
    parser.add_argument("--stop-file", default=None)
    args = parser.parse_args()
    if args.command == "worker-ingest":
        print(json.dumps(work_ingest(args)))
        return 0
    if args.command == "worker-consolidate":
        print(json.dumps(work_consolidate(args)))
        return 0
    figures = run(args.uri, args.writers, args.messages, args.users, args.consolidators,
                  args.batch, args.prefix, threads=args.threads)
    print(json.dumps(figures, indent=2))
    broken = {k: figures[k] for k in BROKEN if figures[k]}
    lost = figures["messages_sent"] - figures["messages_stored"]
    if broken or lost or figures["deadlock_retries"]:
        print(f"BROKEN: {broken}, lost {lost}, deadlock retries {figures['deadlock_retries']}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
