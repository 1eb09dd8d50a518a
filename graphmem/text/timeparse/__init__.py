"""Resolve time expressions (Chinese and English) into concrete datetime ranges.

Two entry points, both pure (no I/O, no clock: the reference time is an argument).
Hand-written regular-expression rules, no third-party parser: deterministic, and
strict about false positives ("may I ask", "一周一次", "最近的超市" are no dates).

* :func:`resolve_window` reads a *question about memory* ("what did I eat last
  Wednesday?", "上周三我吃了什么") and returns the half-open window
  ``[since, until)`` of the first time hint, preferring the past.
* :func:`resolve_date` reads a *statement* (a plan, a deadline: "帮我规划下周三的生日聚会",
  "submit it by Friday") and returns the day (or day range) of the first concrete
  date, preferring the future.

Conventions
-----------
* Every datetime is timezone-aware and expressed in the timezone of ``now``/``ref``;
  day boundaries are local midnights of that timezone. Weeks start on Monday.
* The *first* hint wins: the match that starts earliest in the text; at equal start
  the longest match ("最近三天" over "最近", "上周三" over "上周").
* Ranges that contain the present ("today", "this week", "本月", "past 3 days") end at
  ``now`` in a window; in a :class:`DateMention` they end at the end of their natural
  day range.

Rules for ambiguous expressions
-------------------------------
* ``上周三`` / ``上星期三`` = Wednesday of the previous Monday-based week (from Sunday
  2025-01-19: 2025-01-08). ``这周三``/``本周三`` = Wednesday of the current week.
  ``下周三`` = Wednesday of the following week (from Sunday 2025-01-12: 2025-01-15).
* ``last Wednesday`` / ``this past Wednesday`` = the most recent Wednesday strictly
  before today (from Sunday 2025-01-19: 2025-01-15). English speakers mostly mean
  that, unlike the Chinese week-based ``上周三``. "Wednesday last week" follows the
  Chinese (week-based) rule.
* ``next Wednesday`` = Wednesday of the following week, like ``下周三`` (from Monday
  2025-01-13 that is 2025-01-22, not 2025-01-15); ``this coming Wednesday`` /
  ``coming Wednesday`` = the first Wednesday strictly after today.
* A bare weekday (``周三``, ``星期三``, ``on Wednesday``, ``by Friday``): in a question the
  most recent such day strictly before today; in a statement the first such day on
  or after today. English ``this Wednesday``: in a question the Wednesday of the
  current week; in a statement the first Wednesday on or after today.
* ``周末`` / ``the weekend``: Saturday and Sunday; in a question the current weekend
  if today is Saturday/Sunday (up to now), else the previous one; in a statement the
  current week's (from today on). ``last weekend``/``上周末`` = the previous week's.
* Month/day without a year ("May 3", "5月3日"): in a question the most recent one not
  after today; in a statement the first one not before today. A month without a
  year ("in March", "3月") likewise (the current month counts as past and future).
  ``last March`` = the most recent March strictly before the current month,
  ``next March`` = the first one strictly after it, ``this March`` = this year's.
* ``N days ago`` / ``N天前`` = that single day; ``N weeks/months/years ago`` = the whole
  calendar week (Monday-based) / month / year N units back. ``a few`` / ``几`` =
  the span from 6 units back to 1 unit back. ``N hours ago`` = now-N h ± 1 h.
* ``last N days`` / ``最近N天`` = [midnight of today-N, now]; same for weeks, months
  (calendar month arithmetic, day clamped), years; hours/minutes are exact.
* ``in N days`` / ``N天后`` = the single day today+N (weeks/months/years likewise).
* ``recently`` / ``lately`` / ``最近`` = the last 30 days; ``just now`` / ``刚才`` = the
  last 2 hours.
* ``上次`` / ``那次`` / ``last time`` / ``the other day`` / ``previously`` / clause-final
  ``before`` ... are vague: a window ``since=None, until=now``; a statement skips them.
* Month parts: ``月底``/``end of the month`` = the last day in a statement, days
  21..end in a question; ``月初``/``beginning of the month``/``early March`` = days
  1-10; ``中旬``/``mid-March`` = days 11-20; ``下旬``/``late March`` = day 21 to the end.
  ``年底``/``end of the year`` = Dec 31 in a statement, December in a question;
  ``年初`` = January and February.
* ``since X`` / ``X以来`` stretches X to now.
* ``May`` is a month only when capitalised with a day/year or after a preposition
  (never in "may I ask"); bare capitalised month names count except the ones that are
  common first names (April, May, June, August). Years are 1900..2199 and need a
  preposition in English ("in 2023") or ``年`` in Chinese.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo

__all__ = ["DateMention", "TimeWindow", "resolve_date", "resolve_window"]


@dataclass(frozen=True)
class TimeWindow:
    """A half-open window ``[since, until)`` for a question; ``since=None`` = the whole past."""

    since: datetime | None
    until: datetime | None
    expression: str  # the matched substring


@dataclass(frozen=True)
class DateMention:
    """A day or day range mentioned in a statement: ``[start, end)`` at local midnights."""

    start: datetime  # start of the day/range, tz of ref
    end: datetime  # exclusive end (start + 1 day for a single day)
    expression: str


def resolve_window(text: str, now: datetime) -> TimeWindow | None:
    """The window of the first time hint in a question, or None if there is none."""
    ctx = _context(now, future=False)
    for expression, span in _scan(text, ctx):
        if span.start is None or span.end is None:
            return TimeWindow(None, now, expression)
        until = min(span.end, now) if span.clip else span.end
        if span.start <= until:
            return TimeWindow(span.start, until, expression)
    return None


def resolve_date(text: str, ref: datetime) -> DateMention | None:
    """The day (range) of the first concrete date in a statement, or None."""
    ctx = _context(ref, future=True)
    for expression, span in _scan(text, ctx):
        if span.start is None or span.end is None:
            continue  # "last time": no date to plan around
        try:
            first = span.start.date()
            start = ctx.day(first)
            last = span.end.date()
            end = ctx.day(last) if ctx.day(last) == span.end else ctx.day(last + _DAY)
            if end <= start:
                end = ctx.day(first + _DAY)
        except (ValueError, OverflowError):
            continue
        return DateMention(start, end, expression)
    return None


# --------------------------------------------------------------------------- internals

_DAY = timedelta(days=1)
_FUZZY = -1  # "a few", "several", "几"
_HALF = -2  # "半" (half a year, half a month)


@dataclass(frozen=True)
class _Span:
    start: datetime | None  # None: a vague hint ("last time")
    end: datetime | None
    clip: bool = False  # contains the present: a window stops at now


@dataclass(frozen=True)
class _Ctx:
    now: datetime
    future: bool  # resolve_date (prefer the future) or resolve_window (prefer the past)

    @property
    def tz(self) -> tzinfo:
        tz = self.now.tzinfo
        assert tz is not None
        return tz

    @property
    def today(self) -> date:
        return self.now.date()

    @property
    def monday(self) -> date:
        return self.today - timedelta(days=self.today.weekday())

    def day(self, d: date) -> datetime:
        naive = datetime.combine(d, time())
        localize = getattr(self.tz, "localize", None)  # pytz zones
        if callable(localize):
            return localize(naive)  # type: ignore[no-any-return]
        return naive.replace(tzinfo=self.tz)

    def days(self, first: date, stop: date, clip: bool = False) -> _Span:
        return _Span(self.day(first), self.day(stop), clip)

    def one_day(self, d: date) -> _Span:
        return self.days(d, d + _DAY)

    def up_to_now(self, first: date) -> _Span:
        return _Span(self.day(first), self.day(self.today + _DAY), clip=True)


def _context(now: datetime, *, future: bool) -> _Ctx:
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("the reference datetime must be timezone-aware")
    return _Ctx(now, future)


_Handler = Callable[[re.Match[str], _Ctx], _Span | None]
_RULES: list[tuple[re.Pattern[str], _Handler]] = []


def _rule(pattern: str, flags: int = re.IGNORECASE) -> Callable[[_Handler], _Handler]:
    def register(handler: _Handler) -> _Handler:
        _RULES.append((re.compile(pattern, flags), handler))
        return handler

    return register


_SINCE_BEFORE = re.compile(r"(?<![A-Za-z])since\s+$", re.IGNORECASE)
_SINCE_AFTER = re.compile(r"\s*(?:以来|以來|至今|到现在|到現在)")


def _scan(text: str, ctx: _Ctx) -> Iterator[tuple[str, _Span]]:
    """Every resolvable hint of ``text``, the earliest (then longest) first."""
    if not isinstance(text, str) or not text:
        return
    found: list[tuple[int, int, int, re.Match[str], _Handler]] = []
    for index, (pattern, handler) in enumerate(_RULES):
        for m in pattern.finditer(text):
            if m.end() > m.start():
                found.append((m.start(), m.start() - m.end(), index, m, handler))
    found.sort(key=lambda f: f[:3])
    for _, _, _, m, handler in found:
        try:
            span = handler(m, ctx)
            if span is None:
                continue
            start, end = m.start(), m.end()
            if span.start is not None:
                before = _SINCE_BEFORE.search(text, 0, start)
                after = _SINCE_AFTER.match(text, end)
                if before or after:
                    start = before.start() if before else start
                    end = after.end() if after else end
                    span = _Span(span.start, ctx.day(ctx.today + _DAY), clip=True)
        except (ValueError, OverflowError):
            continue
        yield text[start:end].strip(), span


# ----------------------------------------------------------------- calendar arithmetic


def _add_months(d: date, months: int) -> date:
    year, month0 = divmod(d.month - 1 + months, 12)
    year += d.year
    return date(year, month0 + 1, min(d.day, calendar.monthrange(year, month0 + 1)[1]))


def _shift(d: date, unit: str, n: int) -> date:
    if unit == "day":
        return d + timedelta(days=n)
    if unit == "week":
        return d + timedelta(weeks=n)
    if unit == "month":
        return _add_months(d, n)
    if unit == "year":
        return _add_months(d, 12 * n)
    raise ValueError(unit)


def _unit_start(ctx: _Ctx, unit: str, k: int) -> date:
    """First day of the calendar day/week/month/year ``k`` units from the current one."""
    if unit == "day":
        return ctx.today + timedelta(days=k)
    if unit == "week":
        return ctx.monday + timedelta(weeks=k)
    if unit == "month":
        return _add_months(ctx.today.replace(day=1), k)
    if unit == "year":
        return date(ctx.today.year + k, 1, 1)
    raise ValueError(unit)


def _unit_span(ctx: _Ctx, unit: str, k: int) -> _Span:
    return ctx.days(_unit_start(ctx, unit, k), _unit_start(ctx, unit, k + 1), clip=k == 0)


_STEP = {"hour": timedelta(hours=1), "minute": timedelta(minutes=1)}


def _half(n: int, unit: str) -> tuple[int, str]:
    if n != _HALF:
        return n, unit
    halves = {"year": (6, "month"), "month": (15, "day"), "week": (3, "day"),
              "day": (12, "hour"), "hour": (30, "minute")}
    if unit not in halves:
        raise ValueError("half a minute")
    return halves[unit]


def _ago(ctx: _Ctx, n: int, unit: str) -> _Span:
    n, unit = _half(n, unit)
    if unit in _STEP:
        if n == _FUZZY:
            n = 3 if unit == "hour" else 5
        centre = ctx.now - n * _STEP[unit]
        return _Span(centre - timedelta(hours=1), min(ctx.now, centre + timedelta(hours=1)))
    if n == _FUZZY:
        return ctx.days(_shift(ctx.today, unit, -6), _shift(ctx.today, unit, -1) + _DAY)
    return _unit_span(ctx, unit, -n)


def _later(ctx: _Ctx, n: int, unit: str) -> _Span:
    n, unit = _half(n, unit)
    if unit in _STEP:
        if n == _FUZZY:
            n = 3 if unit == "hour" else 5
        moment = ctx.now + n * _STEP[unit]
        return _Span(moment, moment + timedelta(hours=1))
    if n == _FUZZY:
        return ctx.days(_shift(ctx.today, unit, 2), _shift(ctx.today, unit, 6) + _DAY)
    return ctx.one_day(_shift(ctx.today, unit, n))


def _rolling_past(ctx: _Ctx, n: int, unit: str) -> _Span:
    n, unit = _half(n, unit)
    n = 3 if n == _FUZZY else n
    if unit in _STEP:
        return _Span(ctx.now - n * _STEP[unit], ctx.now)
    return ctx.up_to_now(_shift(ctx.today, unit, -n))


def _rolling_next(ctx: _Ctx, n: int, unit: str) -> _Span:
    n, unit = _half(n, unit)
    n = 3 if n == _FUZZY else n
    if unit in _STEP:
        return _Span(ctx.now, ctx.now + n * _STEP[unit])
    return ctx.days(ctx.today, _shift(ctx.today, unit, n) + _DAY)


def _last_weekday(today: date, weekday: int) -> date:
    """The most recent ``weekday`` strictly before ``today``."""
    return today - timedelta(days=(today.weekday() - weekday) % 7 or 7)


def _next_weekday(today: date, weekday: int, *, inclusive: bool) -> date:
    delta = (weekday - today.weekday()) % 7
    if delta == 0 and not inclusive:
        delta = 7
    return today + timedelta(days=delta)


def _bare_weekday(ctx: _Ctx, weekday: int) -> date:
    if ctx.future:
        return _next_weekday(ctx.today, weekday, inclusive=True)
    return _last_weekday(ctx.today, weekday)


def _month_year(ctx: _Ctx, month: int, rel: str | None = None) -> int:
    """The year of a month named without one."""
    year, current = ctx.today.year, ctx.today.month
    if rel == "this":
        return year
    if rel == "last":
        return year if month < current else year - 1
    if rel == "next":
        return year if month > current else year + 1
    if ctx.future:
        return year if month >= current else year + 1
    return year if month <= current else year - 1


def _month_day(ctx: _Ctx, month: int, day: int, rel: str | None = None) -> date:
    """The date of a month/day named without a year (Feb 29 looks up to 8 years away)."""
    today = ctx.today
    if rel == "this":
        return date(today.year, month, day)
    future = ctx.future if rel is None else rel == "next"
    step = 1 if future else -1
    for i in range(9):
        try:
            candidate = date(today.year + step * i, month, day)
        except ValueError:
            continue
        if rel is None and (candidate >= today if future else candidate <= today):
            return candidate
        if rel is not None and (candidate > today if future else candidate < today):
            return candidate
    raise ValueError(f"no date {month}/{day}")


def _part(ctx: _Ctx, first: date, stop: date, part: str | None) -> _Span:
    """A part of the month ``[first, stop)``: start (1-10), mid (11-20), late, end."""
    if part is None:
        return ctx.days(first, stop)
    if part == "start":
        return ctx.days(first, first + timedelta(days=10))
    if part == "mid":
        return ctx.days(first + timedelta(days=10), first + timedelta(days=20))
    if part == "end" and ctx.future:
        return ctx.days(stop - _DAY, stop)
    return ctx.days(first + timedelta(days=20), stop)  # "late", or "end" in a question


def _month_span(ctx: _Ctx, year: int, month: int, part: str | None = None) -> _Span:
    first = date(year, month, 1)
    return _part(ctx, first, _add_months(first, 1), part)


def _year_span(ctx: _Ctx, year: int, part: str | None = None) -> _Span:
    if part == "end":
        if ctx.future:
            return ctx.one_day(date(year, 12, 31))
        return ctx.days(date(year, 12, 1), date(year + 1, 1, 1))
    if part == "start":
        return ctx.days(date(year, 1, 1), date(year, 3, 1))
    return ctx.days(date(year, 1, 1), date(year + 1, 1, 1))


def _valid_year(year: int) -> int:
    if not 1900 <= year <= 2199:
        raise ValueError(f"implausible year {year}")
    return year


# ---------------------------------------------------------------------------- numbers

_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4,
              "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "廿": 20, "卅": 30}


def _cn_int(s: str) -> int:
    """Chinese or Arabic numeral → int ("十二" → 12, "二〇二三" → 2023, "１２" → 12)."""
    if s.isdecimal():
        return int(s)
    if len(s) > 1 and all(c in _CN_DIGITS for c in s):
        return int("".join(str(_CN_DIGITS[c]) for c in s))
    total = current = 0
    for ch in s:
        if ch in _CN_DIGITS:
            current = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            unit = _CN_UNITS[ch]
            total += (current or 1) * unit if unit in (10, 100) else unit
            current = 0
        else:
            raise ValueError(f"not a numeral: {s!r}")
    return total + current


def _cn_count(s: str) -> int:
    if "几" in s or "幾" in s:
        return _FUZZY
    if s == "半":
        return _HALF
    return _cn_int(s)


_EN_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
    "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30,
}


def _en_count(s: str) -> int:
    s = " ".join(s.lower().split())
    if s.isdecimal():
        return int(s)
    if s.startswith("half") or s.endswith("half"):
        return _HALF
    if "couple" in s:
        return 2
    if s in ("few", "a few", "several", "some"):
        return _FUZZY
    return _EN_NUMBERS[s]


def _en_unit(s: str) -> str:
    s = s.lower()
    if s.startswith("mi"):
        return "minute"
    for prefix, unit in (("h", "hour"), ("d", "day"), ("w", "week"), ("mo", "month"),
                         ("y", "year")):
        if s.startswith(prefix):
            return unit
    raise ValueError(s)


def _cn_unit(s: str) -> str:
    if "分" in s:
        return "minute"
    if any(c in s for c in "时時头頭"):
        return "hour"
    if "天" in s:
        return "day"
    if "月" in s:
        return "month"
    if "年" in s:
        return "year"
    return "week"


# ----------------------------------------------------------------------------- tokens

_L = r"(?<![A-Za-z0-9])"  # an English word start (\b would fail next to CJK text)
_R = r"(?![A-Za-z0-9])"
_EN_NUM = (
    r"(?P<n>\d{1,4}|(?:a\s+)?couple(?:\s+of)?|(?:a\s+)?few|several|some|half\s+an?|"
    r"an?\s+half|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|"
    r"thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty)"
)
_NOT_OF = r"(?!\s+of\s)"  # "the last week of December" is about December
_EN_UNIT = r"(?P<u>minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|years?|yrs?)"
_MONTHS = {
    "january": 1, "jan": 1, "february": 2, "feb": 2, "march": 3, "mar": 3, "april": 4,
    "apr": 4, "may": 5, "june": 6, "jun": 6, "july": 7, "jul": 7, "august": 8, "aug": 8,
    "september": 9, "sep": 9, "sept": 9, "october": 10, "oct": 10, "november": 11,
    "nov": 11, "december": 12, "dec": 12,
}
_MON = (
    r"(?P<mon>january|february|march|april|may|june|july|august|september|october|"
    r"november|december|jan|feb|mar|apr|jun|jul|aug|sept|sep|oct|nov|dec)(?![A-Za-z])\.?"
)
_BARE_MONTHS = {  # may stand alone when capitalised (April, May, June, August are names)
    "january", "february", "march", "july", "september", "october", "november", "december",
}
_WEEKDAYS = {"monday": 0, "tuesday": 1, "wednesday": 2, "thursday": 3, "friday": 4,
             "saturday": 5, "sunday": 6}
_WEEKDAY = r"(?P<wd>monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_REL = {"last": -1, "previous": -1, "the previous": -1, "this": 0, "next": 1, "coming": 1,
        "the coming": 1}

_CN_NUM = r"(?P<n>好几|好幾|十几|十幾|几|幾|半|\d{1,4}|[零〇一二两兩三四五六七八九十百]{1,5})"
_CN_UNIT = (  # 个多月: "三个多月前" (three-odd months ago)
    r"(?P<u>天|周|週|[个個]多?星期|星期|[个個]多?礼拜|[个個]多?禮拜|礼拜|禮拜|[个個]多?月|年|"
    r"[个個]多?小时|[个個]多?小時|小时|小時|[个個]多?钟头|[个個]多?鐘頭|钟头|鐘頭|分钟|分鐘)"
)
_CN_NOT_AFTER_NUM = r"(?<![\d零〇一二两兩三四五六七八九十百几幾第])"
_CN_REL = {"上上": -2, "上": -1, "这": 0, "這": 0, "本": 0, "下": 1, "下下": 2}
_CN_COUNTING = "每一二两兩三四五六七八九十几幾个個多半0123456789"  # before 周一: not a day
_CN_WEEKDAY = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
_CN_PART = {"底": "end", "末": "end", "初": "start", "上旬": "start", "中旬": "mid",
            "中": "mid", "下旬": "late"}
_EN_PART = {"end": "end", "beginning": "start", "start": "start", "middle": "mid",
            "early": "start", "mid": "mid", "late": "late"}


def _words(m: re.Match[str], group: str) -> str:
    return " ".join((m.group(group) or "").lower().split())


# ------------------------------------------------------------- days and recent moments

_CN_DAY_OFFSETS = {"大前": -3, "前": -2, "昨": -1, "今": 0, "明": 1, "后": 2, "後": 2,
                   "大后": 3, "大後": 3}


@_rule(
    r"(?P<w>大前天|(?<![之以提目当眼面跟生从從向事空])前天|昨天|昨日|昨儿个?|昨晚|昨夜|"
    r"今天|今日|今儿个?|今早|今晚|今夜|明天|明日|明儿个?|明早|明晚|大后天|大後天|"
    r"(?<![之以然最落先午])(?:后天|後天))"
    r"(?:早上|早晨|上午|中午|下午|傍晚|晚上|夜里|夜裡|早些时候|早些時候)?"
)
def _cn_day(m: re.Match[str], ctx: _Ctx) -> _Span:
    word = m.group("w")
    key = next(k for k in sorted(_CN_DAY_OFFSETS, key=len, reverse=True) if word.startswith(k))
    d = ctx.today + timedelta(days=_CN_DAY_OFFSETS[key])
    return ctx.days(d, d + _DAY, clip=d == ctx.today)


_EN_DAYS: list[tuple[str, int]] = [
    (r"(?:the\s+)?day\s+before\s+yesterday", -2),
    (r"(?:the\s+)?day\s+after\s+tomorrow", 2),
    (r"yesterday(?:\s+(?:morning|afternoon|evening|night))?|last\s+night", -1),
    (r"(?:(?:earlier|later)\s+)?today|this\s+(?:morning|afternoon|evening)|tonight", 0),
    (r"tomorrow(?:\s+(?:morning|afternoon|evening|night))?", 1),
]


def _fixed_day(offset: int) -> _Handler:
    def handler(m: re.Match[str], ctx: _Ctx) -> _Span:
        d = ctx.today + timedelta(days=offset)
        return ctx.days(d, d + _DAY, clip=offset == 0)

    return handler


for _pattern, _offset in _EN_DAYS:
    _rule(_L + "(?:" + _pattern + ")" + _R)(_fixed_day(_offset))


@_rule(
    r"刚才|刚刚|剛才|剛剛|方才|" + _L
    + r"(?:just\s+now|an?\s+(?:moment|minute|second|little\s+while)\s+ago|moments\s+ago|"
    r"a\s+few\s+(?:moments|minutes)\s+ago)" + _R
)
def _just_now(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _Span(ctx.now - timedelta(hours=2), ctx.now)


@_rule(
    r"最近(?!的|一次|一回)|近来|近來|近期|近日|这段时间|這段時間|这阵子|這陣子|这些天|這些天|"
    r"这些日子|這些日子|" + _L
    + r"(?:recently|lately|of\s+late|these\s+days|in\s+recent\s+(?:days|weeks|times))" + _R
)
def _recently(m: re.Match[str], ctx: _Ctx) -> _Span:
    return ctx.up_to_now(ctx.today - timedelta(days=30))


@_rule(
    r"上一?次|上一?回|那一?次|那一?回|那一?天|那时候?|那時候?|当时|當時|之前|以前|曾经|曾經|"
    r"前阵子|前陣子|前段时间|前段時間|前些日子|前些天|有一次|有一回|很久以前|很久之前|"
    r"最近一次|最近一回|早些时候|早些時候|" + _L
    + r"(?:(?:the\s+)?last\s+time|the\s+other\s+day|previously|(?:a\s+)?while\s+(?:ago|back)|"
    r"some\s*time\s+ago|(?:a\s+)?long\s+(?:time\s+)?ago|ages\s+ago|in\s+the\s+past|"
    r"back\s+then|(?:at\s+)?that\s+time|"
    r"earlier(?!\s+(?:today|tonight|this|in\s+the|than))|before(?=\s*(?:[?.!,;:)]|$))|"
    r"before\s+now)" + _R
)
def _vague(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _Span(None, None)


# ------------------------------------------------------------------------------ weeks


@_rule(
    r"(?P<pre>上上|上|这|這|本|下下|下)(?:一个|一個|个|個|一)?(?:周|週|星期|礼拜|禮拜)"
    r"(?![末年围圍边邊期刊])"
)
def _cn_week(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _unit_span(ctx, "week", _CN_REL[m.group("pre")])


@_rule(
    r"(?:(?P<pre>上上|上|这|這|本|下下|下)(?:个|個)?)?(?:周|週|星期|礼拜|禮拜)"
    r"(?P<d>[一二三四五六日天1-7１-７])(?![次遍回趟\d])"
)
def _cn_weekday(m: re.Match[str], ctx: _Ctx) -> _Span | None:
    d = m.group("d")
    weekday = _CN_WEEKDAY[d] if d in _CN_WEEKDAY else int(d) - 1
    pre = m.group("pre")
    if pre is not None:
        return ctx.one_day(ctx.monday + timedelta(weeks=_CN_REL[pre], days=weekday))
    if m.start() > 0 and m.string[m.start() - 1] in _CN_COUNTING:
        return None  # 每周三 (every Wednesday), 一周一次 (once a week)
    return ctx.one_day(_bare_weekday(ctx, weekday))


@_rule(r"(?:(?P<pre>上上|上|这|這|本|下下|下)(?:个|個)?)?(?:周末|週末)")
def _cn_weekend(m: re.Match[str], ctx: _Ctx) -> _Span | None:
    pre = m.group("pre")
    if pre is None and m.start() > 0 and m.string[m.start() - 1] in "每个個":
        return None
    return _weekend(ctx, None if pre is None else _CN_REL[pre])


def _weekend(ctx: _Ctx, k: int | None) -> _Span:
    if k is None:  # "the weekend": the coming one, or the last one that has started
        k = 0 if ctx.future or ctx.today.weekday() >= 5 else -1
    saturday = ctx.monday + timedelta(weeks=k, days=5)
    first = max(saturday, ctx.today) if ctx.future and k == 0 else saturday  # plan: from today
    return ctx.days(first, saturday + 2 * _DAY, clip=k == 0)


@_rule(
    _L + r"(?:(?P<mod>earlier|later)\s+)?(?P<pre>last|this|next|coming|the\s+coming|previous|"
    r"the\s+previous)\s+week" + _R + _NOT_OF
)
def _en_week(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _unit_span(ctx, "week", _REL[_words(m, "pre")])


@_rule(_L + r"the\s+week\s+(?P<dir>before\s+last|after\s+next)" + _R)
def _en_week_2(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _unit_span(ctx, "week", -2 if _words(m, "dir").startswith("before") else 2)


@_rule(
    _L + r"(?:(?P<pre>last|this\s+past|past|this\s+coming|coming|this|next|on|by|until|till)"
    r"\s+)?" + _WEEKDAY + r"(?:\s+(?P<post>last|this|next)\s+week)?" + _R
)
def _en_weekday(m: re.Match[str], ctx: _Ctx) -> _Span:
    weekday = _WEEKDAYS[m.group("wd").lower()]
    pre, post = _words(m, "pre"), _words(m, "post")
    if post:
        return ctx.one_day(ctx.monday + timedelta(weeks=_REL[post], days=weekday))
    if pre in ("last", "this past", "past"):
        return ctx.one_day(_last_weekday(ctx.today, weekday))
    if pre == "next":
        return ctx.one_day(ctx.monday + timedelta(weeks=1, days=weekday))
    if pre in ("coming", "this coming"):
        return ctx.one_day(_next_weekday(ctx.today, weekday, inclusive=False))
    if pre == "this" and not ctx.future:
        return ctx.one_day(ctx.monday + timedelta(days=weekday))
    return ctx.one_day(_bare_weekday(ctx, weekday))


@_rule(
    _L + r"(?:(?:over|on|at|during|for)\s+the\s+|the\s+)?(?:(?P<pre>last|this\s+past|past|"
    r"this\s+coming|coming|this|next)\s+)?weekend" + _R
)
def _en_weekend(m: re.Match[str], ctx: _Ctx) -> _Span | None:
    pre = _words(m, "pre")
    if m.group(0).strip().lower() == "weekend":
        return None  # "a wedding weekend", "a long weekend": a kind of weekend, not a date
    if pre in ("last", "this past", "past"):
        return _weekend(ctx, -1)
    if pre in ("this coming", "coming"):
        return _weekend(ctx, 0 if ctx.today.weekday() < 5 else 1)
    return _weekend(ctx, {"this": 0, "next": 1}.get(pre))


# ------------------------------------------------------- counted units: ago, later, last


@_rule(_CN_NOT_AFTER_NUM + _CN_NUM + r"多?" + _CN_UNIT + r"多?(?:之前|以前|前)")
def _cn_ago(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _ago(ctx, _cn_count(m.group("n")), _cn_unit(m.group("u")))


@_rule(r"前(?:几|幾|两|兩)(?P<u>天|周|週|个星期|個星期|个月|個月|年)")
def _cn_few_ago(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _ago(ctx, _FUZZY, _cn_unit(m.group("u")))  # 前几天, 前两天: a few days ago


@_rule(
    _CN_NOT_AFTER_NUM + _CN_NUM + r"多?" + _CN_UNIT + r"多?(?:之后|之後|以后|以後|后|後)"
    r"|[过過](?P<n2>几|幾|两|兩|[一三四五六七八九十]{1,2})(?P<u2>天|个星期|個星期|周|週|个月|個月|年)"
)
def _cn_later(m: re.Match[str], ctx: _Ctx) -> _Span:
    if m.group("n2"):
        return _later(ctx, _cn_count(m.group("n2")), _cn_unit(m.group("u2")))
    return _later(ctx, _cn_count(m.group("n")), _cn_unit(m.group("u")))


@_rule(
    r"(?P<pre>最近|过去|過去|近|这|這)的?" + _CN_NUM + r"多?" + _CN_UNIT
    + r"(?:以来|以來|里|裡|之内|之內|以内|以內|内|內)?"
)
def _cn_rolling(m: re.Match[str], ctx: _Ctx) -> _Span | None:
    n, unit = _cn_count(m.group("n")), _cn_unit(m.group("u"))
    if m.group("pre") in "这這" and n == 1 and unit in ("week", "month"):
        return None  # 这一周, 这一个月: the calendar week/month
    return _rolling_past(ctx, n, unit)


@_rule(_CN_NOT_AFTER_NUM + _CN_NUM + _CN_UNIT + r"(?:之内|之內|以内|以內|内|內)")
def _cn_within(m: re.Match[str], ctx: _Ctx) -> _Span:
    roll = _rolling_next if ctx.future else _rolling_past
    return roll(ctx, _cn_count(m.group("n")), _cn_unit(m.group("u")))


@_rule(_L + _EN_NUM + r"\s+" + _EN_UNIT + r"\s+(?:ago|back)" + _R)
def _en_ago(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _ago(ctx, _en_count(m.group("n")), _en_unit(m.group("u")))


@_rule(
    _L + r"(?:in\s+(?:about\s+|around\s+|another\s+)?" + _EN_NUM + r"\s+" + _EN_UNIT
    + r"(?!\s+ago)|" + _EN_NUM.replace("<n>", "<n2>") + r"\s+"
    + _EN_UNIT.replace("<u>", "<u2>") + r"\s+from\s+(?:now|today))" + _R
)
def _en_later(m: re.Match[str], ctx: _Ctx) -> _Span:
    if m.group("n2"):
        return _later(ctx, _en_count(m.group("n2")), _en_unit(m.group("u2")))
    return _later(ctx, _en_count(m.group("n")), _en_unit(m.group("u")))


@_rule(
    _L + r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+)?(?:past|last|previous)\s+"
    + _EN_NUM + r"\s+" + _EN_UNIT + _R
)
def _en_rolling(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _rolling_past(ctx, _en_count(m.group("n")), _en_unit(m.group("u")))


@_rule(
    _L + r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+past|the\s+last|past)\s+"
    r"(?P<u>minute|hour|day|week|month|year)" + _R + _NOT_OF
)
def _en_rolling_1(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _rolling_past(ctx, 1, _en_unit(m.group("u")))


@_rule(
    _L + r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+)?(?:next|coming|following)\s+"
    + _EN_NUM + r"\s+" + _EN_UNIT + _R
    + r"|" + _L + r"(?:in|over|during|within)\s+the\s+(?:next|coming)\s+"
    r"(?P<u1>hour|day|week|month|year)" + _R
)
def _en_next_n(m: re.Match[str], ctx: _Ctx) -> _Span:
    if m.group("u1"):
        return _rolling_next(ctx, 1, _en_unit(m.group("u1")))
    return _rolling_next(ctx, _en_count(m.group("n")), _en_unit(m.group("u")))


@_rule(_L + r"within\s+" + _EN_NUM + r"\s+" + _EN_UNIT + _R)
def _en_within(m: re.Match[str], ctx: _Ctx) -> _Span:
    roll = _rolling_next if ctx.future else _rolling_past
    return roll(ctx, _en_count(m.group("n")), _en_unit(m.group("u")))


# ----------------------------------------------------------------------- months, years


@_rule(
    r"(?P<pre>上上|上|这|這|本|下下|下)(?:一个|一個|个|個|一)?月份?"
    r"(?:(?P<d>\d{1,2}|[一二三四五六七八九十廿卅]{1,3})(?:日|号|號)|(?P<part>底|末|初|上旬|中旬|下旬))?"
)
def _cn_month(m: re.Match[str], ctx: _Ctx) -> _Span:
    k = _CN_REL[m.group("pre")]
    first = _unit_start(ctx, "month", k)
    if m.group("d"):
        return ctx.one_day(first.replace(day=_cn_int(m.group("d"))))
    if m.group("part"):
        return _part(ctx, first, _add_months(first, 1), _CN_PART[m.group("part")])
    return _unit_span(ctx, "month", k)


@_rule(r"(?<![每\d零〇一二两兩三四五六七八九十个個上下这這本])月(?P<part>底|末|初)")
def _cn_month_part(m: re.Match[str], ctx: _Ctx) -> _Span:
    first = _unit_start(ctx, "month", 0)
    return _part(ctx, first, _add_months(first, 1), _CN_PART[m.group("part")])


@_rule(
    r"(?<![\d〇零一二三四五六七八九十两兩个個每几幾上下这這本第])"
    r"(?:(?P<y>\d{4}|[〇零一二三四五六七八九]{4})年)?"
    r"(?P<m>\d{1,2}|十[一二]?|[一二三四五六七八九])月份?"
    r"(?:(?P<d>\d{1,2}|[一二三四五六七八九十廿卅]{1,3})(?:日|号|號)|(?P<part>底|末|初|上旬|中旬|下旬))?"
)
def _cn_date(m: re.Match[str], ctx: _Ctx) -> _Span | None:
    month = _cn_int(m.group("m"))
    if not 1 <= month <= 12:
        return None
    year = _valid_year(_cn_int(m.group("y"))) if m.group("y") else None
    part = _CN_PART[m.group("part")] if m.group("part") else None
    if m.group("d"):
        day = _cn_int(m.group("d"))
        if year is not None:
            return ctx.one_day(date(year, month, day))
        return ctx.one_day(_month_day(ctx, month, day))
    if year is None and _CN_TIMES.match(m.string, m.end()):
        return None  # 一月一次 (once a month)
    return _month_span(ctx, _month_year(ctx, month) if year is None else year, month, part)


_CN_TIMES = re.compile(r"[一二两兩三四五六七八九十几幾\d]*[次回遍趟]")
_CN_YEAR_OFFSETS = {"大前": -3, "前": -2, "去": -1, "今": 0, "明": 1, "后": 2, "後": 2,
                    "大后": 3, "大後": 3}


@_rule(
    r"(?P<pre>大前|(?<![之以提目当眼面从從])前|(?<![过過])去|今|明|大后|大後|"
    r"(?<![之以然最落先午])(?:后|後))年(?!级|級|纪|紀|龄|齡|轻|輕)(?P<part>底|末|初)?"
)
def _cn_year(m: re.Match[str], ctx: _Ctx) -> _Span:
    k = _CN_YEAR_OFFSETS[m.group("pre")]
    part = _CN_PART[m.group("part")] if m.group("part") else None
    if part is None:
        return _unit_span(ctx, "year", k)
    return _year_span(ctx, ctx.today.year + k, part)


@_rule(r"(?<![\d〇零一二两兩三四五六七八九十百几幾每个個多半今去明前后後])年(?P<part>底|末|初)")
def _cn_year_part(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _year_span(ctx, ctx.today.year, _CN_PART[m.group("part")])  # 年底: this year's


@_rule(r"(?<![\d〇零一二三四五六七八九])(?P<y>\d{4}|[〇零一二三四五六七八九]{4})年度?(?P<part>底|末|初)?")
def _cn_year_abs(m: re.Match[str], ctx: _Ctx) -> _Span:
    part = _CN_PART[m.group("part")] if m.group("part") else None
    return _year_span(ctx, _valid_year(_cn_int(m.group("y"))), part)


@_rule(
    _L + r"(?:(?P<mod>earlier|later)\s+)?(?P<pre>last|this|next|coming|the\s+coming|previous|"
    r"the\s+previous)\s+(?P<u>month|year)" + _R + _NOT_OF
)
def _en_month_year_rel(m: re.Match[str], ctx: _Ctx) -> _Span:
    return _unit_span(ctx, _en_unit(m.group("u")), _REL[_words(m, "pre")])


@_rule(_L + r"the\s+(?P<u>month|year)\s+(?P<dir>before\s+last|after\s+next)" + _R)
def _en_month_year_2(m: re.Match[str], ctx: _Ctx) -> _Span:
    k = -2 if _words(m, "dir").startswith("before") else 2
    return _unit_span(ctx, _en_unit(m.group("u")), k)


@_rule(
    _L + r"(?:the\s+)?(?P<part>end|beginning|start|middle)\s+of\s+(?:the\s+|this\s+|"
    r"(?P<rel>next|last|previous)\s+)(?P<u>month|year)" + _R
    + r"|" + _L + r"(?P<u2>month|year)[-\s]end" + _R
)
def _en_unit_part(m: re.Match[str], ctx: _Ctx) -> _Span:
    unit = _en_unit(m.group("u") or m.group("u2"))
    part = _EN_PART[_words(m, "part")] if m.group("part") else "end"
    k = _REL.get(_words(m, "rel"), 0)
    if unit == "month":
        first = _unit_start(ctx, "month", k)
        return _part(ctx, first, _add_months(first, 1), part)
    if part == "mid":
        return ctx.days(date(ctx.today.year + k, 6, 1), date(ctx.today.year + k, 8, 1))
    return _year_span(ctx, ctx.today.year + k, part)


def _may_ok(m: re.Match[str], context: bool) -> bool:
    """Lower-case "may" is a verb unless something makes it a date."""
    token = m.group("mon")
    return token.lower() != "may" or token[0] == "M" or context


@_rule(
    _L + r"(?:(?P<pre>on|by|until|till)\s+)?(?:the\s+)?" + _MON + r"\s*(?:the\s+)?"
    r"(?P<d>\d{1,2})(?P<sfx>st|nd|rd|th)?" + _R + r"(?:,?\s*(?P<y>\d{4})(?!\d))?"
)
def _en_month_day(m: re.Match[str], ctx: _Ctx) -> _Span | None:
    return _en_date(m, ctx, bool(m.group("pre") or m.group("sfx") or m.group("y")))


@_rule(
    _L + r"(?:(?P<pre>on|by|until|till)\s+)?(?:the\s+)?(?P<d>\d{1,2})(?P<sfx>st|nd|rd|th)?"
    r"\s*(?P<of>of\s+)?" + _MON + r"(?:,?\s*(?P<y>\d{4})(?!\d))?"
)
def _en_day_month(m: re.Match[str], ctx: _Ctx) -> _Span | None:
    context = m.group("pre") or m.group("sfx") or m.group("of") or m.group("y")
    return _en_date(m, ctx, bool(context))


def _en_date(m: re.Match[str], ctx: _Ctx, context: bool) -> _Span | None:
    if not _may_ok(m, context):
        return None
    month, day = _MONTHS[m.group("mon").lower()], int(m.group("d"))
    year = int(m.group("y")) if m.group("y") else None
    if year is not None and 1900 <= year <= 2199:
        return ctx.one_day(date(year, month, day))
    return ctx.one_day(_month_day(ctx, month, day))


@_rule(
    _L + r"(?:(?P<pre>in|during|by|until|till|of)\s+)?" + _MON + r",?\s*(?P<y>\d{4})(?!\d)"
)
def _en_month_of_year(m: re.Match[str], ctx: _Ctx) -> _Span | None:
    if not _may_ok(m, bool(m.group("pre"))):
        return None
    return _month_span(ctx, _valid_year(int(m.group("y"))), _MONTHS[m.group("mon").lower()])


@_rule(
    _L + r"(?:(?P<pre>in|during|until|till|by|last|this|next|throughout)[\s-]+)?"
    r"(?:(?P<part>early|mid|late)[\s-]+)?" + _MON + _R
)
def _en_month(m: re.Match[str], ctx: _Ctx) -> _Span | None:
    token, pre, part = m.group("mon"), _words(m, "pre"), _words(m, "part")
    name = token.lower().rstrip(".")
    since = _SINCE_BEFORE.search(m.string, 0, m.start()) is not None
    bare = not (pre or part or since)
    if bare and (not token[0].isupper() or name not in _BARE_MONTHS):
        return None  # a bare month must be capitalised, in full, and not a first name
    if name == "may" and token[0] == "m" and pre in ("this", "last", "next"):
        return None  # "this may be"
    month = _MONTHS[name]
    rel = pre if pre in ("last", "this", "next") else None
    return _month_span(ctx, _month_year(ctx, month, rel), month, _EN_PART.get(part))


_NOT_A_YEAR = (
    r"(?!\s*(?:%|percent|dollars?|bucks|euros?|yuan|usd|rmb|people|persons|times|items|"
    r"units|words|pages|meters?|metres?|km|miles?|pounds?|kg|steps|calories)(?![A-Za-z]))"
)


@_rule(
    _L + r"(?P<pre>in|during|by|until|till|of|around|circa|since|the\s+year|year|back\s+in)\s+"
    r"(?P<y>\d{4})(?![\d.,:]\d)" + _R + _NOT_A_YEAR
)
def _en_year(m: re.Match[str], ctx: _Ctx) -> _Span:
    year = _valid_year(int(m.group("y")))
    if _words(m, "pre") == "since":
        return ctx.up_to_now(date(year, 1, 1))
    return _year_span(ctx, year)


@_rule(r"(?<![\d.])(?P<y>\d{4})(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?![\d])")
def _iso_date(m: re.Match[str], ctx: _Ctx) -> _Span:
    year = _valid_year(int(m.group("y")))
    return ctx.one_day(date(year, int(m.group("m")), int(m.group("d"))))


# --------------------------------------------------------------------------- holidays

_HOLIDAYS = {
    "christmas eve": (12, 24), "christmas": (12, 25), "new year's eve": (12, 31),
    "new year's": (1, 1), "valentine's": (2, 14), "halloween": (10, 31),
    "圣诞": (12, 25), "聖誕": (12, 25), "平安夜": (12, 24), "元旦": (1, 1),
    "情人": (2, 14), "国庆": (10, 1), "國慶": (10, 1), "劳动": (5, 1), "勞動": (5, 1),
    "万圣": (10, 31), "萬聖": (10, 31),
}


def _holiday(ctx: _Ctx, key: str, year: int | None, rel: str | None) -> _Span:
    month, day = _HOLIDAYS[key]
    if year is not None:
        return ctx.one_day(date(year, month, day))
    return ctx.one_day(_month_day(ctx, month, day, rel))


@_rule(
    _L + r"(?:(?P<pre>last|this|next)\s+)?(?P<h>christmas\s+eve|christmas(?:\s+day)?|"
    r"new\s+year['’]?s\s+eve|new\s+year['’]?s(?:\s+day)?|valentine['’]?s(?:\s+day)?|halloween)"
    r"(?:,?\s+(?P<y>\d{4})(?!\d))?" + _R
)
def _en_holiday(m: re.Match[str], ctx: _Ctx) -> _Span:
    words = _words(m, "h").replace("'", "").replace("’", "").replace(" day", "")
    key = next(k for k in _HOLIDAYS if k.replace("'", "") == words)
    year = _valid_year(int(m.group("y"))) if m.group("y") else None
    return _holiday(ctx, key, year, _words(m, "pre") or None)


@_rule(
    r"(?:(?P<pre>前年|去年|今年|明年)的?|(?P<y>\d{4})年的?)?"
    r"(?P<h>(?:圣诞|聖誕)(?!老人)节?節?|平安夜|元旦|情人节|情人節|国庆节?|國慶節?|劳动节|勞動節|万圣节|萬聖節)"
)
def _cn_holiday(m: re.Match[str], ctx: _Ctx) -> _Span:
    key = next(k for k in _HOLIDAYS if m.group("h").startswith(k))
    year = _valid_year(int(m.group("y"))) if m.group("y") else None
    if m.group("pre"):
        year = ctx.today.year + {"前年": -2, "去年": -1, "今年": 0, "明年": 1}[m.group("pre")]
    return _holiday(ctx, key, year, None)
