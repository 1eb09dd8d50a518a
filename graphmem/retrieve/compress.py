"""Compression (pipeline stage 5c): a small, budgeted prompt block without an LLM.

Each episode becomes one card of at most 50 characters — when it happened, and the
passage that answers the question (else goal → outcome), in telegraphic words. Each
fact is one line with its confidence; reference-only facts are grouped under one label.
Items are dropped lowest value-per-token first until the block fits the token budget;
an episode card is worth less than a fact for the same tokens (the article: episodic
records are coarse and less dense). Pure code.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from graphmem._models import Episode
from graphmem.nlp import is_chinese
from graphmem.retrieve.tokens import count_tokens
from graphmem.retrieve.words import content_words
from graphmem.segment import truncate

CARD_CHARS = 50
EPISODE_WEIGHT = 0.5
HEADER_TOKENS = 28  # the three section labels and blank lines, at most
_SENTENCE = re.compile(r"[^。！？!?.\n]+[。！？!?.\n]*")
_HEADERS_EN = ("[Known facts]", "[Reference only: old or uncertain]", "[Past episodes]")
_HEADERS_ZH = ("[长期知识]", "[仅供参考：久未验证或不确定]", "[相关事件]")
_DATED = re.compile(r"(.+?)\s*\(([^()]+)\)")
_SPEAKER = re.compile(r"^([A-Z][\w .'-]{0,30}):\s+")
# Words a 50-character card can do without (articles, copulas, intensifiers, interjections).
_FILLER = frozenset({
    "a", "an", "the", "really", "so", "just", "very", "super", "pretty", "totally", "actually",
    "definitely", "literally", "hey", "hi", "wow", "yeah", "yep", "oh", "ah", "um", "uh",
    "thanks", "omg", "lol", "is", "are", "was", "were", "am", "it", "that", "this", "it's",
    "that's", "i'm",
})


@dataclass(frozen=True)
class _Sentence:
    text: str
    message: int  # index of the action it is part of
    question: bool


def _speaker_and_text(content: str) -> tuple[str | None, str]:
    m = _SPEAKER.match(content)
    return (m.group(1), content[m.end():]) if m else (None, content)


def _date(when: datetime, chinese: bool) -> str:
    return f"{when.month}月{when.day}日" if chinese else when.strftime("%-d %b %Y")


def key_passage(episode: Episode, query: str) -> str | None:
    """The part of the episode that answers the question best, as said (uncompressed).

    Each sentence scores the *rare* words it shares with the question (a word in many of
    the episode's sentences counts less; speakers' names not at all). The passage runs
    from the last shared word to the end of that message; when the best sentence is
    itself a question, the next speaker's reply is the passage (what answers it)."""
    speakers = [_speaker_and_text(a.content) for a in episode.actions]
    names = {name for name, _ in speakers if name}
    wanted = content_words(query, names)
    sentences = [_Sentence(sent.strip(), i, sent.rstrip().endswith(("?", "？")))
                 for i, (_, text) in enumerate(speakers) for sent in _SENTENCE.findall(text)
                 if sent.strip()]
    shared = [content_words(sent.text, names) & wanted for sent in sentences]
    frequency: dict[str, int] = {}
    for words in shared:
        for w in words:
            frequency[w] = frequency.get(w, 0) + 1
    at, best_score = None, 0.0
    for position, words in enumerate(shared):
        score = sum(1.0 / frequency[w] for w in words)
        if words and score >= best_score:  # on a tie, the later sentence: answers follow
            at, best_score = position, score
    if at is None:
        return None
    best = sentences[at]
    following = [s for s in sentences if s.message == best.message + 1]
    if best.question and following:
        return " ".join(s.text for s in following)
    rest = " ".join(s.text for s in sentences[at + 1:] if s.message == best.message)
    return _from_last_shared(best.text, wanted, names) + (" " + rest if rest else "")


def _from_last_shared(sentence: str, wanted: set[str], names: set[str]) -> str:
    """``sentence`` from its last word shared with the question on: that word anchors
    the card, and what answers a question usually follows its words (the question's own
    words need not be repeated to the reader who asked it). A sentence that ends on the
    shared word is kept whole."""
    if is_chinese(sentence):
        hits = [sentence.find(w) for w in wanted if w in sentence]
        return sentence[max(0, min(hits) - 2):] if hits else sentence
    words = sentence.split()
    hits = [i for i, w in enumerate(words) if content_words(w, names) & wanted]
    if not hits or hits[-1] == len(words) - 1:
        # the sentence ends on the question's word ("... is important."): what it
        # says about it came before
        return sentence
    return " ".join(words[hits[-1]:])


def squeeze(text: str) -> str:
    """Telegraphic English for a tiny card: articles, copulas, intensifiers and
    interjections out (Chinese text is left as it is)."""
    if is_chinese(text):
        return text
    kept = [w for w in text.split() if w.lower().strip(",.!?;:") not in _FILLER]
    return " ".join(kept).lstrip(",.!?;: ")


def episode_card(episode: Episode, query: str, limit: int = CARD_CHARS) -> str:
    """At most ``limit`` characters: ``<date> <passage that answers the question>`` when
    the episode has one (the key constraint for this question), else
    ``<date> <goal>→<outcome>`` — each the first sentence of it that says something
    (not "Hey Mel!")."""
    chinese = is_chinese(episode.goal + episode.result)
    head = _date(episode.start_time, chinese) + " "
    key = key_passage(episode, query)
    if key is not None:
        return truncate(head + squeeze(key), limit)
    goal = _gist([episode.goal]) or _gist([a.content for a in episode.actions])
    outcome = _gist([episode.result])
    if not outcome or _overlaps(goal, outcome):
        return truncate(head + goal, limit)
    goal_part = truncate(goal, max(8, (limit - len(head)) // 2))
    return truncate(f"{head}{goal_part}→{outcome}", limit)


def _overlaps(a: str, b: str) -> bool:
    """One text contains the other (ignoring a cut mark and end punctuation)."""
    a, b = (t.rstrip("….。!?！？ ") for t in (a, b))
    return a in b or b in a


def _gist(messages: Sequence[str]) -> str:
    """The first sentence of ``messages`` with two or more content words, squeezed."""
    said = [_speaker_and_text(m) for m in messages]
    names = {name for name, _ in said if name}
    for _, text in said:
        for sentence in _SENTENCE.findall(text):
            squeezed = squeeze(sentence.strip())
            if len(content_words(squeezed, names)) >= 2:
                return squeezed
    return ""


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


def render(facts: Sequence[str], cards: Sequence[str], chinese: bool,
           reference: Sequence[str] = ()) -> str:
    """The prompt block: long-term knowledge first, then what is only for reference (old
    or uncertain facts, labelled once for the group), then recent events (the article's
    order)."""
    headers = _HEADERS_ZH if chinese else _HEADERS_EN
    blocks = [header + "\n" + "\n".join(f"- {line}" for line in lines)
              for header, lines in zip(headers, (facts, reference, cards), strict=True)
              if lines]
    return "\n\n".join(blocks)


def fact_line(sentence: str, confidence: float) -> str:
    """``sentence (confidence)``; a sentence ending in its date shares the parentheses:
    ``Melanie went camping (20 Oct 2023, 0.75)``."""
    dated = _DATED.fullmatch(sentence)
    if dated:
        return f"{dated.group(1)} ({dated.group(2)}, {confidence:.2f})"
    return f"{sentence} ({confidence:.2f})"
