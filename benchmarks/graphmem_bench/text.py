"""What the benchmarks need of text besides graphmem's public ``count_tokens``: how a day
is shown (exactly as graphmem's context shows it, so every system's lines look alike; a
test keeps the two in step) and the embedder interface (``Memory.embedder``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol


class Embedder(Protocol):
    """``Memory.embedder``: unit-length vectors of ``dimension`` floats."""

    model_name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


def day_label(when: datetime, chinese: bool = False) -> str:
    """``8 May 2023`` (English, the month in full) or ``2023年5月8日``."""
    if chinese:
        return f"{when.year}年{when.month}月{when.day}日"
    return f"{when.day} {when:%B %Y}"


def embed_questions(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """Questions as the model wants them: ``embed_query`` when the embedder has one (e5's
    ``query:`` prefix), as graphmem itself embeds them."""
    query = getattr(embedder, "embed_query", None)
    return query(texts) if callable(query) else embedder.embed(texts)
