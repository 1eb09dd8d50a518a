"""Export and import one user's whole memory as JSONL (issue 10, "ownership of a user's data").

The file is one JSON object per line, each with a ``kind``:

    header          {format: "graphmem-export", version, user_id, exported_at,
                     embedding_dimension}
    user            {props}                    the User node
    session         {props}                    Session nodes (HAS_SESSION from the user)
    entity          {props, is_value}          entities with their aliases; :Value label
    episode         {props, embedding, session, next, messages: [props]}
                                               Episode nodes with their Message nodes,
                                               HAS_EPISODE, HAS_MESSAGE and [:NEXT]
    fact            {props, embedding, about, has_value, supersedes, derived_from}
                                               every version, every status, with
                                               SUPERSEDES / DERIVED_FROM / ABOUT / HAS_VALUE
                                               (source_messages is one of its props)
    maybe_same_as   {entity_id, other_id, props}
    edge            {entity_id, value_id, rel_type, props}   typed edges of current facts
    buffer          {session_id, message}      the raw buffer, line by line
    buffer_cursor   {session_id, cursor}       its replay cursor
    end             {counts}                   written last: a file without it is cut short

Node properties are exported whole (``properties(n)``), so nothing graphmem stores is lost;
datetimes are written as ``{"$datetime": ISO-8601}``. **Embeddings are exported** (exact
floats) and written back as vector properties, so an import needs no embedder run and
``query_memory`` ranks exactly as before; the header's ``embedding_dimension`` must match
the target database's embedder.

An import goes only into a database (and raw buffer) where the user has nothing, and the
graph part is written in one transaction: all or nothing.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

import neo4j.time
from pydantic import ValidationError

from graphmem._errors import InvalidInputError
from graphmem._models import Message
from graphmem.ingest.buffer import RawBuffer
from graphmem.store.cypher import relationship_type
from graphmem.store.ids import tenant_key
from graphmem.store.runner import QueryRunner, Tx

FORMAT = "graphmem-export"
FORMAT_VERSION = 1
BATCH = 200
NODE_KINDS = ("user", "session", "entity", "episode", "fact")


@dataclass
class TransferCounts:
    """How many lines of each kind an export wrote or an import restored."""

    counts: dict[str, int] = field(default_factory=dict)

    def add(self, kind: str, n: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n


# -- export --------------------------------------------------------------------------------


def export_to_file(runner: QueryRunner, buffer: RawBuffer, user_id: str, path: str | Path,
                   embedding_dimension: int, now: datetime) -> dict[str, int]:
    """``export_user`` into the file ``path``; returns lines written per kind."""
    try:
        with open(path, "w", encoding="utf-8") as out:
            return export_user(runner, buffer, user_id, out, embedding_dimension, now).counts
    except OSError as exc:
        raise InvalidInputError(f"cannot write the export to {path}: {exc}") from exc


def import_from_file(runner: QueryRunner, buffer: RawBuffer, path: str | Path,
                     embedding_dimension: int) -> tuple[str, dict[str, int]]:
    """``import_user`` from the file ``path``: the user id and what was restored per kind."""
    try:
        with open(path, encoding="utf-8") as handle:
            user_id, counts = import_user(runner, buffer, handle, embedding_dimension)
    except OSError as exc:
        raise InvalidInputError(f"cannot read the export {path}: {exc}") from exc
    return user_id, counts.counts


def export_user(runner: QueryRunner, buffer: RawBuffer | None, user_id: str, out: TextIO,
                embedding_dimension: int, now: datetime | None = None) -> TransferCounts:
    """Write everything graphmem holds of ``user_id`` to ``out`` as JSONL."""
    counts = TransferCounts()
    now = now or datetime.now(UTC)

    def emit(kind: str, **body: Any) -> None:
        out.write(json.dumps({"kind": kind, **_encode(body)}, ensure_ascii=False) + "\n")
        counts.add(kind)

    emit("header", format=FORMAT, version=FORMAT_VERSION, user_id=user_id,
         exported_at=now.isoformat(), embedding_dimension=embedding_dimension)
    stored: dict[str, list[str]] = {}  # session → the raw buffers that wrote it
    for row in runner.read("export/get_user_sessions", user_id=user_id):
        emit("user", props=row["user"])
        for props in row["sessions"]:
            emit("session", props=props)
            stored[props["session_id"]] = list(props.get("buffers") or [])
    pairs, edges = [], []
    for row in runner.read("export/list_user_entities", user_id=user_id):
        emit("entity", props=row["props"], is_value=bool(row["is_value"]))
        entity_id = row["props"]["entity_id"]
        pairs += [{"entity_id": entity_id, **p} for p in row["maybe_same"]]
        edges += [{"entity_id": entity_id, **e} for e in row["edges"]]
    for row in runner.read("export/list_user_episodes", user_id=user_id):
        emit("episode", props=_props(row["props"]), embedding=_vector(row["embedding"]),
             session=row["session"], next=row["next"], messages=row["messages"])
    for row in runner.read("export/list_user_facts", user_id=user_id):
        emit("fact", props=_props(row["props"]), embedding=_vector(row["embedding"]),
             about=row["about"], has_value=row["has_value"],
             supersedes=sorted(row["supersedes"]), derived_from=sorted(row["derived_from"]))
    for pair in pairs:
        emit("maybe_same_as", **pair)
    for edge in edges:
        emit("edge", **edge)
    buffered: list[str] = buffer.user_sessions(user_id) if buffer is not None else []
    for session_id in buffered:
        assert buffer is not None
        for msg in buffer.iter_session(user_id, session_id):
            emit("buffer", session_id=session_id, message=msg.model_dump(mode="json"))
        emit("buffer_cursor", session_id=session_id, cursor=buffer.cursor(user_id, session_id))
    emit("end", counts=dict(counts.counts))
    missing = sorted(set(stored) - set(buffered))
    if missing:
        where = sorted({b for s in missing for b in stored[s]}) or ["a raw buffer not recorded"]
        warnings.warn(
            f"the raw buffer {buffer.location if buffer else '(none)'} holds no raw messages "
            f"of {len(missing)} of {user_id!r}'s sessions ({', '.join(missing[:10])}): the "
            "export has their stored messages but not their raw buffer lines. They were "
            f"written through {', '.join(where)}: export with that buffer_dir "
            "(--buffer-dir) to include them", RawBufferMissingWarning, stacklevel=4)
    return counts


class RawBufferMissingWarning(UserWarning):
    """An export found sessions in Neo4j whose raw messages are not in its raw buffer."""


def _props(props: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in props.items() if k != "embedding" and v is not None}


def _vector(value: Any) -> list[float] | None:
    return None if value is None else [float(x) for x in value]


def _encode(value: Any) -> Any:
    """JSON-ready: Neo4j and Python datetimes become ``{"$datetime": ISO}``."""
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    if isinstance(value, neo4j.time.DateTime):
        return {"$datetime": value.iso_format()}
    if isinstance(value, datetime):
        return {"$datetime": value.isoformat()}
    if isinstance(value, neo4j.time.Date):
        return {"$date": value.iso_format()}
    if isinstance(value, neo4j.time.Duration):
        return {"$duration": value.iso_format()}
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise InvalidInputError(f"cannot export a value of type {type(value).__name__}")


def _decode(value: Any) -> Any:
    if isinstance(value, dict):
        if len(value) == 1:
            [(tag, text)] = value.items()
            if tag == "$datetime":
                return neo4j.time.DateTime.from_iso_format(text)
            if tag == "$date":
                return neo4j.time.Date.from_iso_format(text)
            if tag == "$duration":
                return neo4j.time.Duration.from_iso_format(text)
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


# -- import --------------------------------------------------------------------------------


@dataclass
class _Dump:
    user_id: str
    dimension: int
    lines: dict[str, list[dict[str, Any]]]


def read_dump(lines: Iterable[str]) -> _Dump:
    """Parse and check an export: header first, ``end`` last, every line one known kind."""
    by_kind: dict[str, list[dict[str, Any]]] = {}
    header: dict[str, Any] | None = None
    ended = False
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        if ended:
            raise InvalidInputError(f"line {number}: data after the export's end line")
        try:
            item = json.loads(line)
        except ValueError as exc:
            raise InvalidInputError(f"line {number} is not JSON: {exc}") from None
        kind = item.get("kind") if isinstance(item, dict) else None
        if header is None:
            if kind != "header" or item.get("format") != FORMAT:
                raise InvalidInputError(f"not a {FORMAT} file: the first line is no header")
            if item.get("version") != FORMAT_VERSION:
                raise InvalidInputError(f"export format version {item.get('version')!r} is "
                                        f"not supported (this graphmem reads {FORMAT_VERSION})")
            header = item
            continue
        if kind == "end":
            ended = True
            continue
        if kind not in {*NODE_KINDS, "maybe_same_as", "edge", "buffer", "buffer_cursor"}:
            raise InvalidInputError(f"line {number}: unknown kind {kind!r}")
        by_kind.setdefault(kind, []).append(_decode(item))
    if header is None:
        raise InvalidInputError("the export file is empty")
    if not ended:
        raise InvalidInputError("the export file is cut short (no end line); nothing imported")
    user_id = header.get("user_id")
    if not isinstance(user_id, str) or not user_id:
        raise InvalidInputError("the export header names no user_id")
    dump = _Dump(user_id, int(header.get("embedding_dimension") or 0), by_kind)
    _check_owner(dump)
    return dump


def _check_owner(dump: _Dump) -> None:
    """Every node in the file is the header's user's, in the user's tenant."""
    tenant = tenant_key(dump.user_id)
    for kind in NODE_KINDS:
        for item in dump.lines.get(kind, []):
            nodes = [item["props"], *item.get("messages", [])]
            for props in nodes:
                if props.get("user_id") != dump.user_id or props.get("tenant", tenant) != tenant:
                    raise InvalidInputError(
                        f"the export holds a {kind} of another user than {dump.user_id!r}")


