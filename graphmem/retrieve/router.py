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
from graphmem.text.timeparse import resolve_window

SEMANTIC_HINTS = re.compile(
    r"一般|通常|平时|习惯|总是|从不|喜欢|偏好|爱好|讨厌|过敏|忌口|不吃|要求|规则|规定|约定|预算|住在|"
    r"职业|工作是|联系方式|用什么|哪个渠道|偏爱|口味|"
    r"\b(?:usually|prefer|prefers|preference|preferences|favou?rite|like|likes|love|loves|hate|"
    r"hates|allergic|allergy|allergies|diet|dietary|rule|rules|policy|always|never|budget|"
    r"require|requires|requirement|requirements|profile|lives?|job|works? (?:at|as))\b",
    re.IGNORECASE,
)
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
    timed = window is not None
    semantic = bool(SEMANTIC_HINTS.search(query))
    if timed and not semantic:
        return "episodic", window
    if semantic and not timed:
        return "semantic", window
    return "both", window
