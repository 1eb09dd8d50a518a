"""Time hints → concrete windows (questions) and dates (statements). Pure, no server needed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graphmem.text.timeparse import DateMention, TimeWindow, resolve_date, resolve_window

NOW = datetime(2025, 1, 19, 15, 0, tzinfo=UTC)  # a Sunday
REF = datetime(2025, 1, 12, 16, 30, tzinfo=UTC)  # a Sunday


def d(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> datetime:
    return datetime(year, month, day, hour, minute, tzinfo=UTC)


def window(text: str, now: datetime = NOW) -> tuple[datetime | None, datetime | None]:
    found = resolve_window(text, now)
    assert found is not None, text
    assert found.expression and found.expression in text
    return found.since, found.until


def mention(text: str, ref: datetime = REF) -> tuple[datetime, datetime]:
    found = resolve_date(text, ref)
    assert found is not None, text
    assert found.expression and found.expression in text
    return found.start, found.end


def day_of(year: int, month: int, day: int) -> tuple[datetime, datetime]:
    return d(year, month, day), d(year, month, day) + timedelta(days=1)


# ------------------------------------------------------------------- resolve_window

WINDOWS: list[tuple[str, tuple[datetime | None, datetime | None]]] = [
    # days
    ("昨天我吃了什么", day_of(2025, 1, 18)),
    ("what did I eat yesterday?", day_of(2025, 1, 18)),
    ("前天去了哪里", day_of(2025, 1, 17)),
    ("what about the day before yesterday", day_of(2025, 1, 17)),
    ("大前天", day_of(2025, 1, 16)),
    ("今天聊了什么", (d(2025, 1, 19), NOW)),
    ("what did I say today", (d(2025, 1, 19), NOW)),
    ("you mentioned it earlier today", (d(2025, 1, 19), NOW)),
    ("今天早些时候我说了什么", (d(2025, 1, 19), NOW)),
    ("this morning", (d(2025, 1, 19), NOW)),
    ("刚才说的那个", (d(2025, 1, 19, 13), NOW)),
    ("刚刚那个链接", (d(2025, 1, 19, 13), NOW)),
    ("what did I say just now", (d(2025, 1, 19, 13), NOW)),
    ("the thing from a moment ago", (d(2025, 1, 19, 13), NOW)),
    # weeks
    ("上周我见了谁", (d(2025, 1, 6), d(2025, 1, 13))),
    ("who did I meet last week", (d(2025, 1, 6), d(2025, 1, 13))),
    ("上个星期", (d(2025, 1, 6), d(2025, 1, 13))),
    ("上上周", (d(2024, 12, 30), d(2025, 1, 6))),
    ("the week before last", (d(2024, 12, 30), d(2025, 1, 6))),
    ("这周", (d(2025, 1, 13), NOW)),
    ("本周的会议", (d(2025, 1, 13), NOW)),
    ("this week", (d(2025, 1, 13), NOW)),
    ("earlier this week", (d(2025, 1, 13), NOW)),
    ("这一周", (d(2025, 1, 13), NOW)),
    # weekdays (rules documented in graphmem.text.timeparse)
    ("上周三我吃了什么", day_of(2025, 1, 8)),
    ("上星期三", day_of(2025, 1, 8)),
    ("上个礼拜三", day_of(2025, 1, 8)),
    ("上周日", day_of(2025, 1, 12)),
    ("what did I eat last Wednesday", day_of(2025, 1, 15)),
    ("this past Wednesday", day_of(2025, 1, 15)),
    ("Wednesday last week", day_of(2025, 1, 8)),
    ("周三", day_of(2025, 1, 15)),
    ("星期三我在干嘛", day_of(2025, 1, 15)),
    ("礼拜三", day_of(2025, 1, 15)),
    ("星期天", day_of(2025, 1, 12)),  # today is Sunday: the previous one
    ("what did we do on Wednesday", day_of(2025, 1, 15)),
    ("Friday", day_of(2025, 1, 17)),
    ("本周三", day_of(2025, 1, 15)),
    ("this Wednesday", day_of(2025, 1, 15)),
    ("下周三", day_of(2025, 1, 22)),
    # weekends
    ("last weekend", (d(2025, 1, 11), d(2025, 1, 13))),
    ("上周末", (d(2025, 1, 11), d(2025, 1, 13))),
    ("周末干了什么", (d(2025, 1, 18), NOW)),  # a weekend day: this weekend so far
    ("over the weekend", (d(2025, 1, 18), NOW)),
    # N days/weeks/months/years ago: the single day / calendar unit
    ("三天前", day_of(2025, 1, 16)),
    ("3天前", day_of(2025, 1, 16)),
    ("3 days ago", day_of(2025, 1, 16)),
    ("three days ago", day_of(2025, 1, 16)),
    ("三天之前", day_of(2025, 1, 16)),
    ("两周前", (d(2024, 12, 30), d(2025, 1, 6))),
    ("2 weeks ago", (d(2024, 12, 30), d(2025, 1, 6))),
    ("a week ago", (d(2025, 1, 6), d(2025, 1, 13))),
    ("3个月前", (d(2024, 10, 1), d(2024, 11, 1))),
    ("三个月前", (d(2024, 10, 1), d(2024, 11, 1))),
    ("三个多月前", (d(2024, 10, 1), d(2024, 11, 1))),
    ("3 months ago", (d(2024, 10, 1), d(2024, 11, 1))),
    ("一年前", (d(2024, 1, 1), d(2025, 1, 1))),
    ("two years ago", (d(2023, 1, 1), d(2024, 1, 1))),
    ("半年前", (d(2024, 7, 1), d(2024, 8, 1))),
    ("2 hours ago", (d(2025, 1, 19, 12), d(2025, 1, 19, 14))),
    ("两个小时前", (d(2025, 1, 19, 12), d(2025, 1, 19, 14))),
    ("10 minutes ago", (d(2025, 1, 19, 13, 50), NOW)),
    ("a few days ago", (d(2025, 1, 13), d(2025, 1, 19))),
    ("前几天", (d(2025, 1, 13), d(2025, 1, 19))),
    ("几天前", (d(2025, 1, 13), d(2025, 1, 19))),
    # rolling ranges up to now
    ("最近三天", (d(2025, 1, 16), NOW)),
    ("最近3天", (d(2025, 1, 16), NOW)),
    ("过去三天", (d(2025, 1, 16), NOW)),
    ("近三天", (d(2025, 1, 16), NOW)),
    ("这三天", (d(2025, 1, 16), NOW)),
    ("这两天", (d(2025, 1, 17), NOW)),
    ("这几天", (d(2025, 1, 16), NOW)),
    ("三天内", (d(2025, 1, 16), NOW)),
    ("last 3 days", (d(2025, 1, 16), NOW)),
    ("past 3 days", (d(2025, 1, 16), NOW)),
    ("in the last three days", (d(2025, 1, 16), NOW)),
    ("over the past few days", (d(2025, 1, 16), NOW)),
    ("最近两周", (d(2025, 1, 5), NOW)),
    ("the past 2 weeks", (d(2025, 1, 5), NOW)),
    ("the past week", (d(2025, 1, 12), NOW)),
    ("过去一个月", (d(2024, 12, 19), NOW)),
    ("the past month", (d(2024, 12, 19), NOW)),
    ("最近半年", (d(2024, 7, 19), NOW)),
    ("last 5 hours", (d(2025, 1, 19, 10), NOW)),
    ("最近", (d(2024, 12, 20), NOW)),
    ("what have I been reading recently", (d(2024, 12, 20), NOW)),
    ("lately", (d(2024, 12, 20), NOW)),
    # months and years
    ("上个月", (d(2024, 12, 1), d(2025, 1, 1))),
    ("上月", (d(2024, 12, 1), d(2025, 1, 1))),
    ("last month", (d(2024, 12, 1), d(2025, 1, 1))),
    ("上上个月", (d(2024, 11, 1), d(2024, 12, 1))),
    ("这个月", (d(2025, 1, 1), NOW)),
    ("本月", (d(2025, 1, 1), NOW)),
    ("this month", (d(2025, 1, 1), NOW)),
    ("上个月5号", day_of(2024, 12, 5)),
    ("上个月底", (d(2024, 12, 21), d(2025, 1, 1))),
    ("去年", (d(2024, 1, 1), d(2025, 1, 1))),
    ("last year", (d(2024, 1, 1), d(2025, 1, 1))),
    ("前年", (d(2023, 1, 1), d(2024, 1, 1))),
    ("今年", (d(2025, 1, 1), NOW)),
    ("this year", (d(2025, 1, 1), NOW)),
    ("去年底", (d(2024, 12, 1), d(2025, 1, 1))),
    ("明年初", (d(2026, 1, 1), d(2026, 3, 1))),
    # explicit dates: the most recent one not after now
    ("on May 3", day_of(2024, 5, 3)),
    ("May 3rd", day_of(2024, 5, 3)),
    ("3 May", day_of(2024, 5, 3)),
    ("the 3rd of May", day_of(2024, 5, 3)),
    ("on may 3rd", day_of(2024, 5, 3)),
    ("5月3日", day_of(2024, 5, 3)),
    ("5月3号", day_of(2024, 5, 3)),
    ("五月三日", day_of(2024, 5, 3)),
    ("５月３日", day_of(2024, 5, 3)),
    ("Jan 5", day_of(2025, 1, 5)),
    ("1月19日", day_of(2025, 1, 19)),  # today counts as "not after now"
    ("Feb 29", day_of(2024, 2, 29)),
    ("May 3, 2023", day_of(2023, 5, 3)),
    ("2023年5月3日", day_of(2023, 5, 3)),
    ("2023-05-03", day_of(2023, 5, 3)),
    ("2024/12/25", day_of(2024, 12, 25)),
    ("12月25号", day_of(2024, 12, 25)),
    ("Christmas", day_of(2024, 12, 25)),
    ("去年圣诞节", day_of(2024, 12, 25)),
    # months: the most recent one (the current month counts)
    ("in March", (d(2024, 3, 1), d(2024, 4, 1))),
    ("what did I do in March?", (d(2024, 3, 1), d(2024, 4, 1))),
    ("March", (d(2024, 3, 1), d(2024, 4, 1))),
    ("in march", (d(2024, 3, 1), d(2024, 4, 1))),
    ("in May", (d(2024, 5, 1), d(2024, 6, 1))),
    ("January", (d(2025, 1, 1), d(2025, 2, 1))),
    ("last March", (d(2024, 3, 1), d(2024, 4, 1))),
    ("mid-March", (d(2024, 3, 11), d(2024, 3, 21))),
    ("3月", (d(2024, 3, 1), d(2024, 4, 1))),
    ("三月", (d(2024, 3, 1), d(2024, 4, 1))),
    ("3月份", (d(2024, 3, 1), d(2024, 4, 1))),
    ("十二月", (d(2024, 12, 1), d(2025, 1, 1))),
    ("May 2023", (d(2023, 5, 1), d(2023, 6, 1))),
    ("in May 2023", (d(2023, 5, 1), d(2023, 6, 1))),
    ("2023年5月", (d(2023, 5, 1), d(2023, 6, 1))),
    ("in 2023", (d(2023, 1, 1), d(2024, 1, 1))),
    ("2023年", (d(2023, 1, 1), d(2024, 1, 1))),
    ("二〇二三年", (d(2023, 1, 1), d(2024, 1, 1))),
    # "since X" / "X以来" stretch to now
    ("since Monday", (d(2025, 1, 13), NOW)),
    ("since 2023", (d(2023, 1, 1), NOW)),
    ("上周以来", (d(2025, 1, 6), NOW)),
    # future words in a question still resolve literally
    ("明天有什么安排", day_of(2025, 1, 20)),
    ("tomorrow", day_of(2025, 1, 20)),
    ("next week", (d(2025, 1, 20), d(2025, 1, 27))),
]


@pytest.mark.parametrize(("text", "expected"), WINDOWS, ids=[t for t, _ in WINDOWS])
def test_resolve_window(text: str, expected: tuple[datetime | None, datetime | None]) -> None:
    assert window(text) == expected


VAGUE = [
    "上次我们聊到哪了", "那次旅行", "那回", "我之前说过", "以前", "上一次",
    "最近一次去医院是什么时候",
    "what did we talk about last time", "the last time we met", "the other day",
    "as I said previously", "have we talked about this before?", "you said earlier that",
    "a while ago", "back then",
]


@pytest.mark.parametrize("text", VAGUE)
def test_vague_hints_keep_the_whole_past(text: str) -> None:
    found = resolve_window(text, NOW)
    assert found is not None
    assert (found.since, found.until) == (None, NOW)
    assert found.expression in text


NOT_TIME = [
    "我女朋友喜欢什么花", "what's my budget", "I usually prefer tea", "todays special",
    "may I ask what my budget is", "May I ask something?", "you may 3D print it",
    "this may be wrong", "give me a sec", "the second option", "let's march on",
    "June likes roses", "April said hi", "I need 3 days to finish", "I work 5 days a week",
    "in 1000 ways", "I paid 2023 dollars", "最近的超市在哪", "一周一次", "每周三游泳",
    "这周围有什么",
    "一月一次", "十三月", "每个周末", "I go swimming on Wednesdays", "before the meeting",
    "how do I recover from a wedding weekend", "a long weekend away",
    "", "   ", "🙂",
]


@pytest.mark.parametrize("text", NOT_TIME)
def test_no_false_positives(text: str) -> None:
    assert resolve_window(text, NOW) is None
    assert resolve_date(text, REF) is None


def test_first_hint_wins_and_longest_at_same_start() -> None:
    found = resolve_window("上周三和昨天", NOW)
    assert found == TimeWindow(since=d(2025, 1, 8), until=d(2025, 1, 9), expression="上周三")
    found = resolve_window("yesterday, not last week", NOW)
    assert found is not None and found.expression == "yesterday"
    found = resolve_window("这周三次", NOW)  # three times this week
    assert found == TimeWindow(since=d(2025, 1, 13), until=NOW, expression="这周")


def test_day_boundaries_follow_now_timezone() -> None:
    shanghai = ZoneInfo("Asia/Shanghai")
    now = datetime(2025, 1, 19, 1, 0, tzinfo=shanghai)  # still Saturday in UTC
    found = resolve_window("昨天", now)
    assert found is not None
    assert found.since == datetime(2025, 1, 18, tzinfo=shanghai)
    assert found.until == datetime(2025, 1, 19, tzinfo=shanghai)


def test_dst_day_is_23_hours() -> None:
    ny = ZoneInfo("America/New_York")
    now = datetime(2025, 3, 10, 12, 0, tzinfo=ny)
    found = resolve_window("yesterday", now)
    assert found is not None and found.since is not None and found.until is not None
    assert found.since.utcoffset() == timedelta(hours=-5)
    assert found.until.utcoffset() == timedelta(hours=-4)
    assert found.until.astimezone(UTC) - found.since.astimezone(UTC) == timedelta(hours=23)


def test_naive_now_is_rejected() -> None:
    with pytest.raises(ValueError):
        resolve_window("yesterday", datetime(2025, 1, 19))
    with pytest.raises(ValueError):
        resolve_date("tomorrow", datetime(2025, 1, 19))


# --------------------------------------------------------------------- resolve_date

DATES: list[tuple[str, tuple[datetime, datetime]]] = [
    ("帮我规划下周三的生日聚会", day_of(2025, 1, 15)),
    ("下星期三", day_of(2025, 1, 15)),
    ("plan a party next Wednesday", day_of(2025, 1, 15)),
    ("submit the report by Friday", day_of(2025, 1, 17)),
    ("周五交报告", day_of(2025, 1, 17)),
    ("on Sunday", day_of(2025, 1, 12)),  # today counts for a bare weekday in a plan
    ("this coming Sunday", day_of(2025, 1, 19)),
    ("this Wednesday", day_of(2025, 1, 15)),
    ("本周三", day_of(2025, 1, 8)),  # literal: Wednesday of ref's week
    ("本月底前完成", day_of(2025, 1, 31)),
    ("月底", day_of(2025, 1, 31)),
    ("这个月底", day_of(2025, 1, 31)),
    ("by the end of this month", day_of(2025, 1, 31)),
    ("end of the month", day_of(2025, 1, 31)),
    ("下个月底", day_of(2025, 2, 28)),
    ("年底", day_of(2025, 12, 31)),
    ("by the end of the year", day_of(2025, 12, 31)),
    ("明天", day_of(2025, 1, 13)),
    ("tomorrow morning", day_of(2025, 1, 13)),
    ("后天", day_of(2025, 1, 14)),
    ("the day after tomorrow", day_of(2025, 1, 14)),
    ("大后天", day_of(2025, 1, 15)),
    ("今天", day_of(2025, 1, 12)),
    ("下个月", (d(2025, 2, 1), d(2025, 3, 1))),
    ("next month", (d(2025, 2, 1), d(2025, 3, 1))),
    ("下周", (d(2025, 1, 13), d(2025, 1, 20))),
    ("next week", (d(2025, 1, 13), d(2025, 1, 20))),
    ("明年", (d(2026, 1, 1), d(2027, 1, 1))),
    ("this weekend", day_of(2025, 1, 12)),  # Sunday: what is left of it
    ("下周末", (d(2025, 1, 18), d(2025, 1, 20))),
    ("on March 3", day_of(2025, 3, 3)),
    ("3月3日", day_of(2025, 3, 3)),
    ("1月5日", day_of(2026, 1, 5)),  # already past this year
    ("Jan 12", day_of(2025, 1, 12)),  # today counts
    ("Feb 29", day_of(2028, 2, 29)),
    ("in March", (d(2025, 3, 1), d(2025, 4, 1))),
    ("March 3, 2024", day_of(2024, 3, 3)),
    ("in two weeks", day_of(2025, 1, 26)),
    ("两周后", day_of(2025, 1, 26)),
    ("三天后", day_of(2025, 1, 15)),
    ("3 days from now", day_of(2025, 1, 15)),
    ("in a month", day_of(2025, 2, 12)),
    ("一个月后", day_of(2025, 2, 12)),
    ("过两天再说", day_of(2025, 1, 14)),
    ("in a few days", (d(2025, 1, 14), d(2025, 1, 19))),
    ("三天内完成", (d(2025, 1, 12), d(2025, 1, 16))),
    ("within 3 days", (d(2025, 1, 12), d(2025, 1, 16))),
    ("in the next 3 days", (d(2025, 1, 12), d(2025, 1, 16))),
    ("in 2 hours", day_of(2025, 1, 12)),
    ("2025-02-01", day_of(2025, 2, 1)),
    ("Christmas", day_of(2025, 12, 25)),
    ("元旦", day_of(2026, 1, 1)),
    # past expressions in a statement still resolve
    ("昨天见了Alice", day_of(2025, 1, 11)),
    ("最近三天", (d(2025, 1, 9), d(2025, 1, 13))),
]


@pytest.mark.parametrize(("text", "expected"), DATES, ids=[t for t, _ in DATES])
def test_resolve_date(text: str, expected: tuple[datetime, datetime]) -> None:
    assert mention(text) == expected


def test_resolve_date_returns_dataclass_with_expression() -> None:
    assert resolve_date("帮我规划下周三的生日聚会", REF) == DateMention(
        d(2025, 1, 15), d(2025, 1, 16), "下周三"
    )


def test_next_weekday_is_the_following_week() -> None:
    monday = datetime(2025, 1, 13, 9, 0, tzinfo=UTC)
    assert mention("next Wednesday", monday) == day_of(2025, 1, 22)
    assert mention("下周三", monday) == day_of(2025, 1, 22)
    assert mention("this coming Wednesday", monday) == day_of(2025, 1, 15)
    assert mention("Wednesday", monday) == day_of(2025, 1, 15)


def test_statement_skips_vague_hints() -> None:
    assert resolve_date("上次说的事", REF) is None
    assert resolve_date("as I said last time, let's meet tomorrow", REF) == DateMention(
        d(2025, 1, 13), d(2025, 1, 14), "tomorrow"
    )


def test_date_uses_ref_timezone() -> None:
    shanghai = ZoneInfo("Asia/Shanghai")
    ref = datetime(2025, 1, 12, 23, 30, tzinfo=shanghai)
    found = resolve_date("明天", ref)
    assert found is not None
    assert found.start == datetime(2025, 1, 13, tzinfo=shanghai)
    assert found.end == datetime(2025, 1, 14, tzinfo=shanghai)


# ----------------------------------------------------------------------- robustness

TOKENS = [
    "上", "下", "这", "本", "周", "星期", "礼拜", "一", "三", "日", "天", "月", "年", "号", "前",
    "后", "内", "以来", "最近", "过去", "几", "两", "半", "个", "多", "昨", "今", "明", "刚才",
    "次",
    "May ", "may ", "in ", "last ", "next ", "this ", "ago ", "days ", "week ", "Wednesday ",
    "3rd ", "of ", "since ", "2023 ", "9999 ", "0 ", "31 ", "Feb 29 ", "the ", "past ", "few ",
    "a ", "hours ", "half a ", "-", "/", "12", "5", " ",
]
NOWS = st.sampled_from([
    NOW,
    datetime(1, 1, 1, tzinfo=UTC),
    datetime(9999, 12, 31, 23, 59, tzinfo=UTC),
    datetime(2025, 3, 9, 3, 30, tzinfo=ZoneInfo("America/New_York")),
    datetime(2024, 2, 29, 0, 0, tzinfo=timezone(timedelta(hours=14))),
])


def _check(text: str, now: datetime) -> None:
    found = resolve_window(text, now)
    if found is not None:
        assert found.until is not None
        assert found.since is None or found.since <= found.until
        assert found.expression in text
    mentioned = resolve_date(text, now)
    if mentioned is not None:
        assert mentioned.start < mentioned.end
        assert mentioned.start.tzinfo is not None
        assert mentioned.expression in text


@settings(max_examples=150, deadline=None, database=None)
@given(st.text(), NOWS)
def test_never_raises_on_arbitrary_text(text: str, now: datetime) -> None:
    _check(text, now)


@settings(max_examples=150, deadline=None, database=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=10).map("".join), NOWS)
def test_never_raises_on_time_like_text(text: str, now: datetime) -> None:
    _check(text, now)


@pytest.mark.parametrize(("traditional", "simplified"), [
    ("我上個月去了哪裡", "我上个月去了哪里"),
    ("三週前買的那雙鞋", "三周前买的那双鞋"),
    ("去年聖誕節送了什麼", "去年圣诞节送了什么"),
])
def test_a_question_in_traditional_characters_has_the_same_window(traditional, simplified):
    now = datetime(2025, 6, 15, 12, tzinfo=UTC)
    window = resolve_window(traditional, now)
    expected = resolve_window(simplified, now)
    assert expected is not None and window is not None
    assert (window.since, window.until) == (expected.since, expected.until)


@pytest.mark.parametrize(("text", "offset"), [
    ("granville island tmrw", 1), ("we go tmr night", 1), ("see u 2moro", 1),
    ("tomoz we're off", 1), ("yday was rough", -1), ("gig tonite", 0)])
def test_days_as_chat_types_them(text: str, offset: int) -> None:
    mention = resolve_date(text, NOW)
    day = (NOW + timedelta(days=offset)).replace(hour=0, minute=0)
    assert mention is not None and mention.start == day
