"""Reading a question's channels from Neo4j (pipeline stage 5d, first half): keyword messages, the
same inside the time window, nearest and keyword-matched facts, the messages facts point
at, and the nearest episodes with their messages.

On a server whose vector indexes filter inside the index (Neo4j 2026.x) every channel is
read by one statement (``retrieve/recall_question``): one round trip per question, two when
a windowed keyword channel must be widened. Elsewhere (5.26) each channel is its own
statement, the vector channels choosing exact scan or the oversampled index by the size of
the filtered set (``store/search``). Both paths hand ``recall`` the same rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem._config import RetrievalConfig
from graphmem._models import LATEST_TS
from graphmem.retrieve.lucene import lucene_or_query, lucene_terms
from graphmem.retrieve.question import Question
from graphmem.store.episodes import as_datetime, window
from graphmem.store.runner import QueryRunner
from graphmem.store.search import (
    INDEX,
    keyword,
    keyword_candidates,
    keyword_messages,
    nearest,
    scoped,
    search_width,
    tenant_clause,
)


@dataclass
class Channels:
    """Rows each channel found, best first (message rows: message, next, episode)."""

    said: list[dict[str, Any]]  # keyword messages (in the window when strict)
    in_window: list[dict[str, Any]] | None  # the same words inside the window (None: not read)
    near_facts: list[dict[str, Any]]  # fact rows of any version, nearest first
    fact_lines: list[dict[str, Any]]  # fact rows that may become lines
    pointed: list[dict[str, Any]]  # messages the nearest facts were said in
    episodes: list[dict[str, Any]]  # nearest episodes with their messages (when read)
    near_messages: list[dict[str, Any]]  # messages nearest the question (their vectors)


def read_channels(runner: QueryRunner, q: Question, config: RetrievalConfig) -> Channels:
    """Every channel ``recall`` fuses, in one statement where the server allows it."""
    server = runner.server()
    if server.filters(INDEX["episodes"]) and server.filters(INDEX["facts"]):
        return _read_at_once(runner, q, config)
    return _read_one_by_one(runner, q, config)


def _keyword_depth(q: Question, config: RetrievalConfig) -> int:
    return max(config.keyword_messages, config.keyword_per_item * q.top_k_episodes)


def _fact_pool(q: Question, config: RetrievalConfig) -> int:
    return max(q.top_k_facts * config.fact_pool, config.fact_pointers)


def _episode_k(q: Question, config: RetrievalConfig) -> int:
    """Nearest episodes the time window ∩ vector channel reads (0: none): the whole story
    of a question only about a time, a few otherwise."""
    if not q.top_k_episodes or not config.vector_episodes:
        return 0
    return max(config.vector_episodes, q.top_k_episodes) if q.strict else config.vector_episodes


def _message_k(q: Question, config: RetrievalConfig) -> int:
    """Nearest messages the vector channel reads (0: none)."""
    return config.vector_messages if q.top_k_episodes else 0


def _all_time(q: Question) -> tuple[datetime, datetime]:
    """Where the keyword and fact-pointer channels look: the window when strict, else all
    time (an event is often told after it happened)."""
    bounds = window(q.user_id, q.since, q.until) if q.strict else window(q.user_id, None, None)
    return bounds["since"], bounds["until"]


def _read_at_once(runner: QueryRunner, q: Question, config: RetrievalConfig) -> Channels:
    terms = (lucene_terms(q.query, chinese_phrases=True, with_topics=True)
             if q.top_k_episodes else [])
    depth = _keyword_depth(q, config)
    said_since, said_until = _all_time(q)
    second = q.windowed and not q.strict and q.top_k_episodes > 0
    pool = _fact_pool(q, config)
    fact_k = q.top_k_facts * config.fact_pool
    fact_words = lucene_or_query(q.query) if fact_k else ""
    episode_k = _episode_k(q, config)
    params = dict(
        user_id=q.user_id, tenant=tenant_clause(q.user_id), terms=terms, vector=list(q.vector),
        now=q.now, k=depth, said_since=said_since, said_until=said_until,
        said_candidates=keyword_candidates(depth, q.strict), since=q.since, until=q.until,
        second=second, window_candidates=keyword_candidates(depth, True),
        fact_pool=pool, fact_candidates=search_width(pool, config), latest=LATEST_TS,
        fact_query=scoped(q.user_id, fact_words) if fact_words else "",
        fact_k=fact_k, include_superseded=q.include_superseded,
        fact_pointers=config.fact_pointers if q.top_k_episodes else 0,
        episode_k=episode_k, episode_candidates=search_width(max(episode_k, 1), config),
        episode_floor=_floor(q, config.episode_floor),
        strict=q.strict,
        few_keywords=config.few_keywords, message_k=_message_k(q, config),
        message_candidates=search_width(max(_message_k(q, config), 1), config),
        message_floor=_floor(q, config.message_floor))
    row = runner.read_values("retrieve/recall_question", **params)[0]
    by_id = {m["message"]["message_id"]: m for m in row["messages"]}
    said = [by_id[i] for i in row["said"]]
    if q.strict and row["said_seen"] >= params["said_candidates"]:
        said = _widened(runner, terms, depth, q, said_since, said_until, said, config)
    in_window = None
    if second:
        in_window = [by_id[i] for i in row["in_window"]]
        if row["window_seen"] >= params["window_candidates"]:
            in_window = _widened(runner, terms, depth, q, q.since, q.until, in_window,
                                 config)
    facts = {f["fact"]["fact_id"]: f for f in row["facts"]}
    ids = list(dict.fromkeys(row["near_facts"] + row["word_facts"]))
    return Channels(
        said=said, in_window=in_window,
        near_facts=[facts[i] for i in row["near_facts"]],
        fact_lines=_fact_lines([facts[i] for i in ids], q, fact_k),
        pointed=[by_id[i] for i in row["pointed"]], episodes=row["episodes"],
        near_messages=[by_id[i] for i in row["near_messages"]])


def _floor(q: Question, relatedness: float | None) -> float | None:
    """The cosine a nearest episode or message needs (``relatedness`` on the reference
    scale) on the embedder's own scale; None: any (a strict question, no floor set)."""
    return None if q.strict or relatedness is None else q.cosine_of(relatedness)


