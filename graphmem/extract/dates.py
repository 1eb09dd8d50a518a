"""Dates and deadlines of events and deliverables, in both languages.

"My wedding is on June 12, 2027" → (wedding, date, 2027-06-12); "论文2027年4月30号截止" →
(论文, deadline, 2027-04-30). A date is read per clause (the first concrete one there),
but what it belongs to may be named anywhere in the sentence ("项目报告的截止日期改了，从6月1号
推到了2027年6月15号"); after "moved to" / 推到 the new date counts, not the old. A date in
the past plans nothing. A deadline nobody names ("now it's due Feb 15") belongs to the
last thing said to be due in the episode.
"""

from __future__ import annotations

import re
from datetime import timedelta

from graphmem.extract.candidate import Context, Found, search
from graphmem.extract.vocab import DELIVERABLE_EN, DELIVERABLE_ZH, EVENT_EN, EVENT_ZH
from graphmem.timeparse import resolve_date

_SCHEDULED = r"规划|安排|定在|约在|计划|预定|订|plan|schedul|book|set for|on for"
_DEADLINE = r"截止|上线|交付|交稿|到期|前要交|之前交|前交|deadline|\bdue\b|\bby\b"
_UNDONE = (r"\b(?:was|were) (?:going|supposed|planning) to\b|\bcancel+ed\b|\bcalled off\b|"
           r"本来|原本|取消了|不去了")
_MOVED = (r"推到|推迟到|改到|改成|延期到|延到|提前到|\bmoved to\b|\bpushed (?:back )?to\b|"
          r"\bextended (?:it )?to\b|\bchanged to\b|\bpostponed to\b")


def _last(pattern: str, text: str) -> str | None:
    found = re.findall(pattern, text, re.IGNORECASE)
    return found[-1].lower() if found else None


def event_in(text: str) -> str | None:
    """The event a text names (the head of "team offsite meeting" is the meeting)."""
    return _last(EVENT_ZH, text) or _last(rf"\b(?:{EVENT_EN})\b", text)


def deliverable_in(text: str) -> str | None:
    return _last(DELIVERABLE_ZH, text) or _last(rf"\b(?:{DELIVERABLE_EN})\b", text)


def dates(clause: str, sentence: str, ctx: Context, found: Found) -> None:
    """The date or deadline ``clause`` gives to an event or deliverable, if any."""
    if search(_UNDONE, clause, re.IGNORECASE):
        return
    moved = search(_MOVED, clause, re.IGNORECASE)
    mention = resolve_date(clause[moved.end():] if moved else clause, found.ts)
    day = found.ts.replace(hour=0, minute=0, second=0, microsecond=0)
    if mention is None or mention.end <= day:  # a plan's date is not in the past
        return
    if mention.start <= found.ts and mention.end - mention.start > timedelta(days=1):
        return  # "this year", "this month": the present, not a date to plan around
    deadline = search(_DEADLINE, clause, re.IGNORECASE) or search(
        r"截止|\bdeadline\b|\bdue\b", sentence, re.IGNORECASE)
    event = event_in(clause) or event_in(sentence)
    when = mention.start.date().isoformat()
    if deadline:
        thing = deliverable_in(clause) or deliverable_in(sentence) or event or ctx.deliverable
        if thing:
            ctx.deliverable = thing
            found.add(thing, "deadline", when, False, 0.85, "date", mention.end)
        return
    scheduled = search(_SCHEDULED, clause, re.IGNORECASE)
    event = event or (ctx.event if scheduled else None)
    if event:
        found.add(event, "date", when, False, 0.85, "date", mention.end)
