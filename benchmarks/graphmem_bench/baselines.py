"""Equal-token baselines for retrieval benchmarks: single messages, no episodes, no facts.

Every message is stored alone as ``(:BenchMessage {bench_id, user_id, session_id, msg_id,
text, ts, embedding})``. Three baselines search them for one user:

- ``FlatBaseline``: the native vector index ``bench_message_embedding`` (cosine).
- ``Bm25Baseline``: the Lucene full-text index ``bench_message_text`` (BM25 scoring).
- ``HybridBaseline``: reciprocal-rank fusion of the two.

Each shows a message the way a memory product would: ``[8 May 2023] Caroline: text``
(date, speaker, text). All take hits best first until the context reaches a *target*
token count (the token count graphmem used for the same question), and the last line
taken is cut where the target is reached, so quality is compared at equal cost.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from graphmem import count_tokens
from graphmem_bench.lucene import lucene_or_query
from graphmem_bench.store import BenchStore
from graphmem_bench.text import Embedder, day_label, embed_questions

T = TypeVar("T")


def rrf(*rankings: Sequence[str], k: int = 60) -> list[tuple[str, float]]:
    """Fuse ranked id lists: score(id) = Σ 1 / (k + rank), best first."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))

STORE_BATCH = 2000
EMBED_BATCH = 256
MIN_CANDIDATES = 64


class Retrieved(BaseModel):
    """What one system gave for one question: the context and the raw messages it covers."""

    model_config = ConfigDict(frozen=True)

    text: str
    spans: frozenset[tuple[str, int]] = Field(default_factory=frozenset)
    latency_s: float = 0.0

    @property
    def tokens(self) -> int:
        return count_tokens(self.text)


class BenchMessage(BaseModel):
    """One message as the baselines store it."""

    model_config = ConfigDict(frozen=True)

    bench_id: str
    user_id: str
    session_id: str
    msg_id: int
    text: str
    ts: datetime


class StoreTimings(BaseModel):
    messages: int = 0
    embedded: int = 0
    embed_s: float = 0.0
    store_s: float = 0.0


def bench_id(user_id: str, session_id: str, msg_id: int) -> str:
    return f"{user_id}\x1f{session_id}\x1f{msg_id}"


# -- pure helpers ------------------------------------------------------------------------


def message_line(text: str, ts: Any) -> str:
    """A message as a memory product shows it: ``[8 May 2023] Caroline: text``."""
    when = ts.to_native() if hasattr(ts, "to_native") else ts
    return f"[{day_label(when)}] {text}"


def fill_to_tokens(
    items: Sequence[T], target: int, text_of: Callable[[T], str] = str  # type: ignore[assignment]
) -> list[T]:
    """The shortest prefix of ``items`` whose texts, joined by newlines, reach ``target``
    tokens (``count_tokens`` of the joined text); all items if they never do.

    ``count_tokens`` only grows as texts are appended, so dropping the last item taken
    would fall below ``target``. It is not quite additive (word counts are rounded up per
    call), so the sum of per-item counts, an upper bound, only decides when to recount.
    """
    if target <= 0:
        return []
    taken: list[T] = []
    texts: list[str] = []
    upper = 0
    for item in items:
        text = text_of(item)
        taken.append(item)
        texts.append(text)
        upper += count_tokens(text)
        if upper >= target and count_tokens("\n".join(texts)) >= target:
            break
    return taken


def cut_to_tokens(text: str, target: int) -> str:
    """The longest whole-word prefix of ``text`` with at most ``target`` tokens."""
    if count_tokens(text) <= target:
        return text
    words = re.findall(r"\S+\s*", text)  # each word with the space or newline after it
    low, high = 0, len(words)  # words[:low] fits, words[:high + 1] does not
    while low < high:
        middle = (low + high + 1) // 2
        if count_tokens("".join(words[:middle])) <= target:
            low = middle
        else:
            high = middle - 1
    return "".join(words[:low]).rstrip()


