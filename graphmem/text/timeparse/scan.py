"""The rule registry and the scanner: every rule's matches in a text, earliest then
longest first, each resolved against the reference time."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from graphmem.text.timeparse.calendar import DAY, Ctx, Span

Handler = Callable[[re.Match[str], Ctx], Span | None]
RULES: list[tuple[re.Pattern[str], Handler]] = []


def rule(pattern: str, flags: int = re.IGNORECASE) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        RULES.append((re.compile(pattern, flags), handler))
        return handler

    return register



SINCE_BEFORE = re.compile(r"(?<![A-Za-z])since\s+$", re.IGNORECASE)
SINCE_AFTER = re.compile(r"\s*(?:以来|以來|至今|到现在|到現在)")


def scan(text: str, ctx: Ctx) -> Iterator[tuple[str, Span]]:
    """Every resolvable hint of ``text``, the earliest (then longest) first."""
    if not isinstance(text, str) or not text:
        return
    found: list[tuple[int, int, int, re.Match[str], Handler]] = []
    for index, (pattern, handler) in enumerate(RULES):
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
                before = SINCE_BEFORE.search(text, 0, start)
                after = SINCE_AFTER.match(text, end)
                if before or after:
                    start = before.start() if before else start
                    end = after.end() if after else end
                    span = Span(span.start, ctx.day(ctx.today + DAY), clip=True)
        except (ValueError, OverflowError):
            continue
        yield text[start:end].strip(), span


