"""What ``forget_user``, ``delete_episode`` and ``export_user`` could not reach, said so
that a person can finish the job: sessions another writer owns in this raw buffer, and raw
buffers elsewhere (another folder, another host) whose writers stored the user's sessions.
Pure functions: the client gathers the facts."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from graphmem._models import EpisodeDeletion, ForgetReport
from graphmem.facts.corrections import EpisodeRemoval
from graphmem.ingest.buffer import Removed
from graphmem.store.runner import QueryRunner


def session_buffers(runner: QueryRunner, user_id: str) -> dict[str, list[str]]:
    """Each of the user's sessions in Neo4j → the raw buffers that wrote it."""
    return {r["session_id"]: list(r["buffers"])
            for r in runner.read("correct/list_session_buffers", user_id=user_id)}


def forget_report(user_id: str, nodes: int, removed: Removed, location: str,
                  sessions: Mapping[str, Sequence[str]]) -> ForgetReport:
    """``forget_user``'s report: what went, and where the user's raw messages may remain."""
    return ForgetReport(
        user_id=user_id, nodes=nodes, raw_messages=removed.messages,
        raw_sessions=removed.sessions, not_reached=tuple(
            busy_sessions(location, removed.busy, "forget the user")
            + other_buffers(location, user_id, sessions, [s for s, _ in removed.busy],
                            f"forget --user {user_id}")))


def deletion_report(user_id: str, event_id: str, gone: EpisodeRemoval, raw: int,
                    location: str, sessions: Mapping[str, Sequence[str]]) -> EpisodeDeletion:
    """``delete_episode``'s report: what went, and raw buffers elsewhere that may still
    hold the episode's raw messages."""
    session = gone.session_id
    return EpisodeDeletion(
        event_id=event_id, session_id=session, raw_span=gone.raw_span,
        messages=gone.messages, facts_expired=gone.facts_expired,
        facts_updated=gone.facts_updated, raw_messages=raw,
        not_reached=tuple(other_buffers(location, user_id,
                                        {session: sessions.get(session, [])},
                                        [session] if raw else [],
                                        f"delete-episode {user_id} {event_id}")))


def busy_sessions(location: str, busy: Iterable[tuple[str, str]], what: str) -> list[str]:
    """Sessions of this buffer that another writer owns (``(session_id, holder)``)."""
    return [f"session {session!r} in the raw buffer {location} is being written by {holder}: "
            f"its raw messages stay there; {what} through that process, or run this again "
            "once it has let the session go (its last episode closed and stored)"
            for session, holder in busy]


def other_buffers(location: str, user_id: str, sessions: Mapping[str, Sequence[str]],
                  here: Iterable[str], command: str) -> list[str]:
    """Raw buffers other than ``location`` that wrote some of ``sessions`` (session →
    buffers), and sessions no buffer is recorded for that are not ``here`` either."""
    found_here = set(here)
    elsewhere: dict[str, list[str]] = {}
    unknown: list[str] = []
    for session, buffers in sorted(sessions.items()):
        for buffer in buffers:
            if buffer != location:
                elsewhere.setdefault(buffer, []).append(session)
        if not buffers and session not in found_here:
            unknown.append(session)
    notes = []
    for buffer, names in sorted(elsewhere.items()):
        host, _, folder = buffer.partition(":")
        notes.append(f"the raw buffer {buffer} also wrote session(s) {_names(names)} of "
                     f"{user_id!r}: run `graphmem {command} --buffer-dir {folder}` on {host}")
    if unknown:
        notes.append(f"session(s) {_names(unknown)} of {user_id!r} were stored before graphmem "
                     f"recorded which raw buffer wrote them, and are not in {location}: if "
                     f"another raw buffer holds them, run `graphmem {command}` there too")
    return notes


def _names(sessions: Sequence[str], shown: int = 10) -> str:
    names = ", ".join(repr(s) for s in sessions[:shown])
    return names + (f" and {len(sessions) - shown} more" if len(sessions) > shown else "")
