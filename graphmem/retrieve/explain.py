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
from graphmem.text.chat import truncate

TEXT_CHARS = 160  # of each message, enough to recognise it


def explain(context: MemoryContext, found: Recalled, blocks: Sequence[Block]
            ) -> QueryExplanation:
    """The explanation of ``context``, from the channels ``found`` read and the passages
    (``blocks``) the context shows."""
    shown = {line.key for block in blocks for line in block.passage.lines}
    ranks: dict[Key, dict[str, int]] = {}
    channels = []
    for name, weight, keys in found.channels:
        messages = []
        for rank, key in enumerate(dict.fromkeys(keys), start=1):  # as fuse ranks them
            ranks.setdefault(key, {})[name] = rank
            messages.append(ChannelMessage(rank=rank, **_message(found.lines[key])))
        channels.append(Channel(name=name, weight=weight, messages=tuple(messages)))
    ranked = tuple(
        RankedMessage(score=round(score, 6), ranks=ranks[key],
                      coverage=round(found.coverage.get(key, 0.0), 4), shown=key in shown,
                      **_message(found.lines[key]))
        for key, score in found.ranked)
    return QueryExplanation(context=context, channels=tuple(channels), ranked=ranked,
                            candidate_facts=tuple(found.facts))


def channel_counts(why: QueryExplanation) -> str:
    """Each channel with its fusion weight and how many messages it found, one line."""
    return ", ".join(f"{c.name} ×{c.weight:g}: {len(c.messages)}" for c in why.channels) \
        or "none"


def channel_ranks(message: RankedMessage) -> str:
    """A ranked message's rank in each channel that found it ("keyword #3, ...")."""
    return ", ".join(f"{name} #{rank}" for name, rank in message.ranks.items())


def _message(line: Line) -> dict[str, object]:
    return {"session_id": line.session_id, "msg_id": line.msg_id, "ts": line.ts,
            "text": truncate(line.content, TEXT_CHARS)}
