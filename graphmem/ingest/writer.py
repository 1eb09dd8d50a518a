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
- **Its user forgotten meanwhile** (here or in another process): each episode carries its
  user's buffer generation from when it was read, and the write checks it and the users'
  tombstones under their locks (``graphmem.ingest.forgetting``). A stale episode is
  dropped, never acknowledged (its cursor would come back), and kept in ``forgotten``.
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
from graphmem.ingest.background import lower_thread_priority
from graphmem.ingest.forgetting import Freshness, LateWrite
from graphmem.store.episodes import write_episodes
from graphmem.store.runner import QueryRunner

log = logging.getLogger("graphmem.writer")

_STOP = object()
LINGER_S = 0.25  # how long the embedder waits for a batch to fill
EMBED_CALL = 32  # texts per model call: closing waits for one call at most
RETRY_FIRST_S = 0.5
RETRY_MAX_S = 15.0

# (last msg_id acknowledged per session, the users' buffer generations it was read at)
Acknowledge = Callable[[dict[SessionKey, int], dict[str, int]], None]
Stamped = tuple[ClosedEpisode, int]  # an episode and its user's buffer generation


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

    def __str__(self) -> str:
        return (f"{self.event_id} ({self.session_id} {self.raw_span[0]}-{self.raw_span[1]}): "
                f"{self.reason}")


@dataclass
class _Embedded:
    closed: list[Stamped]  # every closed episode of the batch (acknowledged together)
    stored: list[Stamped]  # those that become Episode nodes (not filler-only)
    vectors: list[list[float]]


