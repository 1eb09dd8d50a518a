"""Nearest neighbours *inside a filter* (a user, a time window, a status), for
episodes and facts alike. Counts the filtered set first: a small set is scanned
exactly with ``vector.similarity.cosine``; a large one goes through the native
vector index, oversampled until ``k`` survive the filter. Never every vector of
every user."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal

from graphmem.store.ids import tenant_key
from graphmem.store.runner import QueryRunner

Kind = Literal["episodes", "facts"]


def nearest(
    runner: QueryRunner,
    kind: Kind,
    vector: Sequence[float],
    k: int,
    exact_scan_max: int = 2000,
    max_candidates: int = 10_000,
    **filters: Any,
) -> list[tuple[str, float]]:
    """``(id, cosine score)`` of the ``k`` nearest items passing ``filters``."""
    count = runner.read(f"retrieve/count_{kind}", **filters)[0]["n"]
    if count == 0:
        return []
    params = {"vector": list(vector), "k": k, **filters}
    if count <= exact_scan_max:
        rows = runner.read(f"retrieve/search_{kind}_exact", **params)
        return [(r["id"], float(r["score"])) for r in rows]
    candidates = max(k * 10, 100)
    while True:
        rows = runner.read(f"retrieve/search_{kind}_vector", candidates=candidates, **params)
        if len(rows) >= min(k, count) or candidates >= max_candidates:
            return [(r["id"], float(r["score"])) for r in rows]
        candidates = min(candidates * 4, max_candidates)


def scoped(user_id: str, query: str) -> str:
    """A full-text query limited to one user's documents inside Lucene (the tenant key)."""
    return f"tenant:{tenant_key(user_id)} AND ({query})"


def keyword(runner: QueryRunner, kind: Kind, query: str, k: int, **filters: Any
            ) -> list[tuple[str, float]]:
    """``(id, score)`` from the full-text index; empty when the query has no terms."""
    if not query:
        return []
    rows = runner.read(f"retrieve/search_{kind}_fulltext", query=scoped(filters["user_id"], query),
                       k=k, **filters)
    return [(r["id"], float(r["score"])) for r in rows]


def keyword_messages(runner: QueryRunner, query: str, k: int, user_id: str,
                     since: datetime, until: datetime, windowed: bool,
                     max_candidates: int = 4096) -> list[dict[str, Any]]:
    """The user's ``k`` best raw messages by BM25 inside ``[since, until)``. Lucene returns
    only the user's messages; with a time window, candidates grow until ``k`` survive it."""
    if not query:
        return []
    candidates = k if not windowed else max(4 * k, 64)
    while True:
        rows = runner.read("retrieve/search_messages_fulltext", query=scoped(user_id, query),
                           candidates=candidates, user_id=user_id, since=since, until=until,
                           k=k)
        if len(rows) >= k or not windowed or candidates >= max_candidates:
            return rows
        candidates = min(candidates * 4, max_candidates)
