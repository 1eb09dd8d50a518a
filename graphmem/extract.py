"""Fact extraction (pipeline stage 3a): candidate facts from what the user said.

``RuleExtractor`` needs no LLM: regular rules over clauses of user messages, in
Chinese and English, for preferences, dietary and allergy constraints, budgets,
dates and deadlines, communication channels, locations, jobs, plans and relations
— each with its negation. "I" / 我 resolve to the user; 她 / she resolve to the
person last named in the episode; budgets and dates attach to the episode's event
(聚会, party, trip...) when it has one. Hedged or questioning clauses are skipped
or lowered below ``min_confidence``. Another extractor (an LLM) plugs in through
the ``Extractor`` protocol.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from functools import cache
from typing import Protocol

from graphmem._models import Episode
from graphmem.nlp import is_chinese
from graphmem.timeparse import resolve_date

USER = "user"


@cache
def _compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """Rules compile once: ``re``'s own cache (512 patterns) churns with spaCy loaded."""
    return re.compile(pattern, flags)


def _search(pattern: str, text: str, flags: int = 0) -> re.Match[str] | None:
    return _compiled(pattern, flags).search(text)


def _match(pattern: str, text: str, flags: int = 0) -> re.Match[str] | None:
    return _compiled(pattern, flags).match(text)


def _findall(pattern: str, text: str, flags: int = 0) -> list:
    return _compiled(pattern, flags).findall(text)
REL_ZH = ("女朋友|女友|男朋友|男友|老婆|妻子|太太|老公|丈夫|妈妈|母亲|爸爸|父亲|姐姐|妹妹|哥哥|弟弟|"
          "经理|老板|领导|上司|同事|好朋友|朋友|儿子|女儿")
REL_EN = ("girlfriend|boyfriend|wife|husband|mom|mother|mum|dad|father|sister|brother|manager|"
          "boss|colleague|coworker|best friend|friend|son|daughter|kids|children|partner|"
          "parents|family|dog|cat")
EVENT_ZH = "聚会|派对|婚礼|会议|旅行|旅游|晚餐|晚宴|活动|项目|面试|演出|发布会"
EVENT_EN = ("party|wedding|meeting|trip|dinner|event|project|interview|offsite|conference|"
            "launch|release|concert|vacation")
CHANNEL_ZH = "微信|邮件|邮箱|电子邮件|Slack|slack|钉钉|飞书|电话|短信|QQ|qq|Telegram|WhatsApp"
CHANNEL_EN = "wechat|e-mail|email|slack|telegram|whatsapp|sms|phone|dingtalk|lark|feishu|qq"

_CLAUSE = re.compile(r"[^，。！？；,.!?;\n]+[，。！？；,.!?;\n]*")
_SENTENCE = re.compile(r"[^。！？.!?\n]+[。！？.!?\n]*")
_HEDGE = re.compile(r"可能|也许|大概是|好像|不确定|或许|\bmaybe\b|\bmight\b|\bperhaps\b|\bprobably\b|"
                    r"\bnot sure\b|\bi guess\b", re.IGNORECASE)
_QUESTION = re.compile(r"[?？]\s*$|吗[？?。]?\s*$|^(?:do|does|did|is|are|should)"
                       r" (?:you|i|we)\b", re.IGNORECASE)
_REQUEST = re.compile(r"^(?:can|could|would|will) you\b|^please\b|^帮我|^请|^麻烦|^能不能|^可以帮",
                      re.IGNORECASE)
_TRAIL_ZH = re.compile(r"(?:了|的|呢|吧|啊|呀|哦|啦|就行|就好|哈|嘛)+$")
_CUT_EN = re.compile(r"\s+(?:and|but|because|so|since|though|when|if|as|which|that|too|anymore|"
                     r"any more|again|now|either|at all|these days|lately|"
                     r"very much|a lot)\b.*$", re.IGNORECASE)
_LEAD_EN = re.compile(r"^(?:to use|using|to|the|a|an|some|eating|to eat|having|drinking)\s+",
                      re.IGNORECASE)
