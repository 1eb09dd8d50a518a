"""How a question's context was chosen (pipeline stage 5, for people debugging recall):
each passage channel's messages in rank order, the fused ranking and which of its messages
the context shows. Pure code over what ``recall`` and ``assemble`` already computed."""

from __future__ import annotations

from collections.abc import Sequence

from graphmem._models import (
    Channel,
    ChannelMessage,
    MemoryContext,
    QueryExplanation,
    RankedMessage,
)
from graphmem.retrieve.compress import Block
from graphmem.retrieve.passages import Key, Line
from graphmem.retrieve.recall import Recalled

TEXT_CHARS = 160  # of each message, enough to recognise it


def explain(context: MemoryContext, found: Recalled, blocks: Sequence[Block]
            ) -> QueryExplanation:
    """The explanation of ``context``, from the channels ``found`` read and the passages
    (``blocks``) the context shows."""
    shown = {line.key for block in blocks for line in block.passage.lines}
    ranks: dict[Key, dict[str, int]] = {}
    channels = []
    for name, weight, keys in found.channels:
        unique = list(dict.fromkeys(keys))
        for rank, key in enumerate(unique, start=1):
            ranks.setdefault(key, {})[name] = rank
        channels.append(Channel(name=name, weight=weight, messages=tuple(
            ChannelMessage(rank=rank, **_message(found.lines[key]))
            for rank, key in enumerate(unique, start=1) if key in found.lines)))
    ranked = tuple(
        RankedMessage(score=round(score, 6), ranks=ranks.get(key, {}), shown=key in shown,
                      **_message(found.lines[key]))
        for key, score in found.ranked if key in found.lines)
    return QueryExplanation(context=context, channels=tuple(channels), ranked=ranked,
                            candidate_facts=tuple(found.facts))


def _message(line: Line) -> dict[str, object]:
    text = " ".join(line.content.split())
    if len(text) > TEXT_CHARS:
        text = text[:TEXT_CHARS - 1] + "…"
    return {"session_id": line.session_id, "msg_id": line.msg_id, "ts": line.ts, "text": text}
