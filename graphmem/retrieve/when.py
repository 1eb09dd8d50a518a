"""Where a message's relative time words point, written next to them. Pure code.

"I went to a support group yesterday", said on 8 May 2023, is shown as "… yesterday
[7 May 2023] …": a reader weeks later cannot resolve "yesterday" alone. Only explicit
relative forms are resolved, against the message's own time:

- a day that follows exactly — yesterday, tomorrow, N days ago, 昨天, 前天, N天前 — becomes
  its date: ``7 May 2023`` / ``2023年5月7日``;
- a month or a year becomes that month or year: last month → ``May 2023``, 去年 → ``2022年``;
- a week, a weekend or a weekday named relatively is written relative to the message's
  date, as a careful person would — last week → ``the week before 9 June 2023``, last
  Friday → ``the Friday before 15 July 2023`` — without guessing which calendar week the
  speaker meant.

Bare weekdays ("on Friday"), vague words ("recently", "last time") and clock times are
left alone.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from datetime import date, datetime, timedelta

from graphmem.text.dates import day_label
from graphmem.text.language import is_chinese

_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_ZH_WEEKDAYS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_NUMBERS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
            "seven": 7, "eight": 8, "nine": 9, "ten": 10, "a couple of": 2, "a few": 3,
            "couple of": 2, "few": 3, "several": 3}
_ZH_NUMBERS = {"一": 1, "两": 2, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8,
               "九": 9, "十": 10, "几": 3}
_COUNT = r"(\d+|a couple of|a few|couple of|few|several|an?|one|two|three|four|five|six|seven|" \
         r"eight|nine|ten)"

Labeller = Callable[[re.Match[str], date], str | None]
_RULES: list[tuple[re.Pattern[str], Labeller]] = []


def _rule(pattern: str, flags: int = re.IGNORECASE) -> Callable[[Labeller], Labeller]:
    def register(labeller: Labeller) -> Labeller:
        _RULES.append((re.compile(pattern, flags), labeller))
        return labeller
    return register


def _month(d: date, chinese: bool = False) -> str:
    return f"{d.year}年{d.month}月" if chinese else f"{d:%B} {d.year}"


def _months_back(d: date, n: int) -> date:
    total = d.year * 12 + d.month - 1 - n
    return date(total // 12, total % 12 + 1, 1)


def _count(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else _NUMBERS.get(word, 0)


def _day(d: date) -> str:
    return day_label(datetime(d.year, d.month, d.day))


# -- English ---------------------------------------------------------------------------


@_rule(r"\b(?:the day before yesterday|day before yesterday)\b")
def _before_yesterday(m: re.Match[str], ref: date) -> str:
    return _day(ref - timedelta(days=2))


@_rule(r"\byesterday\b")
def _yesterday(m: re.Match[str], ref: date) -> str:
    return _day(ref - timedelta(days=1))


@_rule(r"\btomorrow\b")
def _tomorrow(m: re.Match[str], ref: date) -> str:
    return _day(ref + timedelta(days=1))


@_rule(r"\blast night\b")
def _last_night(m: re.Match[str], ref: date) -> str:
    return _day(ref - timedelta(days=1))


_FUZZY = frozenset({"a couple of", "couple of", "a few", "few", "several"})


@_rule(rf"\b{_COUNT} (days?|weeks?|weekends?|months?|years?) ago\b")
def _ago(m: re.Match[str], ref: date) -> str | None:
    said, unit = m.group(1).lower(), m.group(2).lower().rstrip("s")
    n = _count(said)
    if not 0 < n <= 100:
        return None
    if said in _FUZZY:  # "a few days ago": how many is not known
        anchor = {"day": _day(ref), "week": _day(ref), "weekend": _day(ref),
                  "month": _month(ref), "year": str(ref.year)}[unit]
        return f"{said} {m.group(2).lower()} before {anchor}"
    if unit == "day":
        return _day(ref - timedelta(days=n))
    if unit == "month":
        return _month(_months_back(ref, n))
    if unit == "year":
        return str(ref.year - n)
    return f"{said} {m.group(2).lower()} before {_day(ref)}"


@_rule(r"\blast (week|weekend)\b")
def _last_week(m: re.Match[str], ref: date) -> str:
    return f"the {m.group(1).lower()} before {_day(ref)}"


@_rule(r"\bnext (week|weekend)\b")
def _next_week(m: re.Match[str], ref: date) -> str:
    return f"the {m.group(1).lower()} after {_day(ref)}"


@_rule(r"\b(?:last|this past) (" + "|".join(_WEEKDAYS) + r")\b")
def _last_weekday(m: re.Match[str], ref: date) -> str:
    return f"the {m.group(1).title()} before {_day(ref)}"


@_rule(r"\bnext (" + "|".join(_WEEKDAYS) + r")\b")
def _next_weekday(m: re.Match[str], ref: date) -> str:
    return f"the {m.group(1).title()} after {_day(ref)}"


@_rule(r"\blast month\b")
def _last_month(m: re.Match[str], ref: date) -> str:
    return _month(_months_back(ref, 1))


@_rule(r"\bnext month\b")
def _next_month(m: re.Match[str], ref: date) -> str:
    return _month(_months_back(ref, -1))


@_rule(r"\blast year\b")
def _last_year(m: re.Match[str], ref: date) -> str:
    return str(ref.year - 1)


@_rule(r"\bnext year\b")
def _next_year(m: re.Match[str], ref: date) -> str:
    return str(ref.year + 1)


# -- Chinese ---------------------------------------------------------------------------


def _zh_day(d: date) -> str:
    return f"{d.year}年{d.month}月{d.day}日"


@_rule(r"大前天|前天|昨天|昨晚|明天|后天", 0)
def _zh_days(m: re.Match[str], ref: date) -> str:
    offset = {"大前天": -3, "前天": -2, "昨天": -1, "昨晚": -1, "明天": 1, "后天": 2}[m.group(0)]
    return _zh_day(ref + timedelta(days=offset))


@_rule(r"(\d+|[一两二三四五六七八九十])天(?:前|以前|之前)", 0)
def _zh_days_ago(m: re.Match[str], ref: date) -> str | None:
    n = int(m.group(1)) if m.group(1).isdigit() else _ZH_NUMBERS.get(m.group(1), 0)
    return _zh_day(ref - timedelta(days=n)) if 0 < n <= 100 else None


@_rule(r"(上|下)(?:个)?(?:周|星期|礼拜)([一二三四五六日天])", 0)
def _zh_weekday(m: re.Match[str], ref: date) -> str:
    monday = ref - timedelta(days=ref.weekday())
    week = monday + timedelta(days=-7 if m.group(1) == "上" else 7)
    return _zh_day(week + timedelta(days=_ZH_WEEKDAYS[m.group(2)]))


@_rule(r"(上|下)(?:个)?(?:周末|周|星期|礼拜)(?![一二三四五六日天])", 0)
def _zh_week(m: re.Match[str], ref: date) -> str:
    unit = "周末" if "周末" in m.group(0) else "一周"
    side = "前" if m.group(1) == "上" else "后"
    return f"{_zh_day(ref)}的{side}{unit}" if unit == "周末" else f"{_zh_day(ref)}的{side}一周"


@_rule(r"(上|下)个月", 0)
def _zh_month(m: re.Match[str], ref: date) -> str:
    return _month(_months_back(ref, 1 if m.group(1) == "上" else -1), chinese=True)


@_rule(r"去年|前年|明年", 0)
def _zh_year(m: re.Match[str], ref: date) -> str:
    return f"{ref.year + {'去年': -1, '前年': -2, '明年': 1}[m.group(0)]}年"


# -- annotating ------------------------------------------------------------------------


def annotate(text: str, said_at: datetime) -> str:
    """``text`` with each explicit relative time expression followed by where it points,
    in brackets: ``went camping last week [the week before 27 June 2023]``."""
    if not _any_rule().search(text):
        return text  # most messages: one scan instead of one per rule
    found: list[tuple[int, int, str]] = []
    ref = said_at.date()
    for pattern, labeller in _RULES:
        for m in pattern.finditer(text):
            label = labeller(m, ref)
            if label:
                found.append((m.start(), m.end(), label))
    if not found:
        return text
    found.sort(key=lambda f: (f[0], -(f[1] - f[0])))
    out, at = [], 0
    for start, end, label in found:
        if start < at:
            continue  # inside a longer expression already resolved
        out.append(text[at:end])
        out.append(f"[{label}]" if is_chinese(label) else f" [{label}]")
        at = end
    out.append(text[at:])
    return "".join(out)


@functools.cache
def _any_rule() -> re.Pattern[str]:
    """One pattern matching wherever any rule's does (each rule keeps its own flags)."""
    return re.compile("|".join(
        f"(?i:{p.pattern})" if p.flags & re.IGNORECASE else f"(?:{p.pattern})"
        for p, _ in _RULES))
