"""The raw buffer's files, line by line: their names, how a message is written and read
back, a file's last message without reading it all, an atomic rewrite, and the move of
buffers written in the old flat layout (``graphmem.ingest.buffer`` holds the logic)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
from datetime import datetime
from pathlib import Path

from pydantic import ValidationError

from graphmem._errors import InvalidInputError
from graphmem._models import Message

log = logging.getLogger("graphmem.ingest.buffer")

_SAFE_NAME = re.compile(r"^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,79}$")
CURSOR_FILE = "cursor.json"
CURSOR_LOCK_FILE = ".cursor.lock"
LOCK_FILE = ".lock"  # shared by this graphmem's writers; an older one locked it whole
MIGRATE_LOCK_FILE = ".migrate.lock"
TAIL_BYTES = 65_536  # read from a file's end to find its last message


def safe_name(identifier: str) -> str:
    """A file name for an id: the id itself when plain, else ``~`` and a hash of it."""
    if _SAFE_NAME.match(identifier):
        return identifier
    return "~" + hashlib.sha256(identifier.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def dedupe_key(role: str, ts: datetime, content: str) -> str:
    raw = f"{role}\0{ts.isoformat()}\0{content}".encode("utf-8", "surrogatepass")
    return hashlib.sha1(raw).hexdigest()


def encode(msg: Message, at: float) -> str:
    """One JSON line, with when it was buffered (``at``, epoch seconds; ``Message`` ignores
    it); text that cannot be UTF-8 (a lone surrogate) is refused here, before anything of
    its batch is written."""
    line = msg.model_dump_json()[:-1] + f',"at":{at!r}}}' + "\n"
    try:
        line.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInputError(
            f"message {msg.msg_id} of session {msg.session_id!r} is not valid text "
            f"({exc.reason} at position {exc.start}); nothing of this batch was stored"
        ) from None
    return line


def buffered_at(line: str) -> float:
    """When a line was buffered (epoch seconds); 0 when it does not say."""
    try:
        at = json.loads(line).get("at")
    except (ValueError, AttributeError):
        return 0.0
    return float(at) if isinstance(at, int | float) else 0.0


def first_message(path: Path) -> Message | None:
    with open(path, encoding="utf-8", errors="surrogateescape") as handle:
        for line in handle:
            if not line.endswith("\n"):
                return None
            with contextlib.suppress(ValidationError, ValueError):
                return Message.model_validate_json(line)
    return None


def msg_id_of(line: str | bytes) -> int | None:
    """The ``msg_id`` of a buffer line, or None for a line that is not a message."""
    try:
        value = json.loads(line).get("msg_id")
    except (ValueError, AttributeError):
        return None
    return value if isinstance(value, int) else None


def last_msg_id(path: Path) -> int:
    """The highest ``msg_id`` in a file, read from its end (the whole file only when its
    last line is longer than ``TAIL_BYTES``); 0 for a file without messages."""
    with open(path, "rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        handle.seek(max(0, size - TAIL_BYTES))
        lines = handle.read().split(b"\n")[:-1]  # the part after the last newline is torn
        for line in reversed(lines if size <= TAIL_BYTES else lines[1:]):
            if (found := msg_id_of(line)) is not None:
                return found
        if size <= TAIL_BYTES:
            return 0
        handle.seek(0)
        return max((found for line in handle if line.endswith(b"\n")
                    and (found := msg_id_of(line)) is not None), default=0)


def ends_torn(path: Path) -> bool:
    """Whether the file's last line was cut short (a crash in the middle of a write)."""
    with open(path, "rb") as handle:
        if handle.seek(0, os.SEEK_END) == 0:
            return False
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) != b"\n"


def replace_file(path: Path, text: str) -> None:
    """Write ``path`` anew, atomically and durably (a temporary file, fsync, rename)."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def migrate_flat_layout(directory: Path) -> int:
    """Buffers written before sessions were keyed by user (``<dir>/<session>.jsonl`` and
    one ``cursor.json``) move into per-user folders, cursors with them. Returns how many
    session files moved."""
    flat = sorted(directory.glob("*.jsonl"))
    if not flat:
        return 0
    old_cursor: dict[str, int] = {}
    cursor_path = directory / CURSOR_FILE
    with contextlib.suppress(OSError, ValueError, AttributeError):
        old_cursor = {str(k): int(v) for k, v in
                      json.loads(cursor_path.read_text(encoding="utf-8")).items()}
    cursors: dict[Path, dict[str, int]] = {}
    for path in flat:
        first = first_message(path)
        if first is None:
            continue
        user_dir = directory / safe_name(first.user_id)
        user_dir.mkdir(parents=True, exist_ok=True)
        os.replace(path, user_dir / f"{safe_name(first.session_id)}.jsonl")
        if old_cursor.get(first.session_id, 1) > 1:
            cursors.setdefault(user_dir, {})[first.session_id] = old_cursor[first.session_id]
    for user_dir, mine in cursors.items():
        replace_file(user_dir / CURSOR_FILE, json.dumps(mine, sort_keys=True))
    with contextlib.suppress(FileNotFoundError):
        cursor_path.unlink()
    log.info("raw buffer: moved %d session files into per-user folders", len(flat))
    return len(flat)