_LEAD_ZH = re.compile(r"^(?:吃|喝|看|听|玩|去|用|买|收到|养)")
# "I (really) like X" — the verb right after the subject, never "things like", "I'd like to".
_LIKE_EN = re.compile(
    r"^\s*(?:(?:i|we|she|he|they)\s+)?(?:(?:really|also|absolutely|totally|just|still|do|does|"
    r"don't|do not|doesn't|does not|never|always|maybe|perhaps|probably|kind of|sort of)\s+)*"
    r"(like|likes|love|loves|enjoy|enjoys|prefer|prefers|adore|adores|hate|hates|dislike|"
    r"dislikes|can't stand)\s+(.+)", re.IGNORECASE)
_NOT_A_VALUE = frozenset({"to", "for", "and", "or", "it", "that", "this", "them", "those",
                          "these", "you", "him", "her", "me", "us", "what", "how", "when", "if",
                          "everything", "something", "anything", "being", "having", "with",
                          "of", "in", "on", "at", "who", "which", "so", "as", "a", "an", "the"})
_NEG_EN = re.compile(r"\b(?:don't|do not|doesn't|does not|dont|doesnt|never|no longer|not|"
                     r"hate|hates|dislike|dislikes|stop|rather not|can't stand)\b", re.IGNORECASE)


_TRIGGER = re.compile(
    rf"喜欢|爱|讨厌|偏爱|吃|过敏|预算|{CHANNEL_ZH}|住在|工作|上班|准备|打算|计划|"
    rf"\b(?:like|likes|love|loves|enjoy|prefer|prefers|hate|hates|dislike|eat|allergic|budget|"
    rf"under|vegetarian|vegan|{CHANNEL_EN}|live|moving|work|planning)\b|\$\d",
    re.IGNORECASE,
)


def might_have_facts(text: str) -> bool:
    """A cheap, permissive pre-check: False means no rule can match this message."""
    return bool(_TRIGGER.search(text))


@dataclass(frozen=True)
class Candidate:
    """A fact as the extractor sees it, before normalization and conflict checks."""

    entity: str
    predicate: str
    value: str
    negated: bool
    confidence: float
    observed_at: datetime
    evidence: str
    value_kind: str = "thing"
    valid_until: datetime | None = None
    sentence: str | None = None  # set by readings whose sentence is not a template
    msg_id: int = 0  # the message it was said in (0: unknown)


class Extractor(Protocol):
    def extract(self, episode: Episode) -> list[Candidate]: ...


@dataclass
class _Context:
    event: str | None = None
    person: str | None = None
    speaker: str | None = None  # "Name: ..." transcripts: first person is the speaker


_SPEAKER = re.compile(r"^([A-Z][\w.'-]{1,30}(?: [A-Z][\w.'-]{1,30})?):\s+(.+)$", re.DOTALL)


def event_in(text: str) -> str | None:
    match = _search(EVENT_ZH, text) or _search(rf"\b(?:{EVENT_EN})\b", text, re.IGNORECASE)
    return match.group(0).lower() if match else None


