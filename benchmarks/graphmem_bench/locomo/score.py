"""Scoring what a system put in front of the agent, without an LLM. Pure code.

- **answer-in-context** (the headline): the share of the gold answer's words found among
  the context's words;
- **evidence-in-context**: the share of the question's evidence turns that the context
  shows — a turn counts only when most of its content words appear in the context text;
- **provenance recall** (secondary, labelled as such): 1 if any evidence turn is among the
  raw messages *behind* the returned items (an episode's whole raw span counts, though the
  agent reads only what the context shows of it).
"""

from __future__ import annotations

import math
import re
import string
from collections.abc import Iterable, Sequence
from typing import Any

Span = tuple[str, int]

_ARTICLES = frozenset({"a", "an", "the"})
_ANSWER_STOPWORDS_TEXT = (
    "and or of to in on at for with by from as is are was were be been it its that this"
)
ANSWER_STOPWORDS = _ARTICLES | frozenset(_ANSWER_STOPWORDS_TEXT.split())
# Words that say nothing about which turn it was (for evidence-in-context).
_FUNCTION_WORDS_TEXT = """
    i me my mine myself we us our you your yours he him his she her they them their
    what which who whom when where why how not no yes so than too very can could would
    should will just do does did done has have had having am im ive id youre thats its
    dont didnt cant wont there here all any some about up out if then also but really
    oh wow hey hi yeah yep ok okay thanks thank much more most one get got go going
    """
EVIDENCE_STOPWORDS = ANSWER_STOPWORDS | frozenset(_FUNCTION_WORDS_TEXT.split())
EVIDENCE_SHARE = 0.5  # "most of its content words": more than half
_PUNCT = str.maketrans("", "", string.punctuation + "\u2018\u2019\u201c\u201d\u2013\u2014")
_PHOTO = re.compile(r"\s*\[shares a photo:[^\]]*\]\s*$")


def normalize_tokens(text: str, stopwords: frozenset[str] = ANSWER_STOPWORDS) -> list[str]:
    """Lowercase, strip punctuation, drop articles and a few stopwords, split on whitespace."""
    return [w for w in text.lower().translate(_PUNCT).split() if w not in stopwords]


def answer_in_context(answer: str, context: str) -> float | None:
    """Share of the answer's normalized tokens found among the context's (None if no tokens)."""
    gold = normalize_tokens(answer)
    if not gold:
        return None
    have = set(normalize_tokens(context))
    return sum(1 for w in gold if w in have) / len(gold)


def turn_shown(turn_text: str, context_words: set[str]) -> bool:
    """Does a context with ``context_words`` show this turn: are more than half of its
    content words there? (A photo caption the dataset attached is not part of the turn.)"""
    words = set(normalize_tokens(_PHOTO.sub("", turn_text), EVIDENCE_STOPWORDS))
    if not words:
        return False
    return len(words & context_words) > EVIDENCE_SHARE * len(words)


def evidence_in_context(evidence_texts: Sequence[str], context: str) -> float | None:
    """Share of the evidence turns the context shows (None without evidence)."""
    if not evidence_texts:
        return None
    have = set(normalize_tokens(context, EVIDENCE_STOPWORDS))
    return sum(1 for t in evidence_texts if turn_shown(t, have)) / len(evidence_texts)


def provenance_recall(evidence_spans: Iterable[Span], spans: Iterable[Span]) -> float | None:
    """1.0 if any evidence message is among ``spans``, 0.0 if none, None without evidence."""
    wanted = set(evidence_spans)
    if not wanted:
        return None
    return 1.0 if wanted & set(spans) else 0.0


def span_members(session_id: str, raw_span: Sequence[int]) -> set[Span]:
    """Every ``(session_id, msg_id)`` of an inclusive ``(first, last)`` raw span."""
    first, last = int(raw_span[0]), int(raw_span[1])
    return {(session_id, m) for m in range(first, last + 1)}


def context_spans(context: Any) -> set[Span]:
    """The raw messages behind a graphmem ``MemoryContext``: its episodes' raw spans and
    each fact's source spans (``session_ids[i]`` with ``raw_spans[i]``)."""
    spans: set[Span] = set()
    for ep in getattr(context, "episodes", ()) or ():
        spans |= span_members(ep.session_id, ep.raw_span)
    for fact in getattr(context, "facts", ()) or ():
        for session_id, raw_span in zip(
            getattr(fact, "session_ids", ()) or (), getattr(fact, "raw_spans", ()) or (),
            strict=False,
        ):
            spans |= span_members(session_id, raw_span)
    return spans


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile ``q`` in [0, 100]; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)
