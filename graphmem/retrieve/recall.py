"""Recall: fuse the channels read from Neo4j (``channels``), rank, and hand the hits to
compression (``assemble``).

Passages (the episodic side) rank the user's raw messages inside the time window by
reciprocal-rank fusion of three channels, each fused score then weighted by the message's
**coverage** of the question's words (rarer ones count more: ``lexical_scores``):

- **keywords**: BM25 over the raw messages (stemmed), scoped to the user inside Lucene;
- **facts**: the facts nearest the question in meaning (any version: history is still
  what was said) point at the messages they were said in;
- **episodes**: the episodes nearest the question (time window ∩ vector), each by its
  message that shares the question's rarer words — a weaker signal, weighted less.

Facts (the semantic side) are the user's facts true at ``now`` that speak to the
question, ranked by similarity × decay × recency boost (``facts``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from graphmem._config import RetrievalConfig
from graphmem._models import EpisodeHit, FactHit, MemoryContext
from graphmem.retrieve.channels import Channels, read_channels
from graphmem.retrieve.compress import Block, choose
from graphmem.retrieve.facts import FactRetriever
from graphmem.retrieve.passages import (
    Key,
    Line,
    Passage,
    best_first,
    build_passages,
    diversify,
    fuse,
    lexical_scores,
    people_replies,
    present_first,
    weigh_assistant,
)
from graphmem.retrieve.question import Question, asks_assistant, asks_present
from graphmem.store.episodes import as_datetime
from graphmem.store.runner import QueryRunner
from graphmem.text.language import is_chinese, split_speaker
from graphmem.text.tokens import count_tokens

# The passage channels' names (``Recalled.channels``, ``Memory.explain_query``).
KEYWORD = "keyword"
IN_WINDOW = "keyword in the time window"
FACT_POINTERS = "messages of the nearest facts"
NEAREST_EPISODES = "nearest episodes"
NEAREST_MESSAGES = "nearest messages"


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


class PassageRetriever:
    """The episodic side: each passage channel's messages fused by weighted rank, weighted
    by their coverage of the question's words, cut into passages (``RetrievalConfig``:
    the channel weights, coverage_weight, session_decay, replies, assistant_replies,
    present_weight, rrf_k)."""

    def __init__(self, config: RetrievalConfig) -> None:
        self.config = config

    def passages(self, read: Channels, q: Question, found: Recalled) -> list[Passage]:
        """The best passages, best first; ``found`` records what each channel found and
        the fused ranking (for ``explain_query``)."""
        c = self.config
        channels = found.channels
        if q.top_k_episodes:
            channels.append((KEYWORD, 1.0, _take(found, read.said)))
            if read.in_window is not None:
                channels.append((IN_WINDOW, c.window_weight, _take(found, read.in_window)))
            if c.fact_pointers and read.pointed:
                channels.append((FACT_POINTERS, c.fact_weight, _take(found, read.pointed)))
            if read.near_messages:
                near = _take(found, read.near_messages)
                weight = (c.people_message_weight if between_people(found.lines.values())
                          else c.message_weight)
                channels.append((NEAREST_MESSAGES, weight, near))
            if read.episodes:
                # the time window ∩ vector channel: the whole story of a question only about
                # a time, and what is left when the question's words are not in the messages
                channels.append((NEAREST_EPISODES, 1.0 if q.strict else c.episode_weight,
                                 _episode_openers(read.episodes, q.query, found)))
        fused = fuse([(keys, weight) for _, weight, keys in channels], c.rrf_k)
        found.coverage = lexical_scores([found.lines[k] for k, _ in fused], q.query)
        ranked = by_coverage(fused, found.coverage, c.coverage_weight)
        asked = asks_assistant(q.query)
        if c.assistant_weight < 1 and not asked:
            ranked = weigh_assistant(ranked, found.lines, c.assistant_weight)
        if c.present_weight and asks_present(q.query):
            ranked = present_first(ranked, found.lines, c.present_weight, c.present_candidates)
        ranked = found.ranked = diversify(ranked, c.session_decay)
        successors = found.successors if c.replies else {}
        if c.assistant_replies == "asked" and not asked:
            successors = people_replies(successors)
        return build_passages(ranked, found.lines, successors,
                              limit=max(2 * q.top_k_episodes, q.top_k_episodes + 4))


def recall(runner: QueryRunner, q: Question, config: RetrievalConfig
           ) -> tuple[list[Passage], Recalled]:
    """Passages (best first) and facts for the question; see the module docstring."""
    found = Recalled()
    read = read_channels(runner, q, config)
    passages = PassageRetriever(config).passages(read, q, found)
    if q.route != "episodic" and q.top_k_facts:
        found.facts = FactRetriever(config).hits(read.fact_lines, q)
    return passages, found


def by_coverage(fused: Sequence[tuple[Key, float]], coverage: dict[Key, float],
                weight: float) -> list[tuple[Key, float]]:
    """The fused ranking with each score multiplied by ``1 + weight × coverage``, best
    first."""
    return best_first((key, score * (1 + weight * coverage.get(key, 0.0)))
                      for key, score in fused)


def between_people(lines: Iterable[Line]) -> bool:
    """Are these messages transcripts of people talking to each other — most of them
    "Caroline: …" lines, with a speaker's name — rather than a user's chat with an
    assistant?"""
    said = [split_speaker(line.content)[0] is not None for line in lines]
    return bool(said) and 2 * sum(said) > len(said)


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


# -- assembling --------------------------------------------------------------------------


def assemble(q: Question, passages: Sequence[Passage], found: Recalled, budget: int,
             config: RetrievalConfig) -> tuple[MemoryContext, list[Block]]:
    """Fit facts and passages into the budget and render the block (``compress``); the
    context and the passages it shows."""
    kept_facts, blocks, text = choose(q.route, found.facts, passages, q.query, budget,
                                      q.top_k_episodes, is_chinese(q.query), config)
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
    return MemoryContext(text=text, route=q.route, window=q.window, episodes=tuple(hits),
                         facts=tuple(kept_facts), tokens=count_tokens(text),
                         token_budget=budget), blocks