class RuleExtractor:
    """The default, offline extractor: specific rules (regular expressions) first, then,
    for English clauses no rule covered, a generic subject–verb–object reading from
    spaCy's parser (``generic=False`` keeps to the cheap rules, as the online path does)."""

    def __init__(self, generic: bool = True) -> None:
        self.generic = generic

    def extract(self, episode: Episode) -> list[Candidate]:
        ctx = _Context(event=event_in(episode.goal))
        found: list[Candidate] = []
        deferred: list[_Deferred] = []
        for action in episode.actions:
            if action.role == "user":
                found.extend(self.extract_text(action.content, action.ts, ctx, deferred))
        found.extend(_generic(deferred))
        said_in = {a.ts: a.msg_id for a in reversed(episode.actions)}  # first message at ts
        return _dedupe([replace(c, msg_id=said_in.get(c.observed_at, 0)) for c in found])

    def extract_text(
        self, text: str, observed_at: datetime, ctx: _Context | None = None,
        deferred: list[_Deferred] | None = None,
    ) -> list[Candidate]:
        """Candidates from one user message (the online path uses this directly).

        Rules read clause by clause. Each sentence goes to the generic reader too (whole,
        so that "we explored nature, roasted marshmallows" keeps its subject), which skips
        the clauses a specific rule already read; sentences wait in ``deferred`` when it
        is given (parsed later in one batch), else they are parsed here."""
        ctx = ctx or _Context(event=event_in(text))
        ctx.event = ctx.event or event_in(text)
        speaker = _SPEAKER.match(text)
        ctx.speaker = speaker.group(1) if speaker else None
        if speaker:
            text = speaker.group(2)
        out: list[Candidate] = []
        now_deferred: list[_Deferred] = []
        for sentence in _SENTENCE.findall(text):
            covered: list[tuple[int, int]] = []  # clauses a specific rule already read
            hedged = False
            for match in _CLAUSE.finditer(sentence):
                span, body = match.span(), match.group().strip()
                if not body or (_QUESTION.search(body) and not _REQUEST.search(body)):
                    covered.append(span)
                    continue
                rules = _zh_rules if is_chinese(body) else _en_rules
                found = rules(body.rstrip("，。！？；,.!?; \n"), observed_at, ctx)
                if _HEDGE.search(body):
                    hedged = True
                    found = [replace(c, confidence=c.confidence - 0.25) for c in found]
                if not all(c.predicate == "has_relation" for c in found):
                    covered.append(span)
                out.extend(found)
            if (self.generic and not is_chinese(sentence) and sentence.strip()
                    and sum(b - a for a, b in covered) < len(sentence)):
                (now_deferred if deferred is None else deferred).append(_Deferred(
                    sentence, observed_at, ctx.speaker or USER, ctx.person, hedged,
                    tuple(covered)))
        if ctx.speaker:  # first person is the speaker, not the memory's user
            out = [replace(c, entity=ctx.speaker) if c.entity == USER else c for c in out]
        return out + _generic(now_deferred)


@dataclass(frozen=True)
class _Deferred:
    """A sentence waiting for the generic reader, with who "I" and "she" were then and
    the character spans of its clauses that specific rules already read."""

    clause: str
    observed_at: datetime
    first_person: str
    person: str | None
    hedged: bool
    covered: tuple[tuple[int, int], ...] = ()


def _generic(deferred: Sequence[_Deferred]) -> list[Candidate]:
    if not deferred:
        return []
    from graphmem.extract_generic import GENERIC_CONFIDENCE, generic_candidates, parse

    out = []
    for item, doc in zip(deferred, parse([d.clause for d in deferred]), strict=True):
        confidence = GENERIC_CONFIDENCE - (0.25 if item.hedged else 0.0)
        out.extend(
            Candidate(entity, predicate, value, negated, confidence, item.observed_at,
                      item.clause.strip(), sentence=f"{sentence} ({when:%-d %b %Y})")
            for entity, predicate, value, negated, sentence, when in generic_candidates(
                doc, item.observed_at, item.first_person, item.person, item.covered))
    return out


def _zh_subject(clause: str, ctx: _Context) -> tuple[str | None, str, list[tuple[str, str]]]:
    """(subject, rest of clause, relation mentions) for a Chinese clause."""
    relations = [("has_relation", m) for m in _findall(rf"我的?({REL_ZH})", clause)]
    m = _match(rf"^(?:我的?|俺)?({REL_ZH})", clause)
    if m:
        ctx.person = m.group(1)
        if not relations:
            relations.append(("has_relation", m.group(1)))
        return m.group(1), clause[m.end():], relations
    m = _match(r"^(她|他)(?:的)?", clause)
    if m:  # a pronoun for nobody named yet stays unresolved (never "the user")
        return ctx.person, clause[m.end():], relations
    return USER, re.sub(r"^(?:我们|我)", "", clause), relations


def _clean_zh(value: str) -> str:
    value = _TRAIL_ZH.sub("", _LEAD_ZH.sub("", value.strip()))
    return value.strip(" ：:、")


