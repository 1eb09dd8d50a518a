"""``graphmem bench scale``: ingest, consolidation and retrieval from 10k to 1M messages.

At each size, on a dataset of its own (users ``s<size>-<run>-u<i>``, forgotten afterwards
unless ``keep``), from a seeded ``ScaleCorpus`` (Zipf user sizes, Chinese and English):

1. ingest: every message through ``Memory.add_messages`` then ``flush`` — messages/s and
   episodes/s end to end (buffer → split → embed → Neo4j);
2. consolidation: ``Memory.consolidate`` (the worker's code path) — messages/s, facts/s;
3. questions (time-hinted, semantic, ambiguous; small and large users; both languages):
   ``Memory.query_memory`` end to end, query embedding included (p50/p95/p99); then, for
   the same question vectors and time windows, the episode channel three ways, side by
   side and round robin (so load on the machine falls on each alike):
   ``brute_force`` (``vector.similarity.cosine`` over every episode of the user in the
   window, no vector index: the design Graphiti and mem0 ship; also the ground truth),
   ``oversample`` (5.26's path: ``db.index.vector.queryNodes`` for everyone, filtered
   after, candidates ×4 until k survive) and ``filtered_index`` (graphmem's on 2026.x:
   Cypher 25 ``SEARCH`` inside the vector index) — latency and recall@k against exact;
4. the client's peak RSS and the Neo4j data folder's size on disk (when it is given).
"""

from __future__ import annotations

import os
import random
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from graphmem import ConfigError, RetrievalConfig
from graphmem_bench.generate import ScaleCorpus
from graphmem_bench.store import BenchStore
from graphmem_bench.text import embed_questions

StageProgress = Callable[[str, int, int], None]  # (stage, done, total)
DESIGNS = ("brute_force", "oversample", "filtered_index")
INGEST_BATCH = 500
# Episodes waiting for the writer above which the load waits: below the writer's bound
# (20,000), past which episodes would wait in the raw buffer and be re-read.
PACE_BACKLOG = 5_000
WARM_UP_QUESTIONS = 10
EMBED_SAMPLE = 2000  # episode texts the embedder is timed on alone

TIME_QUESTIONS = {
    "en": ["What did we discuss last week?", "What did I ask you yesterday?",
           "What did we talk about last month?", "What did we say 3 days ago?",
           "Last time, what did we decide about the flight?"],
    "zh": ["上周我们聊了什么？", "昨天我问了你什么？", "上个月我们讨论了什么？",
           "三天前我们说了什么？", "上次机票的事情怎么定的？"],
}
SEMANTIC_QUESTIONS = {
    "en": ["What is my budget?", "What drink do I usually like?", "Where do I live?",
           "How do I prefer to be contacted?", "How much does product B cost?",
           "Which flight did we find to Berlin?", "How should the payments team split the work?"],
    "zh": ["我的预算是多少？", "我一般喜欢喝什么？", "我住在哪里？", "我喜欢用什么方式联系？",
           "产品A的报价是多少？", "去深圳的机票找到了吗？", "增长项目怎么分工？"],
}
AMBIGUOUS_QUESTIONS = {
    "en": ["what about the venue?", "the thing we talked about", "can we make it cheaper?",
           "and the other one?"],
    "zh": ["上次那个怎么样了？", "场地怎么选？", "还有那个事情呢？", "能便宜一点吗？"],
}
QUESTION_KINDS = {"time": TIME_QUESTIONS, "semantic": SEMANTIC_QUESTIONS,
                  "ambiguous": AMBIGUOUS_QUESTIONS}


class Latency(BaseModel):
    p50_ms: float
    p95_ms: float
    p99_ms: float
    mean_ms: float


class DesignResult(BaseModel):
    latency: Latency
    p95_ms_large_users: float
    p95_ms_small_users: float
    recall_at_k: float  # against brute_force (exact), mean over questions
    recall_min: float
    recall_large_users: float
    recall_small_users: float


class StatementTimes(BaseModel):
    calls_per_question: float
    mean_ms_per_question: float


