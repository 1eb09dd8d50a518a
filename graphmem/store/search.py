"""Nearest neighbours *inside a filter* (a user, a time window, a status), for
episodes and facts alike. Counts the filtered set first: a small set is scanned
exactly with ``vector.similarity.cosine``; a large one goes through the native
vector index, oversampled until ``k`` survive the filter. Never every vector of
every user."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

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


def keyword(runner: QueryRunner, kind: Kind, query: str, k: int, **filters: Any
            ) -> list[tuple[str, float]]:
    """``(id, score)`` from the full-text index; empty when the query has no terms."""
    if not query:
        return []
    rows = runner.read(f"retrieve/search_{kind}_fulltext", query=query, k=k, **filters)
    return [(r["id"], float(r["score"])) for r in rows]
