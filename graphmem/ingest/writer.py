"""Moves closed episodes to Neo4j off the ``add_message`` path.

Two background threads form a pipeline: one embeds batches of closed episodes (one model
call per batch), the other writes embedded batches to Neo4j in one transaction each and
then acknowledges them (the raw buffer's replay cursor moves) — so embedding the next
batch overlaps writing the last. Both are FIFO, so the cursor never passes an unwritten
episode.

Failures never stall other users' episodes:

- **Neo4j unavailable** (``StoreUnavailableError``): the batch is kept and retried with a
  growing pause (up to ``RETRY_MAX_S``); the backlog drains by itself when Neo4j returns.
  ``drain(timeout)`` says how many episodes wait instead of blocking forever.
- **One bad item** (a query Neo4j refuses, an embedding that fails): the batch is retried
  one episode at a time, and an episode that fails alone is *rejected* — logged, kept in
  ``rejected`` with its reason, and acknowledged so it never blocks its session. Its raw
  messages stay in the buffer.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from graphmem._errors import StoreUnavailableError
from graphmem._models import ClosedEpisode, SessionKey
from graphmem.embed import Embedder
from graphmem.store.episodes import write_episodes
from graphmem.store.runner import QueryRunner

log = logging.getLogger("graphmem.writer")

_STOP = object()
LINGER_S = 0.25  # how long the embedder waits for a batch to fill
RETRY_FIRST_S = 0.5
RETRY_MAX_S = 15.0

Acknowledge = Callable[[dict[SessionKey, int]], None]


@dataclass
class WriterStats:
    episodes: int = 0
    batches: int = 0
    embed_s: float = 0.0
    write_s: float = 0.0
    outages: int = 0
    errors: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Rejected:
    """An episode Neo4j or the embedder refused on its own; its messages stay buffered."""

    event_id: str
    user_id: str
    session_id: str
    raw_span: tuple[int, int]
    reason: str


@dataclass
class _Embedded:
    closed: list[ClosedEpisode]  # every closed episode of the batch (acknowledged together)
    stored: list[ClosedEpisode]  # those that become Episode nodes (not filler-only)
    vectors: list[list[float]]


class EpisodeWriter:
    """Background batching writer; ``drain()`` waits until everything queued is handled."""

    def __init__(
        self,
        runner: QueryRunner,
        embedder: Embedder,
        acknowledge: Acknowledge,
        batch_size: int = 256,
        buffer_location: str | None = None,
    ) -> None:
        self.runner = runner
        self.buffer_location = buffer_location  # kept on the sessions it writes
        self.embedder = embedder
        self.acknowledge = acknowledge
        self.batch_size = batch_size
        self.stats = WriterStats()
        self.rejected: list[Rejected] = []
        self.unavailable: StoreUnavailableError | None = None  # set while Neo4j is down
        self._closed: queue.Queue[object] = queue.Queue()
        self._embedded: queue.Queue[object] = queue.Queue(maxsize=2)
        self._pending = 0  # episodes submitted and not yet written or rejected
        self._done = threading.Condition()
        self._draining = threading.Event()
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._embed_loop, name="graphmem-embed", daemon=True),
            threading.Thread(target=self._write_loop, name="graphmem-write", daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    @property
    def backlog(self) -> int:
        """Episodes submitted and not yet in Neo4j (or rejected)."""
        with self._done:
            return self._pending

    def submit(self, episodes: Sequence[ClosedEpisode]) -> None:
        if not episodes:
            return
        with self._done:
            self._pending += len(episodes)
        for ep in episodes:
            self._closed.put(ep)

    def drain(self, timeout: float | None = None) -> None:
        """Block until every submitted episode is written (or rejected). While Neo4j is
        unavailable, give up after ``timeout`` seconds with ``StoreUnavailableError``
        (nothing is lost: the backlog keeps retrying, the raw buffer holds it all). A
        writer that is merely slow (a busy machine, a big backlog) is waited for."""
        self._draining.set()  # someone is waiting: no lingering for fuller batches
        deadline = None if timeout is None else time.monotonic() + timeout
        try:
            with self._done:
                while self._pending and not self._stop.is_set():
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0 and self.unavailable is None:
                        left = 1.0  # Neo4j takes writes: the backlog is draining
                    elif left is not None and left <= 0:
                        failure = self.unavailable
                        raise StoreUnavailableError(
                            f"{self._pending} episode(s) still wait for Neo4j"
                            + (f" ({failure})" if failure else "")
                            + "; they are safe in the raw buffer and will be written when "
                            "Neo4j is back", query="store/merge_episodes")
                    self._done.wait(timeout=min(left, 1.0) if left is not None else 1.0)
        finally:
            self._draining.clear()

    def close(self, timeout: float = 30.0) -> None:
        """Stop both threads. What is not written by then stays unacknowledged in the
        raw buffer and is replayed by the next ``connect()``."""
        self._stop.set()
        self._closed.put(_STOP)
        for thread in self._threads:
            thread.join(timeout=timeout)
        with self._done:
            self._done.notify_all()

    # -- embedding -------------------------------------------------------------------------

    def _take_batch(self) -> tuple[list[ClosedEpisode], bool]:
        """Up to ``batch_size`` episodes, lingering briefly to fill the batch: the model
        sorts a call's texts by length, so bigger calls pad less and embed faster."""
        first = self._closed.get()
        if first is _STOP:
            return [], True
        batch: list[ClosedEpisode] = [first]  # type: ignore[list-item]
        deadline = time.monotonic() + LINGER_S
        while len(batch) < self.batch_size:
            wait = 0.0 if self._draining.is_set() else max(0.0, deadline - time.monotonic())
            try:
                nxt = self._closed.get(timeout=wait) if wait else self._closed.get_nowait()
            except queue.Empty:
                break
            if nxt is _STOP:
                return batch, True
            batch.append(nxt)  # type: ignore[arg-type]
        return batch, False

    def _embed_loop(self) -> None:
        while True:
            batch, stop = self._take_batch()
            if batch and not self._stop.is_set():  # stopped: the rest waits in the buffer
                self._put(self._embed(batch))
            if stop or self._stop.is_set():
                self._put(_STOP)
                return

    def _put(self, item: object) -> None:
        while not self._stop.is_set() or item is _STOP:
            try:
                self._embedded.put(item, timeout=0.5)
                return
            except queue.Full:
                continue

    def _embed(self, closed: list[ClosedEpisode]) -> _Embedded:
        # An episode of nothing but fillers (a lone "ok" after a pause) is noise: it stays
        # in the raw buffer but never becomes an Episode node.
        stored = [c for c in closed if c.episode.actions]
        started = time.perf_counter()
        try:
            vectors = self.embedder.embed([c.episode.text for c in stored])
        except Exception:  # find the one that fails; embed the others
            vectors, kept = [], []
            for item in stored:
                try:
                    vectors.extend(self.embedder.embed([item.episode.text]))
                    kept.append(item)
                except Exception as exc:
                    self._reject(item, f"embedding failed: {exc!r}")
            stored = kept
        self.stats.embed_s += time.perf_counter() - started
        return _Embedded(closed, stored, vectors)

    # -- writing ---------------------------------------------------------------------------

    def _write_loop(self) -> None:
        while True:
            item = self._embedded.get()
            if item is _STOP:
                return
            assert isinstance(item, _Embedded)
            if self._write_with_retry(item):
                self._finished(item.closed)

    def _write_with_retry(self, item: _Embedded) -> bool:
        """Write the batch; wait out an outage; isolate a refused episode. False only when
        the writer is stopped mid-outage (the batch stays unacknowledged)."""
        pause = RETRY_FIRST_S
        while True:
            try:
                self._write(item)
                if self.unavailable is not None:
                    log.warning("Neo4j is back; writing the backlog")
                    self.unavailable = None
                return True
            except StoreUnavailableError as exc:
                if self.unavailable is None:
                    self.stats.outages += 1
                    log.warning("Neo4j unavailable; %d episode(s) wait in the backlog and "
                                "will be written when it returns: %s", self.backlog, exc)
                self.unavailable = exc
                if self._stop.wait(pause):
                    return False
                pause = min(pause * 2, RETRY_MAX_S)
            except Exception as exc:  # refused: find the episode that is refused
                self.stats.errors.append(str(exc))
                if len(item.stored) <= 1:
                    for closed in item.stored:
                        self._reject(closed, str(exc))
                    self._acknowledge(item.closed)
                    return True
                for closed, vector in zip(item.stored, item.vectors, strict=True):
                    single = _Embedded([closed], [closed], [vector])
                    if not self._write_with_retry(single):
                        return False
                self._acknowledge(item.closed)
                return True

    def _write(self, item: _Embedded) -> None:
        started = time.perf_counter()
        write_episodes(self.runner, item.stored, item.vectors, self.buffer_location)
        self.stats.write_s += time.perf_counter() - started
        self.stats.episodes += len(item.stored)
        self.stats.batches += 1
        self._acknowledge(item.closed)

    def _acknowledge(self, closed: Sequence[ClosedEpisode]) -> None:
        upto: dict[SessionKey, int] = {}
        for c in closed:
            key = (c.episode.user_id, c.episode.session_id)
            upto[key] = max(upto.get(key, 0), c.episode.raw_span[1])
        self.acknowledge(upto)

    def _reject(self, closed: ClosedEpisode, reason: str) -> None:
        ep = closed.episode
        rejected = Rejected(ep.event_id, ep.user_id, ep.session_id, ep.raw_span, reason)
        self.rejected.append(rejected)
        log.error("episode %s (%s, messages %d-%d) was not stored: %s", ep.event_id,
                  ep.session_id, ep.raw_span[0], ep.raw_span[1], reason)

    def _finished(self, closed: Sequence[ClosedEpisode]) -> None:
        with self._done:
            self._pending -= len(closed)
            self._done.notify_all()


