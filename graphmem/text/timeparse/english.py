"""English time expressions: yesterday, last Wednesday, 3 days ago, the past two weeks,
next March, in 2023, Christmas."""

from __future__ import annotations

import re
from datetime import date, timedelta

from graphmem.text.timeparse.calendar import (
    DAY,
    HOLIDAYS,
    Ctx,
    Span,
    add_months,
    ago,
    bare_weekday,
    holiday,
    last_weekday,
    later,
    month_day,
    month_span,
    month_year,
    next_weekday,
    part_span,
    rolling_next,
    rolling_past,
    unit_span,
    unit_start,
    valid_year,
    weekend,
    year_span,
)
from graphmem.text.timeparse.numbers import (
    BARE_MONTHS,
    EN_NUM,
    EN_PART,
    EN_UNIT,
    MON,
    MONTHS,
    NOT_OF,
    REL,
    WEEKDAY,
    WEEKDAYS,
    L,
    R,
    en_count,
    en_unit,
    words_of,
)
from graphmem.text.timeparse.scan import SINCE_BEFORE, Handler, rule

# The days as chat types them too: tmrw, tmr, 2moro, tomoz, tommorow; yday, yest; tonite, 2nite.
_TOMORROW = r"(?:tomorrow|tomorow|tommorow|tommorrow|tmrw|tmrow|tmr|tmro|2moro|2morrow|tomoz)"
_YESTERDAY = r"(?:yesterday|yesterdy|yday|yest)"
_PART = r"(?:\s+(?:morning|afternoon|evening|night|nite|am|pm))?"
_EN_DAYS: list[tuple[str, int]] = [
    (rf"(?:the\s+)?day\s+before\s+{_YESTERDAY}", -2),
    (rf"(?:the\s+)?day\s+after\s+{_TOMORROW}", 2),
    (rf"{_YESTERDAY}{_PART}|last\s+(?:night|nite)", -1),
    (r"(?:(?:earlier|later)\s+)?today|this\s+(?:morning|afternoon|evening)|tonight|tonite|2nite",
     0),
    (rf"{_TOMORROW}{_PART}", 1),
]


def _fixed_day(offset: int) -> Handler:
    def handler(m: re.Match[str], ctx: Ctx) -> Span:
        d = ctx.today + timedelta(days=offset)
        return ctx.days(d, d + DAY, clip=offset == 0)

    return handler


for _pattern, _offset in _EN_DAYS:
    rule(L + "(?:" + _pattern + ")" + R)(_fixed_day(_offset))


# ------------------------------------------------------------------------------ weeks


@rule(
    L + r"(?:(?P<mod>earlier|later)\s+)?(?P<pre>last|this|next|coming|the\s+coming|previous|"
    r"the\s+previous)\s+week" + R + NOT_OF
)
def _en_week(m: re.Match[str], ctx: Ctx) -> Span:
    return unit_span(ctx, "week", REL[words_of(m, "pre")])


@rule(L + r"the\s+week\s+(?P<dir>before\s+last|after\s+next)" + R)
def _en_week_2(m: re.Match[str], ctx: Ctx) -> Span:
    return unit_span(ctx, "week", -2 if words_of(m, "dir").startswith("before") else 2)


@rule(
    L + r"(?:(?P<pre>last|this\s+past|past|this\s+coming|coming|this|next|on|by|until|till)"
    r"\s+)?" + WEEKDAY + r"(?:\s+(?P<post>last|this|next)\s+week)?" + R
)
def _en_weekday(m: re.Match[str], ctx: Ctx) -> Span:
    weekday = WEEKDAYS[m.group("wd").lower()]
    pre, post = words_of(m, "pre"), words_of(m, "post")
    if post:
        return ctx.one_day(ctx.monday + timedelta(weeks=REL[post], days=weekday))
    if pre in ("last", "this past", "past"):
        return ctx.one_day(last_weekday(ctx.today, weekday))
    if pre == "next":
        return ctx.one_day(ctx.monday + timedelta(weeks=1, days=weekday))
    if pre in ("coming", "this coming"):
        return ctx.one_day(next_weekday(ctx.today, weekday, inclusive=False))
    if pre == "this" and not ctx.future:
        return ctx.one_day(ctx.monday + timedelta(days=weekday))
    return ctx.one_day(bare_weekday(ctx, weekday))


@rule(
    L + r"(?:(?:over|on|at|during|for)\s+the\s+|the\s+)?(?:(?P<pre>last|this\s+past|past|"
    r"this\s+coming|coming|this|next)\s+)?weekend" + R
)
def _en_weekend(m: re.Match[str], ctx: Ctx) -> Span | None:
    pre = words_of(m, "pre")
    if m.group(0).strip().lower() == "weekend":
        return None  # "a wedding weekend", "a long weekend": a kind of weekend, not a date
    if pre in ("last", "this past", "past"):
        return weekend(ctx, -1)
    if pre in ("this coming", "coming"):
        return weekend(ctx, 0 if ctx.today.weekday() < 5 else 1)
    return weekend(ctx, {"this": 0, "next": 1}.get(pre))


