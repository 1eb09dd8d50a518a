"""Filtered vector search, measured side by side on one seeded data set (issue 12).

Designs, all asked for the k nearest of one user's episodes inside a time window:
- exact: ``vector.similarity.cosine`` over every episode of the user in the window (the
  brute-force design; also the ground truth for recall);
- oversample: 5.26's path — ``db.index.vector.queryNodes`` for everyone, filtered after,
  candidates ×4 until k survive (cap 10,000);
- search_none / search_scalar / search_binary: Cypher 25 ``SEARCH … WHERE … LIMIT k`` over
  a vector index that holds user_id, start_time, end_time, with quantization NONE / SCALAR /
  BINARY (binary is the default);
- search_none_x5 / search_none_x10 (graphmem's): the same NONE index asked for 5k / 10k
  candidates, of which the k best are kept — a wider search inside the filter.

The generator is deterministic (seed): users with a skewed (Zipf) number of episodes,
topic-clustered vectors, episodes spread over two years; questions mix small and large
users and no window, 30-day and 180-day windows. Nodes get their own label (VecBench) so
graphmem's data is untouched. Needs a Neo4j 2026.x (``SEARCH``); point it at a scratch
server, e.g. ``scripts/neo4j-local`` with another GRAPHMEM_NEO4J_DIR and ports.

    python scripts/vector_search_bench.py --uri bolt://127.0.0.1:29687 --episodes 10000 \
        --out docs/vector-search-10k.json
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import neo4j

DIM = 384
T0 = datetime(2024, 1, 1, tzinfo=UTC)
SPAN_DAYS = 730

# One label per index: Neo4j refuses two vector indexes on the same label and properties.
INDEXES = {
    "vecbench_none": ("VbNone", "NONE"),
    "vecbench_scalar": ("VbScalar", "SCALAR"),
    "vecbench_binary": ("VbBinary", "BINARY"),
}
EXACT = """
MATCH (e:VecBench {user_id: $user_id})
WHERE e.start_time < $until AND e.end_time >= $since
WITH e, vector.similarity.cosine(e.embedding, $vector) AS score
ORDER BY score DESC LIMIT $k
RETURN e.id AS id, score
"""
OVERSAMPLE = """
CALL db.index.vector.queryNodes('vecbench_none', $candidates, $vector) YIELD node AS e, score
WHERE e.user_id = $user_id AND e.start_time < $until AND e.end_time >= $since
RETURN e.id AS id, score ORDER BY score DESC LIMIT $k
"""
SEARCH = """
CYPHER 25
MATCH (e:{label})
  SEARCH e IN (VECTOR INDEX {index} FOR $vector
               WHERE e.user_id = $user_id AND e.start_time < $until AND e.end_time >= $since
               LIMIT $candidates) SCORE AS score
