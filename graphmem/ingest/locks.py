"""File locks of a raw buffer folder: who writes which session, and short critical sections.

Several processes (an application's workers, ``graphmem ingest``, ``graphmem mcp``) may
write through one buffer folder; each **session** has one writer at a time. A writer
holds an exclusive ``flock`` on the session's lock file (``<user>/<session>.lock``) from its
first write until it lets the session go, and writes who it is into the file, so a second
writer is refused with an error that names both. The kernel drops the lock of a writer that
dies, so a crashed writer's sessions are free again at once.

A lock file may be removed (``forget_user``) while another writer waits to lock it: after
locking, ``take`` checks that the path still names the file it locked, and tries again if
not — two writers can never hold two different files of one path.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
import threading
from collections.abc import Iterator
from itertools import count
from pathlib import Path
from typing import TextIO

_instances = count(1)
_instances_lock = threading.Lock()


def writer_name() -> str:
    """How a writer names itself in its lock files: process, host and which raw buffer of
    the process (two ``Memory`` objects of one process are two writers)."""
    with _instances_lock:
        number = next(_instances)
    return f"pid {os.getpid()} on {socket.gethostname()} (raw buffer #{number} of that process)"


def take(path: Path, me: str) -> TextIO | str:
    """Lock ``path`` for writing without waiting: the open, locked file (``me`` written in
    it), or — when another writer holds it — that writer's name."""
    while True:
        handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held until release
        holder = _lock_now(handle, fcntl.LOCK_EX, "a writer that did not say who it is")
        if holder is not None:
            return holder
        try:
            same = os.fstat(handle.fileno()).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            handle.seek(0)
            handle.truncate()
            handle.write(me)
            handle.flush()
            return handle
        handle.close()  # removed meanwhile: lock the file now at the path


def release(handle: TextIO, remove: Path | None = None) -> None:
    """Let the lock go; with ``remove``, delete the lock file first (while still held)."""
    if remove is not None:
        with contextlib.suppress(FileNotFoundError):
            remove.unlink()
    with contextlib.suppress(OSError):
        fcntl.flock(handle, fcntl.LOCK_UN)
    handle.close()


@contextlib.contextmanager
def held(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` for a short critical section (waits for it)."""
    with open(path, "a", encoding="utf-8") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def share(path: Path) -> TextIO | str:
    """A shared lock on ``path``, held while a writer has the folder open: an older graphmem
    that locked the whole folder for itself (exclusively) and this one refuse each other.
    Returns the open file, or the pid the older owner wrote there."""
    handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held until close
    holder = _lock_now(handle, fcntl.LOCK_SH, "unknown")
    return handle if holder is None else holder


def _lock_now(handle: TextIO, mode: int, unnamed: str) -> str | None:
    """Lock ``handle`` (``mode``) without waiting: None when it is locked, else the name the
    holder wrote in the file (``unnamed`` if none), the file closed."""
    try:
        fcntl.flock(handle, mode | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip() or unnamed
        handle.close()
        return holder
    return None