# ------------------------------------------------------- counted units: ago, later, last


@rule(L + EN_NUM + r"\s+" + EN_UNIT + r"\s+(?:ago|back)" + R)
def _en_ago(m: re.Match[str], ctx: Ctx) -> Span:
    return ago(ctx, en_count(m.group("n")), en_unit(m.group("u")))


@rule(
    L + r"(?:in\s+(?:about\s+|around\s+|another\s+)?" + EN_NUM + r"\s+" + EN_UNIT
    + r"(?!\s+ago)|" + EN_NUM.replace("<n>", "<n2>") + r"\s+"
    + EN_UNIT.replace("<u>", "<u2>") + r"\s+from\s+(?:now|today))" + R
)
def _en_later(m: re.Match[str], ctx: Ctx) -> Span:
    if m.group("n2"):
        return later(ctx, en_count(m.group("n2")), en_unit(m.group("u2")))
    return later(ctx, en_count(m.group("n")), en_unit(m.group("u")))


@rule(
    L + r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+)?(?:past|last|previous)\s+"
    + EN_NUM + r"\s+" + EN_UNIT + R
)
def _en_rolling(m: re.Match[str], ctx: Ctx) -> Span:
    return rolling_past(ctx, en_count(m.group("n")), en_unit(m.group("u")))


@rule(
    L + r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+past|the\s+last|past)\s+"
    r"(?P<u>minute|hour|day|week|month|year)" + R + NOT_OF
)
def _en_rolling_1(m: re.Match[str], ctx: Ctx) -> Span:
    return rolling_past(ctx, 1, en_unit(m.group("u")))


@rule(
    L + r"(?:(?:in|over|during|for|within)\s+)?(?:the\s+)?(?:next|coming|following)\s+"
    + EN_NUM + r"\s+" + EN_UNIT + R
    + r"|" + L + r"(?:in|over|during|within)\s+the\s+(?:next|coming)\s+"
    r"(?P<u1>hour|day|week|month|year)" + R
)
def _en_next_n(m: re.Match[str], ctx: Ctx) -> Span:
    if m.group("u1"):
        return rolling_next(ctx, 1, en_unit(m.group("u1")))
    return rolling_next(ctx, en_count(m.group("n")), en_unit(m.group("u")))


@rule(L + r"within\s+" + EN_NUM + r"\s+" + EN_UNIT + R)
def _en_within(m: re.Match[str], ctx: Ctx) -> Span:
    roll = rolling_next if ctx.future else rolling_past
    return roll(ctx, en_count(m.group("n")), en_unit(m.group("u")))


# ----------------------------------------------------------------------- months, years


@rule(
    L + r"(?:(?P<mod>earlier|later)\s+)?(?P<pre>last|this|next|coming|the\s+coming|previous|"
    r"the\s+previous)\s+(?P<u>month|year)" + R + NOT_OF
)
def _en_month_year_rel(m: re.Match[str], ctx: Ctx) -> Span:
    return unit_span(ctx, en_unit(m.group("u")), REL[words_of(m, "pre")])


@rule(L + r"the\s+(?P<u>month|year)\s+(?P<dir>before\s+last|after\s+next)" + R)
def _en_month_year_2(m: re.Match[str], ctx: Ctx) -> Span:
    k = -2 if words_of(m, "dir").startswith("before") else 2
    return unit_span(ctx, en_unit(m.group("u")), k)


@rule(
    L + r"(?:the\s+)?(?P<part>end|beginning|start|middle)\s+of\s+(?:the\s+|this\s+|"
    r"(?P<rel>next|last|previous)\s+)(?P<u>month|year)" + R
    + r"|" + L + r"(?P<u2>month|year)[-\s]end" + R
)
def _en_unit_part(m: re.Match[str], ctx: Ctx) -> Span:
    unit = en_unit(m.group("u") or m.group("u2"))
    part = EN_PART[words_of(m, "part")] if m.group("part") else "end"
    k = REL.get(words_of(m, "rel"), 0)
    if unit == "month":
        first = unit_start(ctx, "month", k)
        return part_span(ctx, first, add_months(first, 1), part)
    if part == "mid":
        return ctx.days(date(ctx.today.year + k, 6, 1), date(ctx.today.year + k, 8, 1))
    return year_span(ctx, ctx.today.year + k, part)


