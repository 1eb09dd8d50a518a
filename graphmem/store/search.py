"""Nearest neighbours *inside a filter* (a user, a time window, a status), for
episodes and facts alike. Never every vector of every user.

Where the server has Cypher 25's ``SEARCH`` and the vector index holds the filter
properties (Neo4j 2026.x), the index itself filters: one statement, no count. Elsewhere
(5.26) the filtered set is counted first: a small set is scanned exactly with
``vector.similarity.cosine``; a large one goes through the native vector index,
oversampled until ``k`` survive the filter."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from graphmem._config import RetrievalConfig
from graphmem._errors import ConfigError
from graphmem._models import LATEST_TS
from graphmem.store.ids import tenant_key
from graphmem.store.runner import QueryRunner

Kind = Literal["episodes", "facts", "messages"]
INDEX: dict[Kind, str] = {"episodes": "episode_embedding", "facts": "fact_embedding",
                          "messages": "message_embedding"}
# SEARCH asks the filtered index for search_width times k and keeps the k best: at LIMIT k
# the index's own search misses neighbours of users with many items (recall 0.98 at 100k
# episodes); at 10 × k recall is 0.999 for ~2 ms more (docs/vector-search.md).
DEFAULTS = RetrievalConfig()


def nearest(
    runner: QueryRunner,
    kind: Kind,
    vector: Sequence[float],
    k: int,
    settings: RetrievalConfig = DEFAULTS,
    **filters: Any,
) -> list[tuple[str, float]]:
    """``(id, cosine score)`` of the ``k`` nearest items passing ``filters`` (``settings``:
    vector_search, exact_scan_max, search_width, max_vector_candidates)."""
    if k <= 0:
        return []
    mode = settings.vector_search
    filtered = runner.server().filters(INDEX[kind])
    if mode == "filtered" and not filtered:
        raise ConfigError(f"vector_search='filtered' needs a vector index that holds its "
                          f"filter properties (Neo4j 2026.x); {INDEX[kind]} does not")
    if mode == "filtered" or (mode == "auto" and filtered):
        if kind == "facts":
            return _nearest_facts_in_index(runner, vector, k, settings, **filters)
        return nearest_in_index(runner, kind, vector, k, settings, **filters)
    if mode == "exact":
        return nearest_exact(runner, kind, vector, k, **filters)
    count = count_in_filter(runner, kind, **filters)
    if count == 0:
        return []
    if mode == "auto" and count <= settings.exact_scan_max:
        return nearest_exact(runner, kind, vector, k, **filters)
    return nearest_oversampled(runner, kind, vector, k, count,
                               settings.max_vector_candidates, **filters)


def count_in_filter(runner: QueryRunner, kind: Kind, **filters: Any) -> int:
    """How many items pass ``filters`` (the 5.26 path's choice of exact scan vs index)."""
    return int(runner.read(f"retrieve/count_{kind}", **filters)[0]["n"])


def nearest_exact(runner: QueryRunner, kind: Kind, vector: Sequence[float], k: int,
                  **filters: Any) -> list[tuple[str, float]]:
    """``vector.similarity.cosine`` over every item passing ``filters``, no vector index:
    exact (the ground truth for recall), and the brute-force design when the set is large."""
    rows = runner.read(f"retrieve/search_{kind}_exact", vector=list(vector), k=k, **filters)
    return [(r["id"], float(r["score"])) for r in rows]


def nearest_oversampled(runner: QueryRunner, kind: Kind, vector: Sequence[float], k: int,
                        count: int, max_candidates: int = DEFAULTS.max_vector_candidates,
                        **filters: Any
                        ) -> list[tuple[str, float]]:
    """5.26's path: the vector index's nearest of everyone, filtered after, candidates ×4
    until ``k`` (or all ``count`` passing the filter) survive, or ``max_candidates``."""
    candidates = max(k * 10, 100)
    while True:
        rows = runner.read(f"retrieve/search_{kind}_vector", vector=list(vector), k=k,
                           candidates=candidates, **filters)
        if len(rows) >= min(k, count) or candidates >= max_candidates:
            return [(r["id"], float(r["score"])) for r in rows]
        candidates = min(candidates * 4, max_candidates)


def search_width(k: int, settings: RetrievalConfig = DEFAULTS) -> int:
    """How many neighbours a filtered ``SEARCH`` is asked for to keep the ``k`` best."""
    return min(settings.search_width * k, max(settings.max_vector_candidates, k))


def nearest_in_index(runner: QueryRunner, kind: Kind, vector: Sequence[float], k: int,
                     settings: RetrievalConfig = DEFAULTS, **filters: Any
                     ) -> list[tuple[str, float]]:
    """Episodes or messages through the filtered vector index (Cypher 25 ``SEARCH …
    WHERE``): one index operator asked for ``search_width × k``, the ``k`` best kept."""
    rows = runner.read(f"retrieve/search_{kind}_filtered", vector=list(vector), k=k,
                       candidates=search_width(k, settings), **filters)
    return [(r["id"], float(r["score"])) for r in rows]


def _nearest_facts_in_index(runner: QueryRunner, vector: Sequence[float], k: int,
                            settings: RetrievalConfig, user_id: str, now: datetime,
                            all_versions: bool) -> list[tuple[str, float]]:
    """Facts through the filtered index, ``search_width × k`` asked for; those no longer true
    at ``now`` are dropped after (unless ``all_versions``), widening the search until ``k``
    remain or the user has no more."""
    max_candidates = settings.max_vector_candidates
    candidates = search_width(k, settings)
    while True:
        rows = runner.read("retrieve/search_facts_filtered", vector=list(vector),
                           user_id=user_id, now=now, candidates=candidates,
                           valid_from_max=LATEST_TS if all_versions else now)
        kept = [(r["id"], float(r["score"])) for r in rows if all_versions or r["true_now"]]
        if len(kept) >= k or len(rows) < candidates or candidates >= max_candidates:
            return kept[:k]
        candidates = min(candidates * 4, max_candidates)


def tenant_clause(user_id: str) -> str:
    """The Lucene clause that limits a full-text query to one user's documents."""
    return f"tenant:{tenant_key(user_id)}"


def scoped(user_id: str, query: str) -> str:
    """A full-text query limited to one user's documents inside Lucene (the tenant key)."""
    return f"{tenant_clause(user_id)} AND ({query})"


def keyword(runner: QueryRunner, kind: Kind, query: str, k: int, **filters: Any
            ) -> list[tuple[str, float]]:
    """``(id, score)`` from the full-text index; empty when the query has no terms."""
    if not query:
        return []
    rows = runner.read(f"retrieve/search_{kind}_fulltext", query=scoped(filters["user_id"], query),
                       k=k, **filters)
    return [(r["id"], float(r["score"])) for r in rows]


def keyword_candidates(k: int, windowed: bool) -> int:
    """How many messages Lucene is asked for first: ``k`` when every message of the user
    passes, more when a time window will drop some."""
    return k if not windowed else max(4 * k, 64)


def keyword_messages(runner: QueryRunner, terms: list[dict[str, Any]], k: int, user_id: str,
                     since: datetime, until: datetime, windowed: bool,
                     candidates: int | None = None,
                     most: int = DEFAULTS.max_keyword_candidates) -> list[dict[str, Any]]:
    """The user's ``k`` best raw messages by BM25 inside ``[since, until)`` for ``terms``
    (``lucene_terms``; the user's speakers' names count less). Lucene returns only the
    user's messages; with a time window, candidates (from ``candidates`` when given) grow
    until ``k`` survive it."""
    if not terms:
        return []
    candidates = candidates or keyword_candidates(k, windowed)
    while True:
        rows = runner.read("retrieve/search_messages_fulltext", tenant=tenant_clause(user_id),
                           terms=terms, candidates=candidates, user_id=user_id, since=since,
                           until=until, k=k)
        if len(rows) >= k or not windowed or candidates >= most:
            return rows
        candidates = min(candidates * 4, most)
