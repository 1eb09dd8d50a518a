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
# suggested", "the script u wrote me", "that formula ye gave me", "did you say 3,800 per
# group", "your recipe", "你之前推荐的那本书", "你给我列的清单", "上回你帮我翻的菜单", "之前帮我算的
# 房贷") or about what a past conversation said or made ("our previous conversation about…",
# "the shop we talked about", "the rate we came up with", "that stovies recipe", "那份复习计划里",
# "我们上次聊的"): the answer may be a line of a long reply. "you" as chat spells it (u, ye,
# ya); Chinese in simplified or traditional characters.
_YOU = r"(?:you|u|ye|ya)"
_LANGUAGES = (r"english|spanish|portuguese|french|german|italian|chinese|mandarin|cantonese|"
              r"japanese|korean|arabic|hindi|tagalog|vietnamese|thai|russian|dutch|polish|"
              r"welsh|irish|greek|turkish|swahili|maori|te reo")
# what an assistant writes for someone, named after "that" ("that python script for my S-N
# curve", "in they quiz questions") or 那份 / 那封 / 那篇 / 那首 / 那道题
_MADE_EN = (r"recipes?|scripts?|formulas?|formulae|summary|summaries|drafts?|itinerary|"
            r"itineraries|quiz(?:zes)?|quiz questions|poems?|translations?|templates?|"
            r"convo|spreadsheet|workout plan|meal plan|study plan|cover letter")
_MADE_ZH = (r"计划|計劃|菜单|菜單|食谱|食譜|邮件|郵件|脚本|腳本|清单|清單|攻略|行程|文案|方案|总结|"
            r"總結|翻译|翻譯|公式|代码|代碼|表格|模板|诗|詩|信|稿|题|題|函数|函數|配方")
_ASKS_ASSISTANT = re.compile(
    rf"\b{_YOU}(?:'d|'ve)?\s+(?:\w+\s+){{0,2}}?(?:said|say|suggest(?:ed)?|recommend(?:ed)?|"
    r"mention(?:ed)?|told|tell|gave|give|listed|list|wrote|write|came up|come up|provided|"
    r"proposed|planned|put together|drafted|made|calculated?|estimated?|computed?|quoted?|"
    r"figured|figure|predicted|predict|reckoned|converted|convert|explained|explain|"
    r"shared|pointed out|counted|count|translated|translate|"
    r"advised|picked|included|offered|sent|showed|named|called|taught|teach|worked out|"
    r"work out|drilled|had me|have me|walked me through|helped me|help me)\b"
    rf"|\bdid\s+{_YOU}\s+get\b"
    r"|\b(?:our|the)\s+(?:previous|last|earlier|past|prior|other)\s+(?:conversation|chat|"
    r"discussion|talk)s?\b|\bwe\s+(?:talked|discussed|chatted|spoke|went over|came up with|"
    r"come up with|worked out|work out|figured out)\b"
    r"|\byour\s+(?:\w+\s+)?(?:suggestions?|recommendations?|list|plan|answer|advice|script|"
    r"code|summary|recipe|itinerary|draft|email|version|calculation|example|template|idea)s?\b"
    rf"|\b(?:that|those|they)\s+(?:[\w'-]+\s+){{0,3}}?(?:{_MADE_EN})\b"
    rf"|\bhow\s+(?:do|did|would|should)\s+(?:i|{_YOU}|we)\s+(?:say|write|put)\b.*\bin\s+"
    rf"(?:{_LANGUAGES})\b|\bwhat\s+the\s+(?:{_LANGUAGES})\s+(?:was|is)\s+for\b"
    r"|我们(?:之前|上次|上回|那次|以前)?(?:聊|讨论|谈)(?:过|到|的)"
    r"|(?<![跟和对给诉问向帮給對幫同])你(?:之前|上次|上回|那次|刚才|當時|当时|以前|之前有|有)?"
    r"(?:(?:给|帮|跟|和|对|替|給|幫|對)\S{0,8}?)?(?:是)?(?:怎么|咋|點樣|点样)?"
    r"(?:说|講|讲|話|话|提到|提过|提過|推荐|推薦|建议|建議|列|写|寫|算|估|设|設|翻|弄|扫盲|安排|"
    r"提供|告诉|告訴|整理|发|發|教|排|叫|让|讓|开|開|配|选|選|挑|出|做的|定的|给的|給的|想的|起的)"
    r"|你(?:之前|上次|上回|那次|以前)?(?:给|給)(?:我|俺|额|咱|我们)(?:的|那个|那個|那份|那张|那篇)"
    r"|(?:之前|上次|上回|那次|那回|以前|当时|當時)(?:你)?(?:给|帮|幫|給|替)\S{0,6}?"
    r"(?:算|写|寫|翻|列|做|排|整理|推荐|推薦|估|查)"
    rf"|那(?:份|封|篇|首|道)\S{{0,12}}?(?:{_MADE_ZH})|那(?:个|個)\S{{0,10}}?(?:题|題)"
    r"|(?:英文|英语|英語|日语|日語|韩语|韓語|法语|法語|德语|德語|西班牙语|葡萄牙语|粤语|粵語)"
    r"(?:名)?(?:是)?(?:咋|怎么|怎麼|怎样|點)(?:个|個)?(?:写|寫|说|說|讲|講|翻)",
    re.IGNORECASE)
# A request for something now ("can you suggest a dinner", "你给推荐推荐", "你帮我排个时间表")
# asks for no past reply, unless it says one was given ("can you tell me again what you said")
_REQUEST = re.compile(
    rf"^\W*(?:(?:can|could|would|will)\s+{_YOU}\b|(?:please|pls|plz)\b)"
    r"|你(?:给|帮|幫|給)?(?:我|额|俺|咱)?(?:推荐推荐|出出主意|说说|看看|教我一下|"
    r"(?:推荐|推薦|写|寫|列|排|出|整理|说|教)(?:个|個|几|幾|一下|点|點))"
    rf"|\b(?:what|which)\b[^?]{{0,30}}?\b(?:do|would)\s+{_YOU}\s+(?:suggest|recommend)"
    r"|你说我\S{0,6}?(?:好|呢)|你帮\S{0,2}写个",
    re.IGNORECASE)
_SAID_BEFORE = re.compile(
    r"\b(?:said|told|gave|suggested|recommended|wrote|again|earlier|before|last time)\b"
    r"|之前|上次|上回|那次|以前|刚才|當時|当时|的那|过的|過的", re.IGNORECASE)


def asks_assistant(query: str) -> bool:
    """Whether the question asks about something the assistant said or made (not a request
    for something new)."""
    if not _ASKS_ASSISTANT.search(query):
        return False
    return not _REQUEST.search(query) or bool(_SAID_BEFORE.search(query))


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