class BackgroundQueue:
    """One thread applying ``handle(items)`` to submitted items, in order, as many at a time
    as are waiting (up to ``batch``): a burst of items is handled in a few calls, not one
    call each.

    ``drain()`` waits until everything submitted so far is handled, so readers can see
    their own writes. A failing call is recorded in ``errors`` and its items skipped."""

    def __init__(self, handle: Callable[[list[object]], None], name: str,
                 batch: int = 256) -> None:
        self.handle = handle
        self.batch = batch
        self.errors: list[str] = []
        self._abandon = False
        self._queue: queue.Queue[object] = queue.Queue()
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def submit(self, item: object) -> None:
        self._queue.put(item)

    def drain(self) -> None:
        self._queue.join()

    @property
    def abandoned(self) -> bool:
        """Closing without handling what waits: a long ``handle`` may stop early."""
        return self._abandon

    def close(self, abandon: bool = False) -> None:
        """Stop the thread after the items waiting are handled (``abandon``: dropped)."""
        self._abandon = abandon
        self._queue.put(_STOP)
        self._thread.join(timeout=60)

    def _loop(self) -> None:
        while True:
            items = [self._queue.get()]
            while len(items) < self.batch and items[-1] is not _STOP:
                try:
                    items.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = items[-1] is _STOP
            work = items[:-1] if stop else items
            try:
                if work and not self._abandon:
                    self.handle(work)
            except Exception as exc:  # recorded, never kills the thread
                self.errors.append(repr(exc))
            finally:
                for _ in items:
                    self._queue.task_done()
            if stop:
                return