def import_user(runner: QueryRunner, buffer: RawBuffer | None, lines: Iterable[str],
                embedding_dimension: int) -> tuple[str, TransferCounts]:
    """Restore an export into a database and raw buffer where its user has nothing.

    Returns the user id and what was restored."""
    dump = read_dump(lines)
    user_id = dump.user_id
    if dump.dimension and dump.dimension != embedding_dimension:
        raise InvalidInputError(
            f"the export's embeddings have {dump.dimension} dimensions but this database's "
            f"embedder makes {embedding_dimension}")
    if runner.read("export/user_has_data", user_id=user_id)[0]["has_data"] or (
            buffer is not None and buffer.has_user(user_id)):
        raise InvalidInputError(
            f"user {user_id!r} already has data here; import goes only into a database "
            "where the user has none (to replace it, forget the user first: forget_user, "
            f"or graphmem forget --user {user_id})")
    get = dump.lines.get
    edges = [_checked_edge(e, get("fact", [])) for e in get("edge", [])]
    sessions = list(_buffer_sessions(dump)) if buffer is not None else []
    counts = TransferCounts()

    def work(tx: Tx) -> None:
        tx.write("store/lock_users", user_ids=[user_id])
        for user in get("user", []):
            tx.write("export/import_sessions", user=user["props"],
                     sessions=[s["props"] for s in get("session", [])])
        _batched(tx, "export/import_entities", "entities",
                 [{"props": e["props"], "is_value": bool(e.get("is_value"))}
                  for e in get("entity", [])])
        episodes = get("episode", [])
        _batched(tx, "export/import_episodes", "episodes",
                 [{k: e.get(k) for k in ("props", "embedding", "session", "messages")}
                  | {"messages": e.get("messages") or []} for e in episodes])
        _batched(tx, "export/link_next_episodes", "links",
                 [{"event_id": e["props"]["event_id"], "next": e["next"]}
                  for e in episodes if e.get("next")])
        facts = get("fact", [])
        _batched(tx, "export/import_facts", "facts",
                 [{k: f.get(k) for k in ("props", "embedding", "about", "has_value")}
                  | {"derived_from": f.get("derived_from") or []} for f in facts])
        _batched(tx, "export/link_superseded_facts", "links",
                 [{"fact_id": f["props"]["fact_id"], "old_id": old}
                  for f in facts for old in f.get("supersedes") or []])
        _batched(tx, "export/link_maybe_same", "pairs",
                 [{k: p.get(k) for k in ("entity_id", "other_id", "props")}
                  for p in get("maybe_same_as", [])])
        _batched(tx, "export/import_typed_edges", "edges", edges)

    runner.transaction("export/import_user", work)
    for kind in (*NODE_KINDS, "maybe_same_as", "edge"):
        counts.add(kind, len(get(kind, [])))
    if buffer is not None:
        for session_id, messages, cursor in sessions:
            buffer.restore_session(user_id, session_id, messages, cursor)
            counts.add("buffer", len(messages))
    return user_id, counts


