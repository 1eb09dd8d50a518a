"""Recall (pipeline stage 5d): fuse the channels read from Neo4j (``channels``), rank,
and hand the hits to compression.

Passages (the episodic side) rank the user's raw messages inside the time window by
reciprocal-rank fusion of three channels, each fused score then weighted by the message's
**coverage** of the question's words (rarer ones count more: ``lexical_scores``):

- **keywords**: BM25 over the raw messages (stemmed), scoped to the user inside Lucene;
- **facts**: the facts nearest the question in meaning (any version: history is still
  what was said) point at the messages they were said in;
- **episodes**: the episodes nearest the question (time window ∩ vector), each by its
  message that shares the question's rarer words — a weaker signal, weighted less.

Facts (the semantic side) are the user's facts true at ``now`` that speak to the
question, ranked by similarity × decay × recency boost (``rank``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem._models import EpisodeHit, FactHit, MemoryContext, Route, TimeWindow
from graphmem.facts.predicates import PREDICATES, predicates_in
from graphmem.retrieve.channels import Question, read_channels, true_at
from graphmem.retrieve.compress import Block, choose
from graphmem.retrieve.passages import (
    Key,
    Line,
    best_first,
    build_passages,
    diversify,
    fuse,
    lexical_scores,
)
from graphmem.retrieve.rank import fact_score, is_reference_only
from graphmem.store.episodes import as_datetime, window
from graphmem.store.runner import QueryRunner
from graphmem.text.language import is_chinese
from graphmem.text.tokens import count_tokens
from graphmem.text.words import content_words, stem

NO_EMBEDDING_SIMILARITY = 0.3  # facts from the online path, not embedded yet
PREDICATE_BONUS = 0.3  # the question names the fact's predicate (忌口, budget, 喜欢 ...)
MIN_SIMILARITY = 0.35  # default floor: below it a fact is noise for this question
RELATIVE_FLOOR = 0.75  # and facts far below the best one are too (a shared name is no match)
STRONG_SIMILARITY = 0.7  # above it a fact needs no word in common with the question


@dataclass(frozen=True)
class RetrievalConfig:
    """How deep each passage channel reads and how much each counts in the fusion."""

    keyword_messages: int = 40  # best keyword messages read, at least
    keyword_per_item: int = 2  # ... and this many per episode asked for (6: no better, slower)
    fact_pointers: int = 5  # nearest facts whose messages become candidates
    fact_weight: float = 0.5  # 1.0 crowded out keyword hits at small budgets (conv. 1-5)
    vector_episodes: int = 3  # nearest episodes whose best message becomes a candidate
    episode_weight: float = 0.3
    episode_floor: float = 0.3  # cosine an episode needs (unless the question is only a time)
    few_keywords: int = 5  # fewer keyword hits than this: episodes near in meaning join in
    session_decay: float = 1.0  # each further message of one session counts this much less
    window_weight: float = 1.0  # messages inside the question's time window count again
    replies: bool = True  # a question brings the message that answers it
    fact_share: float | None = None  # of the budget facts may take first (None: by route)
    line_tokens: int | None = None  # a message longer is trimmed (None: 1/6 of the budget)
    generic_floor: float = STRONG_SIMILARITY  # cosine a generic reading needs for a line
    # a message's share of the question's words (rarer ones count more) multiplies its
    # fused score by 1 + this × share: rank fusion alone lets a message two channels found
    # for one common word ("Denver") beat the one keyword hit holding every rare word
    # ("renting a house in Wash Park"). 1.0/2.0/4.0 on conv. 1-5 at 512: 69.2/69.4/69.1
    coverage_weight: float = 2.0


# The passage channels' names (``Recalled.channels``, ``Memory.explain_query``).
KEYWORD = "keyword"
IN_WINDOW = "keyword in the time window"
FACT_POINTERS = "messages of the nearest facts"
NEAREST_EPISODES = "nearest episodes"


@dataclass
class Recalled:
    """What the channels found for one question."""

    lines: dict[Key, Line] = field(default_factory=dict)
    successors: dict[Key, Line] = field(default_factory=dict)
    episodes: dict[str, EpisodeInfo] = field(default_factory=dict)
    facts: list[FactHit] = field(default_factory=list)
    # for explaining an answer: each channel's messages in rank order with its weight, and
    # the fused ranking the passages were built from
    channels: list[tuple[str, float, list[Key]]] = field(default_factory=list)
    ranked: list[tuple[Key, float]] = field(default_factory=list)
    coverage: dict[Key, float] = field(default_factory=dict)  # share of the question's words


@dataclass(frozen=True)
class EpisodeInfo:
    """What a hit needs of an episode besides its messages (provenance)."""

    event_id: str
    session_id: str
    start_time: datetime
    end_time: datetime
    raw_span: tuple[int, int]


def recall(
    runner: QueryRunner, vector: Sequence[float], query: str, user_id: str, route: Route,
    time_window: TimeWindow | None, now: datetime, top_k_episodes: int, top_k_facts: int,
    *, exact_scan_max: int, min_confidence: float, include_superseded: bool,
    min_similarity: float, config: RetrievalConfig = RetrievalConfig(),
) -> tuple[list, Recalled]:
    """Passages (best first) and facts for ``query``; see the module docstring."""
    found = Recalled()
    since = time_window.since if time_window else None
    until = time_window.until if time_window else None
    bounds = window(user_id, since, until)
    windowed = since is not None or until is not None
    # A question only about a time ("what did we talk about yesterday?") keeps to its
    # window. Otherwise the window is a preference, not a wall: an event is often told
    # after it happened ("last year we saw the meteor shower"), so messages from any time
    # count, and those inside the window count twice.
    strict = windowed and about_time_only(query, time_window)
    read = read_channels(runner, Question(
        query=query, vector=vector, user_id=user_id, now=now, since=bounds["since"],
        until=bounds["until"], windowed=windowed, strict=strict,
        top_k_episodes=top_k_episodes, top_k_facts=top_k_facts,
        include_superseded=include_superseded), config, exact_scan_max)
    channels = found.channels
    if top_k_episodes:
        channels.append((KEYWORD, 1.0, _take(found, read.said)))
        if read.in_window is not None:
            channels.append((IN_WINDOW, config.window_weight, _take(found, read.in_window)))
        if config.fact_pointers and read.pointed:
            channels.append((FACT_POINTERS, config.fact_weight, _take(found, read.pointed)))
        if read.episodes:
            # the time window ∩ vector channel: the whole story of a question only about a
            # time, and what is left when the question's words are not in the messages
            channels.append((NEAREST_EPISODES, 1.0 if strict else config.episode_weight,
                             _episode_openers(read.episodes, query, found)))
    fused = fuse([(keys, weight) for _, weight, keys in channels])
    found.coverage = lexical_scores([found.lines[k] for k, _ in fused], query)
    ranked = found.ranked = diversify(by_coverage(fused, found.coverage, config.coverage_weight),
                                      config.session_decay)
    passages = build_passages(ranked, found.lines, found.successors if config.replies else {},
                              limit=max(2 * top_k_episodes, top_k_episodes + 4))
    if route != "episodic" and top_k_facts:
        found.facts = _fact_hits(read.fact_lines, query, now, top_k_facts, min_confidence,
                                 min_similarity, config.generic_floor)
    return passages, found


def by_coverage(fused: Sequence[tuple[Key, float]], coverage: dict[Key, float],
                weight: float) -> list[tuple[Key, float]]:
    """The fused ranking with each score multiplied by ``1 + weight × coverage``, best
    first."""
    return best_first((key, score * (1 + weight * coverage.get(key, 0.0)))
                      for key, score in fused)


# Words that ask about a conversation itself, not about something in it.
_TALK_WORDS_TEXT = """
    discuss discussed discussion talk talked talking chat chatted say said tell told
    mention mentioned conversation conversations happen happened about last time
    聊 聊天 讨论 说 说过 谈 谈到 提到 提过 发生 对话 事情 内容"""
_TALK_WORDS = frozenset(_TALK_WORDS_TEXT.split())


def about_time_only(query: str, time_window: TimeWindow | None) -> bool:
    """True when the question asks about a time and nothing else ("what did we discuss
    last week?", "昨天我们聊了什么"): nothing is left once its time expression and the
    words for talking are taken out."""
    text = query
    if time_window is not None and time_window.expression:
        text = text.replace(time_window.expression, " ")
    return not (content_words(text) - {stem(w) for w in _TALK_WORDS})


def _take(found: Recalled, rows: Sequence[dict[str, Any]]) -> list[Key]:
    """Record message rows (and their successors); their keys in the rows' order."""
    keys: list[Key] = []
    for row in rows:
        line = _line(row["message"])
        found.lines.setdefault(line.key, line)
        if row.get("next"):
            found.successors.setdefault(line.key, _line(row["next"]))
        if row.get("episode"):
            _episode_info(found, row["episode"])
        keys.append(line.key)
    return keys


def _line(m: dict[str, Any]) -> Line:
    return Line(m.get("event_id") or "", m["session_id"], int(m["msg_id"]), m["role"],
                m["content"], as_datetime(m["ts"]), m.get("message_id") or "")


def _episode_info(found: Recalled, e: dict[str, Any]) -> None:
    if e.get("event_id") and e["event_id"] not in found.episodes:
        found.episodes[e["event_id"]] = EpisodeInfo(
            e["event_id"], e["session_id"], as_datetime(e["start_time"]),
            as_datetime(e["end_time"]), (int(e["raw_span_start"]), int(e["raw_span_end"])))


def _episode_openers(episodes: Sequence[dict[str, Any]], query: str,
                     found: Recalled) -> list[Key]:
    """The nearest episodes (nearest first), each by its message sharing the question's
    rarer words most (its first message when none does)."""
    keys: list[Key] = []
    for row in sorted(episodes, key=lambda r: -float(r["score"])):
        if not row["messages"]:
            continue
        _episode_info(found, row)
        event_id = row["event_id"]
        lines = [_line(m | {"event_id": event_id, "session_id": row["session_id"]})
                 for m in row["messages"]]
        local = lexical_scores(lines, query)
        best = max(range(len(lines)), key=lambda i: (local[lines[i].key], -i))
        found.lines.setdefault(lines[best].key, lines[best])
        if best + 1 < len(lines):
            found.successors.setdefault(lines[best].key, lines[best + 1])
        keys.append(lines[best].key)
    return keys


# -- facts -------------------------------------------------------------------------------


def _fact_hits(rows: Sequence[dict[str, Any]], query: str, now: datetime, k: int,
               min_confidence: float, min_similarity: float,
               generic_floor: float = STRONG_SIMILARITY) -> list[FactHit]:
    """Facts that speak to the question, above the absolute and relative floors, best
    first by similarity × decay × recency boost."""
    if not rows:
        return []
    asked = predicates_in(query)
    names = {row["fact"]["entity"] for row in rows}
    wanted = content_words(query, names)
    scored = [(row, similarity_of(row, asked)) for row in rows
              if _on_topic(row, wanted, names, asked) and _worth_a_line(row, generic_floor)]
    best = max((sim for _, sim in scored if sim >= min_similarity), default=0.0)
    floor = max(min_similarity, RELATIVE_FLOOR * best)
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


def _worth_a_line(row: dict[str, Any], generic_floor: float) -> bool:
    """A fact of the canonical vocabulary (a preference, a job, an allergy...) earns a line
    of its own; a generic reading ("Melanie loves camping trips") is mostly the message it
    came from in other words — it points the passages at that message, and earns a line
    only when it is very close to the question."""
    cosine = _cosine(row)
    return row["fact"]["predicate"] in PREDICATES or (
        cosine is not None and cosine >= generic_floor)


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
    verified = as_datetime(fact["last_verified"])
    episodes = [e for e in row["episodes"] if e.get("session_id") is not None]
    return FactHit(
        fact_id=fact["fact_id"], entity=fact["entity"], predicate=fact["predicate"],
        value=fact["value"], negated=bool(fact.get("negated")),
        confidence=float(fact["confidence"]),
        score=fact_score(similarity, verified, now, fact["predicate"]),
        reference_only=is_reference_only(float(fact["confidence"]), verified, now,
                                         min_confidence, fact["predicate"])
        or not true_at(fact, now),
        source_episodes=tuple(e["event_id"] for e in episodes),
        session_ids=tuple(e["session_id"] for e in episodes),
        raw_spans=tuple((int(e["raw_span_start"]), int(e["raw_span_end"])) for e in episodes),
        source_messages=tuple(fact.get("source_messages") or ()),
        outdated_messages=tuple(row.get("outdated_messages") or ()),
        sentence=fact.get("sentence") or "", status=fact["status"],
    )


# -- assembling --------------------------------------------------------------------------


def assemble(
    query: str, route: Route, time_window: TimeWindow | None, passages: Sequence,
    found: Recalled, budget: int, max_episodes: int,
    config: RetrievalConfig = RetrievalConfig(),
) -> tuple[MemoryContext, list[Block]]:
    """Fit facts and passages into the budget and render the block (``compress``); the
    context and the passages it shows."""
    chinese = is_chinese(query)
    kept_facts, blocks, text = choose(route, found.facts, passages, query, budget,
                                      max_episodes, chinese, config.fact_share,
                                      config.line_tokens)
    by_episode: dict[str, list[Block]] = {}
    for block in blocks:
        by_episode.setdefault(block.passage.event_id, []).append(block)
    hits = []
    for eid, mine in by_episode.items():
        ep = found.episodes.get(eid)
        mine.sort(key=lambda b: b.passage.first)
        first, last = mine[0].passage, mine[-1].passage
        hits.append(EpisodeHit(
            event_id=eid, session_id=first.session_id,
            summary="\n".join(line for b in mine for line in b.lines),
            start_time=ep.start_time if ep else first.start,
            end_time=ep.end_time if ep else last.lines[-1].ts,
            raw_span=ep.raw_span if ep else (first.first, last.last),
            score=round(max(b.passage.score for b in mine), 6)))
    hits.sort(key=lambda h: -h.score)
    return MemoryContext(text=text, route=route, window=time_window, episodes=tuple(hits),
                         facts=tuple(kept_facts), tokens=count_tokens(text),
                         token_budget=budget), blocks