RETURN e.id AS id, score ORDER BY score DESC LIMIT $k
"""
COUNT = """
MATCH (e:VecBench {user_id: $user_id})
WHERE e.start_time < $until AND e.end_time >= $since
RETURN count(e) AS n
"""


def unit(v: list[float]) -> list[float]:
    n = math.sqrt(sum(x * x for x in v)) or 1.0
    return [x / n for x in v]


def generate(seed: int, episodes: int, users: int, topics: int = 64):
    """Episodes as (id, user, start, end, vector) and the topic centres."""
    rng = random.Random(seed)
    centres = [unit([rng.gauss(0, 1) for _ in range(DIM)]) for _ in range(topics)]
    weights = [1 / (i + 1) ** 1.1 for i in range(users)]  # Zipf-like user sizes
    total = sum(weights)
    sizes = [max(1, round(episodes * w / total)) for w in weights]
    rows = []
    for u, size in enumerate(sizes):
        favourite = rng.sample(range(topics), 5)  # each user talks about a few topics
        for i in range(size):
            topic = rng.choice(favourite) if rng.random() < 0.8 else rng.randrange(topics)
            vec = unit([c + rng.gauss(0, 0.06) for c in centres[topic]])
            start = T0 + timedelta(minutes=rng.randrange(SPAN_DAYS * 24 * 60))
            rows.append({"id": f"u{u}-e{i}", "user_id": f"u{u}", "start": start,
                         "end": start + timedelta(minutes=rng.randrange(5, 120)),
                         "vec": vec})
    return rows[:episodes] if len(rows) > episodes else rows, centres, sizes


def questions(seed: int, n: int, sizes: list[int], centres: list[list[float]]):
    rng = random.Random(seed + 1)
    large = [f"u{i}" for i, s in enumerate(sizes) if s >= 200]
    small = [f"u{i}" for i, s in enumerate(sizes) if s < 50]
    out = []
    for q in range(n):
        user = rng.choice(large if q % 2 == 0 else small)
        window = rng.choice([None, 30, 180])
        if window is None:
            since, until = T0 - timedelta(days=1), T0 + timedelta(days=SPAN_DAYS + 1)
        else:
            since = T0 + timedelta(days=rng.randrange(SPAN_DAYS - window))
            until = since + timedelta(days=window)
        vec = unit([c + rng.gauss(0, 0.08) for c in rng.choice(centres)])
        out.append({"user_id": user, "size": "large" if q % 2 == 0 else "small",
                    "window": window or 0, "since": since, "until": until, "vector": vec})
    return out


def load(driver: neo4j.Driver, rows: list[dict]) -> float:
    with driver.session() as s:
        s.run("MATCH (e:VecBench) CALL (e) { DETACH DELETE e } IN TRANSACTIONS").consume()
    for name in INDEXES:
        driver.execute_query(f"DROP INDEX {name} IF EXISTS")
    driver.execute_query("CREATE INDEX vecbench_user IF NOT EXISTS FOR (e:VecBench) "
                         "ON (e.user_id, e.start_time)")
    started = time.perf_counter()
    for i in range(0, len(rows), 2000):
        driver.execute_query(
            "UNWIND $rows AS r CREATE (e:VecBench:VbNone:VbScalar:VbBinary {id: r.id, "
            "user_id: r.user_id, start_time: r.start, end_time: r.end}) "
            "WITH e, r CALL db.create.setNodeVectorProperty(e, 'embedding', r.vec)",
            rows=rows[i:i + 2000])
    for name, (label, quantization) in INDEXES.items():
        driver.execute_query(
            f"CYPHER 25 CREATE VECTOR INDEX {name} FOR (e:{label}) ON e.embedding "
            "WITH [e.user_id, e.start_time, e.end_time] OPTIONS {indexConfig: {"
            "`vector.dimensions`: 384, `vector.similarity_function`: 'cosine', "
            f"`vector.quantization.type`: '{quantization}'}}}}")
    driver.execute_query("CALL db.awaitIndexes(3600)")
    return time.perf_counter() - started


def run(driver: neo4j.Driver, text: str, **params) -> list[dict]:
    records, _, _ = driver.execute_query(text, params, routing_=neo4j.RoutingControl.READ)
    return [r.data() for r in records]


INDEX_NAME_NONE, INDEX_NAME_SCALAR, INDEX_NAME_BINARY = INDEXES


def search_text(index: str) -> str:
    return SEARCH.format(index=index, label=INDEXES[index][0])


def oversample(driver: neo4j.Driver, q: dict, k: int) -> list[dict]:
    """5.26's path as graphmem.store.search ran it: count, then the index, widened."""
    count = run(driver, COUNT, **q)[0]["n"]
    candidates = max(k * 10, 100)
    while True:
        rows = run(driver, OVERSAMPLE, candidates=candidates, k=k, **q)
        if len(rows) >= min(k, count) or candidates >= 10_000:
            return rows
        candidates = min(candidates * 4, 10_000)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--uri", default="bolt://127.0.0.1:7687")
    ap.add_argument("--episodes", type=int, default=10_000)
    ap.add_argument("--users", type=int, default=200)
    ap.add_argument("--questions", type=int, default=300)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--reuse", action="store_true",
                    help="keep the VecBench nodes and indexes already loaded by the same "
                         "--episodes/--users/--seed (skips the load)")
    args = ap.parse_args()
    rows, centres, sizes = generate(args.seed, args.episodes, args.users)
    qs = questions(args.seed, args.questions, sizes, centres)
    with neo4j.GraphDatabase.driver(args.uri, auth=None) as driver:
        version = run(driver, "CALL dbms.components() YIELD name, versions "
                      "WHERE name = 'Neo4j Kernel' RETURN versions[0] AS v")[0]["v"]
        loaded = run(driver, "MATCH (e:VecBench) RETURN count(e) AS n")[0]["n"]
        load_s = None if args.reuse and loaded == len(rows) else load(driver, rows)
        designs = {
            "exact": lambda q: run(driver, EXACT, k=args.k, **q),
            "oversample": lambda q: oversample(driver, q, args.k),
            "search_none": lambda q: run(driver, search_text(INDEX_NAME_NONE),
                                         k=args.k, candidates=args.k, **q),
            "search_none_x5": lambda q: run(driver, search_text(INDEX_NAME_NONE),
                                            k=args.k, candidates=5 * args.k, **q),
            "search_none_x10": lambda q: run(driver, search_text(INDEX_NAME_NONE),
                                             k=args.k, candidates=10 * args.k, **q),
            "search_scalar": lambda q: run(driver, search_text(INDEX_NAME_SCALAR),
                                           k=args.k, candidates=args.k, **q),
            "search_binary": lambda q: run(driver, search_text(INDEX_NAME_BINARY),
                                           k=args.k, candidates=args.k, **q),
        }
        for q in qs[:20]:  # warm up plans and caches
            for search in designs.values():
                search(q)
        truth = [{r["id"] for r in designs["exact"](q)} for q in qs]
        # Round robin per question, so load on the machine falls on every design alike.
        latencies: dict[str, list[float]] = {name: [] for name in designs}
        recalls: dict[str, dict[str, list[float]]] = {name: {} for name in designs}
        for q, want in zip(qs, truth, strict=True):
            for name, search in designs.items():
                started = time.perf_counter()
                got = {r["id"] for r in search(q)}
                latencies[name].append((time.perf_counter() - started) * 1000)
                recall = len(got & want) / len(want) if want else 1.0
                recalls[name].setdefault(q["size"], []).append(recall)
        results = {}
        for name in designs:
            every = recalls[name]["large"] + recalls[name]["small"]
            results[name] = {
                "p50_ms": round(statistics.median(latencies[name]), 2),
                "p95_ms": round(pct(latencies[name], 95), 2),
                "p99_ms": round(pct(latencies[name], 99), 2),
                "recall_at_k": round(statistics.mean(every), 4),
                "recall_min": round(min(every), 4),
                "recall_large_users": round(statistics.mean(recalls[name]["large"]), 4),
                "recall_small_users": round(statistics.mean(recalls[name]["small"]), 4),
            }
            print(name, results[name], flush=True)
    report = {
        "neo4j": version, "episodes": len(rows), "users": args.users,
        "largest_user": max(sizes), "questions": len(qs), "k": args.k, "seed": args.seed,
        "load_and_index_s": round(load_s, 1) if load_s is not None else None,
        "designs": results,
        "command": (f"python scripts/vector_search_bench.py --episodes {args.episodes} "
                    f"--users {args.users} --questions {args.questions} --k {args.k} "
                    f"--seed {args.seed}"),
    }
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
