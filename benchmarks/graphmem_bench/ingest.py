"""``graphmem bench ingest``: end-to-end ingest throughput on generated conversations.

Reports messages/s and episodes/s end to end (buffer → split → embed → Neo4j, ending
with ``flush()``), the share of the writer's time spent embedding vs writing to Neo4j,
and the embedder's own throughput on the very same episode texts, so the result can
be read against the target (≥ 1,000 messages/s, or ≥ 70% of what embedding alone allows).
The embedder's own throughput is measured twice: all texts in one call (sorted by
length, the best case) and in the batch sizes the writer actually used.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from pydantic import BaseModel

from graphmem_bench.generate import generate_messages

Progress = Callable[[int, int], None]


class IngestReport(BaseModel):
    messages: int
    episodes: int
    seconds: float
    messages_per_s: float
    episodes_per_s: float
    embed_s: float
    write_s: float
    embed_share: float
    write_share: float
    embed_only_s: float
    embed_only_texts_per_s: float
    embed_bound_messages_per_s: float
    efficiency_vs_embedder: float
    embed_batched_s: float
    efficiency_vs_batched_embedder: float

    def to_markdown(self) -> str:
        return "\n".join([
            "| metric | value |", "| --- | --- |",
            f"| messages | {self.messages:,} |",
            f"| episodes | {self.episodes:,} |",
            f"| wall time | {self.seconds:.1f} s |",
            f"| messages/s (end to end) | {self.messages_per_s:,.0f} |",
            f"| episodes/s (end to end) | {self.episodes_per_s:,.1f} |",
            f"| writer time embedding / Neo4j | {self.embed_share:.0%} / {self.write_share:.0%} |",
            f"| embedder alone, same episode texts | {self.embed_only_texts_per_s:,.1f} texts/s |",
            f"| messages/s if bounded by embedding only | {self.embed_bound_messages_per_s:,.0f} |",
            f"| end to end vs embedding-only bound | {self.efficiency_vs_embedder:.0%} |",
            f"| embedder alone, same texts in the writer's batches | "
            f"{self.messages / self.embed_batched_s if self.embed_batched_s else 0:,.0f} "
            f"messages/s bound |",
            f"| end to end vs that bound | {self.efficiency_vs_batched_embedder:.0%} |",
        ])


def run_ingest_bench(
    mem_factory: Callable[[Path], object],
    total: int = 50_000,
    users: int = 50,
    sessions_per_user: int = 20,
    batch: int = 500,
    prefix: str | None = None,
    on_progress: Progress | None = None,
) -> IngestReport:
    """Ingest ``total`` generated messages into a fresh buffer and time it.

    ``mem_factory(buffer_dir)`` returns a connected ``Memory``.
    """
    prefix = prefix or f"bench{int(time.time())}"
    messages = list(generate_messages(total, users, sessions_per_user, prefix=prefix))
    with tempfile.TemporaryDirectory(prefix="graphmem-bench-") as tmp:
        mem = mem_factory(Path(tmp))
        try:
            started = time.perf_counter()
            for i in range(0, len(messages), batch):
                mem.add_messages(messages[i:i + batch])  # type: ignore[attr-defined]
                if on_progress is not None:
                    on_progress(min(i + batch, len(messages)), len(messages))
            mem.flush()  # type: ignore[attr-defined]
            seconds = time.perf_counter() - started
            stats = mem.stats()  # type: ignore[attr-defined]
            episodes = [ep for u in range(users)
                        for ep in mem.episodes(f"{prefix}-u{u}")]  # type: ignore[attr-defined]
            texts = [ep.text for ep in episodes]
            embed_started = time.perf_counter()
            mem.embedder.embed(texts)  # type: ignore[attr-defined]
            embed_only = time.perf_counter() - embed_started
            # the same texts in the writer's batch sizes (one sorted call pads less)
            size = max(1, round(stats.episodes_written / max(stats.batches, 1)))
            batched_started = time.perf_counter()
            for i in range(0, len(texts), size):
                mem.embedder.embed(texts[i:i + size])  # type: ignore[attr-defined]
            embed_batched = time.perf_counter() - batched_started
        finally:
            mem.close()  # type: ignore[attr-defined]
    busy = stats.embed_s + stats.write_s or 1e-9
    embed_bound = len(messages) / embed_only if embed_only else float("inf")
    mps = len(messages) / seconds
    return IngestReport(
        messages=len(messages), episodes=len(episodes), seconds=seconds,
        messages_per_s=mps, episodes_per_s=len(episodes) / seconds,
        embed_s=stats.embed_s, write_s=stats.write_s,
        embed_share=stats.embed_s / busy, write_share=stats.write_s / busy,
        embed_only_s=embed_only, embed_only_texts_per_s=len(texts) / embed_only,
        embed_bound_messages_per_s=embed_bound, efficiency_vs_embedder=mps / embed_bound,
        embed_batched_s=embed_batched,
        efficiency_vs_batched_embedder=embed_batched / seconds if seconds else 0.0,
    )
