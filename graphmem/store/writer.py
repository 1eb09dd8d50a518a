"""Moves closed episodes to Neo4j off the ``add_message`` path.

Two background threads form a pipeline: one embeds batches of closed episodes (one
model call per batch), the other writes embedded batches to Neo4j in one
transaction each and then advances the raw buffer's replay cursor — so embedding
the next batch overlaps writing the last. Both are FIFO, so the cursor never passes
an unwritten episode. If Neo4j fails, the writer drops what it holds and remembers
the error; nothing is lost — ``Memory.replay()`` re-sends from the buffer.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from graphmem._errors import GraphmemError
from graphmem._models import Episode
from graphmem.buffer import RawBuffer
from graphmem.embed import Embedder
from graphmem.store.episodes import write_episodes
from graphmem.store.runner import QueryRunner

_STOP = object()
LINGER_S = 0.25  # how long the embedder waits for a batch to fill


@dataclass
class WriterStats:
    episodes: int = 0
    batches: int = 0
    embed_s: float = 0.0
    write_s: float = 0.0
    errors: list[str] = field(default_factory=list)


@dataclass
class _Embedded:
    closed: list[Episode]
    stored: list[Episode]
    vectors: list[list[float]]


class EpisodeWriter:
    """Background batching writer; ``drain()`` waits until everything queued is handled."""

    def __init__(
        self,
        runner: QueryRunner,
        embedder: Embedder,
        buffer: RawBuffer,
        batch_size: int = 256,
        on_stored: Callable[[Sequence[Episode]], None] | None = None,
    ) -> None:
        self.runner = runner
        self.embedder = embedder
        self.buffer = buffer
        self.batch_size = batch_size
        self.on_stored = on_stored
        self.stats = WriterStats()
        self.failure: GraphmemError | None = None
        self._closed: queue.Queue[object] = queue.Queue()
        self._draining = threading.Event()
        self._embedded: queue.Queue[object] = queue.Queue(maxsize=2)
        self._threads = [
            threading.Thread(target=self._embed_loop, name="graphmem-embed", daemon=True),
            threading.Thread(target=self._write_loop, name="graphmem-write", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    def submit(self, episodes: Sequence[Episode]) -> None:
        for ep in episodes:
            self._closed.put(ep)

    def drain(self, *, raise_failure: bool = True) -> None:
        """Block until every submitted episode is handled; raise the failure if one happened."""
        self._draining.set()  # someone is waiting: no lingering for fuller batches
        try:
            self._closed.join()
            self._embedded.join()
        finally:
            self._draining.clear()
        if raise_failure and self.failure is not None:
            raise self.failure

    def reset_failure(self) -> GraphmemError | None:
        failure, self.failure = self.failure, None
        return failure

    def close(self) -> None:
        self._closed.put(_STOP)
        for thread in self._threads:
            thread.join(timeout=60)

    def _take_batch(self) -> tuple[list[Episode], bool]:
        """Up to ``batch_size`` episodes, lingering briefly to fill the batch: the model
        sorts a call's texts by length, so bigger calls pad less and embed faster."""
        first = self._closed.get()
        if first is _STOP:
            return [], True
        batch: list[Episode] = [first]  # type: ignore[list-item]
        deadline = time.monotonic() + LINGER_S
        while len(batch) < self.batch_size:
            wait = 0.0 if self._draining.is_set() else max(0.0, deadline - time.monotonic())
            try:
                nxt = self._closed.get(timeout=wait) if wait else self._closed.get_nowait()
            except queue.Empty:
                break
            if nxt is _STOP:
                self._closed.task_done()
                return batch, True
            batch.append(nxt)  # type: ignore[arg-type]
        return batch, False

    def _embed_loop(self) -> None:
        while True:
            batch, stop = self._take_batch()
            if batch:
                try:
                    self._embedded.put(self._embed(batch))
                except Exception as exc:  # reported through drain()
                    self._fail(exc)
                finally:
                    for _ in batch:
                        self._closed.task_done()
            if stop:
                self._closed.task_done()
                self._embedded.put(_STOP)
                return

    def _embed(self, closed: list[Episode]) -> _Embedded:
        # An episode of nothing but fillers (a lone "ok" after a pause) is noise: it stays
        # in the raw buffer but never becomes an Episode node.
        stored = [ep for ep in closed if ep.actions]
        started = time.perf_counter()
        vectors = self.embedder.embed([ep.text for ep in stored]) if self.failure is None else []
        self.stats.embed_s += time.perf_counter() - started
        return _Embedded(closed, stored, vectors)

    def _write_loop(self) -> None:
        while True:
            item = self._embedded.get()
            try:
                if item is _STOP:
                    return
                if self.failure is None:
                    self._write(item)  # type: ignore[arg-type]
            except Exception as exc:  # reported through drain()
                self._fail(exc)
            finally:
                self._embedded.task_done()

    def _write(self, item: _Embedded) -> None:
        started = time.perf_counter()
        write_episodes(self.runner, item.stored, item.vectors)
        self.stats.write_s += time.perf_counter() - started
        self.stats.episodes += len(item.stored)
        self.stats.batches += 1
        upto: dict[str, int] = {}
        for ep in item.closed:
            upto[ep.session_id] = max(upto.get(ep.session_id, 0), ep.raw_span[1])
        self.buffer.acknowledge(upto)
        if self.on_stored is not None:
            self.on_stored(item.stored)

    def _fail(self, exc: Exception) -> None:
        if self.failure is None:
            self.failure = (
                exc if isinstance(exc, GraphmemError)
                else GraphmemError(f"episode writer failed: {exc!r}")
            )
        self.stats.errors.append(str(exc))


class BackgroundQueue:
    """One thread applying ``handle(item)`` to submitted items, in order.

    ``drain()`` waits until everything submitted so far is handled, so readers can see
    their own writes. A failing item is recorded in ``errors`` and skipped."""

    def __init__(self, handle: Callable[[object], None], name: str) -> None:
        self.handle = handle
        self.errors: list[str] = []
        self._queue: queue.Queue[object] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def submit(self, item: object) -> None:
        self._queue.put(item)

    def drain(self) -> None:
        self._queue.join()

    def close(self) -> None:
        self._queue.put(_STOP)
        self._thread.join(timeout=60)

    def _loop(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is _STOP:
                    return
                self.handle(item)
            except Exception as exc:  # recorded, never kills the thread
                self.errors.append(repr(exc))
            finally:
                self._queue.task_done()
