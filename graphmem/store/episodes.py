"""Episodic store (pipeline stage 4a): Episode nodes, time-linked per user."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any

from graphmem._config import RetrievalConfig
from graphmem._errors import ConfigError
from graphmem._models import (
    EARLIEST_TS,
    LATEST_TS,
    Action,
    ClosedEpisode,
    Episode,
    Message,
    fixed_offset,
)
from graphmem.store.ids import episode_anchor, message_node_id, tenant_key
from graphmem.store.runner import QueryRunner, Tx
from graphmem.store.search import DEFAULTS, nearest
from graphmem.store.tombstones import Verify, forgotten_at
from graphmem.text.chat import is_filler
from graphmem.text.language import split_speaker

# Open ends of a time window: the supported range of message times (checked at the door).
EARLIEST = EARLIEST_TS
LATEST = LATEST_TS
EPISODE_PAGE = 10_000  # episodes read per statement when listing a user's episodes


def message_rows(messages: Sequence[Message]) -> list[dict[str, Any]]:
    """Message nodes' properties: ``content`` as said, and ``speaker`` + ``text`` apart
    for a transcript line ("Caroline: …"), so that keyword search matches what was said,
    not who said it (a speaker's name is in every line of theirs).

    Times go as ISO 8601 text, made datetimes by Cypher (``store/merge_episodes``): the
    driver's conversion of each Python datetime (``neo4j.time``, pure Python) took more
    than half of the episode writer's time (py-spy, 10k generated messages)."""
    rows = []
    for m in messages:
        speaker, text = split_speaker(m.content)
        rows.append({"message_id": message_node_id(m.user_id, m.session_id, m.msg_id),
                     "msg_id": m.msg_id, "role": m.role, "speaker": speaker or m.role,
                     "content": m.content, "text": text, "ts": m.ts.isoformat()})
    return rows


def name_words(names: Iterable[str]) -> list[str]:
    """The distinct lowercased words of ``names``, in order."""
    return list(dict.fromkeys(w.lower() for name in names for w in re.findall(r"\w+", name)))


def episode_row(closed: ClosedEpisode, embedding: Sequence[float],
                buffer: str | None = None) -> dict[str, Any]:
    episode = closed.episode
    messages = message_rows(closed.messages)
    first = closed.messages[0]
    return {
        "event_id": episode.event_id,
        "user_id": episode.user_id,
        "tenant": tenant_key(episode.user_id),
        "session_id": episode.session_id,
        "start_time": episode.start_time.isoformat(),
        "end_time": episode.end_time.isoformat(),
        "goal": episode.goal,
        "result": episode.result,
        "actions": [f"{a.role}: {a.content}" for a in episode.actions],
        "actions_text": " ".join(a.content for a in episode.actions),
        "action_times": [a.ts.isoformat() for a in episode.actions],
        "raw_span_start": episode.raw_span[0],
        "raw_span_end": episode.raw_span[1],
        "participants": list(episode.participants),
        "embedding": list(embedding),
        "anchor": episode_anchor(first.role, first.ts, first.content),
        "buffer": buffer,
        "messages": messages,
        # the words of the names speakers go by ("Caroline: …"); a message without a name
        # has its role for speaker (the same rule as the migration's backfill)
        "speakers": name_words(m["speaker"] for m in messages if m["speaker"] != m["role"]),
    }


def write_episodes(
    runner: QueryRunner, episodes: Sequence[ClosedEpisode],
    embeddings: Sequence[Sequence[float]], verify: Verify | None = None,
    buffer: str | None = None,
) -> None:
    """Store episodes with their messages and re-link ``NEXT`` for their users, in one
    transaction that locks its users first, in sorted order (``store/lock_users``), like
    every fact write: the two writers never deadlock. ``verify`` is given the users'
    tombstones under those locks (``store.tombstones``) and may refuse the write;
    ``buffer`` names the raw buffer that wrote them (kept on their sessions)."""
    if not episodes:
        return
    since: dict[str, datetime] = {}
    for closed in episodes:
        ep = closed.episode
        since[ep.user_id] = min(ep.start_time, since.get(ep.user_id, ep.start_time))
    rows = sorted((episode_row(ep, vec, buffer)
                   for ep, vec in zip(episodes, embeddings, strict=True)),
                  key=lambda r: (r["user_id"], r["session_id"], r["raw_span_start"]))
    users = [{"user_id": u, "since": t} for u, t in sorted(since.items())]

    def work(tx: Tx) -> None:
        tx.write("store/lock_users", user_ids=sorted(since))
        if verify is not None:
            verify(forgotten_at(tx, since))
        clashes = tx.write("store/merge_episodes", episodes=rows)[0]["clashes"]
        if clashes:  # raised inside: the transaction rolls back, nothing is overwritten
            first = clashes[0]
            raise ConfigError(
                f"message {first['msg_id']} of session {first['session_id']!r} (user "
                f"{first['user_id']!r}) is already stored in Neo4j with other text: the "
                "session was begun through another raw buffer (buffer_dir), which numbers "
                "its messages from 1 too. Nothing was overwritten; these messages stay in "
                "this buffer. Write a session through the buffer that began it, or use a "
                "new session_id.")
        tx.write("store/link_episodes", users=users)

    runner.transaction("store/merge_episodes+link_episodes", work)


def episode_from_record(rec: dict[str, Any],
                        messages: Sequence[dict[str, Any]] | None = None) -> Episode:
    """An Episode from its node; with its ``messages`` (raw, in order), the actions are the
    whole messages — fillers left out — instead of the stored, truncated ones."""
    actions = []
    if messages:
        actions = [Action(role=m["role"], content=m["content"], ts=as_datetime(m["ts"]),
                          msg_id=int(m["msg_id"]))
                   for m in messages if not is_filler(m["content"])]
    times = rec.get("action_times") or []
    for i, text in enumerate([] if messages else rec.get("actions") or []):
        role, _, content = text.partition(": ")
        ts = as_datetime(times[i]) if i < len(times) else as_datetime(rec["start_time"])
        actions.append(Action(role=role, content=content, ts=ts))
    return Episode(
        event_id=rec["event_id"],
        user_id=rec["user_id"],
        session_id=rec["session_id"],
        start_time=as_datetime(rec["start_time"]),
        end_time=as_datetime(rec["end_time"]),
        participants=tuple(rec.get("participants") or ()),
        goal=rec.get("goal") or "",
        actions=tuple(actions),
        result=rec.get("result") or "",
        raw_span=(int(rec["raw_span_start"]), int(rec["raw_span_end"])),
        semantics_refs=tuple(rec.get("semantics_refs") or ()),
    )


def list_episodes(
    runner: QueryRunner,
    user_id: str,
    since: datetime | None = None,
    until: datetime | None = None,
    limit: int | None = None,
) -> list[Episode]:
    """The user's episodes overlapping ``[since, until)``, oldest first: all of them, or
    the first ``limit`` (read in pages of ``EPISODE_PAGE``)."""
    found: list[Episode] = []
    after: tuple[Any, str | None] = (None, None)
    while limit is None or len(found) < limit:
        size = EPISODE_PAGE if limit is None else min(EPISODE_PAGE, limit - len(found))
        rows = runner.read(
            "retrieve/list_episodes", user_id=user_id, since=since or EARLIEST,
            until=until or LATEST, limit=size, after_time=after[0], after_id=after[1],
        )
        found += [episode_from_record(r["episode"], r["messages"]) for r in rows]
        if len(rows) < size:
            break
        last = rows[-1]["episode"]
        after = (as_datetime(last["start_time"]), last["event_id"])
    return found


def get_episodes(runner: QueryRunner, event_ids: Sequence[str]) -> dict[str, Episode]:
    rows = runner.read("retrieve/get_episodes", event_ids=list(event_ids))
    return {r["episode"]["event_id"]: episode_from_record(r["episode"], r["messages"])
            for r in rows}


def search_episodes_in_window(
    runner: QueryRunner,
    user_id: str,
    vector: Sequence[float],
    since: datetime | None,
    until: datetime | None,
    k: int,
    settings: RetrievalConfig = DEFAULTS,
) -> list[tuple[str, float]]:
    """Time range ∩ vector similarity (see ``store.search.nearest``)."""
    return nearest(runner, "episodes", vector, k, settings, **window(user_id, since, until))


def window(user_id: str, since: datetime | None, until: datetime | None) -> dict[str, Any]:
    return {"user_id": user_id, "since": since or EARLIEST, "until": until or LATEST}


def as_datetime(value: Any) -> datetime:
    """A Python datetime with a fixed UTC offset, from a driver temporal, from the
    ``[epochMillis, offsetSeconds]`` pair retrieval queries return, or from Cypher's
    ``toString`` of a datetime (exact; both much cheaper to read than a temporal)."""
    if isinstance(value, str):  # "2023-05-08T13:56:00.123456789+02:00[Europe/Paris]"
        return fixed_offset(datetime.fromisoformat(value.partition("[")[0]))
    if isinstance(value, list):
        millis, offset = value
        return datetime.fromtimestamp(millis / 1000, timezone(timedelta(seconds=offset)))
    native = value.to_native() if hasattr(value, "to_native") else value
    return fixed_offset(native) if isinstance(native, datetime) else native
