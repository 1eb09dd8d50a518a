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
from datetime import datetime, timedelta

from graphmem.extract.candidate import Context, Found, search
from graphmem.extract.vocab import DELIVERABLE_EN, DELIVERABLE_ZH, EVENT_EN, EVENT_ZH
from graphmem.text.timeparse import DateMention, resolve_date

_SCHEDULED = r"规划|安排|定在|约在|计划|预定|订|plan|schedul|book|set for|on for"
_DEADLINE = (r"截止|上线|交付|交稿|到期|要交|之前交|前交|交给|提交|交$|deadline|\bdue\b|\bby\b|"
             r"\bsubmit")
_UNDONE = (r"\b(?:was|were) (?:going|supposed|planning) to\b|\bcancel+ed\b|\bcalled off\b|"
           r"本来|原本|取消了|不去了")
# A date said as a maybe is not yet the date (单身派对可能9月底搞).
_MAYBE = r"可能|也许|或许|说不定|大概率|看情况|\bmaybe\b|\bmight\b|\bperhaps\b"
_MOVED = (r"推到|推迟到|改到|改成|延期到|延到|提前到|\bmoved to\b|\bpushed (?:back )?to\b|"
          r"\bextended (?:it )?to\b|\bchanged to\b|\bpostponed to\b")


# Latin words bounded by non-letters: "项目proposal" is the proposal.
_EVENT = re.compile(rf"{EVENT_ZH}|(?<![A-Za-z])(?:{EVENT_EN})(?![A-Za-z])", re.IGNORECASE)
_DELIVERABLE = re.compile(rf"{DELIVERABLE_ZH}|(?<![A-Za-z])(?:{DELIVERABLE_EN})(?![A-Za-z])",
                          re.IGNORECASE)


def _last(pattern: re.Pattern[str], text: str) -> str | None:
    """The last word of ``pattern`` in ``text``: the head of what is named, in either
    language ("项目proposal" is the proposal)."""
    found = pattern.findall(text)
    return found[-1].lower() if found else None


def event_in(text: str) -> str | None:
    """The event a text names (the head of "team offsite meeting" is the meeting)."""
    return _last(_EVENT, text)


def deliverable_in(text: str) -> str | None:
    return _last(_DELIVERABLE, text)


# Words without which no clause names a day to plan around: the time parser's rules are
# many, and most clauses say no date, so they are not scanned at all.
_HINT = re.compile(
    r"\d|[天日号號周週月年晚早节節]|星期|礼拜|禮拜|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|"
    r"nov|dec|january|february|march|april|june|july|august|september|october|november|"
    r"december|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|monday|tuesday|wednesday|thursday|"
    r"friday|saturday|sunday|mondays|tomorrow|tmrw|tonight|weekend|day|days|week|weeks|month|"
    r"months|year|years|fortnight|christmas|xmas|thanksgiving|easter|halloween|valentine|"
    r"valentine's|eve|noon|midnight)\b", re.IGNORECASE)


_DAY_OF_MONTH = re.compile(r"\b(\d{1,2})(?:st|nd|rd|th)\b", re.IGNORECASE)
_MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
_MONTH = re.compile(r"\b(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|"
                    r"aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\b",
                    re.IGNORECASE)
_WEEKDAY = re.compile(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day\b", re.IGNORECASE)


def _said_date(text: str, ts: datetime) -> DateMention | None:
    """The date ``text`` says — never one it does not: "saturday 18th october" is 18
    October, not the coming Saturday; a day of the month the date cannot be read with
    ("saturday the 12th") gives none."""
    days, months = _days_said(text)

    def agrees(m: DateMention | None) -> bool:
        return m is not None and (not days or m.start.day in days) and (
            not months or m.start.month in months)

    mention = resolve_date(text, ts)
    if mention is None or (not days and not months) or agrees(mention):
        return mention
    mention = resolve_date(_WEEKDAY.sub(" ", text), ts)
    return mention if agrees(mention) else None


def _days_said(text: str) -> tuple[set[int], set[int]]:
    """The days of the month and the months ``text`` names with a number: "saturday 18th",
    "the 12th.", "18th (of) october", "october 18" — not "our 10th anniversary", "I may"."""
    days: set[int] = set()
    months: set[int] = set()
    for m in _DAY_OF_MONTH.finditer(text):
        after = re.sub(r"^\s*(?:of\s+)?", "", text[m.end():])
        if month := _MONTH.match(after):
            months.add(_MONTHS.index(month.group(1).lower()[:3]) + 1)
        if month or _WEEKDAY.search(text[max(0, m.start() - 14):m.start()]) or (
                re.match(r"\s*(?:$|[),.!?])", text[m.end():])
                and re.search(r"\bthe\s+$", text[:m.start()], re.IGNORECASE)):
            days.add(int(m.group(1)))
    for m in re.finditer(rf"{_MONTH.pattern}\s+(\d{{1,2}})\b", text, re.IGNORECASE):
        months.add(_MONTHS.index(m.group(1).lower()[:3]) + 1)
    return days, months


# A year said with the date: without one, a day more than ten months ahead is a day just past.
_YEAR_SAID = re.compile(r"\d{2,4}\s*年|明年|后年|\bnext year\b|\b20\d\d\b", re.IGNORECASE)


def dates(clause: str, sentence: str, ctx: Context, found: Found) -> None:
    """The date or deadline ``clause`` gives to an event or deliverable, if any."""
    if not _HINT.search(clause) or search(_UNDONE, clause, re.IGNORECASE) or search(
            _MAYBE, clause, re.IGNORECASE):
        return
    moved = search(_MOVED, clause, re.IGNORECASE)
    mention = _said_date(clause[moved.end():] if moved else clause, found.ts)
    day = found.ts.replace(hour=0, minute=0, second=0, microsecond=0)
    if mention is None or mention.start < day + timedelta(days=1):
        return  # a plan's date is neither past nor today ("a dinner I can make in 20 min")
    if mention.end - mention.start > timedelta(days=2):
        return  # "this year", "in July", "next week": a span, not a date to plan around
    if mention.start - day > timedelta(days=300) and not _YEAR_SAID.search(clause):
        return  # "5月15号上午做的" said on the 18th: last week's day, not next year's
    deadline = search(_DEADLINE, clause, re.IGNORECASE) or search(
        r"截止|\bdeadline\b|\bdue\b", sentence, re.IGNORECASE)
    event = event_in(clause) or event_in(sentence)
    when = mention.start.date().isoformat()
    if moved and not event and ctx.deliverable:  # "老板说可以晚一周，改成2027年5月17号了"
        deadline = deadline or moved
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
