"""Raw Buffer: the append-only, durable source of truth (pipeline stage 1).

One folder per user under ``buffer_dir``, one JSONL file per session in it; each line is
one ``Message`` with a per-session ``msg_id`` that only grows. Everything is written here
*before* Neo4j sees it. Each user folder's ``cursor.json`` records, per session, the first
``msg_id`` not yet acknowledged by Neo4j as part of a stored episode, so a restart replays
exactly what Neo4j lacks.

- **One writer a session, many writers a folder.** Several processes (and several
  ``Memory`` objects) may write through one folder: each session is owned by one writer at
  a time (an exclusive lock on ``<user>/<session>.lock``, ``graphmem.ingest.locks``), taken
  at its first write and let go once everything it wrote is stored and no episode of it is
  open (``release``). A write to a session another writer owns is refused with a
  ``SessionBusyError`` naming both, before anything is written. Each writer replays only the
  sessions it can own; a crashed writer's sessions are free at once (the kernel drops its
  locks) and the next writer to connect replays them. The per-user cursor file is updated
  under a short lock, each writer changing only its own sessions' entries.
- **Readers write nothing.** ``RawBuffer(..., create=False)`` (a ``Memory`` with
  ``ingest=False``: the CLI's read commands, the worker) neither creates the folder nor
  locks or repairs anything; reading never needs a lock.
- **All or nothing.** A batch is validated and encoded in full before the first byte is
  written; a failed write is rolled back to the files' previous lengths.
- **Torn writes are recovered, never appended to.** A crash mid-write can leave a partial
  last line: it is cut off (it was never acknowledged to the caller) and reported in
  ``recovered`` by the writer that takes the session — at open for every session file that
  needs it and no other writer owns (only its last byte is read when it is whole), else
  when the session is taken; a file with no readable message is reported at open too (its
  session is never replayed, so nothing else would). An unreadable line elsewhere is
  skipped and reported, never fatal. Each problem is reported once, however often its file
  is read. An empty or corrupt cursor means "replay everything" (replay is idempotent).
- **Names never clash.** A user or session id made only of ``[A-Za-z0-9_.-]`` is its own
  file name; any other id is hashed behind a ``~``, which no plain name contains.
- **A forgotten user stays forgotten.** Each line also records when it was buffered
  (``"at"``, wall-clock seconds; ``Message`` ignores it). ``forget_user`` deletes the
  user's session files (but those another writer owns); ``purge_before`` deletes the lines
  buffered before another process forgot the user (its tombstone,
  ``graphmem.store.tombstones``) and keeps the newer ones. Either moves the user's
  ``generation`` on: what was read before it (an episode in flight, an acknowledgement) is
  stale, and an acknowledgement of a stale generation is ignored — it would write the
  cursor of a forgotten session back. After ``close`` nothing is acknowledged (a writer
  thread still running must not write a cursor of a session another writer may own by
  then).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import socket
import threading
import time
from collections.abc import Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import TextIO

from pydantic import ValidationError

from graphmem._config import FsyncPolicy
from graphmem._errors import ConfigError, InvalidInputError, SessionBusyError
from graphmem._models import Message, MessageIn, SessionKey
from graphmem.ingest import locks
from graphmem.ingest.buffer_files import (
    CURSOR_FILE,
    CURSOR_LOCK_FILE,
    LOCK_FILE,
    MIGRATE_LOCK_FILE,
    buffered_at,
    dedupe_key,
    encode,
    ends_torn,
    first_message,
    last_msg_id,
    migrate_flat_layout,
    safe_name,
)
from graphmem.ingest.buffer_removal import BufferRemovals, Removed

__all__ = ["CURSOR_FILE", "RawBuffer", "Removed", "safe_name"]
log = logging.getLogger("graphmem.ingest.buffer")


class RawBuffer(BufferRemovals):
    """Append-only JSONL per (user, session), with a replay cursor per user."""

    def __init__(self, directory: Path, fsync: FsyncPolicy = "batch", *,
                 create: bool = True) -> None:
        self.directory = Path(directory)
        self.fsync = fsync
        self.create = create
        self.recovered: list[str] = []  # what recovery had to cut or skip, for the log
        self._reported: set[str] = set()
        self.me = locks.writer_name()
        self._lock = threading.RLock()
        self._owned: dict[SessionKey, TextIO] = {}  # sessions this writer holds, their locks
        self._next_id: dict[SessionKey, int] = {}  # of owned sessions only
        self._seen: dict[SessionKey, dict[str, int]] = {}
        self._cursor: dict[SessionKey, int] = {}
        self._generation: dict[str, int] = {}  # moves on when a user's lines are removed
        self._forgotten: dict[str, float] = {}  # the tombstone (epoch s) last applied
        self._closed = False
        self._folder: TextIO | None = None
        if not create:
            return
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            folder = locks.share(self.directory / LOCK_FILE)
        except OSError as exc:
            raise ConfigError(f"cannot use {self.directory} as the raw buffer folder: "
                              f"{exc.strerror or exc}") from exc
        if isinstance(folder, str):
            raise ConfigError(
                f"the raw buffer folder {self.directory} is held whole by an older graphmem "
                f"Memory (pid {folder}); stop it, or give this process another buffer_dir")
        self._folder = folder
        if any(self.directory.glob("*.jsonl")):
            with locks.held(self.directory / MIGRATE_LOCK_FILE):
                migrate_flat_layout(self.directory)
        for user_dir in self._user_dirs():
            self._recover(user_dir)

    @property
    def location(self) -> str:
        """Where this buffer is, as a person finds it again: ``host:/absolute/folder``."""
        return f"{socket.gethostname()}:{self.directory.resolve()}"

    def close(self) -> None:
        """Let every session and the folder go. A writer thread still running after this
        acknowledges nothing: the sessions may have another writer by then."""
        with self._lock:
            self._closed = True
            for key in list(self._owned):
                self.release(key)
            if self._folder is not None:
                locks.release(self._folder)
                self._folder = None

    # -- who writes which session ------------------------------------------------

    def owns(self, key: SessionKey) -> bool:
        return key in self._owned

    def owned(self) -> list[SessionKey]:
        with self._lock:
            return list(self._owned)

    def settled(self, key: SessionKey) -> bool:
        """Everything this writer wrote to the session is acknowledged by Neo4j."""
        with self._lock:
            return key not in self._owned or self._cursor.get(key, 1) >= self._next_id[key]

    def release(self, key: SessionKey) -> None:
        """Let another writer have the session (its state is read again when taken back)."""
        with self._lock:
            handle = self._owned.pop(key, None)
            for state in (self._next_id, self._seen, self._cursor):
                state.pop(key, None)
            if handle is not None:
                locks.release(handle)

    def _own(self, key: SessionKey) -> None:
        """Take the session for this writer (its lock, cursor and ids read afresh), or raise
        ``SessionBusyError`` naming the writer that has it."""
        if key in self._owned:
            return
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            got = locks.take(path.with_suffix(".lock"), self.me)
        except OSError as exc:
            raise InvalidInputError(f"could not write to the raw buffer ({exc.strerror or exc})"
                                    ) from exc
        if isinstance(got, str):
            raise SessionBusyError(
                f"session {key[1]!r} of user {key[0]!r} is being written by another graphmem "
                f"writer ({got}); this writer is {self.me}. A session has one writer at a time: "
                "send each session's messages through one process (or one Memory), or wait "
                "until the other lets it go (once its last episode is closed and stored)",
                holder=got)
        self._owned[key] = got
        self._cursor[key] = self._read_cursor(path.parent, key[0]).get(key, 1)
        self._load_session(key)

    # -- writing -----------------------------------------------------------------

    def append(self, messages: Sequence[MessageIn], now: datetime) -> list[Message]:
        """Write messages durably; returns them with ``msg_id`` and ``ts`` set.

        All or nothing: every session is taken and every message checked and encoded
        before anything is written. A message with an explicit ``ts`` already written to
        its session (same role, ts and content) is not written again: re-sending is
        idempotent."""
        return self.append_stamped(messages, now)[0]

    def append_stamped(self, messages: Sequence[MessageIn], now: datetime
                       ) -> tuple[list[Message], dict[str, int]]:
        """``append``, and each user's ``generation`` as the lines were written."""
        if not self.create:
            raise InvalidInputError("this Memory was connected with ingest=False: it takes no "
                                    "messages (connect without ingest=False to write)")
        with self._lock:
            for key in dict.fromkeys((m.user_id, m.session_id) for m in messages):
                self._own(key)
            at = time.time()
            planned: list[tuple[SessionKey, Message, str, str | None]] = []
            next_id: dict[SessionKey, int] = {}
            batch_keys: dict[SessionKey, set[str]] = {}
            for item in messages:
                key = (item.user_id, item.session_id)
                dedupe = dedupe_key(item.role, item.ts, item.content) if item.ts else None
                if dedupe is not None and (dedupe in self._seen[key]
                                           or dedupe in batch_keys.get(key, set())):
                    continue
                msg_id = next_id.get(key, self._next_id[key])
                msg = Message(msg_id=msg_id, user_id=item.user_id, session_id=item.session_id,
                              role=item.role, content=item.content, ts=item.ts or now)
                line = encode(msg, at)
                next_id[key] = msg_id + 1
                if dedupe is not None:
                    batch_keys.setdefault(key, set()).add(dedupe)
                planned.append((key, msg, line, dedupe))
            self._write(planned)
            for key, msg, _, dedupe in planned:
                self._next_id[key] = msg.msg_id + 1
                if dedupe is not None:
                    self._seen[key][dedupe] = msg.msg_id
            users = {m.user_id for m in messages}
            return ([msg for _, msg, _, _ in planned],
                    {u: self._generation.get(u, 0) for u in users})

    def _write(self, planned: Sequence[tuple[SessionKey, Message, str, str | None]]) -> None:
        """Append the lines, each file once; on any failure cut every file back."""
        by_file: dict[SessionKey, list[str]] = {}
        for key, _, line, _ in planned:
            by_file.setdefault(key, []).append(line)
        sizes: dict[Path, int] = {}
        try:
            for key, lines in by_file.items():
                path = self._path(key)
                path.parent.mkdir(parents=True, exist_ok=True)
                sizes[path] = path.stat().st_size if path.exists() else 0
                with open(path, "a", encoding="utf-8") as handle:
                    handle.write("".join(lines))
                    handle.flush()
                    if self.fsync != "never":
                        os.fsync(handle.fileno())
        except OSError as exc:
            for path, size in sizes.items():
                with contextlib.suppress(OSError), open(path, "r+b") as handle:
                    handle.truncate(size)
            raise InvalidInputError(
                f"could not write to the raw buffer ({exc.strerror or exc}); nothing of "
                "this batch was stored") from exc

    # -- reading (no lock needed) ------------------------------------------------

    def read(self, user_id: str, session_id: str, start: int = 1, end: int | None = None,
             since: float | None = None) -> list[Message]:
        """Messages of a session with ``start <= msg_id <= end``, in order; ``since``: only
        those buffered then or later (a reader's view of a user forgotten at ``since``)."""
        path = self._path((user_id, session_id))
        return [m for m in (self._read_lines(path, since) if path.exists() else ())
                if m.msg_id >= start and (end is None or m.msg_id <= end)]

    def iter_session(self, user_id: str, session_id: str) -> Iterator[Message]:
        path = self._path((user_id, session_id))
        if path.exists():
            yield from self._read_lines(path)

    def _read_lines(self, path: Path, since: float | None = None) -> Iterator[Message]:
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.endswith("\n"):
                    return  # a torn write at a crash (cut off when a writer takes the session)
                if not line.strip() or (since is not None and buffered_at(line) < since):
                    continue
                try:
                    yield Message.model_validate_json(line)
                except (ValidationError, ValueError):
                    self._report(f"{path}:{number}: unreadable line skipped")

    def find(self, item: MessageIn) -> Message:
        """The stored message ``item`` is a copy of (a re-sent message is not stored twice)."""
        for msg in self.iter_session(item.user_id, item.session_id):
            if msg.role == item.role and msg.content == item.content and msg.ts == item.ts:
                return msg
        raise InvalidInputError("message was neither stored nor found")  # pragma: no cover

    def sessions(self) -> list[SessionKey]:
        """Every (user_id, session_id) that has a buffer file."""
        found = []
        for user_dir in self._user_dirs():
            for path in sorted(user_dir.glob("*.jsonl")):
                first = first_message(path)
                if first is not None:
                    found.append((first.user_id, first.session_id))
        return found

    def has_session(self, user_id: str, session_id: str) -> bool:
        return self._path((user_id, session_id)).exists()

    def users(self) -> list[str]:
        """Every user with a buffer folder."""
        found = []
        for user_dir in self._user_dirs():
            for path in sorted(user_dir.glob("*.jsonl")):
                first = first_message(path)
                if first is not None:
                    found.append(first.user_id)
                    break
        return found

    def user_sessions(self, user_id: str) -> list[str]:
        """The session ids of one user's buffer files."""
        user_dir = self.directory / safe_name(user_id)
        if not user_dir.is_dir():
            return []
        return sorted(first.session_id for path in user_dir.glob("*.jsonl")
                      if (first := first_message(path)) is not None
                      and first.user_id == user_id)

    def has_user(self, user_id: str) -> bool:
        """Whether the user has a buffer folder (any session or cursor)."""
        return (self.directory / safe_name(user_id)).exists()

    # -- replay cursor -------------------------------------------------------------

    def cursor(self, user_id: str, session_id: str) -> int:
        """First msg_id of the session that Neo4j has not acknowledged."""
        key = (user_id, session_id)
        with self._lock:
            if key in self._owned:
                return self._cursor.get(key, 1)
        return self._read_cursor(self._path(key).parent, user_id).get(key, 1)

    def pending_sessions(self) -> list[SessionKey]:
        """The sessions holding messages Neo4j has not acknowledged, or a torn last line (read
        without taking anything: each file's last line against its cursor)."""
        found = []
        for user_dir in self._user_dirs():
            cursors = self._read_cursor(user_dir)
            for path in sorted(user_dir.glob("*.jsonl")):
                first = first_message(path)
                if first is None:
                    continue
                key = (first.user_id, first.session_id)
                cursor = self.cursor(*key) if key in self._owned else cursors.get(key, 1)
                if last_msg_id(path) >= cursor or ends_torn(path):  # taking it repairs it
                    found.append(key)
        return found

    def pending(self, user_id: str, session_id: str) -> list[Message]:
        """Messages not yet acknowledged by Neo4j, in order; takes the session for this
        writer (``SessionBusyError`` if another one has it)."""
        with self._lock:
            self._own((user_id, session_id))
        return self.read(user_id, session_id, start=self.cursor(user_id, session_id))

    def acknowledge(self, upto: dict[SessionKey, int],
                    generations: dict[str, int] | None = None) -> None:
        """Record that every message up to ``upto[(user, session)]`` is stored in Neo4j
        (for the sessions this writer owns) — unless the user's ``generations`` (as the
        messages were read) are stale, or this buffer is closed."""
        with self._lock:
            if self._closed:
                return
            changed: dict[str, dict[SessionKey, int]] = {}
            for key, last in upto.items():
                if generations is not None and generations.get(
                        key[0], -1) != self._generation.get(key[0], 0):
                    continue
                if key in self._owned and last + 1 > self._cursor.get(key, 1):
                    self._cursor[key] = last + 1
                    changed.setdefault(key[0], {})[key] = last + 1
            for user_id, mine in changed.items():
                user_dir = self.directory / safe_name(user_id)
                user_dir.mkdir(parents=True, exist_ok=True)
                self._rewrite_cursor(user_dir, mine)

    # -- internals -------------------------------------------------------------------

    def _rewrite_cursor(self, user_dir: Path, mine: dict[SessionKey, int],
                        replace: bool = False, drop: Sequence[str] = ()) -> None:
        """Set the sessions' entries of the user's cursor file (under its lock, keeping the
        other writers' entries; ``replace``: keep only ``mine``; ``drop``: remove these
        sessions' entries)."""
        with locks.held(user_dir / CURSOR_LOCK_FILE):
            path = user_dir / CURSOR_FILE
            raw: dict[str, int] = {}
            if not replace:
                with contextlib.suppress(OSError, ValueError, AttributeError, TypeError):
                    raw = {str(k): int(v) for k, v in
                           json.loads(path.read_text(encoding="utf-8")).items()}
            raw.update({session: n for (_, session), n in mine.items()})
            for session in drop:
                raw.pop(session, None)
            tmp = user_dir / f"{CURSOR_FILE}.{os.getpid()}.{threading.get_ident()}.tmp"
            tmp.write_text(json.dumps(raw, sort_keys=True), encoding="utf-8")
            os.replace(tmp, path)

    def _path(self, key: SessionKey) -> Path:
        return self.directory / safe_name(key[0]) / f"{safe_name(key[1])}.jsonl"

    def _user_dirs(self) -> list[Path]:
        if not self.directory.is_dir():
            return []
        return sorted(p for p in self.directory.iterdir() if p.is_dir())

    def _report(self, problem: str) -> None:
        if problem in self._reported:
            return
        self._reported.add(problem)
        self.recovered.append(problem)
        log.warning("raw buffer recovery: %s", problem)

    def _recover(self, user_dir: Path) -> None:
        """At open: cut the torn last line of every session file no other writer owns, and
        report a file that holds no readable message (its session is never replayed, so
        nothing else would). Only a file that needs it is locked, for a moment."""
        for path in sorted(user_dir.glob("*.jsonl")):
            with contextlib.suppress(OSError):
                if not ends_torn(path) and (not path.stat().st_size
                                            or first_message(path) is not None):
                    continue
                got = locks.take(path.with_suffix(".lock"), self.me)
                if isinstance(got, str):
                    continue  # its writer repairs it when it takes the session
                try:
                    self._cut_torn_tail(path)
                    if path.stat().st_size and first_message(path) is None:
                        for _ in self._read_lines(path):  # reports each unreadable line
                            pass
                finally:
                    locks.release(got)

    def _read_cursor(self, user_dir: Path, user_id: str | None = None) -> dict[SessionKey, int]:
        path = user_dir / CURSOR_FILE
        if not path.exists():
            return {}
        if user_id is None:
            first = next((m for p in sorted(user_dir.glob("*.jsonl"))
                          if (m := first_message(p)) is not None), None)
            if first is None:
                return {}
            user_id = first.user_id
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            return {(user_id, str(k)): int(v) for k, v in raw.items()}
        except (OSError, ValueError, AttributeError, TypeError):
            problem = (f"{path}: unreadable cursor; every message of {user_id!r} will be "
                       "replayed (idempotent)")
            self._report(problem)
            return {}

    def _load_session(self, key: SessionKey) -> None:
        """Read an owned session: next msg_id (past every id ever acknowledged, so a
        removed message's id is never given again), dedupe keys; cut a torn last line off."""
        path = self._path(key)
        self._cut_torn_tail(path)
        last = 0
        seen: dict[str, int] = {}
        for msg in self.iter_session(*key):
            last = max(last, msg.msg_id)
            seen[dedupe_key(msg.role, msg.ts, msg.content)] = msg.msg_id
        self._next_id[key] = max(last, self._cursor.get(key, 1) - 1) + 1
        self._seen[key] = seen

    def _cut_torn_tail(self, path: Path) -> None:
        if not path.exists():
            return
        with open(path, "rb+") as handle:
            if handle.seek(0, os.SEEK_END) == 0:
                return
            handle.seek(-1, os.SEEK_END)
            if handle.read(1) == b"\n":
                return
            handle.seek(0)
            data = handle.read()
            keep = data.rfind(b"\n") + 1
            handle.truncate(keep)
            handle.flush()
            os.fsync(handle.fileno())
        self._report(f"{path}: torn last line ({len(data) - keep} bytes) cut off")
