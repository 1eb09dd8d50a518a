"""Chinese time expressions: 昨天, 上周三, 三天前, 最近三天, 下个月底, 去年, 国庆."""

from __future__ import annotations

import re
from datetime import date, timedelta

from graphmem.text.timeparse.calendar import (
    DAY,
    FUZZY,
    HOLIDAYS,
    Ctx,
    Span,
    add_months,
    ago,
    bare_weekday,
    holiday,
    later,
    month_day,
    month_span,
    month_year,
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
    CN_COUNTING,
    CN_NOT_AFTER_NUM,
    CN_NUM,
    CN_PART,
    CN_REL,
    CN_UNIT,
    CN_WEEKDAY,
    cn_count,
    cn_int,
    cn_unit,
)
from graphmem.text.timeparse.scan import rule

_CN_DAY_OFFSETS = {"大前": -3, "前": -2, "昨": -1, "今": 0, "明": 1, "后": 2, "後": 2,
                   "大后": 3, "大後": 3}


@rule(
    r"(?P<w>大前天|(?<![之以提目当眼面跟生从從向事空])前天|昨天|昨日|昨儿个?|昨晚|昨夜|"
    r"今天|今日|今儿个?|今早|今晚|今夜|明天|明日|明儿个?|明早|明晚|大后天|大後天|"
    r"(?<![之以然最落先午])(?:后天|後天))"
    r"(?:早上|早晨|上午|中午|下午|傍晚|晚上|夜里|夜裡|早些时候|早些時候)?"
)
def _cn_day(m: re.Match[str], ctx: Ctx) -> Span:
    word = m.group("w")
    key = next(k for k in sorted(_CN_DAY_OFFSETS, key=len, reverse=True) if word.startswith(k))
    d = ctx.today + timedelta(days=_CN_DAY_OFFSETS[key])
    return ctx.days(d, d + DAY, clip=d == ctx.today)


# ------------------------------------------------------------------------------ weeks


@rule(
    r"(?P<pre>上上|上|这|這|本|下下|下)(?:一个|一個|个|個|一)?(?:周|週|星期|礼拜|禮拜)"
    r"(?![末年围圍边邊期刊])"
)
def _cn_week(m: re.Match[str], ctx: Ctx) -> Span:
    return unit_span(ctx, "week", CN_REL[m.group("pre")])


@rule(
    r"(?:(?P<pre>上上|上|这|這|本|下下|下)(?:个|個)?)?(?:周|週|星期|礼拜|禮拜)"
    r"(?P<d>[一二三四五六日天1-7１-７])(?![次遍回趟\d])"
)
def _cn_weekday(m: re.Match[str], ctx: Ctx) -> Span | None:
    d = m.group("d")
    weekday = CN_WEEKDAY[d] if d in CN_WEEKDAY else int(d) - 1
    pre = m.group("pre")
    if pre is not None:
        return ctx.one_day(ctx.monday + timedelta(weeks=CN_REL[pre], days=weekday))
    if m.start() > 0 and m.string[m.start() - 1] in CN_COUNTING:
        return None  # 每周三 (every Wednesday), 一周一次 (once a week)
    return ctx.one_day(bare_weekday(ctx, weekday))


@rule(r"(?:(?P<pre>上上|上|这|這|本|下下|下)(?:个|個)?)?(?:周末|週末)")
def _cn_weekend(m: re.Match[str], ctx: Ctx) -> Span | None:
    pre = m.group("pre")
    if pre is None and m.start() > 0 and m.string[m.start() - 1] in "每个個":
        return None
    return weekend(ctx, None if pre is None else CN_REL[pre])


# ------------------------------------------------------- counted units: ago, later, last


@rule(CN_NOT_AFTER_NUM + CN_NUM + r"多?" + CN_UNIT + r"多?(?:之前|以前|前)")
def _cn_ago(m: re.Match[str], ctx: Ctx) -> Span:
    return ago(ctx, cn_count(m.group("n")), cn_unit(m.group("u")))


@rule(r"前(?:几|幾|两|兩)(?P<u>天|周|週|个星期|個星期|个月|個月|年)")
def _cn_few_ago(m: re.Match[str], ctx: Ctx) -> Span:
    return ago(ctx, FUZZY, cn_unit(m.group("u")))  # 前几天, 前两天: a few days ago


@rule(
    CN_NOT_AFTER_NUM + CN_NUM + r"多?" + CN_UNIT + r"多?(?:之后|之後|以后|以後|后|後)"
    r"|[过過](?P<n2>几|幾|两|兩|[一三四五六七八九十]{1,2})(?P<u2>天|个星期|個星期|周|週|个月|個月|年)"
)
def _cn_later(m: re.Match[str], ctx: Ctx) -> Span:
    if m.group("n2"):
        return later(ctx, cn_count(m.group("n2")), cn_unit(m.group("u2")))
    return later(ctx, cn_count(m.group("n")), cn_unit(m.group("u")))


@rule(
    r"(?P<pre>最近|过去|過去|近|这|這)的?" + CN_NUM + r"多?" + CN_UNIT
    + r"(?:以来|以來|里|裡|之内|之內|以内|以內|内|內)?"
)
def _cn_rolling(m: re.Match[str], ctx: Ctx) -> Span | None:
    n, unit = cn_count(m.group("n")), cn_unit(m.group("u"))
    if m.group("pre") in "这這" and n == 1 and unit in ("week", "month"):
        return None  # 这一周, 这一个月: the calendar week/month
    return rolling_past(ctx, n, unit)