def _collector(
    subject: str | None, relations: list[tuple[str, str]], ts: datetime, clause: str,
    accept: Callable[[str], bool],
) -> tuple[list[Candidate], Callable[..., None]]:
    """The relation mentions of a clause, and ``add(...)`` for what its rules find."""
    out = [Candidate(USER, p, v, False, 0.9, ts, clause, "person") for p, v in relations]

    def add(pred: str, value: str, neg: bool, conf: float, kind: str = "thing",
            entity: str | None = None, until: datetime | None = None) -> None:
        if subject is not None and value and accept(value):
            out.append(Candidate(entity or subject, pred, value, neg, conf, ts, clause, kind,
                                 until))

    return out, add


def _zh_rules(clause: str, ts: datetime, ctx: _Context) -> list[Candidate]:
    subject, rest, relations = _zh_subject(clause, ctx)
    out, add = _collector(subject, relations, ts, clause, lambda v: len(v) <= 16)
    if subject is None:
        return out

    m = _search(rf"(不喜欢|不想|不要|不愿意|别|不)?(?:用|通过|走|加我?|发到我?的?|打我?的?|联系我?用?)"
                  rf"({CHANNEL_ZH})", rest)
    if m:
        add("uses_channel", m.group(2), bool(m.group(1)), 0.9, "channel")
    elif m := _search(r"(讨厌|不喜欢|不太喜欢|不爱|并不喜欢|喜欢|爱|喜爱|偏爱|钟爱)(.+)", rest):
        neg = m.group(1) in {"讨厌", "不喜欢", "不太喜欢", "不爱", "并不喜欢"}
        add("likes", _clean_zh(m.group(2)), neg, 0.9)
    if m := _search(r"(?:不吃|不能吃|吃不了|忌口|不碰)(.+)", rest):
        add("dietary_restriction", _clean_zh(m.group(1)), False, 0.95)
    elif m := _search(r"(?:现在|又|开始|可以|能)吃(.+?)了", rest):
        add("dietary_restriction", _clean_zh(m.group(1)), True, 0.85)
    if m := _search(r"对(.+?)(不)?过敏", rest) or _search(r"^(.+?)(不)?过敏", rest):
        add("allergic_to", _clean_zh(m.group(1)), bool(m.group(2)), 0.97)
    if "预算" in clause:
        import cn2an

        normalized = cn2an.transform(clause, "cn2an")
        if m := _search(r"预算[^\d]{0,6}?(\d+(?:\.\d+)?)\s*(万|千|k|K)?\s*(?:元|块钱|块|美元|刀)?"
                          r"\s*(以内|以下|之内|左右|上下)?", normalized):
            amount = m.group(1) + (m.group(2) or "")
            cap = "以内" if m.group(3) in {"以内", "以下", "之内"} else (m.group(3) or "")
            add("budget", amount + cap, False, 0.85, "amount", ctx.event or USER)
    _dates(clause, ts, ctx, add)
    if (m := _search(r"住在([\u4e00-\u9fff]{2,8}?)(?:市|区|$)", rest)) or (m := (_search(r"(?:已经|刚|上个月|去年)?搬(?:到|去)了?([\u4e00-\u9fff]{2,6}?)(?:市)?了", rest)
               or _search(r"(?:已经|刚)搬(?:到|去)了?([\u4e00-\u9fff]{2,6})", rest))):
        add("lives_in", m.group(1), False, 0.85, "place")
    if m := _search(r"是(?:一名|一个|个)?([\u4e00-\u9fff]{0,6}(?:工程师|设计师|老师|教师|医生|护士|经理|律师|"
                      r"会计|程序员|学生|销售|记者|作家|厨师|研究员))", rest):
        add("works_as", m.group(1), False, 0.8, "job")
    if m := _search(r"在([\u4e00-\u9fffA-Za-z]{2,12}?)(?:公司)?(?:工作|上班)", rest):
        add("works_at", m.group(1), False, 0.8, "organization")
    if m := _search(r"(不)?(?:准备|打算|计划|想要)(跳槽|辞职|换工作|搬家|搬到[\u4e00-\u9fff]{2,6}|出国|读研|"
                      r"结婚|买房|创业|学[\u4e00-\u9fff]{1,4})", rest):
        add("plans_to", m.group(2), bool(m.group(1)), 0.8)
    return out


