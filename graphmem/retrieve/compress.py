"""Compression (pipeline stage 5c): a small, budgeted prompt block without an LLM.

Each episode becomes one card of at most 50 characters — when it happened, the goal,
and the part most relevant to the question (else the outcome). Each fact is one
line with its confidence. Items are dropped lowest value-per-token first until the
block fits the token budget; an episode card is worth less than a fact for the same
tokens (the article: episodic records are coarse and less dense). Pure code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from graphmem._models import Episode
from graphmem.nlp import is_chinese, jieba_words
from graphmem.retrieve.lucene import QUERY_STOPWORDS
from graphmem.retrieve.tokens import count_tokens
from graphmem.segment import truncate

CARD_CHARS = 50
EPISODE_WEIGHT = 0.5
_CLAUSE = re.compile(r"[^。！？!?;；，,\n]+")
_WORD = re.compile(r"[\u3400-\u9fff]+|[A-Za-z0-9']+")
_SPEAKER = re.compile(r"^[A-Z][\w .'-]{0,30}:\s+")


def content_words(text: str) -> set[str]:
    words: set[str] = set()
    for run in _WORD.findall(text.lower()):
        parts = jieba_words(run) if is_chinese(run) else [run]
        words.update(p for p in parts if (p not in QUERY_STOPWORDS and len(p) > 1) or
                     (is_chinese(p) and p not in QUERY_STOPWORDS))
    return words


def _date(when: datetime, chinese: bool) -> str:
    return f"{when.month}月{when.day}日" if chinese else when.strftime("%-d %b %Y")


def best_clause(episode: Episode, query: str, skip: str = "") -> str | None:
    """The clause of the episode sharing the most *rare* content words with the query
    (a word in many of the episode's clauses — a name, a running topic — counts less);
    clauses already inside ``skip`` — the goal — do not count."""
    wanted = content_words(query)
    clauses = [c.strip() for action in episode.actions
               for c in _CLAUSE.findall(_SPEAKER.sub("", action.content)) if c.strip()]
    words = [content_words(c) & wanted for c in clauses]
    frequency: dict[str, int] = {}
    for shared in words:
        for w in shared:
            frequency[w] = frequency.get(w, 0) + 1
    best, best_score = None, 0.0
    for clause, shared in zip(clauses, words, strict=True):
        if not shared or (skip and (clause in skip or skip in clause)):
            continue
        score = sum(1.0 / frequency[w] for w in shared)
        if score > best_score:
            best, best_score = clause, score
    return best


def focus(clause: str, query: str, limit: int) -> str:
    """The ``limit``-character window of ``clause`` that starts just before its first word
    shared with the query (what answers a question usually follows its words)."""
    if len(clause) <= limit:
        return clause
    wanted = content_words(query)
    if is_chinese(clause):
        hits = [clause.find(w) for w in wanted if w in clause]
        start = max(0, min(hits) - 2) if hits else 0
        return clause[start:start + limit]
    words = clause.split()
    first = next((i for i, w in enumerate(words) if content_words(w) & wanted), 0)
    start = max(0, first - 1)
    return " ".join(words[start:])


def episode_card(episode: Episode, query: str, limit: int = CARD_CHARS) -> str:
    """At most ``limit`` characters: ``<date> <clause relevant to the question>`` when the
    episode has one (the key constraint for this question), else ``<date> <goal>→<outcome>``."""
    chinese = is_chinese(episode.goal + episode.result)
    head = _date(episode.start_time, chinese) + " "
    goal = _SPEAKER.sub("", episode.goal)
    key = best_clause(episode, query, skip=goal)
    if key is not None:
        return truncate(head + focus(key, query, limit - len(head)), limit)
    outcome = _SPEAKER.sub("", episode.result)
    if not outcome or outcome in goal or goal in outcome:
        return truncate(head + goal, limit)
    goal_part = truncate(goal, max(8, (limit - len(head)) // 2))
    return truncate(f"{head}{goal_part}→{outcome}", limit)


@dataclass(frozen=True)
class Item:
    kind: str  # "fact" | "episode"
    key: str
    text: str
    score: float


def fit_budget(items: Sequence[Item], budget: int, overhead: int = 0) -> list[Item]:
    """Keep the most valuable items whose lines fit ``budget`` tokens in total."""
    def value(item: Item) -> float:
        weight = EPISODE_WEIGHT if item.kind == "episode" else 1.0
        return item.score * weight / max(1, count_tokens(item.text))

    kept = list(items)
    while kept and overhead + sum(count_tokens(i.text) for i in kept) > budget:
        kept.remove(min(kept, key=value))
    return kept


def render(facts: Sequence[str], cards: Sequence[str], chinese: bool) -> str:
    """The prompt block: long-term knowledge first, then recent events (the article's order)."""
    blocks = []
    if facts:
        blocks.append(("[长期知识]" if chinese else "[Known facts]") + "\n" +
                      "\n".join(f"- {line}" for line in facts))
    if cards:
        blocks.append(("[相关事件]" if chinese else "[Past episodes]") + "\n" +
                      "\n".join(f"- {card}" for card in cards))
    return "\n\n".join(blocks)


def fact_line(sentence: str, confidence: float, reference_only: bool, chinese: bool) -> str:
    note = ("，仅供参考" if chinese else ", reference only") if reference_only else ""
    return f"{sentence} ({confidence:.2f}{note})"