class SizeReport(BaseModel):
    messages: int
    users: int
    largest_user_messages: int
    smallest_user_messages: int
    episodes: int
    messages_in_episodes: int
    ingest_s: float
    ingest_messages_per_s: float
    ingest_episodes_per_s: float
    ingest_embed_s: float  # the writer's time embedding episodes (IngestStats.embed_s)
    ingest_write_s: float  # … and writing them to Neo4j
    embedder_alone_messages_per_s: float  # the embedder on a sample of the same episode
    # texts, nothing else running: the ceiling ingest can reach, in messages/s
    ingest_vs_embedder: float  # ingest messages/s / that ceiling
    consolidation_s: float
    consolidation_episodes: int  # all consolidate() distilled: on a shared database, others' too
    consolidation_messages_per_s: float
    facts_created: int
    facts_per_s: float
    consolidation_errors: int
    questions: int
    questions_by_kind: dict[str, int]
    first_query_ms: float  # the first query_memory of this Memory, before any warm-up
    query_memory: Latency  # end to end, query embedding included
    query_memory_p95_by_user_size: dict[str, float]
    query_embedding: Latency  # one question alone, as query_memory embeds it
    query_memory_statements: dict[str, StatementTimes]  # per question, from the tracer
    designs: dict[str, DesignResult]
    speedup_p95: dict[str, float]  # brute_force p95 / design p95
    load_average: tuple[float, float, float]  # os.getloadavg() when questions ended
    peak_rss_mb: float  # of the client process so far (ru_maxrss: the peak of the run)
    store_mb: float | None  # data/databases/<db> of the Neo4j folder
    transaction_logs_mb: float | None  # data/transactions/<db>


class ScaleReport(BaseModel):
    command: str
    neo4j: str
    embedder: str
    seed: int
    k: int
    sizes: list[SizeReport]

    def to_markdown(self) -> str:
        head = ("| messages | ingest msg/s (embedder alone) | episodes/s | "
                "consolidation msg/s | facts/s | query_memory p50/p95/p99 ms | "
                "brute force p95 | oversample p95 | "
                "filtered index p95 | speed-up vs brute force (p95) | recall (oversample / "
                "filtered) | peak RSS | store + tx logs | load avg |")
        rows = [head, "|" + " --- |" * (head.count("|") - 1)]
        for s in self.sizes:
            d = s.designs
            disk = ("n/a" if s.store_mb is None else
                    f"{s.store_mb:,.0f} + {s.transaction_logs_mb or 0:,.0f} MB")
            rows.append(
                f"| {s.messages:,} | {s.ingest_messages_per_s:,.0f} "
                f"({s.embedder_alone_messages_per_s:,.0f}) | "
                f"{s.ingest_episodes_per_s:,.0f} | {s.consolidation_messages_per_s:,.0f} | "
                f"{s.facts_per_s:,.1f} | {s.query_memory.p50_ms:.0f} / "
                f"{s.query_memory.p95_ms:.0f} / {s.query_memory.p99_ms:.0f} | "
                f"{d['brute_force'].latency.p95_ms:.1f} ms | "
                f"{d['oversample'].latency.p95_ms:.1f} ms | "
                f"{d['filtered_index'].latency.p95_ms:.1f} ms | "
                f"{s.speedup_p95['filtered_index']:.1f}× |"
                f" {d['oversample'].recall_at_k:.3f} / {d['filtered_index'].recall_at_k:.3f} | "
                f"{s.peak_rss_mb:,.0f} MB | {disk} | {s.load_average[0]:.1f} |")
        return "\n".join(rows)


class Question(BaseModel):
    text: str
    user_id: str
    kind: str
    language: str
    user_size: str  # "large" | "small"
    now: datetime


