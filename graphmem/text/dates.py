"""How a day is written in a memory context (and in the benchmarks' baseline lines, so
that every system shows dates alike). Pure code."""

from __future__ import annotations

import functools
from datetime import datetime


@functools.lru_cache(maxsize=4096)
def day_label(when: datetime, chinese: bool = False) -> str:
    """``8 May 2023`` (English, the month in full) or ``2023年5月8日``."""
    if chinese:
        return f"{when.year}年{when.month}月{when.day}日"
    return f"{when.day} {when:%B %Y}"
