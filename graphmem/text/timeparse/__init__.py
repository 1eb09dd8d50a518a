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

from dataclasses import dataclass
from datetime import datetime

from graphmem._models import TimeWindow

# the rules register themselves, in this order, when their modules are imported
from graphmem.text.timeparse import chinese, common, english  # noqa: F401
from graphmem.text.timeparse.calendar import DAY, new_context
from graphmem.text.timeparse.scan import scan

__all__ = ["DateMention", "TimeWindow", "resolve_date", "resolve_window"]


@dataclass(frozen=True)
class DateMention:
    """A day or day range mentioned in a statement: ``[start, end)`` at local midnights."""

    start: datetime  # start of the day/range, tz of ref
    end: datetime  # exclusive end (start + 1 day for a single day)
    expression: str


def resolve_window(text: str, now: datetime) -> TimeWindow | None:
    """The window of the first time hint in a question, or None if there is none."""
    ctx = new_context(now, future=False)
    for expression, span in scan(text, ctx):
        if span.start is None or span.end is None:
            return TimeWindow(since=None, until=now, expression=expression)
        until = min(span.end, now) if span.clip else span.end
        if span.start <= until:
            return TimeWindow(since=span.start, until=until, expression=expression)
    return None


def resolve_date(text: str, ref: datetime) -> DateMention | None:
    """The day (range) of the first concrete date in a statement, or None."""
    ctx = new_context(ref, future=True)
    for expression, span in scan(text, ctx):
        if span.start is None or span.end is None:
            continue  # "last time": no date to plan around
        try:
            first = span.start.date()
            start = ctx.day(first)
            last = span.end.date()
            end = ctx.day(last) if ctx.day(last) == span.end else ctx.day(last + DAY)
            if end <= start:
                end = ctx.day(first + DAY)
        except (ValueError, OverflowError):
            continue
        return DateMention(start, end, expression)
    return None
