"""Recall (pipeline stage 5d): dual recall in Neo4j, then ranking and compression.

Episodic: time window ∩ vector similarity (``store.search.nearest``) fused with the
full-text channel by reciprocal-rank fusion. Semantic: vector + full-text over the
user's current, still valid facts, ranked by similarity × decay × recency boost.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from graphmem._models import Episode, EpisodeHit, FactHit, MemoryContext, Route, TimeWindow
from graphmem.nlp import is_chinese
from graphmem.predicates import predicates_in
from graphmem.retrieve.compress import (
    HEADER_TOKENS,
    Item,
    episode_card,
    fact_line,
    fit_budget,
    render,
)
from graphmem.retrieve.lucene import lucene_or_query
from graphmem.retrieve.rank import fact_score, is_reference_only, rrf
from graphmem.retrieve.tokens import count_tokens
from graphmem.retrieve.words import content_words
from graphmem.store.episodes import _py, get_episodes, window
from graphmem.store.runner import QueryRunner
from graphmem.store.search import keyword, nearest

NO_EMBEDDING_SIMILARITY = 0.3  # facts from the online path, not embedded yet
PREDICATE_BONUS = 0.3  # the question names the fact's predicate (忌口, budget, 喜欢 ...)
MIN_SIMILARITY = 0.35  # default floor: below it a fact is noise for this question
RELATIVE_FLOOR = 0.75  # and facts far below the best one are too (a shared name is no match)
FACT_POOL = 2  # candidates per channel per fact asked for: ranking reorders only these
STRONG_SIMILARITY = 0.6  # above it a fact needs no word in common with the question


def recall_episodes(
    runner: QueryRunner, vector: Sequence[float], query: str, user_id: str,
    time_window: TimeWindow | None, k: int, exact_scan_max: int,
) -> list[tuple[Episode, float]]:
    bounds = window(user_id, time_window.since if time_window else None,
                    time_window.until if time_window else None)
    by_vector = nearest(runner, "episodes", vector, k * 3, exact_scan_max, **bounds)
    by_words = keyword(runner, "episodes", lucene_or_query(query), k * 3, **bounds)
    fused = rrf([i for i, _ in by_vector], [i for i, _ in by_words])[:k]
    found = get_episodes(runner, [i for i, _ in fused])
    return [(found[i], score) for i, score in fused if i in found]


def recall_facts(
    runner: QueryRunner, vector: Sequence[float], query: str, user_id: str, now: datetime,
    k: int, exact_scan_max: int, min_confidence: float, include_superseded: bool = False,
    min_similarity: float = MIN_SIMILARITY,
) -> list[FactHit]:
    filters = {"user_id": user_id, "now": now, "all_versions": include_superseded}
    pool = k * FACT_POOL
    by_vector = nearest(runner, "facts", vector, pool, exact_scan_max, **filters)
    by_words = keyword(runner, "facts", lucene_or_query(query), pool, **filters)
    ids = list(dict.fromkeys([i for i, _ in by_vector] + [i for i, _ in by_words]))
    if not ids:
        return []
    rows = runner.read("retrieve/get_fact_hits", ids=ids, vector=list(vector))
    asked = predicates_in(query)
    names = {row["fact"]["entity"] for row in rows}
    wanted = content_words(query, names)
    scored = [(row, similarity_of(row, asked)) for row in rows
              if _on_topic(row, wanted, names, asked)]
    best = max((sim for _, sim in scored if sim >= min_similarity), default=0.0)
    floor = max(min_similarity, RELATIVE_FLOOR * best)  # absolute and relative floors
    hits = [_fact_hit(row, sim, now, min_confidence) for row, sim in scored if sim >= floor]
    return sorted(hits, key=lambda h: (-h.score, h.fact_id))[:k]


def _on_topic(row: dict[str, Any], wanted: set[str], names: set[str],
              asked: set[str]) -> bool:
    """A fact speaks to the question when it shares a content word with it (names aside:
    "Jon met investors" is not about Jon's trip to Rome), is of a predicate the question
    names, or is very close in meaning."""
    fact = row["fact"]
    cosine = _cosine(row)
    return (bool(wanted & content_words(fact.get("sentence") or fact["value"], names))
            or fact["predicate"] in asked
            or (cosine is not None and cosine >= STRONG_SIMILARITY))


def _cosine(row: dict[str, Any]) -> float | None:
    """Raw cosine of the fact and the question (Neo4j reports (1 + cos) / 2); None for a
    fact not embedded yet."""
    return None if row["similarity"] is None else 2 * float(row["similarity"]) - 1


def similarity_of(row: dict[str, Any], asked: set[str]) -> float:
    """Raw cosine, plus a bonus when the question names the predicate."""
    cosine = _cosine(row)
    return ((NO_EMBEDDING_SIMILARITY if cosine is None else cosine)
            + (PREDICATE_BONUS if row["fact"]["predicate"] in asked else 0.0))


def _fact_hit(row: dict[str, Any], similarity: float, now: datetime,
              min_confidence: float) -> FactHit:
    fact = row["fact"]
    verified = _py(fact["last_verified"])
    episodes = [e for e in row["episodes"] if e.get("session_id") is not None]
    return FactHit(
        fact_id=fact["fact_id"], entity=fact["entity"], predicate=fact["predicate"],
        value=fact["value"], negated=bool(fact.get("negated")),
        confidence=float(fact["confidence"]), score=fact_score(similarity, verified, now),
        reference_only=is_reference_only(float(fact["confidence"]), verified, now,
                                         min_confidence) or not _true_at(fact, now),
        source_episodes=tuple(e["event_id"] for e in episodes),
        session_ids=tuple(e["session_id"] for e in episodes),
        raw_spans=tuple((int(e["raw_span_start"]), int(e["raw_span_end"])) for e in episodes),
        sentence=fact.get("sentence") or "", status=fact["status"],
    )


def _true_at(fact: dict[str, Any], now: datetime) -> bool:
    """Was this version the truth at ``now``? (superseded/expired ones only as history)"""
    until = fact.get("valid_until")
    return _py(fact["valid_from"]) <= now and (until is None or now < _py(until))


def assemble(
    query: str, route: Route, time_window: TimeWindow | None,
    episodes: Sequence[tuple[Episode, float]], facts: Sequence[FactHit], budget: int,
) -> MemoryContext:
    """Compress hits into cards and lines, fit the budget, render the block."""
    chinese = is_chinese(query)
    cards = {ep.event_id: episode_card(ep, query) for ep, _ in episodes}
    lines = {f.fact_id: fact_line(f.sentence, f.confidence) for f in facts}
    top = max([s for _, s in episodes] + [1e-9])
    items = [Item("fact", f.fact_id, lines[f.fact_id], f.score) for f in facts] + [
        Item("episode", ep.event_id, cards[ep.event_id], s / top) for ep, s in episodes]
    kept = {i.key for i in fit_budget(items, budget, overhead=HEADER_TOKENS)}
    hits = tuple(
        EpisodeHit(event_id=ep.event_id, session_id=ep.session_id, summary=cards[ep.event_id],
                   start_time=ep.start_time, end_time=ep.end_time, raw_span=ep.raw_span,
                   score=round(s, 6))
        for ep, s in episodes if ep.event_id in kept)
    kept_facts = tuple(f for f in facts if f.fact_id in kept)
    text = render([lines[f.fact_id] for f in kept_facts if not f.reference_only],
                  [h.summary for h in hits], chinese,
                  reference=[lines[f.fact_id] for f in kept_facts if f.reference_only])
    return MemoryContext(text=text, route=route, window=time_window, episodes=hits,
                         facts=kept_facts, tokens=count_tokens(text), token_budget=budget)
