"""Background work that yields to requests: a worker thread's lower CPU priority, and a
queue that a reader waits on for its own user only.

On a host where the application, its writers and Neo4j share a few cores, graphmem's
background work — embedding closed episodes, writing them, reading online facts — would
take the CPU a question needs: under 8 writer processes on 2 cores, a question took
p95 ~0.8 s, most of it Neo4j and the question's own embedding waiting for the CPU
(``scripts/query_under_load.py``). Each background thread therefore lowers its own
priority (``lower_thread_priority``: Linux keeps a nice value per thread; the setting
``background_nice``, 10 by default), as ``graphmem worker`` lowers its whole process:
requests (``add_message``, ``query_memory``) and Neo4j come first, the background catches
up when they are done.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable

log = logging.getLogger("graphmem.ingest.background")

_STOP = object()
_ALL = object()  # the counters of every item
_ALL_KEYS = object()  # drain(): no key given


def lower_thread_priority(nice: int) -> None:
    """Set the calling thread's nice value to the process's (its main thread's) plus
    ``nice``, at most 19 — the same however often a thread calls it (no-op for 0, or where
    the OS has no per-thread priority)."""
    if nice <= 0 or not hasattr(os, "setpriority") or not hasattr(threading, "get_native_id"):
        return
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(),
                       min(19, os.getpriority(os.PRIO_PROCESS, os.getpid()) + nice))
    except OSError as exc:  # pragma: no cover - lowering one's priority is always allowed
        log.debug("could not lower a background thread's priority: %s", exc)


class BackgroundQueue:
    """One thread applying ``handle(items)`` to submitted items, in order, as many at a time
    as are waiting (up to ``batch``): a burst of items is handled in a few calls, not one
    call each. The thread runs at ``nice`` (``lower_thread_priority``).

    ``drain()`` waits until everything submitted so far is handled, so readers see their
    own writes; ``drain(key=…)`` waits for the items of that key only, and the thread takes
    them ahead of the others (a reader does not queue behind other users' backlog; items
    of one key keep their order). A failing call is recorded in ``errors`` and its items
    skipped."""

    def __init__(self, handle: Callable[[list[object]], None], name: str,
                 batch: int = 256, nice: int = 0) -> None:
        self.handle = handle
        self.batch = batch
        self.nice = nice
        self.errors: list[str] = []
        self._abandon = False
        self._items: deque[tuple[Hashable, object]] = deque()
        self._submitted: Counter[Hashable] = Counter()
        self._handled: Counter[Hashable] = Counter()
        self._awaited: Counter[Hashable] = Counter()  # keys readers wait for
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)
        self._thread.start()

    def submit(self, item: object, key: Hashable = None) -> None:
        with self._changed:
            self._items.append((key, item))
            self._submitted[key] += 1
            self._submitted[_ALL] += 1
            self._changed.notify_all()

    def drain(self, timeout: float | None = None, key: Hashable = _ALL_KEYS) -> bool:
        """Wait until what was submitted so far — of ``key`` only, when given — is
        handled (at most ``timeout`` seconds); whether it was."""
        which = _ALL if key is _ALL_KEYS else key
        deadline = None if timeout is None else time.monotonic() + timeout
        with self._changed:
            target = self._submitted[which]
            if self._handled[which] >= target:
                return True
            self._awaited[which] += 1
            self._changed.notify_all()
            try:
                while self._handled[which] < target:
                    left = None if deadline is None else deadline - time.monotonic()
                    if left is not None and left <= 0:
                        return False
                    self._changed.wait(left)
                return True
            finally:
                self._awaited[which] -= 1
                if not self._awaited[which]:
                    del self._awaited[which]

    @property
    def abandoned(self) -> bool:
        """Closing without handling what waits: a long ``handle`` may stop early."""
        return self._abandon

    def close(self, timeout: float = 60.0, abandon: bool = False) -> None:
        """Stop the thread after the items waiting are handled (``abandon``: dropped),
        waiting for it at most ``timeout`` seconds."""
        self._abandon = abandon
        self.submit(_STOP)
        self._thread.join(timeout=timeout)

    def _take(self) -> list[tuple[Hashable, object]]:
        """Up to ``batch`` items: those of awaited keys first (each key in order)."""
        with self._changed:
            while not self._items:
                self._changed.wait()
            awaited = set(self._awaited) - {_ALL}
            first = [entry for entry in self._items if entry[0] in awaited][:self.batch]
            if first:
                taken = {id(entry) for entry in first}
                rest = [entry for entry in self._items if id(entry) not in taken]
                self._items = deque(rest)
            batch = first
            while len(batch) < self.batch and self._items:
                batch.append(self._items.popleft())
            return batch

    def _loop(self) -> None:
        lower_thread_priority(self.nice)
        while True:
            entries = self._take()
            stop = any(item is _STOP for _, item in entries)
            work = [item for _, item in entries if item is not _STOP]
            try:
                if work and not self._abandon:
                    self.handle(work)
            except Exception as exc:  # recorded, never kills the thread
                self.errors.append(repr(exc))
            finally:
                with self._changed:
                    for key, _ in entries:
                        self._handled[key] += 1
                        self._handled[_ALL] += 1
                    self._changed.notify_all()
            if stop:
                return
