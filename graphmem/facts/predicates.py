"""The canonical predicate vocabulary: names, cardinality, validity, decay, sentence forms.

A predicate is *single-valued* when a new value replaces the old one (budget,
lives_in, uses_channel, works_as, works_at, diet, is_from, name) and *multi-valued*
when values coexist (likes roses and tulips). Unknown predicates get a safe canonical
name (``safe_predicate``), which is also the only way a predicate may become a
relationship type in Cypher.

Each predicate has a **half-life**: how fast a fact of that kind loses weight in
ranking and trust when nobody re-verifies it (``graphmem.retrieve.rank``). What
people are — a name, a relative, an allergy, a diet, where they are from, a pet —
lasts years; what they do and where — a job, a home, a course of study — months;
tastes weeks to months; budgets, plans, dates and deadlines fade within weeks. A
predicate outside the vocabulary (a generic reading such as ``go_to``) gets
``GENERIC_HALF_LIFE``: 30·ln 2 ≈ 21 days, the article's ``exp(-days/30)``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import timedelta

from graphmem.store.cypher import safe_predicate

YEAR = timedelta(days=365)
GENERIC_HALF_LIFE = timedelta(days=30 * math.log(2))  # the article's exp(-days / 30)


@dataclass(frozen=True)
class Predicate:
    name: str
    multi_valued: bool
    en: str            # "{entity} likes {value}"
    en_negated: str
    zh: str
    zh_negated: str
    validity: timedelta | None = None   # facts that expire by themselves
    half_life: timedelta = GENERIC_HALF_LIFE  # unverified, a fact weighs half as much


PREDICATES: dict[str, Predicate] = {p.name: p for p in (
    Predicate("name", False, "{e}'s name is {v}", "{e}'s name is not {v}",
              "{e}叫{v}", "{e}不叫{v}", half_life=10 * YEAR),
    Predicate("has_relation", True, "{e} has a {v}", "{e} has no {v}",
              "{e}有{v}", "{e}没有{v}", half_life=10 * YEAR),
    Predicate("is_from", False, "{e} is from {v}", "{e} is not from {v}",
              "{e}来自{v}", "{e}不是{v}人", half_life=10 * YEAR),
    Predicate("allergic_to", True, "{e} is allergic to {v}", "{e} is not allergic to {v}",
              "{e}对{v}过敏", "{e}对{v}不过敏", half_life=5 * YEAR),
    Predicate("has_condition", True, "{e} has {v}", "{e} does not have {v}",
              "{e}有{v}", "{e}没有{v}", half_life=3 * YEAR),
    Predicate("has_pet", True, "{e} has a pet {v}", "{e} no longer has a pet {v}",
              "{e}养了{v}", "{e}没有养{v}", half_life=3 * YEAR),
    Predicate("diet", False, "{e} follows a {v} diet", "{e} no longer follows a {v} diet",
              "{e}的饮食是{v}", "{e}不再是{v}饮食", half_life=2 * YEAR),
    Predicate("dietary_restriction", True, "{e} does not eat {v}", "{e} eats {v} again",
              "{e}不吃{v}", "{e}可以吃{v}", half_life=YEAR),
    Predicate("studies", True, "{e} studies {v}", "{e} no longer studies {v}",
              "{e}在学{v}", "{e}不再学{v}", half_life=YEAR),
    Predicate("works_as", False, "{e} works as {v}", "{e} does not work as {v}",
              "{e}的工作是{v}", "{e}不是{v}", half_life=timedelta(days=180)),
    Predicate("works_at", False, "{e} works at {v}", "{e} does not work at {v}",
              "{e}在{v}工作", "{e}不在{v}工作", half_life=timedelta(days=180)),
    Predicate("lives_in", False, "{e} lives in {v}", "{e} does not live in {v}",
              "{e}住在{v}", "{e}不住在{v}", half_life=timedelta(days=180)),
    Predicate("likes", True, "{e} likes {v}", "{e} does not like {v}",
              "{e}喜欢{v}", "{e}不喜欢{v}", half_life=timedelta(days=180)),
    Predicate("uses_channel", False, "{e} uses {v}", "{e} does not use {v}",
              "{e}用{v}沟通", "{e}不用{v}沟通", half_life=timedelta(days=120)),
    Predicate("uses_tool", True, "{e} uses {v}", "{e} does not use {v}",
              "{e}使用{v}", "{e}不使用{v}", half_life=timedelta(days=120)),
    Predicate("plans_to", True, "{e} plans to {v}", "{e} no longer plans to {v}",
              "{e}准备{v}", "{e}不再打算{v}", half_life=timedelta(days=30)),
    Predicate("date", False, "{e} is on {v}", "{e} is not on {v}",
              "{e}时间是{v}", "{e}时间不是{v}", half_life=timedelta(days=14)),
    Predicate("deadline", False, "{e} is due {v}", "{e} is not due {v}",
              "{e}截止{v}", "{e}不在{v}截止", half_life=timedelta(days=14)),
    Predicate("budget", False, "{e} budget is {v}", "{e} has no budget of {v}",
              "{e}预算{v}", "{e}预算不是{v}", validity=timedelta(days=30),
              half_life=timedelta(days=14)),
)}

# Surface words → canonical predicate (the alias side of predicate normalization).
PREDICATE_ALIASES: dict[str, str] = {
    "喜好": "likes", "喜欢": "likes", "爱": "likes", "偏好": "likes", "like": "likes",
    "likes": "likes", "love": "likes", "prefer": "likes", "preference": "likes",
    "饮食禁忌": "dietary_restriction", "忌口": "dietary_restriction", "不吃": "dietary_restriction",
    "饮食": "diet", "过敏": "allergic_to", "allergy": "allergic_to",
    "预算": "budget", "budget": "budget", "时间": "date", "日期": "date", "date": "date",
    "截止": "deadline", "deadline": "deadline", "沟通方式": "uses_channel",
    "channel": "uses_channel", "住址": "lives_in", "居住地": "lives_in", "lives in": "lives_in",
    "职业": "works_as", "job": "works_as", "公司": "works_at", "计划": "plans_to",
    "plan": "plans_to", "名字": "name", "姓名": "name", "老家": "is_from", "籍贯": "is_from",
    "hometown": "is_from", "专业": "studies", "major": "studies", "宠物": "has_pet",
    "pet": "has_pet", "health": "has_condition", "condition": "has_condition",
}

# Question words that name a predicate ("what's my budget", "她有什么忌口").
QUESTION_HINTS: dict[str, str] = PREDICATE_ALIASES | {
    "喜欢什么": "likes", "爱好": "likes", "favorite": "likes", "favourite": "likes",
    "likes": "likes", "忌口": "dietary_restriction", "不能吃": "dietary_restriction",
    "吃什么": "dietary_restriction", "eat": "dietary_restriction", "food": "dietary_restriction",
    "allergic": "allergic_to", "allergies": "allergic_to", "多少钱": "budget", "花多少": "budget",
    "spend": "budget", "哪天": "date", "什么时候": "date", "when": "date", "联系": "uses_channel",
    "微信": "uses_channel", "邮件": "uses_channel", "contact": "uses_channel",
    "reach": "uses_channel", "住": "lives_in", "live": "lives_in", "工作": "works_as",
    "work": "works_at", "打算": "plans_to", "准备": "plans_to", "plans": "plans_to",
    "name": "name", "叫什么": "name", "grew up": "is_from", "哪里人": "is_from",
    "diet": "diet", "vegan": "diet", "vegetarian": "diet", "吃素": "diet", "素食": "diet",
    "study": "studies", "studying": "studies", "学什么": "studies", "pets": "has_pet",
}
_HINT_RE = re.compile(
    "|".join(sorted((re.escape(k) if not k.isascii() else rf"\b{re.escape(k)}(?:e?s)?\b"
                     for k in QUESTION_HINTS), key=len, reverse=True)),
    re.IGNORECASE,
)


def predicates_in(question: str) -> set[str]:
    """Canonical predicates a question asks about."""
    found = set()
    for m in _HINT_RE.finditer(question):
        word = m.group(0).lower()  # an English hint may be plural: "names", "allergies"
        for key in (word, word.removesuffix("s"), word.removesuffix("es")):
            if key in QUESTION_HINTS:
                found.add(QUESTION_HINTS[key])
                break
    return found


def canonical_predicate(word: str) -> str:
    """The canonical name for a predicate word; unknown words get a safe snake_case name."""
    key = word.strip().lower()
    if key in PREDICATES:
        return key
    if key in PREDICATE_ALIASES:
        return PREDICATE_ALIASES[key]
    return safe_predicate(key)


def predicate_info(name: str) -> Predicate:
    """Known predicate, or a multi-valued generic one (safe default: never overwrites) with
    the generic half-life."""
    if name in PREDICATES:
        return PREDICATES[name]
    words = name.replace("_", " ")
    return Predicate(name, True, "{e} " + words + " {v}", "{e} not " + words + " {v}",
                     "{e} " + words + " {v}", "{e} 不 " + words + " {v}")


def half_life_days(predicate: str) -> float:
    """How many days a fact of ``predicate`` takes, unverified, to weigh half as much."""
    return predicate_info(predicate).half_life / timedelta(days=1)


_IRREGULAR_PLURALS = frozenset({"children", "people", "kids", "twins", "folks", "men",
                                 "women", "grandchildren", "in-laws"})


def indefinite(value: str) -> str:
    """The English article a value needs after "has": none for a plural ("has kids",
    "has parents"), "an" before a vowel ("has an aunt"), else "a"."""
    last = value.split()[-1].lower() if value.split() else ""
    if last in _IRREGULAR_PLURALS or (last.endswith("s") and not last.endswith(("ss", "us", "is"))):
        return ""
    return "an " if value[:1].lower() in "aeiou" else "a "


def sentence(entity: str, predicate: str, value: str, negated: bool, chinese: bool) -> str:
    """The fact as one sentence (embedded, full-text indexed, shown in the context)."""
    info = predicate_info(predicate)
    template = (info.zh_negated if negated else info.zh) if chinese else (
        info.en_negated if negated else info.en)
    if not chinese and " a {v}" in template:
        template = template.replace(" a {v}", " " + indefinite(value) + "{v}")
    return template.format(e=entity, v=value)