@rule(CN_NOT_AFTER_NUM + CN_NUM + CN_UNIT + r"(?:之内|之內|以内|以內|内|內)")
def _cn_within(m: re.Match[str], ctx: Ctx) -> Span:
    roll = rolling_next if ctx.future else rolling_past
    return roll(ctx, cn_count(m.group("n")), cn_unit(m.group("u")))


# ----------------------------------------------------------------------- months, years


@rule(
    r"(?P<pre>上上|上|这|這|本|下下|下)(?:一个|一個|个|個|一)?月份?"
    r"(?:(?P<d>\d{1,2}|[一二三四五六七八九十廿卅]{1,3})(?:日|号|號)|(?P<part>底|末|初|上旬|中旬|下旬))?"
)
def _cn_month(m: re.Match[str], ctx: Ctx) -> Span:
    k = CN_REL[m.group("pre")]
    first = unit_start(ctx, "month", k)
    if m.group("d"):
        return ctx.one_day(first.replace(day=cn_int(m.group("d"))))
    if m.group("part"):
        return part_span(ctx, first, add_months(first, 1), CN_PART[m.group("part")])
    return unit_span(ctx, "month", k)


@rule(r"(?<![每\d零〇一二两兩三四五六七八九十个個上下这這本])月(?P<part>底|末|初)")
def _cn_month_part(m: re.Match[str], ctx: Ctx) -> Span:
    first = unit_start(ctx, "month", 0)
    return part_span(ctx, first, add_months(first, 1), CN_PART[m.group("part")])


@rule(
    r"(?<![\d〇零一二三四五六七八九十两兩个個每几幾上下这這本第])"
    r"(?:(?P<y>\d{4}|[〇零一二三四五六七八九]{4})年)?"
    r"(?P<m>\d{1,2}|十[一二]?|[一二三四五六七八九])月份?"
    r"(?:(?P<d>\d{1,2}|[一二三四五六七八九十廿卅]{1,3})(?:日|号|號)|(?P<part>底|末|初|上旬|中旬|下旬))?"
)
def _cn_date(m: re.Match[str], ctx: Ctx) -> Span | None:
    month = cn_int(m.group("m"))
    if not 1 <= month <= 12:
        return None
    year = valid_year(cn_int(m.group("y"))) if m.group("y") else None
    part = CN_PART[m.group("part")] if m.group("part") else None
    if m.group("d"):
        day = cn_int(m.group("d"))
        if year is not None:
            return ctx.one_day(date(year, month, day))
        return ctx.one_day(month_day(ctx, month, day))
    if year is None and _CN_TIMES.match(m.string, m.end()):
        return None  # 一月一次 (once a month)
    return month_span(ctx, month_year(ctx, month) if year is None else year, month, part)


_CN_TIMES = re.compile(r"[一二两兩三四五六七八九十几幾\d]*[次回遍趟]")
_CN_YEAR_OFFSETS = {"大前": -3, "前": -2, "去": -1, "今": 0, "明": 1, "后": 2, "後": 2,
                    "大后": 3, "大後": 3}


@rule(
    r"(?P<pre>大前|(?<![之以提目当眼面从從])前|(?<![过過])去|今|明|大后|大後|"
    r"(?<![之以然最落先午])(?:后|後))年(?!级|級|纪|紀|龄|齡|轻|輕)(?P<part>底|末|初)?"
)
def _cn_year(m: re.Match[str], ctx: Ctx) -> Span:
    k = _CN_YEAR_OFFSETS[m.group("pre")]
    part = CN_PART[m.group("part")] if m.group("part") else None
    if part is None:
        return unit_span(ctx, "year", k)
    return year_span(ctx, ctx.today.year + k, part)


@rule(r"(?<![\d〇零一二两兩三四五六七八九十百几幾每个個多半今去明前后後])年(?P<part>底|末|初)")
def _cn_year_part(m: re.Match[str], ctx: Ctx) -> Span:
    return year_span(ctx, ctx.today.year, CN_PART[m.group("part")])  # 年底: this year's


@rule(r"(?<![\d〇零一二三四五六七八九])(?P<y>\d{4}|[〇零一二三四五六七八九]{4})年度?(?P<part>底|末|初)?")
def _cn_year_abs(m: re.Match[str], ctx: Ctx) -> Span:
    part = CN_PART[m.group("part")] if m.group("part") else None
    return year_span(ctx, valid_year(cn_int(m.group("y"))), part)




@rule(
    r"(?:(?P<pre>前年|去年|今年|明年)的?|(?P<y>\d{4})年的?)?"
    r"(?P<h>(?:圣诞|聖誕)(?!老人)节?節?|平安夜|元旦|情人节|情人節|国庆节?|國慶節?|劳动节|勞動節|万圣节|萬聖節)"
)
def _cn_holiday(m: re.Match[str], ctx: Ctx) -> Span:
    key = next(k for k in HOLIDAYS if m.group("h").startswith(k))
    year = valid_year(int(m.group("y"))) if m.group("y") else None
    if m.group("pre"):
        year = ctx.today.year + {"前年": -2, "去年": -1, "今年": 0, "明年": 1}[m.group("pre")]
    return holiday(ctx, key, year, None)
