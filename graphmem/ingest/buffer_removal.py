"""What leaves a raw buffer: a restored session written back, messages deleted (a deleted
episode), a user forgotten here, and the lines of a user forgotten elsewhere (``purge_before``)
— with the user's ``generation`` that moves on whenever lines of the user are deleted, so what
was read before is known to be stale. A mixin of ``graphmem.ingest.buffer.RawBuffer`` (which
holds the state and the locks); each removal takes the session from its writer first, and a
session another writer owns is left to it."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from graphmem._errors import InvalidInputError
from graphmem._models import Message, SessionKey
from graphmem.ingest import locks
from graphmem.ingest.buffer_files import (
    buffered_at,
    encode,
    first_message,
    msg_id_of,
    replace_file,
    safe_name,
)


@dataclass(frozen=True)
class Removed:
    """What a removal from the buffer did: messages and sessions deleted, and the sessions
    it could not touch because another writer owns them, with that writer's name."""

    messages: int = 0
    sessions: int = 0
    busy: tuple[tuple[str, str], ...] = ()  # (session_id, the writer that owns it)


class BufferRemovals:
    """The removals of ``RawBuffer`` (its state, declared here for the reader)."""

    directory: Path
    me: str
    _lock: threading.RLock
    _owned: dict[SessionKey, TextIO]
    _next_id: dict[SessionKey, int]
    _seen: dict[SessionKey, dict[str, int]]
    _cursor: dict[SessionKey, int]
    _generation: dict[str, int]
    _forgotten: dict[str, float]

    if TYPE_CHECKING:  # implemented by RawBuffer
        def _path(self, key: SessionKey) -> Path: ...
        def _own(self, key: SessionKey) -> None: ...
        def release(self, key: SessionKey) -> None: ...
        def acknowledge(self, upto: dict[SessionKey, int],
                        generations: dict[str, int] | None = None) -> None: ...
        def _write(self, planned: Sequence[tuple[SessionKey, Message, str, str | None]]
                   ) -> None: ...
        def _read_lines(self, path: Path) -> Iterator[Message]: ...
        def _load_session(self, key: SessionKey) -> None: ...
        def _read_cursor(self, user_dir: Path, user_id: str | None = None
                         ) -> dict[SessionKey, int]: ...
        def _rewrite_cursor(self, user_dir: Path, mine: dict[SessionKey, int],
                            replace: bool = False, drop: Sequence[str] = ()) -> None: ...

    def restore_session(self, user_id: str, session_id: str, messages: Sequence[Message],
                        cursor: int) -> None:
        """Write a session's exported messages back verbatim (their own ``msg_id``s) with
        its replay cursor; refuses a session that already has a buffer file."""
        key = (user_id, session_id)
        with self._lock:
            if self._path(key).exists():
                raise InvalidInputError(
                    f"session {session_id!r} of user {user_id!r} already has a raw buffer")
            ids = [m.msg_id for m in messages]
            if ids != sorted(set(ids)) or any(
                    (m.user_id, m.session_id) != key for m in messages):
                raise InvalidInputError(
                    f"the buffer lines of session {session_id!r} are not one session's "
                    "messages in msg_id order")
            self._own(key)
            at = time.time()  # restored now: newer than any tombstone of the user
            try:
                self._write([(key, m, encode(m, at), None) for m in messages])
                if cursor > 1:
                    self.acknowledge({key: cursor - 1})
            finally:
                self.release(key)  # its pending messages: replayed by the next connect

    def remove_messages(self, user_id: str, session_id: str, first: int, last: int) -> int:
        """Delete the messages ``first..last`` of a session (the file is rewritten without
        them; later messages keep their ids). ``SessionBusyError`` while another writer
        owns the session. Returns how many lines went."""
        key = (user_id, session_id)
        path = self._path(key)
        with self._lock:
            if not path.exists():
                return 0
            borrowed = key not in self._owned
            self._own(key)
            try:
                kept: list[str] = []
                removed = 0
                with open(path, encoding="utf-8", errors="surrogateescape") as handle:
                    for line in handle:
                        msg_id = msg_id_of(line)
                        if msg_id is not None and first <= msg_id <= last:
                            removed += 1
                        else:
                            kept.append(line)
                if removed:
                    replace_file(path, "".join(kept))
                    self._seen.pop(key, None)
                    self._load_session(key)
                return removed
            finally:
                if borrowed:
                    self.release(key)

    def forget_user(self, user_id: str, forgotten_at: float | None = None) -> Removed:
        """Delete the user's session files and cursors — all but those another writer owns
        (reported in ``busy``: that writer applies the tombstone when its next write is
        refused); the user's folder goes once nothing of it is left. ``forgotten_at``: the
        tombstone this applies (epoch seconds). The user's generation moves on."""
        user_dir = self.directory / safe_name(user_id)
        messages = sessions = 0
        busy: list[tuple[str, str]] = []
        with self._lock:
            self._generation[user_id] = self._generation.get(user_id, 0) + 1
            if forgotten_at is not None:
                self._forgotten[user_id] = forgotten_at
            for key in [k for k in self._owned if k[0] == user_id and not
                        self._path(k).exists()]:
                self.release(key)  # taken, nothing written yet
            if not user_dir.is_dir():
                return Removed()
            for path in sorted(user_dir.glob("*.jsonl")):
                first = first_message(path)
                key = (user_id, first.session_id if first else path.stem)
                handle = self._owned.pop(key, None)
                for state in (self._next_id, self._seen, self._cursor):
                    state.pop(key, None)
                got = handle or locks.take(path.with_suffix(".lock"), self.me)
                if isinstance(got, str):
                    busy.append((key[1], got))
                    continue
                messages += sum(1 for _ in self._read_lines(path)) if first else 0
                path.unlink(missing_ok=True)
                sessions += 1
                locks.release(got, remove=path.with_suffix(".lock"))
            if busy:
                self._rewrite_cursor(user_dir, {k: v for k, v in self._read_cursor(
                    user_dir, user_id).items() if k[1] in {s for s, _ in busy}}, replace=True)
            else:
                shutil.rmtree(user_dir, ignore_errors=True)
        return Removed(messages, sessions, tuple(busy))

    def purge_before(self, user_id: str, forgotten_at: float) -> bool:
        """Apply a tombstone written elsewhere: delete the user's lines buffered before
        ``forgotten_at`` (epoch seconds; a line that does not say when is older), keep the
        newer ones — in the sessions this writer owns or can take (another writer's are
        its to purge, when its own write is refused). Whether any line went; if so the
        user's generation moves on and the sessions touched are let go (read afresh when
        taken again; an emptied one's msg_ids start from 1 again)."""
        user_dir = self.directory / safe_name(user_id)
        with self._lock:
            self._forgotten[user_id] = forgotten_at
            touched: list[SessionKey] = []
            emptied: list[str] = []
            for path in sorted(user_dir.glob("*.jsonl")) if user_dir.is_dir() else []:
                first = first_message(path)
                key = (user_id, first.session_id if first else path.stem)
                mine = key in self._owned
                got = self._owned[key] if mine else locks.take(path.with_suffix(".lock"),
                                                                self.me)
                if isinstance(got, str):
                    continue
                self._owned[key] = got
                with open(path, encoding="utf-8", errors="surrogateescape") as handle:
                    lines = handle.readlines()
                kept = [line for line in lines if buffered_at(line) >= forgotten_at]
                if len(kept) == len(lines):
                    if not mine:  # taken only to look: let it go again
                        self._owned.pop(key)
                        locks.release(got)
                    continue
                touched.append(key)
                if kept:
                    replace_file(path, "".join(kept))
                else:
                    path.unlink()
                    emptied.append(key[1])
            if not touched:
                return False
            if emptied:
                self._rewrite_cursor(user_dir, {}, drop=emptied)
            for key in touched:
                handle = self._owned.pop(key)
                for state in (self._next_id, self._seen, self._cursor):
                    state.pop(key, None)
                locks.release(handle, remove=self._path(key).with_suffix(".lock")
                              if key[1] in emptied else None)
            self._generation[user_id] = self._generation.get(user_id, 0) + 1
            self._drop_if_empty(user_dir)
            return True

    def _drop_if_empty(self, user_dir: Path) -> None:
        """Remove a user's folder left without session files — unless a writer holds a
        session lock in it (it is about to write there)."""
        if any(user_dir.glob("*.jsonl")):
            return
        held: list[tuple[TextIO, Path]] = []
        try:
            for path in sorted(user_dir.glob("*.lock")):
                if path.name.startswith("."):
                    continue  # the cursor's short lock
                got = locks.take(path, self.me)
                if isinstance(got, str):
                    return
                held.append((got, path))
            shutil.rmtree(user_dir, ignore_errors=True)
        finally:
            for handle, path in held:
                locks.release(handle, remove=path)

    def generation(self, user_id: str) -> int:
        """Moves on whenever lines of the user are deleted (a forget, a purge)."""
        return self._generation.get(user_id, 0)

    def forgotten_at(self, user_id: str) -> float | None:
        """The tombstone of the user this buffer last applied (epoch seconds), if any."""
        return self._forgotten.get(user_id)