def _dates(clause: str, ts: datetime, ctx: _Context, add: Callable[..., None]) -> None:
    mention = resolve_date(clause, ts)
    day = ts.replace(hour=0, minute=0, second=0, microsecond=0)
    if mention is None or mention.end <= day:  # a plan's date is not in the past
        return
    named = event_in(clause)
    scheduled = _search(r"规划|安排|定在|约在|计划|预定|订|plan|schedul|book|set for|on for",
                        clause, re.IGNORECASE)
    event = named or (ctx.event if scheduled else None)
    deadline = _search(r"截止|上线|交付|交稿|到期|deadline|\bdue\b|\bby\b", clause, re.IGNORECASE)
    if deadline:
        add("deadline", mention.start.date().isoformat(), False, 0.85, "date",
            event or "project", mention.end)
    elif event:
        add("date", mention.start.date().isoformat(), False, 0.85, "date", event, mention.end)


def _en_subject(clause: str, ctx: _Context) -> tuple[str | None, str, list[tuple[str, str]]]:
    relations = [("has_relation", m.lower()) for m in _findall(rf"\bmy ({REL_EN})\b", clause,
                                                                  re.IGNORECASE)]
    m = _match(rf"^(?:my|our)\s+({REL_EN})\b(?:'s)?", clause, re.IGNORECASE)
    if m:
        ctx.person = m.group(1).lower()
        return ctx.person, clause[m.end():], relations
    m = _match(r"^(?:she|he)\b", clause, re.IGNORECASE)
    if m:
        return ctx.person, clause[m.end():], relations
    return USER, clause, relations


def _clean_en(value: str) -> str:
    value = _CUT_EN.sub("", value.strip())
    for _ in range(2):
        value = _LEAD_EN.sub("", value)
    words = value.strip(" .,'\"").split()
    return " ".join(words) if 0 < len(words) <= 4 else ""