def _at_least(near: list[tuple[str, float]], floor: float | None) -> list[tuple[str, float]]:
    """The hits (id, Neo4j's score (1 + cos) / 2) whose cosine reaches ``floor``."""
    return [(i, score) for i, score in near if floor is None or 2 * score - 1 >= floor]


def _widened(runner: QueryRunner, terms: list[dict[str, Any]], k: int, q: Question,
             since: datetime, until: datetime, rows: list[dict[str, Any]],
             config: RetrievalConfig) -> list[dict[str, Any]]:
    """A windowed keyword channel that kept fewer than ``k`` while Lucene had more
    candidates: asked again, more widely."""
    first = keyword_candidates(k, True)
    most = config.max_keyword_candidates
    if len(rows) >= k or first >= most or not terms:
        return rows
    return keyword_messages(runner, terms, k, q.user_id, since, until, windowed=True,
                            candidates=min(first * 4, most), most=most)


def _read_one_by_one(runner: QueryRunner, q: Question, config: RetrievalConfig) -> Channels:
    said_since, said_until = _all_time(q)
    said: list[dict[str, Any]] = []
    in_window = None
    depth = _keyword_depth(q, config)
    if q.top_k_episodes:
        terms = lucene_terms(q.query, chinese_phrases=True, with_topics=True)
        most = config.max_keyword_candidates
        said = keyword_messages(runner, terms, depth, q.user_id, said_since, said_until,
                                windowed=q.strict, most=most)
        if q.windowed and not q.strict:
            in_window = keyword_messages(runner, terms, depth, q.user_id, q.since, q.until,
                                         windowed=True, most=most)
    pool = _fact_pool(q, config)
    fact_k = q.top_k_facts * config.fact_pool
    filters = {"user_id": q.user_id, "now": q.now, "all_versions": True}
    by_vector = nearest(runner, "facts", q.vector, pool, config, **filters)
    by_words = keyword(runner, "facts", lucene_or_query(q.query), fact_k,
                       **filters | {"all_versions": q.include_superseded}) if fact_k else []
    ids = list(dict.fromkeys([i for i, _ in by_vector] + [i for i, _ in by_words]))
    rows = {r["fact"]["fact_id"]: r for r in
            runner.read("retrieve/get_fact_hits", ids=ids, vector=list(q.vector))} if ids else {}
    near_facts = [rows[i] for i, _ in by_vector if i in rows]
    pointed: list[dict[str, Any]] = []
    if q.top_k_episodes and config.fact_pointers:
        # the nearest facts' messages, each fact's latest first, fact_pointers in all
        ids_said = list(dict.fromkeys(
            mid for row in near_facts
            for mid in reversed(row["fact"].get("source_messages") or ())))[
                :config.fact_pointers]
        if ids_said:
            order = {mid: i for i, mid in enumerate(ids_said)}
            pointed = sorted(
                (r for r in runner.read("retrieve/get_messages", message_ids=ids_said,
                                        user_id=q.user_id)
                 if said_since <= as_datetime(r["message"]["ts"]) < said_until),
                key=lambda r: order[r["message"]["message_id"]])
    episodes: list[dict[str, Any]] = []
    episode_k = _episode_k(q, config)
    if episode_k and (q.strict or len(said) < config.few_keywords):
        near = _at_least(nearest(runner, "episodes", q.vector, episode_k, config,
                                 user_id=q.user_id, since=q.since, until=q.until),
                         _floor(q, config.episode_floor))
        if near:
            by_id = {row["event_id"]: row for row in
                     runner.read("retrieve/get_episode_messages",
                                 event_ids=[e for e, _ in near], user_id=q.user_id)}
            episodes = [by_id[e] | {"score": score} for e, score in near if e in by_id]
    near_messages: list[dict[str, Any]] = []
    if message_k := _message_k(q, config):
        near = _at_least(nearest(runner, "messages", q.vector, message_k, config,
                                 user_id=q.user_id, since=said_since, until=said_until),
                         _floor(q, config.message_floor))
        if near:
            by_id = {r["message"]["message_id"]: r for r in runner.read(
                "retrieve/get_messages", message_ids=[i for i, _ in near], user_id=q.user_id)}
            near_messages = [by_id[i] for i, _ in near if i in by_id]
    return Channels(said=said, in_window=in_window, near_facts=near_facts,
                    fact_lines=_fact_lines([rows[i] for i in ids if i in rows], q, fact_k),
                    pointed=pointed, episodes=episodes, near_messages=near_messages)


def _fact_lines(rows: list[dict[str, Any]], q: Question, fact_k: int) -> list[dict[str, Any]]:
    """Candidates for fact lines: true at ``now`` (or any version when asked), at most
    ``2 × fact_k``."""
    return [r for r in rows if q.include_superseded or true_at(r["fact"], q.now)][:2 * fact_k]


def true_at(fact: dict[str, Any], now: datetime) -> bool:
    """Was this version the truth at ``now``? (superseded/expired ones only as history)"""
    until = fact.get("valid_until")
    return as_datetime(fact["valid_from"]) <= now and (until is None or now < as_datetime(until))