def fill_context(rows: Sequence[dict[str, Any]], target: int, latency_s: float = 0.0
                 ) -> Retrieved:
    """Ranked message rows as dated lines, best first, cut at exactly ``target`` tokens."""
    taken = fill_to_tokens(rows, target, lambda r: r["line"])
    text = cut_to_tokens("\n".join(r["line"] for r in taken), target)
    spans = frozenset((r["session_id"], int(r["msg_id"])) for r in taken)
    return Retrieved(text=text, spans=spans, latency_s=latency_s)


# -- storage -----------------------------------------------------------------------------


def bench_store(mem: Any) -> tuple[BenchStore, Embedder]:
    """A benchmark's own Neo4j connection (from the public ``mem.config``) and graphmem's
    embedder (``mem.embedder``), so baselines embed with the same model."""
    return BenchStore.beside(mem), mem.embedder


def ensure_bench_schema(runner: BenchStore, dimension: int) -> None:
    """Create the BenchMessage constraint and indexes if missing, wait until ONLINE."""
    runner.write("bench/create_message_id_constraint")
    runner.write("bench/create_message_vector_index", dimension=dimension)
    runner.write("bench/create_message_fulltext_index")
    runner.wait_for_indexes()


def store_messages(
    runner: BenchStore,
    embedder: Embedder,
    messages: Sequence[BenchMessage],
    batch_size: int = STORE_BATCH,
) -> StoreTimings:
    """MERGE messages in batches (UNWIND); embed only those without a current embedding."""
    timings = StoreTimings(messages=len(messages))
    by_id = {m.bench_id: m for m in messages}
    for start in range(0, len(messages), batch_size):
        batch = messages[start : start + batch_size]
        began = time.perf_counter()
        rows = runner.write(
            "bench/merge_messages", rows=[m.model_dump() for m in batch]
        )
        timings.store_s += time.perf_counter() - began
        stale = [by_id[r["bench_id"]] for r in rows if r["stale"]]
        if not stale:
            continue
        began = time.perf_counter()
        vectors: list[list[float]] = []
        for i in range(0, len(stale), EMBED_BATCH):
            vectors.extend(embedder.embed([m.text for m in stale[i : i + EMBED_BATCH]]))
        timings.embed_s += time.perf_counter() - began
        timings.embedded += len(stale)
        began = time.perf_counter()
        runner.write(
            "bench/set_message_embeddings",
            rows=[
                {"bench_id": m.bench_id, "embedding": list(v)}
                for m, v in zip(stale, vectors, strict=True)
            ],
        )
        timings.store_s += time.perf_counter() - began
    runner.wait_for_indexes()
    return timings


# -- searching ---------------------------------------------------------------------------


class _Baseline:
    """Oversampled index search filtered to one user, then an equal-token fill."""

    name = "baseline"

    def __init__(self, runner: BenchStore) -> None:
        self.runner = runner
        self._total: int | None = None
        self.user_messages: dict[str, int] = {}
        self.user_mean_tokens: dict[str, float] = {}

    def register_user(self, user_id: str, lines: Sequence[str]) -> None:
        """What sizing the searches needs: how many messages the user has, how long their
        lines are."""
        self.user_messages[user_id] = len(lines)
        if lines:
            self.user_mean_tokens[user_id] = sum(count_tokens(t) for t in lines) / len(lines)

    def refresh_total(self) -> int:
        self._total = int(self.runner.read("bench/count_messages")[0]["n"])
        return self._total

    @property
    def total(self) -> int:
        return self._total if self._total is not None else self.refresh_total()

    def _search(self, user_id: str, k: int, candidates: int, **params: Any) -> list[dict]:
        raise NotImplementedError

    def _ranked(self, user_id: str, target: int, **params: Any) -> list[dict[str, Any]]:
        """The user's best hits, enough of them to reach ``target`` tokens if possible."""
        total = max(self.total, 1)
        mine = max(self.user_messages.get(user_id, total), 1)
        mean = max(self.user_mean_tokens.get(user_id, 20.0), 1.0)
        k = min(mine, math.ceil(target / mean) + 5)
        ratio = total / mine
        candidates = min(total, max(MIN_CANDIDATES, math.ceil(k * ratio * 2)))
        while True:
            rows = [r | {"line": message_line(r["text"], r["ts"])}
                    for r in self._search(user_id, k, candidates, **params)]
            tokens = sum(count_tokens(r["line"]) for r in rows)
            if len(rows) < k and candidates < total:
                candidates = min(total, candidates * 4)  # the filter starved: oversample more
            elif len(rows) >= k and tokens < target and k < mine:
                k = min(mine, k * 2)  # shorter messages than expected: need more of them
                candidates = min(total, max(candidates, math.ceil(k * ratio * 2)))
            else:
                return rows

    def rank(self, query: str, user_id: str, target: int) -> list[dict[str, Any]]:
        """The user's messages best first (each with its display ``line``), enough of them
        to fill ``target`` tokens when the user has that many."""
        raise NotImplementedError

    def retrieve(self, query: str, user_id: str, target_tokens: int) -> Retrieved:
        began = time.perf_counter()
        rows = self.rank(query, user_id, target_tokens) if target_tokens > 0 else []
        return fill_context(rows, target_tokens, time.perf_counter() - began)


