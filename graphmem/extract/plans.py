"""Plans and their end: a plan said in an episode is remembered so that dropping it later
("I gave up on the half marathon", "考研我放弃了", "not anymore") negates that very plan;
``names_plan`` tells consolidation the same across episodes."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime, timedelta

from graphmem.extract.candidate import Context, Found, Part

# The kind of a negated plan that says a plan is done ("考完了", "back from Lisbon"): it ends
# the user's plan it names, and is not stored when they have none.
PLAN_END = "plan_end"


def plan(part: Part, value: str, negated: bool, ctx: Context, found: Found) -> None:
    """``value`` planned (or dropped) by the part's subjects; a plan for a time the part
    says (五一, 8月份, "on may 18", "next week") holds until that time is past."""
    if not value or part.subjects is None:
        return
    first = len(found.items)
    found.say(part, "plans_to", value, negated, 0.8)
    said = found.items[first:]
    if not negated and said and (until := plan_ends(part.text, said[0].observed_at)):
        found.items[first:] = [replace(c, valid_until=until) for c in said]
    if not negated and not part.hedged:
        ctx.plans.extend((s, value) for s in part.subjects)


# Holidays a plan is made for, and when they end (month, day): a plan for 五一 is over
# after 五一, done or not.
_HOLIDAYS = {"五一": (5, 6), "劳动节": (5, 6), "国庆": (10, 8), "十一": (10, 8), "暑假": (9, 1),
             "寒假": (3, 1), "中秋": (10, 8), "端午": (6, 20)}
_HOLIDAY = re.compile("|".join(_HOLIDAYS))
# Further ahead than this, a date said of a plan or an event is more likely misread.
HORIZON = timedelta(days=400)


def plan_ends(text: str, said_at: datetime) -> datetime | None:
    """When a plan said at ``said_at`` in ``text`` is no plan any more: the end of the time
    it is for (a holiday, a date, "next week"), when that is ahead and within a year or
    so; None when the text says no such time."""
    if m := _HOLIDAY.search(text):
        month, day = _HOLIDAYS[m.group(0)]
        until = said_at.replace(month=month, day=day, hour=0, minute=0, second=0,
                                microsecond=0)
        return until.replace(year=until.year + 1) if until <= said_at else until
    from graphmem.text.timeparse import resolve_date

    mention = resolve_date(text, said_at)
    if mention is not None and said_at < mention.end and mention.end - said_at < HORIZON:
        return mention.end
    return None


_ASIDE = re.compile(r"(?:的事情?|这件事|这事|的计划|的打算|这个计划)$")
_FILLER = frozenset({"the", "a", "an", "my", "our", "that", "this"})


def names_plan(said: str, plan: str) -> bool:
    """Does a drop's wording ("the half marathon", "Yellowstone trip", 驾照的事) name
    ``plan`` ("run a half marathon", "do a road trip to Yellowstone", 去考驾照)?"""
    said = _ASIDE.sub("", said.strip().lower())
    plan = plan.strip().lower()
    words = set(re.findall(r"[\w\u4e00-\u9fff]+", said)) - _FILLER
    have = set(re.findall(r"[\w\u4e00-\u9fff]+", plan))
    return bool(words) and (words <= have or said in plan or plan in said)


def dropped(said: str, part: Part, ctx: Context) -> str:
    """The plan a drop names: the episode's own plan sharing its words ("the half
    marathon" → "run a half marathon"), else the words said."""
    for entity, value in reversed(ctx.plans):
        if part.subjects and entity not in part.subjects:
            continue
        if names_plan(said, value):
            return value
    return _ASIDE.sub("", said)
