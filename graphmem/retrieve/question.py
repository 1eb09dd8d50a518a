"""A question as retrieval sees it: its text and vector, whose memory, which route and time
window, as of when, and how many items of each kind it wants. Pure code."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from graphmem._models import EARLIEST_TS, LATEST_TS, Route, TimeWindow
from graphmem.embed import REFERENCE_SCALE
from graphmem.text.words import content_words, stem

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


# A question about what the assistant said, made or gave ("what was the restaurant you
# suggested", "the script you wrote me", "did you say 3,800 per group", "your recipe",
# "你之前推荐的那本书", "你给我列的清单") or about what a past conversation said ("our
# previous conversation about…", "the shop we talked about", "我们上次聊的"): the answer
# may be a line of a long reply.
_ASKS_ASSISTANT = re.compile(
    r"\byou(?:'d|'ve)?\s+(?:\w+\s+){0,2}?(?:said|say|suggest(?:ed)?|recommend(?:ed)?|"
    r"mention(?:ed)?|told|tell|gave|give|listed|list|wrote|write|came up|come up|provided|"
    r"proposed|planned|put together|drafted|made|calculated?|estimated?|computed?|quoted?|"
    r"figured out|figure out|predicted|predict|reckoned|converted|convert|explained|explain|"
    r"shared|pointed out|"
    r"advised|picked|included|offered|sent|showed|named|called|taught|teach|worked out|"
    r"work out|drilled|had me|have me|walked me through|helped me|help me)\b"
    r"|\b(?:our|the)\s+(?:previous|last|earlier|past|prior|other)\s+(?:conversation|chat|"
    r"discussion|talk)s?\b|\bwe\s+(?:talked|discussed|chatted|spoke|went over)\b"
    r"|\byour\s+(?:\w+\s+)?(?:suggestions?|recommendations?|list|plan|answer|advice|script|"
    r"code|summary|recipe|itinerary|draft|email|version|calculation|example|template|idea)s?\b"
    r"|我们(?:之前|上次|上回|那次|以前)?(?:聊|讨论|谈)(?:过|到|的)"
    r"|(?<![跟和对给诉问向帮])你(?:之前|上次|上回|那次|刚才|当时|以前)?"
    r"(?:(?:给|帮|跟|和|对|替)\S{0,4}?)?(?:是)?(?:怎么|咋)?"
    r"(?:说|讲|提到|提过|推荐|建议|列|写|算|安排|提供|告诉|整理|发|教|排|叫|让|开|配|选|挑|"
    r"出|做的|定的|给的|想的|起的)",
    re.IGNORECASE)


def asks_assistant(query: str) -> bool:
    """Whether the question asks about something the assistant said or made."""
    return bool(_ASKS_ASSISTANT.search(query))


# A question about how things stand now ("where do I work now", "do I still play tennis",
# "what am I reading these days", "我现在住哪", "目前还在用哪个牌子") and not one that sets
# the present against the past ("than before", "how long ago", "my old place", "以前",
# "比…", "离现在多久"): the newest thing said answers it.
_ASKS_PRESENT = re.compile(
    r"\b(?:now|nowadays|these days|currently|current|still|at the moment|at present|"
    r"any ?more|presently|lately)\b|现在|目前|如今|眼下|当前|这阵子|这段时间|最近|还在|仍然|依然",
    re.IGNORECASE)
_AGAINST_PAST = re.compile(
    r"\b(?:before|than|ago|old|used to|previous(?:ly)?|earlier|former(?:ly)?|originally|"
    r"first|initially|how long|since|back then|at the time)\b|"
    r"以前|之前|原来|本来|过去|当初|刚开始|第一次|最早|起初|比|离现在|多久|多长时间",
    re.IGNORECASE)


def asks_present(query: str) -> bool:
    """Whether the question asks how things stand now, not set against the past."""
    return bool(_ASKS_PRESENT.search(query)) and not _AGAINST_PAST.search(query)


@dataclass(frozen=True)
class Question:
    """What ``query_memory`` was asked, checked and resolved (route, time window)."""

    query: str
    vector: Sequence[float]
    user_id: str
    route: Route
    window: TimeWindow | None
    now: datetime
    top_k_episodes: int
    top_k_facts: int
    include_superseded: bool = False
    min_confidence: float = 0.7  # below it (decayed), a fact is shown as reference only
    # the embedder's (unrelated, answering) median cosines for the question's language
    # (graphmem.embed.cosine_scale): cosines are read on one reference scale
    cosine_scale: tuple[float, float] = REFERENCE_SCALE

    def relatedness(self, cosine: float) -> float:
        """A cosine of this question's embedder on the reference scale (all-MiniLM-L6-v2's
        English), where retrieval's thresholds are set."""
        unrelated, answering = self.cosine_scale
        low, high = REFERENCE_SCALE
        return low + (cosine - unrelated) * (high - low) / (answering - unrelated)

    def cosine_of(self, relatedness: float) -> float:
        """The cosine of this question's embedder that reads as ``relatedness``."""
        unrelated, answering = self.cosine_scale
        low, high = REFERENCE_SCALE
        return unrelated + (relatedness - low) * (answering - unrelated) / (high - low)

    @property
    def since(self) -> datetime:
        """The window's start (the earliest time when the question names none)."""
        return (self.window.since if self.window else None) or EARLIEST_TS

    @property
    def until(self) -> datetime:
        return (self.window.until if self.window else None) or LATEST_TS

    @property
    def windowed(self) -> bool:
        """It names a time."""
        return self.window is not None and (self.window.since is not None
                                            or self.window.until is not None)

    @cached_property
    def strict(self) -> bool:
        """It names a time and asks about nothing else: the keyword channel keeps to the
        window. Otherwise the window is a preference, not a wall: an event is often told
        after it happened ("last year we saw the meteor shower"), so messages from any
        time count, and those inside the window count twice."""
        return self.windowed and about_time_only(self.query, self.window)
