"""Routing (pipeline stage 5a): which memory a question needs, and when it is about.

Time hints (昨天, 上周三, 三天前, last week, on May 3, 上次 ...) resolve to a concrete
``[since, until)`` against ``now`` and send the question to episodic memory;
preference, rule and profile hints (我一般喜欢, 项目要求, 对…过敏, I usually, I prefer,
my rule is) send it to semantic memory; both or neither → both. Pure code.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from graphmem._errors import InvalidInputError
from graphmem._models import Route, TimeWindow, check_time
from graphmem.text.script import simplified
from graphmem.text.timeparse import resolve_window

SEMANTIC_HINTS = re.compile(
    r"一般|通常|平时|习惯|总是|从不|喜欢|偏好|爱好|讨厌|过敏|忌口|不吃|要求|规则|规定|约定|预算|住在|"
    r"职业|工作是|联系方式|用什么|哪个渠道|偏爱|口味|"
    r"\b(?:usually|prefer|prefers|preference|preferences|favou?rite|like|likes|love|loves|hate|"
    r"hates|allergic|allergy|allergies|diet|dietary|rule|rules|policy|always|never|budget|"
    r"require|requires|requirement|requirements|profile|lives?|job|works? (?:at|as))\b",
    re.IGNORECASE,
)
# A request for help (推荐几部剧, 帮我排个行程, can you suggest…, any ideas for…): what the
# user is, likes and cannot eat matters to it whatever time it names.
REQUEST_HINTS = re.compile(
    r"推荐|建议|帮我|帮忙|替我|给我(?:推荐|列|写|做|排|出|想|找|讲|说|搞|弄|整)|安排一?下|规划|"
    r"出个?主意|有什么(?:好|推荐|办法|建议|搭配)|有啥(?:好|推荐|办法|建议)|怎么办|咋办|咋整|"
    r"怎么(?:搭配|安排|做|准备|弄)|"
    r"\b(?:recommend|recommendations?|suggest|suggestions?|ideas?|tips|advice|help me|can you|"
    r"could you|would you|give me|plan (?:a|an|my|the|out|some)|what should i|any good)\b",
    re.IGNORECASE)
# The time is the plan's, not the memory's: 周末想在家做冰沙, 下周打算去成都, I want to…
_PLANNED = re.compile(r"想|打算|准备|计划|要去|要做|\b(?:want to|wanna|planning|plan to|going to|"
                      r"gonna|i'd like to|hoping to)\b", re.IGNORECASE)
# Times that are now or later (the help is for then), not a past to look in.
_NOW_OR_LATER = re.compile(r"最近|近来|这几天|这阵子|这段时间|今天|今晚|今年|这周|本周|这个月|本月|"
                           r"周末|明天|明晚|后天|下周|下个|下礼拜|明年|"
                           r"\b(?:lately|recently|these days|today|tonight|next|tomorrow|coming|"
                           r"upcoming|this (?:week|weekend|month|year))\b", re.IGNORECASE)
FILTER_KEYS = frozenset({"since", "until", "route", "include_superseded"})


def check_filters(filters: Any) -> dict[str, Any]:
    """``filters`` as a dict, every key known and every value of the right kind: since
    and until aware datetimes with since < until (as ``check_time`` returns them), route
    one of the three, include_superseded a bool."""
    if filters is None:
        return {}
    if not isinstance(filters, dict):
        raise InvalidInputError(f"filters must be a dict, got {type(filters).__name__}")
    unknown = set(filters) - FILTER_KEYS
    if unknown:
        raise InvalidInputError(
            f"unknown filter(s) {sorted(map(str, unknown))}; use {sorted(FILTER_KEYS)}")
    checked = dict(filters)
    for name in ("since", "until"):
        value = filters.get(name)
        if value is None:
            continue
        if not isinstance(value, datetime):
            raise InvalidInputError(f"filters[{name!r}] must be a datetime, got {value!r}")
        try:
            checked[name] = check_time(value, f"filters[{name!r}]")
        except ValueError as exc:
            raise InvalidInputError(str(exc)) from None
    since, until = checked.get("since"), checked.get("until")
    if since is not None and until is not None and since >= until:
        raise InvalidInputError("filters['since'] must be earlier than filters['until']")
    if not isinstance(filters.get("include_superseded", False), bool):
        raise InvalidInputError("filters['include_superseded'] must be True or False")
    return checked


def route_query(
    query: str, now: datetime, filters: dict[str, Any] | None = None
) -> tuple[Route, TimeWindow | None]:
    """The route and the resolved time window (explicit ``filters`` win)."""
    filters = check_filters(filters)
    window = resolve_window(query, now)
    if filters.get("since") is not None or filters.get("until") is not None:
        window = TimeWindow(since=filters.get("since"), until=filters.get("until"),
                            expression="filters")
    forced = filters.get("route")
    if forced is not None:
        if forced not in ("episodic", "semantic", "both"):
            raise InvalidInputError("filters['route'] must be 'episodic', 'semantic' or 'both'")
        return forced, window
    plain = simplified(query)  # 幫我 推薦 is 帮我 推荐
    if window is not None and asks_for_help(plain, window):
        return "both", None  # (the time is when the help is for)
    timed = window is not None
    semantic = bool(SEMANTIC_HINTS.search(plain))
    if timed and not semantic:
        return "episodic", window
    if semantic and not timed:
        return "semantic", window
    return "both", window


def asks_for_help(plain: str, window: TimeWindow) -> bool:
    """Is the question (``plain``: in simplified characters) a request whose time is when the
    help is for — now, later, or a plan ("最近又剧荒了 再给我推荐几部剧", "周末想在家做冰沙
    推荐几种搭配", "any ideas for tonight") — rather than a question about what happened then
    ("上周你推荐的那本书叫什么")?"""
    if not REQUEST_HINTS.search(plain):
        return False
    return bool(_NOW_OR_LATER.search(window.expression or "") or _PLANNED.search(plain))


def is_request(query: str) -> bool:
    """Does the question ask for help (推荐, 幫我排, can you suggest…) rather than ask what
    was said or done?"""
    return bool(REQUEST_HINTS.search(simplified(query)))