def scale_questions(corpus: ScaleCorpus, n: int, seed: int) -> list[Question]:
    """``n`` questions, alternating large users (the top tenth by size) and small ones (the
    lower half), cycling time-hinted / semantic / ambiguous, in each user's language, asked
    a day after the user's last message (``corpus.messages()`` must have run)."""
    rng = random.Random(f"questions-{seed}")
    order = sorted(range(len(corpus.sizes)), key=lambda u: -corpus.sizes[u])
    large = order[:max(1, len(order) // 10)]
    small = order[len(order) // 2:] or order
    kinds = list(QUESTION_KINDS)
    out = []
    for i in range(n):
        user = rng.choice(large if i % 2 == 0 else small)
        language = "zh" if corpus.chinese(user) else "en"
        kind = kinds[(i // 2) % len(kinds)]
        user_id = corpus.user_id(user)
        now = corpus.last_ts[user_id] + timedelta(days=1, hours=rng.randint(0, 23))
        out.append(Question(text=rng.choice(QUESTION_KINDS[kind][language]), user_id=user_id,
                            kind=kind, language=language,
                            user_size="large" if i % 2 == 0 else "small", now=now))
    return out


def embedder_ceiling(embedder: Any, texts: list[str], messages: int, seed: int,
                     sample: int = EMBED_SAMPLE) -> float:
    """Messages/s ingest would reach if embedding were all it did: the embedder alone on a
    seeded sample of the episode texts ingest embedded, scaled by messages per episode."""
    if not texts:
        return 0.0
    chosen = random.Random(seed).sample(texts, min(sample, len(texts)))
    embedder.embed(chosen[:32])  # warm
    started = time.perf_counter()
    for start in range(0, len(chosen), 256):
        embedder.embed(chosen[start:start + 256])
    per_text = (time.perf_counter() - started) / len(chosen)
    return messages / (per_text * len(texts))


def latency(values_ms: list[float]) -> Latency:
    return Latency(p50_ms=round(percentile(values_ms, 50), 2),
                   p95_ms=round(percentile(values_ms, 95), 2),
                   p99_ms=round(percentile(values_ms, 99), 2),
                   mean_ms=round(statistics.fmean(values_ms), 2))


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (no interpolation)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def folder_mb(path: Path) -> float:
    total = sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
    return round(total / 1e6, 1)


def _batches(items: Iterable[dict], size: int) -> Iterator[list[dict]]:
    batch: list[dict] = []
    for item in items:
        batch.append(item)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def run_scale_bench(
    mem_factory: Callable[[Path, StatementTracer], Any],
    sizes: list[int],
    users: int = 200,
    questions: int = 500,
    k: int = 10,
    seed: int = 7,
    neo4j_dir: Path | None = None,
    keep: bool = False,
    command: str = "",
    on_progress: StageProgress | None = None,
    on_size: Callable[[ScaleReport], None] | None = None,
) -> ScaleReport:
    """Run every size in turn; ``mem_factory(buffer_dir, tracer)`` returns a connected
    ``Memory`` with that tracer. ``on_size`` gets the report so far after each size."""
    progress = on_progress or (lambda stage, done, total: None)
    run_id = f"{int(time.time()) % 1_000_000:06d}"
    reports, neo4j, embedder = [], "", ""
    for size in sizes:
        corpus = ScaleCorpus(size, users, seed, prefix=f"s{size}-{run_id}")
        with tempfile.TemporaryDirectory(prefix="graphmem-scale-") as tmp:
            tracer = StatementTracer()
            mem = mem_factory(Path(tmp), tracer)
            try:
                store = BenchStore.beside(mem)
                try:
                    version = store.server_version()
                    if not version or int(version.split(".")[0]) < 2025:
                        raise ConfigError(
                            f"bench scale compares against Cypher 25 SEARCH over a filtered "
                            f"vector index: it needs Neo4j 2026.x (this is {version})")
                    neo4j, embedder = version, mem.config.embedder
                    reports.append(_run_size(mem, corpus, questions, k, seed,
                                             neo4j_dir, progress, tracer))
                    if on_size is not None:
                        on_size(ScaleReport(command=command, neo4j=neo4j, embedder=embedder,
                                            seed=seed, k=k, sizes=reports))
                    if not keep:
                        for u in range(len(corpus.sizes)):
                            mem.forget_user(corpus.user_id(u))
                            progress(f"{size:,} forget", u + 1, len(corpus.sizes))
                finally:
                    store.close()
            finally:
                mem.close()
    return ScaleReport(command=command, neo4j=neo4j, embedder=embedder, seed=seed, k=k,
                       sizes=reports)


class StatementTracer:
    """A ``Memory`` tracer that adds up each named statement's time while ``active``."""

    def __init__(self) -> None:
        self.active = False
        self.calls: dict[str, int] = {}
        self.ms: dict[str, float] = {}

    def __call__(self, line: str) -> None:
        if not self.active:
            return
        name, took, _ = line.rsplit(" ", 2)
        self.calls[name] = self.calls.get(name, 0) + 1
        self.ms[name] = self.ms.get(name, 0.0) + float(took)

    def per_question(self, questions: int) -> dict[str, StatementTimes]:
        order = sorted(self.ms, key=lambda n: -self.ms[n])
        return {n: StatementTimes(calls_per_question=round(self.calls[n] / questions, 2),
                                  mean_ms_per_question=round(self.ms[n] / questions, 2))
                for n in order}


def _run_size(mem: Any, corpus: ScaleCorpus, n_questions: int, k: int,
              seed: int, neo4j_dir: Path | None, progress: StageProgress,
              tracer: StatementTracer) -> SizeReport:
    size = corpus.total
    label = f"{size:,}"
    # 1. ingest
    loaded = 0
    started = time.perf_counter()
    for batch in _batches(corpus.messages(), INGEST_BATCH):
        mem.add_messages(batch)
        loaded += len(batch)
        progress(f"{label} ingest", loaded, size)
        while mem.stats().backlog > PACE_BACKLOG:  # a bulk load paces itself on the writer
            time.sleep(0.05)
    mem.flush()
    ingest_s = time.perf_counter() - started
    stats = mem.stats()
    user_ids = [corpus.user_id(u) for u in range(len(corpus.sizes))]
    episodes = [ep for user_id in user_ids for ep in mem.episodes(user_id)]
    in_episodes = sum(ep.raw_span[1] - ep.raw_span[0] + 1 for ep in episodes)
    ceiling = embedder_ceiling(mem.embedder, [ep.text for ep in episodes], loaded, seed)
    # 2. consolidation, as of a day after the last message
    data_end = max(corpus.last_ts.values()) + timedelta(days=1)
    started = time.perf_counter()
    consolidated = mem.consolidate(
        now=data_end, on_progress=lambda done, total: progress(f"{label} consolidate",
                                                               done, total))
    consolidation_s = time.perf_counter() - started
    # 3. questions
    asked = scale_questions(corpus, n_questions, seed)
    vectors = embed_questions(mem.embedder, [q.text for q in asked])
    embed_one = []
    for q in asked:
        started = time.perf_counter()
        embed_questions(mem.embedder, [q.text])
        embed_one.append((time.perf_counter() - started) * 1000)
    first = time.perf_counter()
    mem.query_memory(asked[0].text, asked[0].user_id, now=asked[0].now)
    first_ms = (time.perf_counter() - first) * 1000
    # the episode channel's filter: the question's user and the time window its words
    # resolve to (the user's whole history when there is none), as query_memory routes
    bounds = [_bounds(q, mem.query_memory(q.text, q.user_id, now=q.now).window)
              for q in asked]
    designs = _designs(mem, k)
    for q, v, b in list(zip(asked, vectors, bounds, strict=True))[:WARM_UP_QUESTIONS]:
        mem.query_memory(q.text, q.user_id, now=q.now)
        for search in designs.values():
            search(v, b)
    end_to_end: list[float] = []
    times: dict[str, list[float]] = {name: [] for name in DESIGNS}
    recalls: dict[str, list[tuple[str, float, float]]] = {name: [] for name in DESIGNS}
    for i, (q, v, b) in enumerate(zip(asked, vectors, bounds, strict=True)):
        tracer.active = True
        started = time.perf_counter()
        mem.query_memory(q.text, q.user_id, now=q.now)
        end_to_end.append((time.perf_counter() - started) * 1000)
        tracer.active = False
        found: dict[str, set[str]] = {}
        for name, search in designs.items():
            started = time.perf_counter()
            found[name] = {eid for eid, _ in search(v, b)}
            times[name].append((time.perf_counter() - started) * 1000)
        truth = found["brute_force"]
        for name in DESIGNS:
            got = len(found[name] & truth) / len(truth) if truth else 1.0
            recalls[name].append((q.user_size, got, times[name][-1]))
        progress(f"{label} questions", i + 1, len(asked))
    load = os.getloadavg()
    results = {name: _design_result(times[name], recalls[name]) for name in DESIGNS}
    brute_p95 = results["brute_force"].latency.p95_ms
    by_size = {size_: round(percentile([t for t, q in zip(end_to_end, asked, strict=True)
                                        if q.user_size == size_], 95), 2)
               for size_ in ("large", "small")}
    kinds: dict[str, int] = {}
    for q in asked:
        kinds[q.kind] = kinds.get(q.kind, 0) + 1
    store_mb = logs_mb = None
    if neo4j_dir is not None:
        database = getattr(mem.config, "neo4j_database", None) or "neo4j"
        store_mb = folder_mb(neo4j_dir / "data" / "databases" / database)
        logs_mb = folder_mb(neo4j_dir / "data" / "transactions" / database)
    return SizeReport(
        messages=loaded, users=len(corpus.sizes), largest_user_messages=max(corpus.sizes),
        smallest_user_messages=min(corpus.sizes), episodes=len(episodes),
        messages_in_episodes=in_episodes, ingest_s=round(ingest_s, 2),
        ingest_messages_per_s=round(loaded / ingest_s, 1),
        ingest_episodes_per_s=round(len(episodes) / ingest_s, 1),
        ingest_embed_s=round(stats.embed_s, 2), ingest_write_s=round(stats.write_s, 2),
        embedder_alone_messages_per_s=round(ceiling, 1),
        ingest_vs_embedder=round(loaded / ingest_s / ceiling, 3),
        consolidation_s=round(consolidation_s, 2), consolidation_episodes=consolidated.episodes,
        consolidation_messages_per_s=round(loaded / consolidation_s, 1),
        facts_created=consolidated.created,
        facts_per_s=round(consolidated.created / consolidation_s, 1),
        consolidation_errors=len(consolidated.errors), questions=len(asked),
        questions_by_kind=kinds, first_query_ms=round(first_ms, 1),
        query_memory=latency(end_to_end), query_memory_p95_by_user_size=by_size,
        query_embedding=latency(embed_one),
        query_memory_statements=tracer.per_question(len(asked)),
        designs=results,
        speedup_p95={name: round(brute_p95 / max(results[name].latency.p95_ms, 1e-6), 2)
                     for name in DESIGNS},
        load_average=tuple(round(x, 2) for x in load),
        peak_rss_mb=round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        store_mb=store_mb, transaction_logs_mb=logs_mb,
    )


def _bounds(q: Question, window: Any) -> dict[str, Any]:
    """``search_episodes``' arguments for a question: its user and ``window`` (the
    ``MemoryContext.window`` query_memory resolved; None: all of the user's history)."""
    return {"user_id": q.user_id, "since": window.since if window else None,
            "until": window.until if window else None}


DESIGN_SETTINGS = {"brute_force": RetrievalConfig(vector_search="exact"),
                   "oversample": RetrievalConfig(vector_search="index"),
                   "filtered_index": RetrievalConfig(vector_search="filtered")}


def _designs(mem: Any, k: int) -> dict[str, Callable[[Any, dict], list[tuple[str, float]]]]:
    """Each design as ``Memory.search_episodes`` runs it (``RetrievalConfig.vector_search``),
    on the question's vector: the ``(event_id, score)`` of the ``k`` nearest."""

    def design(settings: RetrievalConfig) -> Callable[[Any, dict], list[tuple[str, float]]]:
        def search(vector: Any, bounds: dict) -> list[tuple[str, float]]:
            return [(ep.event_id, score) for ep, score in
                    mem.search_episodes(query=vector, k=k, retrieval=settings, **bounds)]

        return search

    return {name: design(settings) for name, settings in DESIGN_SETTINGS.items()}


def _design_result(times_ms: list[float], recalls: list[tuple[str, float, float]]
                   ) -> DesignResult:
    """Latency and recall; ``recalls`` holds (user size, recall, ms) per question."""
    every = [r for _, r, _ in recalls]
    large = [r for size, r, _ in recalls if size == "large"] or [1.0]
    small = [r for size, r, _ in recalls if size == "small"] or [1.0]
    large_ms = [ms for size, _, ms in recalls if size == "large"] or [0.0]
    small_ms = [ms for size, _, ms in recalls if size == "small"] or [0.0]
    return DesignResult(latency=latency(times_ms),
                        p95_ms_large_users=round(percentile(large_ms, 95), 2),
                        p95_ms_small_users=round(percentile(small_ms, 95), 2),
                        recall_at_k=round(statistics.fmean(every), 4),
                        recall_min=round(min(every), 4),
                        recall_large_users=round(statistics.fmean(large), 4),
                        recall_small_users=round(statistics.fmean(small), 4))


def latency_chart_svg(report: ScaleReport) -> str:
    """p95 (solid) and p50 (dashed) against messages stored, for query_memory end to end
    and the three episode-channel designs, on log axes."""
    from graphmem_bench.svgplot import log_log_chart_svg

    lines: dict[str, list[tuple[float, float]]] = {}
    picks: list[tuple[str, Callable[[SizeReport], Latency]]] = [
        ("query_memory (end to end)", lambda s: s.query_memory),
        *((name.replace("_", " "), lambda s, n=name: s.designs[n].latency) for name in DESIGNS),
    ]
    for name, pick in picks:
        lines[f"{name} p95"] = [(s.messages, pick(s).p95_ms) for s in report.sizes]
        lines[f"{name} p50"] = [(s.messages, pick(s).p50_ms) for s in report.sizes]
    return log_log_chart_svg(
        lines, f"graphmem bench scale — Neo4j {report.neo4j}, {report.embedder}, k={report.k}",
        "messages stored", "latency (ms)",
        dashed=frozenset(name for name in lines if name.endswith("p50")))
