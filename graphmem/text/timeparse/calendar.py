"""Calendar arithmetic for time expressions: a span of days in the reference time's zone,
shifts by calendar units, weekdays, month parts, holidays. Pure code."""

from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo

DAY = timedelta(days=1)
FUZZY = -1  # "a few", "several", "几"
HALF = -2  # "半" (half a year, half a month)


@dataclass(frozen=True)
class Span:
    start: datetime | None  # None: a vague hint ("last time")
    end: datetime | None
    clip: bool = False  # contains the present: a window stops at now


@dataclass(frozen=True)
class Ctx:
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

    def days(self, first: date, stop: date, clip: bool = False) -> Span:
        return Span(self.day(first), self.day(stop), clip)

    def one_day(self, d: date) -> Span:
        return self.days(d, d + DAY)

    def up_to_now(self, first: date) -> Span:
        return Span(self.day(first), self.day(self.today + DAY), clip=True)


def new_context(now: datetime, *, future: bool) -> Ctx:
    if not isinstance(now, datetime) or now.tzinfo is None or now.utcoffset() is None:
        raise ValueError("the reference datetime must be timezone-aware")
    return Ctx(now, future)



# ----------------------------------------------------------------- calendar arithmetic


def add_months(d: date, months: int) -> date:
    year, month0 = divmod(d.month - 1 + months, 12)
    year += d.year
    return date(year, month0 + 1, min(d.day, calendar.monthrange(year, month0 + 1)[1]))


def shift(d: date, unit: str, n: int) -> date:
    if unit == "day":
        return d + timedelta(days=n)
    if unit == "week":
        return d + timedelta(weeks=n)
    if unit == "month":
        return add_months(d, n)
    if unit == "year":
        return add_months(d, 12 * n)
    raise ValueError(unit)


def unit_start(ctx: Ctx, unit: str, k: int) -> date:
    """First day of the calendar day/week/month/year ``k`` units from the current one."""
    if unit == "day":
        return ctx.today + timedelta(days=k)
    if unit == "week":
        return ctx.monday + timedelta(weeks=k)
    if unit == "month":
        return add_months(ctx.today.replace(day=1), k)
    if unit == "year":
        return date(ctx.today.year + k, 1, 1)
    raise ValueError(unit)


def unit_span(ctx: Ctx, unit: str, k: int) -> Span:
    return ctx.days(unit_start(ctx, unit, k), unit_start(ctx, unit, k + 1), clip=k == 0)


STEP = {"hour": timedelta(hours=1), "minute": timedelta(minutes=1)}


def half(n: int, unit: str) -> tuple[int, str]:
    if n != HALF:
        return n, unit
    halves = {"year": (6, "month"), "month": (15, "day"), "week": (3, "day"),
              "day": (12, "hour"), "hour": (30, "minute")}
    if unit not in halves:
        raise ValueError("half a minute")
    return halves[unit]


def ago(ctx: Ctx, n: int, unit: str) -> Span:
    n, unit = half(n, unit)
    if unit in STEP:
        if n == FUZZY:
            n = 3 if unit == "hour" else 5
        centre = ctx.now - n * STEP[unit]
        return Span(centre - timedelta(hours=1), min(ctx.now, centre + timedelta(hours=1)))
    if n == FUZZY:
        return ctx.days(shift(ctx.today, unit, -6), shift(ctx.today, unit, -1) + DAY)
    return unit_span(ctx, unit, -n)


def later(ctx: Ctx, n: int, unit: str) -> Span:
    n, unit = half(n, unit)
    if unit in STEP:
        if n == FUZZY:
            n = 3 if unit == "hour" else 5
        moment = ctx.now + n * STEP[unit]
        return Span(moment, moment + timedelta(hours=1))
    if n == FUZZY:
        return ctx.days(shift(ctx.today, unit, 2), shift(ctx.today, unit, 6) + DAY)
    return ctx.one_day(shift(ctx.today, unit, n))


