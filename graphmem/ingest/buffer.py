"""Raw Buffer: the append-only, durable source of truth (pipeline stage 1).

One folder per user under ``buffer_dir``, one JSONL file per session in it; each line is
one ``Message`` with a per-session ``msg_id`` that only grows. Everything is written here
*before* Neo4j sees it. Each user folder's ``cursor.json`` records, per session, the first
``msg_id`` not yet acknowledged by Neo4j as part of a stored episode, so a restart replays
exactly what Neo4j lacks.

- **One owner.** A buffer folder belongs to one ``Memory`` at a time: an exclusive lock on
  ``buffer_dir/.lock`` is taken on open, and a second owner (another process, or another
  ``Memory`` in this one) gets a ``ConfigError`` naming the holder. Each application
  instance keeps its own folder.
- **All or nothing.** A batch is validated and encoded in full before the first byte is
  written; a failed write is rolled back to the files' previous lengths.
- **Torn writes are recovered, never appended to.** A crash mid-write can leave a partial
  last line: on open every session file's is cut off (it was never acknowledged to the
  caller) and reported in ``recovered``, and so is a file with no readable message; an
  unreadable line elsewhere is skipped and reported, never fatal. Each problem is reported
  once, however often its file is read. An empty or corrupt cursor means "replay
  everything" (replay is idempotent).
- **Names never clash.** A user or session id made only of ``[A-Za-z0-9_.-]`` is its own
  file name; any other id is hashed behind a ``~``, which no plain name contains.
- **A forgotten user stays forgotten.** Each line also records when it was buffered
  (``"at"``, wall-clock seconds; ``Message`` ignores it). ``forget_user`` deletes the
  user's folder; ``purge_before`` deletes the lines buffered before another process forgot
  the user (its tombstone, ``graphmem.store.tombstones``) and keeps the newer ones. Either
  moves the user's ``generation`` on: what was read before it (an episode in flight, an
  acknowledgement) is stale, and an acknowledgement of a stale generation is ignored — it
  would write the cursor of a forgotten session back.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import re
import shutil
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path

from pydantic import ValidationError

from graphmem._config import FsyncPolicy
from graphmem._errors import ConfigError, InvalidInputError
from graphmem._models import Message, MessageIn

log = logging.getLogger("graphmem.ingest.buffer")

_SAFE_NAME = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,79}$")
CURSOR_FILE = "cursor.json"
LOCK_FILE = ".lock"
SessionKey = tuple[str, str]  # (user_id, session_id)


def safe_name(identifier: str) -> str:
    """A file name for an id: the id itself when plain, else ``~`` and a hash of it."""
    if _SAFE_NAME.match(identifier):
        return identifier
    return "~" + hashlib.sha256(identifier.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _dedupe_key(role: str, ts: datetime, content: str) -> str:
    raw = f"{role}\0{ts.isoformat()}\0{content}".encode("utf-8", "surrogatepass")
    return hashlib.sha1(raw).hexdigest()


class RawBuffer:
    """Append-only JSONL per (user, session), with a replay cursor per user."""

    def __init__(self, directory: Path, fsync: FsyncPolicy = "batch") -> None:
        self.directory = Path(directory)
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            self._lock_handle = open(self.directory / LOCK_FILE, "a+", encoding="utf-8")  # noqa: SIM115
        except OSError as exc:
            raise ConfigError(f"cannot use {self.directory} as the raw buffer folder: "
                              f"{exc.strerror or exc}") from exc
        try:
            fcntl.flock(self._lock_handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self._lock_handle.seek(0)
            holder = self._lock_handle.read().strip() or "unknown"
            self._lock_handle.close()
            raise ConfigError(
                f"the raw buffer folder {self.directory} is in use by another graphmem "
                f"Memory (pid {holder}); give each process (and each Memory) its own "
                "buffer_dir") from None
        self._lock_handle.seek(0)
        self._lock_handle.truncate()
        self._lock_handle.write(str(os.getpid()))
        self._lock_handle.flush()
        self.fsync = fsync
        self.recovered: list[str] = []  # what recovery had to cut or skip, for the log
        self._reported: set[str] = set()
        self._lock = threading.Lock()
        self._closed = False
        self._next_id: dict[SessionKey, int] = {}
        self._seen: dict[SessionKey, dict[str, int]] = {}
        self._cursor: dict[SessionKey, int] = {}
        self._generation: dict[str, int] = {}  # moves on when a user's lines are removed
        self._forgotten: dict[str, float] = {}  # the tombstone (epoch s) last applied
        self._migrate_flat_layout()
        for user_dir in self._user_dirs():
            self._recover(user_dir)
            self._cursor.update(self._read_cursor(user_dir))

    def close(self) -> None:
        """Release the folder. A writer thread still running after this acknowledges
        nothing: the folder may have another owner by then."""
        with self._lock:
            self._closed = True
            with contextlib.suppress(OSError):
                fcntl.flock(self._lock_handle, fcntl.LOCK_UN)
            self._lock_handle.close()

    # -- writing -----------------------------------------------------------------

    def append(self, messages: Sequence[MessageIn], now: datetime) -> list[Message]:
        """Write messages durably; returns them with ``msg_id`` and ``ts`` set.

        All or nothing: every message is checked and encoded before anything is written.
        A message with an explicit ``ts`` already written to its session (same role, ts
        and content) is not written again: re-sending is idempotent."""
        return self.append_stamped(messages, now)[0]

    def append_stamped(self, messages: Sequence[MessageIn], now: datetime
                       ) -> tuple[list[Message], dict[str, int]]:
        """``append``, and each user's ``generation`` as the lines were written."""
        with self._lock:
            at = time.time()
            planned: list[tuple[SessionKey, Message, str, str | None]] = []
            next_id: dict[SessionKey, int] = {}
            batch_keys: dict[SessionKey, set[str]] = {}
            for item in messages:
                key = (item.user_id, item.session_id)
                self._load_session(key)
                dedupe = _dedupe_key(item.role, item.ts, item.content) if item.ts else None
                if dedupe is not None and (dedupe in self._seen[key]
                                           or dedupe in batch_keys.get(key, set())):
                    continue
                msg_id = next_id.get(key, self._next_id[key])
                msg = Message(msg_id=msg_id, user_id=item.user_id, session_id=item.session_id,
                              role=item.role, content=item.content, ts=item.ts or now)
                line = _encode(msg, at)
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

    # -- reading -----------------------------------------------------------------

    def read(self, user_id: str, session_id: str, start: int = 1,
             end: int | None = None) -> list[Message]:
        """Messages of a session with ``start <= msg_id <= end``, in order."""
        return [m for m in self.iter_session(user_id, session_id) if m.msg_id >= start and
                (end is None or m.msg_id <= end)]

    def iter_session(self, user_id: str, session_id: str) -> Iterator[Message]:
        path = self._path((user_id, session_id))
        if path.exists():
            yield from self._read_lines(path)

    def _read_lines(self, path: Path) -> Iterator[Message]:
        with open(path, encoding="utf-8", errors="surrogateescape") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.endswith("\n"):
                    return  # a torn write at a crash (cut off when the session loads)
                if not line.strip():
                    continue
                try:
                    yield Message.model_validate_json(line)
                except (ValidationError, ValueError):
                    self._report(f"{path}:{number}: unreadable line skipped")

    def sessions(self) -> list[SessionKey]:
        """Every (user_id, session_id) that has a buffer file."""
        found = []
        for user_dir in self._user_dirs():
            for path in sorted(user_dir.glob("*.jsonl")):
                first = _first_message(path)
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
                first = _first_message(path)
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
                      if (first := _first_message(path)) is not None
                      and first.user_id == user_id)

    def has_user(self, user_id: str) -> bool:
        """Whether the user has a buffer folder (any session or cursor)."""
        return (self.directory / safe_name(user_id)).exists()

    def restore_session(self, user_id: str, session_id: str, messages: Sequence[Message],
                        cursor: int) -> None:
        """Write a session's exported messages back verbatim (their own ``msg_id``s) with
        its replay cursor; refuses a session that already has a buffer file."""
        with self._lock:
            key = (user_id, session_id)
            path = self._path(key)
            if path.exists():
                raise InvalidInputError(
                    f"session {session_id!r} of user {user_id!r} already has a raw buffer")
            ids = [m.msg_id for m in messages]
            if ids != sorted(set(ids)) or any(
                    (m.user_id, m.session_id) != key for m in messages):
                raise InvalidInputError(
                    f"the buffer lines of session {session_id!r} are not one session's "
                    "messages in msg_id order")
            at = time.time()  # restored now: newer than any tombstone of the user
            self._write([(key, m, _encode(m, at), None) for m in messages])
            self._next_id.pop(key, None)
            self._seen.pop(key, None)
        if cursor > 1:
            self.acknowledge({key: cursor - 1})

    def forget_user(self, user_id: str, forgotten_at: float | None = None) -> None:
        """Delete the user's whole buffer folder (sessions and cursor); ``forgotten_at``:
        the tombstone this applies (epoch seconds)."""
        with self._lock:
            shutil.rmtree(self.directory / safe_name(user_id), ignore_errors=True)
            self._drop_state(user_id, lambda key: True)
            if forgotten_at is not None:
                self._forgotten[user_id] = forgotten_at

    def purge_before(self, user_id: str, forgotten_at: float) -> bool:
        """Apply a tombstone written elsewhere: delete the user's lines buffered before
        ``forgotten_at`` (epoch seconds; a line that does not say when is older), keep the
        newer ones. Whether any line went."""
        with self._lock:
            self._forgotten[user_id] = forgotten_at
            user_dir = self.directory / safe_name(user_id)
            touched: dict[SessionKey, bool] = {}  # session -> emptied
            for path in sorted(user_dir.glob("*.jsonl")) if user_dir.is_dir() else []:
                with open(path, encoding="utf-8", errors="surrogateescape") as handle:
                    lines = handle.readlines()
                kept = [line for line in lines if _buffered_at(line) >= forgotten_at]
                if len(kept) == len(lines):
                    continue
                first = _first_message(path)
                if kept:
                    tmp = path.with_suffix(".jsonl.tmp")
                    tmp.write_text("".join(kept), encoding="utf-8", errors="surrogateescape")
                    os.replace(tmp, path)
                else:
                    path.unlink()
                if first is not None:
                    touched[(user_id, first.session_id)] = not kept
            if not touched:
                return False
            if not any(user_dir.glob("*.jsonl")):
                shutil.rmtree(user_dir, ignore_errors=True)
                self._drop_state(user_id, lambda key: True)
                return True
            self._drop_state(user_id, touched.__contains__, cursors=False)
            for key in [k for k, emptied in touched.items() if emptied]:
                self._cursor.pop(key, None)  # its msg_ids start from 1 again
            self._save_cursor(user_id)
            return True

    def generation(self, user_id: str) -> int:
        """Moves on whenever lines of the user are deleted (a forget, a purge)."""
        return self._generation.get(user_id, 0)

    def forgotten_at(self, user_id: str) -> float | None:
        """The tombstone of the user this buffer last applied (epoch seconds), if any."""
        return self._forgotten.get(user_id)

    def _drop_state(self, user_id: str, which: Callable[[SessionKey], bool],
                    cursors: bool = True) -> None:
        """Forget the in-memory state of the user's sessions ``which`` picks (read again
        from the files when needed) and move the user's generation on."""
        for key in [k for k in self._next_id if k[0] == user_id and which(k)]:
            self._next_id.pop(key, None)
            self._seen.pop(key, None)
        if cursors:
            for key in [k for k in self._cursor if k[0] == user_id and which(k)]:
                self._cursor.pop(key)
        self._generation[user_id] = self._generation.get(user_id, 0) + 1

    # -- replay cursor -------------------------------------------------------------

    def cursor(self, user_id: str, session_id: str) -> int:
        """First msg_id of the session that Neo4j has not acknowledged."""
        with self._lock:
            return self._cursor.get((user_id, session_id), 1)

    def pending(self, user_id: str, session_id: str) -> list[Message]:
        """Messages not yet acknowledged by Neo4j, in order."""
        with self._lock:
            self._load_session((user_id, session_id))
        return self.read(user_id, session_id, start=self.cursor(user_id, session_id))

    def acknowledge(self, upto: dict[SessionKey, int],
                    generations: dict[str, int] | None = None) -> None:
        """Record that every message up to ``upto[(user, session)]`` is stored in Neo4j —
        unless the user's ``generations`` (as the messages were read) are stale."""
        with self._lock:
            if self._closed:
                return
            changed: set[str] = set()
            for key, last in upto.items():
                if generations is not None and generations.get(
                        key[0], -1) != self._generation.get(key[0], 0):
                    continue
                if last + 1 > self._cursor.get(key, 1):
                    self._cursor[key] = last + 1
                    changed.add(key[0])
            for user_id in changed:
                self._save_cursor(user_id)

    def _save_cursor(self, user_id: str) -> None:
        user_dir = self.directory / safe_name(user_id)
        user_dir.mkdir(parents=True, exist_ok=True)
        mine = {s: n for (u, s), n in self._cursor.items() if u == user_id}
        tmp = user_dir / (CURSOR_FILE + ".tmp")
        tmp.write_text(json.dumps(mine, sort_keys=True), encoding="utf-8")
        os.replace(tmp, user_dir / CURSOR_FILE)

    # -- internals -------------------------------------------------------------------

    def _path(self, key: SessionKey) -> Path:
        return self.directory / safe_name(key[0]) / f"{safe_name(key[1])}.jsonl"

    def _user_dirs(self) -> list[Path]:
        return sorted(p for p in self.directory.iterdir() if p.is_dir())

    def _report(self, problem: str) -> None:
        if problem in self._reported:
            return
        self._reported.add(problem)
        self.recovered.append(problem)
        log.warning("raw buffer recovery: %s", problem)

    def _recover(self, user_dir: Path) -> None:
        """At open: cut every session file's torn last line, and report a file that holds
        no readable message (its session is never replayed, so nothing else would)."""
        for path in sorted(user_dir.glob("*.jsonl")):
            self._cut_torn_tail(path)
            if path.stat().st_size and _first_message(path) is None:
                for _ in self._read_lines(path):  # reports each unreadable line
                    pass

    def _read_cursor(self, user_dir: Path) -> dict[SessionKey, int]:
        path = user_dir / CURSOR_FILE
        if not path.exists():
            return {}
        first = next((m for p in sorted(user_dir.glob("*.jsonl"))
                      if (m := _first_message(p)) is not None), None)
        if first is None:
            return {}
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            return {(first.user_id, str(k)): int(v) for k, v in raw.items()}
        except (ValueError, AttributeError, TypeError):
            self._report(f"{path}: unreadable cursor; every message of {first.user_id!r} "
                         "will be replayed (idempotent)")
            return {}

    def _load_session(self, key: SessionKey) -> None:
        """Read a session once: next msg_id, dedupe keys; cut a torn last line off."""
        if key in self._next_id:
            return
        path = self._path(key)
        self._cut_torn_tail(path)
        last = 0
        seen: dict[str, int] = {}
        for msg in self.iter_session(*key):
            last = max(last, msg.msg_id)
            seen[_dedupe_key(msg.role, msg.ts, msg.content)] = msg.msg_id
        self._next_id[key] = last + 1
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

    def _migrate_flat_layout(self) -> None:
        """Buffers written before sessions were keyed by user (``<dir>/<session>.jsonl``
        and one ``cursor.json``) move into per-user folders, cursors with them."""
        flat = sorted(self.directory.glob("*.jsonl"))
        if not flat:
            return
        old_cursor: dict[str, int] = {}
        cursor_path = self.directory / CURSOR_FILE
        with contextlib.suppress(OSError, ValueError, AttributeError):
            old_cursor = {str(k): int(v) for k, v in
                          json.loads(cursor_path.read_text(encoding="utf-8")).items()}
        moved: dict[SessionKey, int] = {}
        for path in flat:
            first = _first_message(path)
            if first is None:
                continue
            key = (first.user_id, first.session_id)
            target = self._path(key)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)
            moved[key] = old_cursor.get(first.session_id, 1) - 1
        with contextlib.suppress(FileNotFoundError):
            cursor_path.unlink()
        self._cursor.clear()
        self.acknowledge({k: v for k, v in moved.items() if v > 0})
        log.info("raw buffer: moved %d session files into per-user folders", len(moved))


def _first_message(path: Path) -> Message | None:
    with open(path, encoding="utf-8", errors="surrogateescape") as handle:
        for line in handle:
            if not line.endswith("\n"):
                return None
            with contextlib.suppress(ValidationError, ValueError):
                return Message.model_validate_json(line)
    return None


def _buffered_at(line: str) -> float:
    """When a line was buffered (epoch seconds); 0 when it does not say."""
    try:
        at = json.loads(line).get("at")
    except (ValueError, AttributeError):
        return 0.0
    return float(at) if isinstance(at, int | float) else 0.0


def _encode(msg: Message, at: float) -> str:
    """One JSON line, with when it was buffered (``at``); text that cannot be UTF-8 (a
    lone surrogate) is refused here, before anything of its batch is written."""
    line = msg.model_dump_json()[:-1] + f',"at":{at!r}}}' + "\n"
    try:
        line.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInputError(
            f"message {msg.msg_id} of session {msg.session_id!r} is not valid text "
            f"({exc.reason} at position {exc.start}); nothing of this batch was stored"
        ) from None
    return line