def _batched(tx: Tx, name: str, param: str, items: list[dict[str, Any]]) -> None:
    for start in range(0, len(items), BATCH):
        tx.write(name, **{param: items[start:start + BATCH]})


def _checked_edge(edge: dict[str, Any], facts: list[dict[str, Any]]) -> dict[str, Any]:
    """A typed edge's relationship type must be the validated type of its fact's predicate."""
    fact_id = (edge.get("props") or {}).get("fact_id")
    predicate = next((f["props"].get("predicate") for f in facts
                      if f["props"].get("fact_id") == fact_id), None)
    try:
        expected = relationship_type(predicate) if isinstance(predicate, str) else None
    except ValueError:
        expected = None
    if expected is None or edge.get("rel_type") != expected:
        raise InvalidInputError(
            f"typed edge {edge.get('rel_type')!r} does not match the predicate of fact "
            f"{fact_id!r} in the export")
    return {k: edge.get(k) for k in ("entity_id", "value_id", "props")} | {"rel_type": expected}


def _buffer_sessions(dump: _Dump) -> Iterator[tuple[str, list[Message], int]]:
    messages: dict[str, list[Message]] = {}
    for line in dump.lines.get("buffer", []):
        try:
            msg = Message.model_validate(line["message"])
        except (ValidationError, KeyError, TypeError) as exc:
            raise InvalidInputError(f"an unreadable buffer line in the export: {exc}") from None
        if msg.user_id != dump.user_id or msg.session_id != line.get("session_id"):
            raise InvalidInputError(
                f"the export holds a buffer line of another user than {dump.user_id!r}")
        messages.setdefault(msg.session_id, []).append(msg)
    cursors = {c["session_id"]: int(c["cursor"]) for c in dump.lines.get("buffer_cursor", [])}
    for session_id, msgs in messages.items():
        yield session_id, msgs, cursors.get(session_id, 1)