def rolling_past(ctx: Ctx, n: int, unit: str) -> Span:
    n, unit = half(n, unit)
    n = 3 if n == FUZZY else n
    if unit in STEP:
        return Span(ctx.now - n * STEP[unit], ctx.now)
    return ctx.up_to_now(shift(ctx.today, unit, -n))


def rolling_next(ctx: Ctx, n: int, unit: str) -> Span:
    n, unit = half(n, unit)
    n = 3 if n == FUZZY else n
    if unit in STEP:
        return Span(ctx.now, ctx.now + n * STEP[unit])
    return ctx.days(ctx.today, shift(ctx.today, unit, n) + DAY)


def last_weekday(today: date, weekday: int) -> date:
    """The most recent ``weekday`` strictly before ``today``."""
    return today - timedelta(days=(today.weekday() - weekday) % 7 or 7)


def next_weekday(today: date, weekday: int, *, inclusive: bool) -> date:
    delta = (weekday - today.weekday()) % 7
    if delta == 0 and not inclusive:
        delta = 7
    return today + timedelta(days=delta)


def bare_weekday(ctx: Ctx, weekday: int) -> date:
    if ctx.future:
        return next_weekday(ctx.today, weekday, inclusive=True)
    return last_weekday(ctx.today, weekday)


def month_year(ctx: Ctx, month: int, rel: str | None = None) -> int:
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


def month_day(ctx: Ctx, month: int, day: int, rel: str | None = None) -> date:
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


def part_span(ctx: Ctx, first: date, stop: date, part: str | None) -> Span:
    """A part of the month ``[first, stop)``: start (1-10), mid (11-20), late, end."""
    if part is None:
        return ctx.days(first, stop)
    if part == "start":
        return ctx.days(first, first + timedelta(days=10))
    if part == "mid":
        return ctx.days(first + timedelta(days=10), first + timedelta(days=20))
    if part == "end" and ctx.future:
        return ctx.days(stop - DAY, stop)
    return ctx.days(first + timedelta(days=20), stop)  # "late", or "end" in a question


def month_span(ctx: Ctx, year: int, month: int, part: str | None = None) -> Span:
    first = date(year, month, 1)
    return part_span(ctx, first, add_months(first, 1), part)


def year_span(ctx: Ctx, year: int, part: str | None = None) -> Span:
    if part == "end":
        if ctx.future:
            return ctx.one_day(date(year, 12, 31))
        return ctx.days(date(year, 12, 1), date(year + 1, 1, 1))
    if part == "start":
        return ctx.days(date(year, 1, 1), date(year, 3, 1))
    return ctx.days(date(year, 1, 1), date(year + 1, 1, 1))


def valid_year(year: int) -> int:
    if not 1900 <= year <= 2199:
        raise ValueError(f"implausible year {year}")
    return year


# ---------------------------------------------------------------------------- numbers


def weekend(ctx: Ctx, k: int | None) -> Span:
    if k is None:  # "the weekend": the coming one, or the last one that has started
        k = 0 if ctx.future or ctx.today.weekday() >= 5 else -1
    saturday = ctx.monday + timedelta(weeks=k, days=5)
    first = max(saturday, ctx.today) if ctx.future and k == 0 else saturday  # plan: from today
    return ctx.days(first, saturday + 2 * DAY, clip=k == 0)


# --------------------------------------------------------------------------- holidays

HOLIDAYS = {
    "christmas eve": (12, 24), "christmas": (12, 25), "new year's eve": (12, 31),
    "new year's": (1, 1), "valentine's": (2, 14), "halloween": (10, 31),
    "圣诞": (12, 25), "聖誕": (12, 25), "平安夜": (12, 24), "元旦": (1, 1),
    "情人": (2, 14), "国庆": (10, 1), "國慶": (10, 1), "劳动": (5, 1), "勞動": (5, 1),
    "万圣": (10, 31), "萬聖": (10, 31),
}


def holiday(ctx: Ctx, key: str, year: int | None, rel: str | None) -> Span:
    month, day = HOLIDAYS[key]
    if year is not None:
        return ctx.one_day(date(year, month, day))
    return ctx.one_day(month_day(ctx, month, day, rel))