class FlatBaseline(_Baseline):
    """Vector search over single messages (the question embedded alone)."""

    name = "flat"

    def __init__(self, runner: BenchStore, embedder: Embedder) -> None:
        super().__init__(runner)
        self.embedder = embedder

    def rank(self, query: str, user_id: str, target: int,
             vector: Sequence[float] | None = None) -> list[dict[str, Any]]:
        """As ``_Baseline.rank``; ``vector`` is the question's embedding if already made."""
        if vector is None:
            vector = embed_questions(self.embedder, [query])[0]
        return self._ranked(user_id, target, vector=list(vector))

    def _search(self, user_id: str, k: int, candidates: int, **params: Any) -> list[dict]:
        return self.runner.read(
            "bench/search_messages_vector",
            vector=params["vector"], candidates=candidates, user_id=user_id, k=k,
        )


class Bm25Baseline(_Baseline):
    """Lucene full-text (BM25) search over single messages, the question's words OR-ed."""

    name = "bm25"

    def rank(self, query: str, user_id: str, target: int) -> list[dict[str, Any]]:
        lucene = lucene_or_query(query)
        return self._ranked(user_id, target, query=lucene) if lucene else []

    def _search(self, user_id: str, k: int, candidates: int, **params: Any) -> list[dict]:
        return self.runner.read(
            "bench/search_messages_fulltext",
            query=params["query"], candidates=candidates, user_id=user_id, k=k,
        )


class HybridBaseline:
    """Reciprocal-rank fusion (k = 60) of the flat and bm25 rankings of the same messages:
    the usual "hybrid search" of memory products."""

    name = "hybrid"

    def __init__(self, flat: FlatBaseline, bm25: Bm25Baseline) -> None:
        self.flat = flat
        self.bm25 = bm25

    def rank(self, query: str, user_id: str, target: int) -> list[dict[str, Any]]:
        # each ranking deep enough to fill the target alone, so the fusion can too
        return self.fuse(self.flat.rank(query, user_id, target),
                         self.bm25.rank(query, user_id, target))

    @staticmethod
    def fuse(by_vector: Sequence[dict[str, Any]], by_words: Sequence[dict[str, Any]]
             ) -> list[dict[str, Any]]:
        """The two rankings' rows fused, best first."""
        rows = {(r["session_id"], r["msg_id"]): r for r in [*by_words, *by_vector]}
        keys = {key: f"{key[0]}\x1f{key[1]}" for key in rows}
        fused = rrf([keys[(r["session_id"], r["msg_id"])] for r in by_vector],
                    [keys[(r["session_id"], r["msg_id"])] for r in by_words])
        back = {v: k for k, v in keys.items()}
        return [rows[back[key]] for key, _ in fused]

    def retrieve(self, query: str, user_id: str, target_tokens: int) -> Retrieved:
        began = time.perf_counter()
        rows = self.rank(query, user_id, target_tokens) if target_tokens > 0 else []
        return fill_context(rows, target_tokens, time.perf_counter() - began)
