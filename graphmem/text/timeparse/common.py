"""Rules of both languages: moments (刚才, just now), recent times (最近, lately), vague
past times (上次, last time) and ISO dates (2023-05-08)."""

from __future__ import annotations

import re
from datetime import date, timedelta

from graphmem.text.timeparse.calendar import Ctx, Span, valid_year
from graphmem.text.timeparse.numbers import L, R
from graphmem.text.timeparse.scan import rule


@rule(
    r"刚才|刚刚|剛才|剛剛|方才|" + L
    + r"(?:just\s+now|an?\s+(?:moment|minute|second|little\s+while)\s+ago|moments\s+ago|"
    r"a\s+few\s+(?:moments|minutes)\s+ago)" + R
)
def _just_now(m: re.Match[str], ctx: Ctx) -> Span:
    return Span(ctx.now - timedelta(hours=2), ctx.now)


@rule(
    r"最近(?!的|一次|一回)|近来|近來|近期|近日|这段时间|這段時間|这阵子|這陣子|这些天|這些天|"
    r"这些日子|這些日子|" + L
    + r"(?:recently|lately|of\s+late|these\s+days|in\s+recent\s+(?:days|weeks|times))" + R
)
def _recently(m: re.Match[str], ctx: Ctx) -> Span:
    return ctx.up_to_now(ctx.today - timedelta(days=30))


@rule(
    r"上一?次|上一?回|那一?次|那一?回|那一?天|那时候?|那時候?|当时|當時|之前|以前|曾经|曾經|"
    r"前阵子|前陣子|前段时间|前段時間|前些日子|前些天|有一次|有一回|很久以前|很久之前|"
    r"最近一次|最近一回|早些时候|早些時候|" + L
    + r"(?:(?:the\s+)?last\s+time|the\s+other\s+day|previously|(?:a\s+)?while\s+(?:ago|back)|"
    r"some\s*time\s+ago|(?:a\s+)?long\s+(?:time\s+)?ago|ages\s+ago|in\s+the\s+past|"
    r"back\s+then|(?:at\s+)?that\s+time|"
    r"earlier(?!\s+(?:today|tonight|this|in\s+the|than))|before(?=\s*(?:[?.!,;:)]|$))|"
    r"before\s+now)" + R
)
def _vague(m: re.Match[str], ctx: Ctx) -> Span:
    return Span(None, None)


@rule(r"(?<![\d.])(?P<y>\d{4})(?P<sep>[-/.])(?P<m>\d{1,2})(?P=sep)(?P<d>\d{1,2})(?![\d])")
def _iso_date(m: re.Match[str], ctx: Ctx) -> Span:
    year = valid_year(int(m.group("y")))
    return ctx.one_day(date(year, int(m.group("m")), int(m.group("d"))))