def _may_ok(m: re.Match[str], context: bool) -> bool:
    """Lower-case "may" is a verb unless something makes it a date."""
    token = m.group("mon")
    return token.lower() != "may" or token[0] == "M" or context


@rule(
    L + r"(?:(?P<pre>on|by|until|till)\s+)?(?:the\s+)?" + MON + r"\s*(?:the\s+)?"
    r"(?P<d>\d{1,2})(?P<sfx>st|nd|rd|th)?" + R + r"(?:,?\s*(?P<y>\d{4})(?!\d))?"
)
def _en_month_day(m: re.Match[str], ctx: Ctx) -> Span | None:
    return _en_date(m, ctx, bool(m.group("pre") or m.group("sfx") or m.group("y")))


@rule(
    L + r"(?:(?P<pre>on|by|until|till)\s+)?(?:the\s+)?(?P<d>\d{1,2})(?P<sfx>st|nd|rd|th)?"
    r"\s*(?P<of>of\s+)?" + MON + r"(?:,?\s*(?P<y>\d{4})(?!\d))?"
)
def _en_day_month(m: re.Match[str], ctx: Ctx) -> Span | None:
    context = m.group("pre") or m.group("sfx") or m.group("of") or m.group("y")
    return _en_date(m, ctx, bool(context))


def _en_date(m: re.Match[str], ctx: Ctx, context: bool) -> Span | None:
    if not _may_ok(m, context):
        return None
    month, day = MONTHS[m.group("mon").lower()], int(m.group("d"))
    year = int(m.group("y")) if m.group("y") else None
    if year is not None and 1900 <= year <= 2199:
        return ctx.one_day(date(year, month, day))
    return ctx.one_day(month_day(ctx, month, day))


@rule(
    L + r"(?:(?P<pre>in|during|by|until|till|of)\s+)?" + MON + r",?\s*(?P<y>\d{4})(?!\d)"
)
def _en_month_of_year(m: re.Match[str], ctx: Ctx) -> Span | None:
    if not _may_ok(m, bool(m.group("pre"))):
        return None
    return month_span(ctx, valid_year(int(m.group("y"))), MONTHS[m.group("mon").lower()])


@rule(
    L + r"(?:(?P<pre>in|during|until|till|by|last|this|next|throughout)[\s-]+)?"
    r"(?:(?P<part>early|mid|late)[\s-]+)?" + MON + R
)
def _en_month(m: re.Match[str], ctx: Ctx) -> Span | None:
    token, pre, part = m.group("mon"), words_of(m, "pre"), words_of(m, "part")
    name = token.lower().rstrip(".")
    since = SINCE_BEFORE.search(m.string, 0, m.start()) is not None
    bare = not (pre or part or since)
    if bare and (not token[0].isupper() or name not in BARE_MONTHS):
        return None  # a bare month must be capitalised, in full, and not a first name
    if name == "may" and token[0] == "m" and pre in ("this", "last", "next"):
        return None  # "this may be"
    month = MONTHS[name]
    rel = pre if pre in ("last", "this", "next") else None
    return month_span(ctx, month_year(ctx, month, rel), month, EN_PART.get(part))


_NOT_A_YEAR = (
    r"(?!\s*(?:%|percent|dollars?|bucks|euros?|yuan|usd|rmb|people|persons|times|items|"
    r"units|words|pages|meters?|metres?|km|miles?|pounds?|kg|steps|calories)(?![A-Za-z]))"
)


@rule(
    L + r"(?P<pre>in|during|by|until|till|of|around|circa|since|the\s+year|year|back\s+in)\s+"
    r"(?P<y>\d{4})(?![\d.,:]\d)" + R + _NOT_A_YEAR
)
def _en_year(m: re.Match[str], ctx: Ctx) -> Span:
    year = valid_year(int(m.group("y")))
    if words_of(m, "pre") == "since":
        return ctx.up_to_now(date(year, 1, 1))
    return year_span(ctx, year)


# --------------------------------------------------------------------------- holidays


@rule(
    L + r"(?:(?P<pre>last|this|next)\s+)?(?P<h>christmas\s+eve|christmas(?:\s+day)?|"
    r"new\s+year['’]?s\s+eve|new\s+year['’]?s(?:\s+day)?|valentine['’]?s(?:\s+day)?|halloween)"
    r"(?:,?\s+(?P<y>\d{4})(?!\d))?" + R
)
def _en_holiday(m: re.Match[str], ctx: Ctx) -> Span:
    words = words_of(m, "h").replace("'", "").replace("’", "").replace(" day", "")
    key = next(k for k in HOLIDAYS if k.replace("'", "") == words)
    year = valid_year(int(m.group("y"))) if m.group("y") else None
    return holiday(ctx, key, year, words_of(m, "pre") or None)


