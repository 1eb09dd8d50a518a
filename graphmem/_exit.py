"""Clean exits. A ``Memory`` still open when the interpreter exits — the application
raised before ``close()``, or never called it — has its background threads stopped by an
``atexit`` hook, while Python is still whole: native code (the embedder's onnxruntime
session in the writer thread) must not be running when the process's C++ destructors
run, or it ends in "terminate called without an active exception" and a core dump
instead of the application's own error and exit status.

Nothing is flushed at exit (Neo4j may be slow or gone, and the exit must not hang): what
was not yet written waits in the raw buffer, and the next ``connect`` replays it.
"""

from __future__ import annotations

import atexit
import logging
import threading
import weakref
from typing import Protocol

log = logging.getLogger("graphmem")


class Stoppable(Protocol):
    def _stop(self, abandon: bool) -> None: ...


_open: weakref.WeakSet[Stoppable] = weakref.WeakSet()
_lock = threading.Lock()


def track(memory: Stoppable) -> None:
    """Stop ``memory``'s threads at exit unless it is closed before (``untrack``)."""
    with _lock:
        _open.add(memory)


def untrack(memory: Stoppable) -> None:
    with _lock:
        _open.discard(memory)


def _stop_open_memories() -> None:
    with _lock:
        left = list(_open)
        _open.clear()
    for memory in left:
        log.info("a graphmem Memory was not closed at exit: its threads are stopped; what "
                 "was not yet in Neo4j waits in the raw buffer for the next connect")
        try:
            memory._stop(abandon=True)
        except Exception:  # exiting anyway: say so, never mask the application's error
            log.warning("stopping an unclosed graphmem Memory at exit failed", exc_info=True)


# Run with threading's own exit calls, before Python joins its threads and before
# concurrent.futures shuts its pools down (the e5 embedder's threads: a writer still
# embedding then finds its pool gone), not with atexit, which runs after both.
# threading._register_atexit is what concurrent.futures itself uses (3.9+); atexit otherwise.
_register = getattr(threading, "_register_atexit", None)
if _register is not None:
    _register(_stop_open_memories)
else:  # pragma: no cover - older or other Pythons
    atexit.register(_stop_open_memories)