class EpisodeWriter:
    """Background batching writer; ``drain()`` waits until everything queued is handled."""

    def __init__(
        self,
        runner: QueryRunner,
        embedder: Embedder,
        acknowledge: Acknowledge,
        batch_size: int = 256,
        freshness: Freshness | None = None,
        buffer_location: str | None = None,
        nice: int = 0,
    ) -> None:
        self.runner = runner
        self.buffer_location = buffer_location  # kept on the sessions it writes
        self.embedder = embedder
        self.acknowledge = acknowledge
        self.batch_size = batch_size
        self.freshness = freshness
        self.nice = nice  # the threads' CPU priority (graphmem.ingest.background)
        self.stats = WriterStats()
        self.rejected: list[Rejected] = []
        self.forgotten: list[Rejected] = []  # dropped: their user was forgotten meanwhile
        self.unavailable: StoreUnavailableError | None = None  # set while Neo4j is down
        self._closed: queue.Queue[object] = queue.Queue()
        self._embedded: queue.Queue[object] = queue.Queue(maxsize=2)
        self._pending = 0  # episodes submitted and not yet written or rejected
        self._progress_at = time.monotonic()  # when episodes were last written or rejected
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
            stamp = self.freshness.stamp(ep.episode.user_id) if self.freshness else 0
            self._closed.put((ep, stamp))

    def drain(self, timeout: float | None = None, stall_s: float | None = None) -> None:
        """Block until every submitted episode is written (or rejected). While Neo4j is
        unavailable, give up after ``timeout`` seconds with ``StoreUnavailableError``
        (nothing is lost: the backlog keeps retrying, the raw buffer holds it all). A
        writer that is merely slow (a busy machine, a big backlog) is waited for — unless
        ``stall_s`` is given: then it gives up too once nothing was written for that long
        (Neo4j gone, and the writer still inside the driver's retries, has not said so)."""
        self._draining.set()  # someone is waiting: no lingering for fuller batches
        started = time.monotonic()
        try:
            with self._done:
                while self._pending and not self._stop.is_set():
                    now = time.monotonic()
                    stalled = (stall_s is not None
                               and now - max(started, self._progress_at) >= stall_s)
                    late = (timeout is not None and now - started >= timeout
                            and self.unavailable is not None)
                    if stalled or late:
                        failure = self.unavailable
                        raise StoreUnavailableError(
                            f"{self._pending} episode(s) still wait for Neo4j"
                            + (f" ({failure})" if failure else "")
                            + "; they are safe in the raw buffer and will be written when "
                            "Neo4j is back", query="store/merge_episodes")
                    self._done.wait(timeout=0.25)
        finally:
            self._draining.clear()

    def close(self, deadline: float | None = None, finish_s: float = 0.0) -> None:
        """Stop both threads, waiting for them until ``deadline`` (``time.monotonic()``;
        default: 30 s from now). A thread inside the driver's retries then stops at its
        next attempt. What is not written by then stays unacknowledged in the raw buffer
        and is replayed by the next ``connect()``. ``finish_s`` (at exit): how much longer
        the embedding thread may take to end the model call it is in."""
        deadline = time.monotonic() + 30.0 if deadline is None else deadline
        self._stop.set()
        self._closed.put(_STOP)
        for thread in self._threads:
            thread.join(timeout=max(0.01, deadline - time.monotonic()))
        if finish_s and self._threads[0].is_alive():
            self._threads[0].join(timeout=finish_s)
        with self._done:
            self._done.notify_all()

    # -- embedding -------------------------------------------------------------------------

    def _take_batch(self) -> tuple[list[Stamped], bool]:
        """Up to ``batch_size`` episodes, lingering briefly to fill the batch: the model
        sorts a call's texts by length, so bigger calls pad less and embed faster."""
        first = self._closed.get()
        if first is _STOP:
            return [], True
        batch: list[Stamped] = [first]  # type: ignore[list-item]
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
        lower_thread_priority(self.nice)
        while True:
            batch, stop = self._take_batch()
            if batch and not self._stop.is_set():  # stopped: the rest waits in the buffer
                embedded = self._embed(batch)
                if embedded is not None:
                    self._put(embedded)
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

    def _embed(self, closed: list[Stamped]) -> _Embedded | None:
        """The batch's vectors, a few texts per call: closing stops between two calls (the
        batch then stays in the raw buffer: None), so no thread is left inside the model's
        native code when the process exits."""
        # An episode of nothing but fillers (a lone "ok" after a pause) is noise: it stays
        # in the raw buffer but never becomes an Episode node.
        stored = [c for c in closed if c[0].episode.actions]
        texts = [c.episode.text for c, _ in stored]
        # like lengths in one call (a call pads every text to its longest): the whole
        # batch sorted by length, not each call's share of it
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        started = time.perf_counter()
        try:
            vectors: list[list[float]] = [[] for _ in texts]
            for start in range(0, len(order), EMBED_CALL):
                if self._stop.is_set():
                    return None
                call = order[start:start + EMBED_CALL]
                for i, vector in zip(call, self.embedder.embed([texts[i] for i in call]),
                                     strict=True):
                    vectors[i] = vector
        except Exception:  # find the one that fails; embed the others
            vectors, kept = [], []
            for item in stored:
                try:
                    vectors.extend(self.embedder.embed([item[0].episode.text]))
                    kept.append(item)
                except Exception as exc:
                    self._reject(item[0], f"embedding failed: {exc!r}")
            stored = kept
        self.stats.embed_s += time.perf_counter() - started
        return _Embedded(closed, stored, vectors)

    # -- writing ---------------------------------------------------------------------------

    def _write_loop(self) -> None:
        lower_thread_priority(self.nice)
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
            self._drop_stale(item)
            try:
                self._write(item)
                if self.unavailable is not None:
                    log.warning("Neo4j is back; writing the backlog")
                    self.unavailable = None
                return True
            except LateWrite as late:  # its users were forgotten: catch up, drop, retry
                if self.freshness is not None:
                    self.freshness.catch_up(late)
            except StoreUnavailableError as exc:
                if self._stop.is_set():  # closing (the driver closed under it): no outage
                    return False
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
                    for closed, _ in item.stored:
                        self._reject(closed, str(exc))
                    self._acknowledge(item.closed)
                    return True
                for stamped, vector in zip(item.stored, item.vectors, strict=True):
                    single = _Embedded([stamped], [stamped], [vector])
                    if not self._write_with_retry(single):
                        return False
                    if not single.closed:  # dropped: its user was forgotten
                        item.closed.remove(stamped)
                self._acknowledge(item.closed)
                return True

    def _write(self, item: _Embedded) -> None:
        started = time.perf_counter()
        verify = (self.freshness.verify((c.episode.user_id, s) for c, s in item.closed)
                  if self.freshness else None)
        write_episodes(self.runner, [c for c, _ in item.stored], item.vectors, verify,
                       self.buffer_location)
        self.stats.write_s += time.perf_counter() - started
        self.stats.episodes += len(item.stored)
        self.stats.batches += 1
        self._acknowledge(item.closed)

    def _drop_stale(self, item: _Embedded) -> None:
        """Drop the episodes whose user was forgotten since they were read: never written
        nor acknowledged; kept in ``forgotten``."""
        if self.freshness is None:
            return
        fresh = self.freshness.current
        stale = [c for c in item.closed if not fresh(c[0].episode.user_id, c[1])]
        if not stale:
            return
        keep = [i for i, c in enumerate(item.stored) if fresh(c[0].episode.user_id, c[1])]
        item.stored, item.vectors = ([item.stored[i] for i in keep],
                                     [item.vectors[i] for i in keep])
        item.closed[:] = [c for c in item.closed if c not in stale]
        for closed, _ in stale:
            ep = closed.episode
            self.forgotten.append(Rejected(
                ep.event_id, ep.user_id, ep.session_id, ep.raw_span,
                "its user was forgotten meanwhile; nothing of it was stored"))
            log.warning("episode %s (%s, messages %d-%d) not stored: its user was forgotten",
                        ep.event_id, ep.session_id, ep.raw_span[0], ep.raw_span[1])
        self._finished(stale)

    def _acknowledge(self, closed: Sequence[Stamped]) -> None:
        upto: dict[SessionKey, int] = {}
        stamps: dict[str, int] = {}
        for c, stamp in closed:
            key = (c.episode.user_id, c.episode.session_id)
            upto[key] = max(upto.get(key, 0), c.episode.raw_span[1])
            stamps[key[0]] = stamp
        if upto:
            self.acknowledge(upto, stamps)

    def _reject(self, closed: ClosedEpisode, reason: str) -> None:
        ep = closed.episode
        rejected = Rejected(ep.event_id, ep.user_id, ep.session_id, ep.raw_span, reason)
        self.rejected.append(rejected)
        log.error("episode %s (%s, messages %d-%d) was not stored: %s", ep.event_id,
                  ep.session_id, ep.raw_span[0], ep.raw_span[1], reason)

    def _finished(self, closed: Sequence[Stamped]) -> None:
        with self._done:
            self._pending -= len(closed)
            self._progress_at = time.monotonic()
            self._done.notify_all()