def _en_rules(clause: str, ts: datetime, ctx: _Context) -> list[Candidate]:
    subject, rest, relations = _en_subject(clause, ctx)
    out, add = _collector(subject, relations, ts, clause,
                          lambda v: v.split()[0].lower() not in _NOT_A_VALUE)
    if subject is None:
        return out

    low = rest.lower()
    if (m := _search(rf"\bprefer(?:s)?\s+(?:to use\s+|using\s+)?({CHANNEL_EN})\b.*?"
                    rf"\b(?:over|to|rather than|instead of)\s+({CHANNEL_EN})\b", low)) or (m := _search(rf"\b(?:use|using|via|through|over|on|add me on|message me on|text me on|"
                      rf"reach me on|contact me (?:on|via|by)|by)\s+({CHANNEL_EN})\b", low)):
        add("uses_channel", m.group(1), bool(_NEG_EN.search(low[:m.start()])), 0.9, "channel")
    elif m := _LIKE_EN.match(rest):
        neg = bool(_NEG_EN.search(low[:m.start(1)])) or m.group(1).lower() in {
            "hate", "hates", "dislike", "dislikes", "can't stand"}
        add("likes", _clean_en(m.group(2)), neg, 0.9)
    if m := _search(r"\b(?:can't|cannot|can not|don't|doesn't|do not|does not|won't|never)\s+eat\s+"
                      r"(.+)", rest, re.IGNORECASE):
        add("dietary_restriction", _clean_en(m.group(1)), False, 0.95)
    elif m := _search(r"\b(?:eats?|can eat)\s+(.+?)\s+(?:again|now)\b", rest, re.IGNORECASE):
        add("dietary_restriction", _clean_en(m.group(1)), True, 0.85)
    elif m := _search(r"\b(?:am|is|'m|'s)\s+(?:a\s+)?(vegetarian|vegan)\b", rest, re.IGNORECASE):
        add("dietary_restriction", "meat", False, 0.9)
    if m := _search(r"\b(not |no longer |isn't |aren't )?allergic to\s+(.+)", rest, re.IGNORECASE):
        add("allergic_to", _clean_en(m.group(2)), bool(m.group(1)), 0.97)
    if m := _search(r"(?:budget\b[^$€£¥\d]{0,25}|\b(?:under|below|within|up to|at most|max|"
                      r"no more than|less than)\s+)([$€£¥])?\s?(\d[\d,]*(?:\.\d+)?)\s*"
                      r"(k\b|thousand)?\s*(dollars?|usd|bucks|euros?|eur|pounds?|gbp|yuan|rmb|yen)?",
                      low):
        amount = _money(m.group(1), m.group(2).replace(",", "") + ("k" if m.group(3) else ""),
                        m.group(4))
        capped = _search(r"\b(?:under|below|within|up to|at most|max|no more than|less than)\b",
                           low[:m.end()])
        if "budget" in low or capped:
            add("budget", ("under " if capped else "") + amount, False, 0.85, "amount",
                ctx.event or USER)
    _dates(clause, ts, ctx, add)
    if m := _search(r"(?i:\bi (?:live|am living|'m living) in )([A-Z][\w]*(?: [A-Z][\w]*)*)", rest):
        add("lives_in", m.group(1), False, 0.85, "place")
    if m := _search(r"(?i:\bi(?:'ve| have)? (?:just |recently |finally )?(?:moved|relocated) to )"
                    r"([A-Z][\w]*(?: [A-Z][\w]*)*)", rest):
        add("lives_in", m.group(1), False, 0.85, "place")
    if m := _search(r"(?i:\bi(?:'m| am) (?:moving|relocating) to )([A-Z][\w]*(?: [A-Z][\w]*)*)", rest):
        add("plans_to", f"move to {m.group(1)}", False, 0.8)
    if m := _search(r"\bi(?:'m| am) an? ((?:\w+ ){0,2}(?:engineer|designer|teacher|doctor|nurse|"
                      r"manager|lawyer|accountant|developer|programmer|student|writer|chef|"
                      r"researcher|scientist|counselor|artist|musician))\b", rest, re.IGNORECASE):
        add("works_as", m.group(1).lower(), False, 0.8, "job")
    if m := _search(r"(?i:\bi work (?:at|for) )([A-Z][\w&]*(?: [A-Z][\w&]*)*)", rest):
        add("works_at", m.group(1), False, 0.8, "organization")
    if m := _search(r"\b(not )?(?:planning|going|thinking about|hoping|aiming|about) to "
                      r"(change jobs|switch jobs|quit(?: my job)?|move|relocate|retire|"
                      r"go back to school|get married|buy a house|start a business|learn \w+)",
                      rest, re.IGNORECASE):
        add("plans_to", m.group(2).lower(), bool(m.group(1)), 0.8)
    return out


_CURRENCY = {"dollar": "$", "usd": "$", "buck": "$", "euro": "€", "eur": "€", "pound": "£",
             "gbp": "£", "yuan": "¥", "rmb": "¥", "yen": "¥"}


def _money(symbol: str | None, number: str, word: str | None) -> str:
    """$800, €800, ¥800 — or the bare number when no currency was said."""
    if symbol is None and word is not None:
        symbol = _CURRENCY.get(word.rstrip("s"), _CURRENCY.get(word, ""))
    return f"{symbol or ''}{number}"


def _dedupe(found: Sequence[Candidate]) -> list[Candidate]:
    """One candidate per (entity, predicate, value, negated): the most confident, latest."""
    best: dict[tuple[str, str, str, bool], Candidate] = {}
    for c in found:
        key = (c.entity, c.predicate, c.value.lower(), c.negated)
        if key not in best or c.confidence >= best[key].confidence:
            best[key] = c
    return list(best.values())
