"""Ingestion: the one owner of the write path, raw buffer → episode splitter → writer.

``add`` writes a batch to the raw buffer (durable, all or nothing), feeds the stored
messages to the splitter and hands closed episodes to the background writer. Locks:

- a **per-session lock**, held from the buffer write to the splitter feed, so the
  messages of one session reach the splitter in their buffer order, while other
  sessions proceed;
- a short **state lock** around the splitter's shared state (feeds, the idle timer,
  flushes, replays).

An **idle timer** closes an episode whose session got no message for ``idle_timeout_s``
of wall-clock time (a quiet deployment does not wait for the next message), besides the
splitter's own cut on gaps between message timestamps. It also lets go of the sessions
this writer owns in the raw buffer once they are settled — no episode open, everything
written to Neo4j — so another process on the same buffer folder may write them next.

While Neo4j is down the writer keeps retrying and ``add`` keeps accepting. The backlog
held in memory is bounded: past ``max_backlog`` episodes, new ones are not queued (they
are safe in the raw buffer), and once Neo4j takes writes again everything not yet
acknowledged is re-read from the buffer and re-sent (``resume``) — no ``replay()`` call
needed, no duplicates (episode ids are deterministic, writes are MERGEs).

Forgetting a user (``forget_user``, and ``apply_forget`` for a forget done elsewhere) drops
the user's open episodes and buffer lines under the state lock; what was read before is
stale by its buffer generation and refused at the write (``graphmem.ingest.forgetting``).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime

from graphmem._errors import SessionBusyError
from graphmem._models import ClosedEpisode, Message, MessageIn, SessionKey
from graphmem.ingest.background import lower_thread_priority
from graphmem.ingest.buffer import RawBuffer, Removed
from graphmem.ingest.forgetting import Freshness
from graphmem.ingest.splitter import EpisodeSplitter, key_of
from graphmem.ingest.writer import EpisodeWriter
from graphmem.store.runner import QueryRunner
from graphmem.store.tombstones import forgotten_at

log = logging.getLogger("graphmem.ingest")

# (message, its open episode so far, its user's buffer generation)
OnMessage = Callable[[Message, list[Message], int], None]
DEFAULT_MAX_BACKLOG = 20_000


class Ingestion:
    def __init__(
        self,
        buffer: RawBuffer,
        splitter: EpisodeSplitter,
        writer: EpisodeWriter,
        clock: Callable[[], datetime],
        on_message: OnMessage | None = None,
        max_backlog: int = DEFAULT_MAX_BACKLOG,
        idle_check_s: float | None = None,
        freshness: Freshness | None = None,
        on_forget: Callable[[str], None] | None = None,
        nice: int = 0,
    ) -> None:
        self.buffer = buffer
        self.freshness = freshness or Freshness(buffer)
        self.freshness.apply = self.apply_forget
        self.on_forget = on_forget  # a user's messages were dropped: reset what read them
        self.nice = nice  # the idle timer's CPU priority (graphmem.ingest.background)
        self.splitter = splitter
        self.writer = writer
        self.clock = clock
        self.on_message = on_message
        self.max_backlog = max_backlog
        self._state = threading.RLock()
        self._guard = threading.Lock()
        self._session_locks: dict[SessionKey, threading.Lock] = {}
        self._overflow = False  # episodes were left out of the backlog: resume when possible
        self._resumes = 0  # how many times resume() re-fed the buffer (flush watches it)
        self._stop = threading.Event()
        timeout = splitter.idle_timeout_s
        self._idle_check_s = idle_check_s or max(0.05, min(timeout / 4, 5.0))
        self._timer = threading.Thread(target=self._idle_loop, name="graphmem-idle",
                                       daemon=True)
        self._timer.start()

    # -- the write path --------------------------------------------------------------------

    def add(self, items: Sequence[MessageIn]) -> list[Message]:
        """Buffer a batch durably (all or nothing) and feed it on; returns what was new."""
        keys = sorted({(m.user_id, m.session_id) for m in items})
        with contextlib.ExitStack() as held:
            for key in keys:  # sorted: two batches never wait on each other in a circle
                held.enter_context(self._session_lock(key))
            stored, generations = self.buffer.append_stamped(items, now=self.clock())
            arrived = time.monotonic()
            with self._state:
                closed: list[ClosedEpisode] = []
                opened: list[tuple[Message, list[Message], int]] = []
                for msg in stored:
                    stamp = generations[msg.user_id]
                    if not self.freshness.current(msg.user_id, stamp):
                        continue  # forgotten meanwhile: the buffer holds what is left of it
                    closed.extend(self.splitter.feed(msg, arrived))
                    if self.on_message is not None:
                        opened.append((msg, self.splitter.open_messages(key_of(msg)), stamp))
                self._submit(closed)
            for msg, open_messages, stamp in opened:
                self.on_message(msg, open_messages, stamp)  # type: ignore[misc]
        return stored

    def flush(self, user_id: str | None = None, timeout: float | None = None,
              stall_s: float | None = None) -> list[ClosedEpisode]:
        """Close open episodes (of one user, or all) and wait until Neo4j has them —
        including those that waited in the raw buffer because the backlog was full: they
        are re-sent once it drains, and waited for too (``EpisodeWriter.drain`` says when
        it gives up). Then the settled sessions are let go in the raw buffer."""
        closed: list[ClosedEpisode] = []
        while True:
            with self._state:
                resumes = self._resumes
                now_closed = self.splitter.close_all(user_id)
                self._submit(now_closed)
                closed += now_closed
            self.writer.drain(timeout, stall_s)
            # the idle timer may have re-fed the waiting episodes meanwhile: they are open
            # again, so close and wait for them too
            if not self._resume_if_overflowed() and self._resumes == resumes:
                self._release_settled()  # flushed: another writer may have them now
                return closed

    def resume(self) -> int:
        """Re-feed every unacknowledged buffered message into fresh splitter state (at
        connect, and after an overflowed outage) — of the sessions this writer owns or can
        take; those another writer owns are its to replay. Returns how many were re-fed."""
        fed = 0
        with self._state:
            self._overflow = False
            self._resumes += 1
            arrived = time.monotonic()
            for key in self.buffer.pending_sessions():
                try:
                    pending = self.buffer.pending(*key)
                except SessionBusyError:
                    log.debug("session %s of %s is another writer's to replay", key[1], key[0])
                    continue
                self.splitter.reset(key)
                self._submit(self.splitter.feed_all(pending, arrived))
                fed += len(pending)
        return fed

    def forget_user(self, user_id: str, forgotten_at: datetime | None = None) -> Removed:
        """Drop the user's open episodes and delete their raw buffer files (but those
        another writer owns: ``Removed.busy``; ``forgotten_at``: the tombstone)."""
        with self._state:
            self.splitter.drop_user(user_id)
            removed = self.buffer.forget_user(
                user_id, None if forgotten_at is None else forgotten_at.timestamp())
        if self.on_forget is not None:
            self.on_forget(user_id)
        return removed

    def remove_messages(self, key: SessionKey, first: int, last: int) -> int:
        """Delete messages ``first..last`` of a session from the raw buffer (waits for a
        write of this process to the session to finish; ``SessionBusyError`` while another
        writer owns it)."""
        with self._session_lock(key), self._state:
            return self.buffer.remove_messages(key[0], key[1], first, last)

    def catch_up(self, runner: QueryRunner, user_ids: Iterable[str]) -> None:
        """Apply the tombstones of these users this buffer has not applied yet (at connect,
        before ``raw``): what it holds of them from before a forget elsewhere goes."""
        for user_id, at in forgotten_at(runner, user_ids).items():
            if self.buffer.forgotten_at(user_id) != at.timestamp():
                self.apply_forget(user_id, at)

    def apply_forget(self, user_id: str, forgotten_at: datetime) -> bool:
        """Another process forgot the user at ``forgotten_at``: delete this buffer's lines
        of the user from before it and feed the newer ones again (the open episodes held
        older messages too) — in the sessions it owns or can take. Whether anything was
        deleted."""
        with self._state:
            if not self.buffer.purge_before(user_id, forgotten_at.timestamp()):
                return False
            log.warning("user forgotten elsewhere at %s: what this buffer held of them from "
                        "before is deleted", forgotten_at.isoformat())
            self.splitter.drop_user(user_id)
            arrived = time.monotonic()
            for session_id in self.buffer.user_sessions(user_id):
                try:
                    pending = self.buffer.pending(user_id, session_id)
                except SessionBusyError:
                    continue  # another writer's: it applies the tombstone itself
                self._submit(self.splitter.feed_all(pending, arrived))
        if self.on_forget is not None:
            self.on_forget(user_id)
        return True

    def close(self, timeout: float = 5.0) -> None:
        self._stop.set()
        self._timer.join(timeout=timeout)

    # -- internals -------------------------------------------------------------------------

    def _session_lock(self, key: SessionKey) -> threading.Lock:
        with self._guard:
            lock = self._session_locks.get(key)
            if lock is None:
                lock = self._session_locks[key] = threading.Lock()
            return lock

    def _submit(self, closed: list[ClosedEpisode]) -> None:
        """Queue closed episodes, unless the backlog is full (then they wait in the
        buffer; everything after the first one left out waits too, so the replay cursor
        never passes an episode that was not written). An empty backlog takes any batch:
        a flush of more open episodes than ``max_backlog`` still gets written."""
        if not closed:
            return
        backlog = self.writer.backlog
        if self._overflow or (backlog and backlog + len(closed) > self.max_backlog):
            if not self._overflow:
                why = ("Neo4j is unavailable" if self.writer.unavailable is not None
                       else "messages arrive faster than episodes are embedded and written")
                log.warning("backlog of %d episodes is full (%s); new episodes wait in the "
                            "raw buffer and are sent once it drains", backlog, why)
            self._overflow = True
            return
        self.writer.submit(closed)

    def _resume_if_overflowed(self) -> bool:
        """Once the backlog has drained (and Neo4j takes writes), re-send the episodes that
        waited in the raw buffer; True when it did."""
        with self._state:
            if not (self._overflow and self.writer.unavailable is None
                    and self.writer.backlog == 0):
                return False
            log.warning("re-sending the episodes that waited in the raw buffer")
            self.resume()
            return True

    def _release_settled(self) -> None:
        """Let go of owned sessions with no open episode whose messages are all in Neo4j
        (one being written just now keeps its lock: it is tried again next time)."""
        for key in self.buffer.owned():
            lock = self._session_lock(key)
            if not lock.acquire(blocking=False):
                continue
            try:
                with self._state:
                    if not self.splitter.open_messages(key) and self.buffer.settled(key):
                        self.buffer.release(key)
            finally:
                lock.release()

    def _idle_loop(self) -> None:
        lower_thread_priority(self.nice)
        while not self._stop.wait(self._idle_check_s):
            try:
                with self._state:
                    self._submit(self.splitter.close_quiet(time.monotonic()))
                self._resume_if_overflowed()
                self._release_settled()
            except Exception:  # never let the timer die
                log.exception("idle check failed")
