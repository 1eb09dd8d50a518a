"""Raw Buffer: the append-only, durable source of truth (pipeline stage 1).

One JSONL file per session under ``buffer_dir``; each line is one ``Message`` with
a per-session ``msg_id`` that only grows. Everything is written here *before*
Neo4j sees it. ``cursor.json`` records, per session, the first ``msg_id`` not yet
acknowledged by Neo4j as part of a stored episode, so a restart replays exactly
what Neo4j lacks.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Iterable, Iterator
from datetime import datetime
from pathlib import Path

from graphmem._config import FsyncPolicy
from graphmem._errors import InvalidInputError
from graphmem._models import Message, MessageIn

_SAFE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,80}$")
CURSOR_FILE = "cursor.json"


def session_file_name(session_id: str) -> str:
    """A file name for a session: readable when safe, hashed otherwise."""
    if _SAFE_NAME.match(session_id) and not session_id.startswith("."):
        return f"{session_id}.jsonl"
    digest = hashlib.sha1(session_id.encode()).hexdigest()[:16]
    return f"s_{digest}.jsonl"


def _dedupe_key(msg: MessageIn) -> str:
    return hashlib.sha1(f"{msg.role}\0{msg.ts.isoformat()}\0{msg.content}".encode()).hexdigest()


class RawBuffer:
    """Append-only JSONL per session, with a replay cursor."""

    def __init__(self, directory: Path, fsync: FsyncPolicy = "batch") -> None:
        self.directory = Path(directory)
        self.directory.mkdir(parents=True, exist_ok=True)
        self.fsync = fsync
        self._lock = threading.Lock()
        self._next_id: dict[str, int] = {}
        self._seen: dict[str, dict[str, int]] = {}
        self._owner: dict[str, str] = {}
        self._cursor: dict[str, int] = self._read_cursor()

    # -- writing -----------------------------------------------------------------

    def append(self, messages: Iterable[MessageIn], now: datetime) -> list[Message]:
        """Write messages durably; returns them with ``msg_id`` and ``ts`` set.

        A message with an explicit ``ts`` that was already written to its session
        (same role, ts and content) is not written again: re-sending is idempotent.
        """
        out: list[Message] = []
        touched: dict[str, object] = {}
        with self._lock:
            try:
                for item in messages:
                    self._load_session(item.session_id)
                    owner = self._owner.get(item.session_id)
                    if owner is not None and owner != item.user_id:
                        raise InvalidInputError(
                            f"session {item.session_id!r} belongs to another user"
                        )
                    key = _dedupe_key(item) if item.ts is not None else None
                    if key is not None and key in self._seen[item.session_id]:
                        continue
                    msg_id = self._next_id[item.session_id]
                    msg = Message(
                        msg_id=msg_id,
                        user_id=item.user_id,
                        session_id=item.session_id,
                        role=item.role,
                        content=item.content,
                        ts=item.ts or now,
                    )
                    handle = touched.get(item.session_id)
                    if handle is None:
                        handle = open(self._path(item.session_id), "a", encoding="utf-8")  # noqa: SIM115
                        touched[item.session_id] = handle
                    handle.write(_encode(msg))  # type: ignore[attr-defined]
                    if self.fsync == "always":
                        handle.flush()  # type: ignore[attr-defined]
                        os.fsync(handle.fileno())  # type: ignore[attr-defined]
                    self._next_id[item.session_id] = msg_id + 1
                    self._owner[item.session_id] = item.user_id
                    if key is not None:
                        self._seen[item.session_id][key] = msg_id
                    out.append(msg)
            finally:
                for handle in touched.values():
                    handle.flush()  # type: ignore[attr-defined]
                    if self.fsync == "batch":
                        os.fsync(handle.fileno())  # type: ignore[attr-defined]
                    handle.close()  # type: ignore[attr-defined]
        return out

    # -- reading -----------------------------------------------------------------

    def read(self, session_id: str, start: int = 1, end: int | None = None) -> list[Message]:
        """Messages of a session with ``start <= msg_id <= end``, in order."""
        return [m for m in self.iter_session(session_id) if m.msg_id >= start and
                (end is None or m.msg_id <= end)]

    def iter_session(self, session_id: str) -> Iterator[Message]:
        path = self._path(session_id)
        if not path.exists():
            return
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if not line.endswith("\n"):
                    break  # a torn write at a crash: the message was never acknowledged
                if line.strip():
                    yield Message.model_validate_json(line)

    def sessions(self) -> list[str]:
        """Every session id that has a buffer file."""
        ids = []
        for path in sorted(self.directory.glob("*.jsonl")):
            with open(path, encoding="utf-8") as handle:
                first = handle.readline()
            if first.strip():
                ids.append(json.loads(first)["session_id"])
        return ids

    def has_session(self, session_id: str) -> bool:
        return self._path(session_id).exists()

    # -- replay cursor -------------------------------------------------------------

    def cursor(self, session_id: str) -> int:
        """First msg_id of the session that Neo4j has not acknowledged."""
        with self._lock:
            return self._cursor.get(session_id, 1)

    def pending(self, session_id: str) -> list[Message]:
        """Messages not yet acknowledged by Neo4j, in order."""
        return self.read(session_id, start=self.cursor(session_id))

    def acknowledge(self, upto: dict[str, int]) -> None:
        """Record that every message up to ``upto[session]`` is stored in Neo4j."""
        with self._lock:
            changed = False
            for session_id, last in upto.items():
                if last + 1 > self._cursor.get(session_id, 1):
                    self._cursor[session_id] = last + 1
                    changed = True
            if changed:
                tmp = self.directory / (CURSOR_FILE + ".tmp")
                tmp.write_text(json.dumps(self._cursor, sort_keys=True), encoding="utf-8")
                os.replace(tmp, self.directory / CURSOR_FILE)

    # -- internals -------------------------------------------------------------------

    def _path(self, session_id: str) -> Path:
        return self.directory / session_file_name(session_id)

    def _read_cursor(self) -> dict[str, int]:
        path = self.directory / CURSOR_FILE
        if not path.exists():
            return {}
        return {str(k): int(v) for k, v in json.loads(path.read_text(encoding="utf-8")).items()}

    def _load_session(self, session_id: str) -> None:
        if session_id in self._next_id:
            return
        last = 0
        seen: dict[str, int] = {}
        for msg in self.iter_session(session_id):
            last = msg.msg_id
            self._owner[session_id] = msg.user_id
            seen[_dedupe_key(MessageIn(**msg.model_dump(exclude={"msg_id"})))] = msg.msg_id
        self._next_id[session_id] = last + 1
        self._seen[session_id] = seen


def _encode(msg: Message) -> str:
    return msg.model_dump_json() + "\n"
