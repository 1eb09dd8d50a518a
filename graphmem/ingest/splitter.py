"""Episode Splitter (pipeline stage 2): cut a session's messages into episodes.

A new episode starts on *silence* (``idle_timeout_s`` between message timestamps; a
session the user left ends once their messages in another session are that much later)
or on a *goal switch* told by an ``IntentClassifier`` (default: intent-switch
markers in Chinese and English at the start of a clause of a user message).
Nothing else splits: a run of short messages on one goal stays one episode,
because too fine is worse than too coarse. Fillers (好的, 嗯, ok, thanks, 👍)
stay in ``raw_span`` but never become actions. Pure code, no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from graphmem._models import Action, ClosedEpisode, Episode, Message, SessionKey
from graphmem.text.chat import (
    has_switch_marker,
    is_filler,
    summarize_goal,
    summarize_result,
    truncate,
)


class IntentClassifier(Protocol):
    """Decides whether ``message`` starts a new goal after the ``open`` messages."""

    def is_switch(self, message: Message, open_messages: Sequence[Message]) -> bool: ...


class MarkerIntentClassifier:
    """Default classifier: a user message whose clause opens with a switch marker."""

    def is_switch(self, message: Message, open_messages: Sequence[Message]) -> bool:
        return message.role == "user" and bool(open_messages) and has_switch_marker(
            message.content
        )


def episode_id(user_id: str, session_id: str, first_msg_id: int) -> str:
    """Deterministic id, so replaying the buffer re-creates the same episode; the user is
    part of it (two users may both have a session "s1")."""
    raw = f"{user_id}\0{session_id}\0{first_msg_id}".encode("utf-8", "surrogatepass")
    return f"evt_{hashlib.sha1(raw).hexdigest()[:16]}"


def build_episode(messages: Sequence[Message], action_max_chars: int = 200) -> Episode:
    """Close ``messages`` (one session, in arrival order) into an ``Episode``."""
    first = messages[0]
    actions = tuple(
        Action(role=m.role, content=truncate(m.content, action_max_chars), ts=m.ts,
               msg_id=m.msg_id)
        for m in messages
        if not is_filler(m.content)
    )
    roles = sorted({m.role for m in messages if m.role != "user"})
    return Episode(
        event_id=episode_id(first.user_id, first.session_id, first.msg_id),
        user_id=first.user_id,
        session_id=first.session_id,
        start_time=min(m.ts for m in messages),
        end_time=max(m.ts for m in messages),
        participants=(first.user_id, *roles),
        goal=summarize_goal(messages),
        actions=actions,
        result=summarize_result(messages),
        raw_span=(first.msg_id, messages[-1].msg_id),
    )


@dataclass
class _OpenEpisode:
    messages: list[Message] = field(default_factory=list)
    arrived: float = 0.0  # monotonic clock at the last message's arrival

    @property
    def last_ts(self) -> datetime:
        return self.messages[-1].ts


def key_of(message: Message) -> SessionKey:
    return (message.user_id, message.session_id)


class EpisodeSplitter:
    """Feeds messages in, hands closed episodes out. One state per (user, session).
    Not thread-safe by itself: its owner (``graphmem._ingest``) serializes calls."""

    def __init__(
        self,
        idle_timeout_s: float = 900.0,
        classifier: IntentClassifier | None = None,
        action_max_chars: int = 200,
    ) -> None:
        self.idle_timeout_s = idle_timeout_s
        self.classifier = classifier or MarkerIntentClassifier()
        self.action_max_chars = action_max_chars
        self._open: dict[SessionKey, _OpenEpisode] = {}
        self._sessions: dict[str, set[SessionKey]] = {}  # a user's sessions with one open

    def feed(self, message: Message, arrived: float = 0.0) -> list[ClosedEpisode]:
        """Add one message; returns the episode it closed, if any."""
        closed: list[ClosedEpisode] = []
        key = key_of(message)
        current = self._open.get(key)
        if current is not None and self._is_split_point(message, current):
            closed.append(self._close(key))
            current = None
        if current is None:
            current = self._open[key] = _OpenEpisode()
            self._sessions.setdefault(key[0], set()).add(key)
        current.messages.append(message)
        current.arrived = arrived
        closed.extend(self._close_silent(message))
        return closed

    def _close_silent(self, message: Message) -> list[ClosedEpisode]:
        """The user's episodes in other sessions that have been silent for
        ``idle_timeout_s`` by this message's time: a session the user left ends by the
        same clock as one they pause in (on message time, not at the next flush — a bulk
        load of a long history would otherwise close every session's last episode at the
        end, out of time order)."""
        mine = self._sessions.get(message.user_id, ())
        if len(mine) < 2:
            return []
        silent = [key for key in mine if key[1] != message.session_id
                  and (message.ts - self._open[key].last_ts).total_seconds()
                  > self.idle_timeout_s]
        return [self._close(key) for key in sorted(silent)]

    def feed_all(self, messages: Iterable[Message], arrived: float = 0.0
                 ) -> list[ClosedEpisode]:
        return [ep for msg in messages for ep in self.feed(msg, arrived)]

    def close_all(self, user_id: str | None = None) -> list[ClosedEpisode]:
        """Close every open episode (of one user, or of everyone)."""
        keys = [key for key in self._open if user_id is None or key[0] == user_id]
        return [self._close(key) for key in keys]

    def close_quiet(self, now: float) -> list[ClosedEpisode]:
        """Close episodes that got no message for ``idle_timeout_s`` of wall-clock time
        (``now`` and arrivals on the same monotonic clock): a quiet session's episode
        must not wait for the next message to end."""
        keys = [key for key, ep in self._open.items()
                if now - ep.arrived > self.idle_timeout_s]
        return [self._close(key) for key in keys]

    def open_messages(self, key: SessionKey) -> list[Message]:
        current = self._open.get(key)
        return list(current.messages) if current else []

    def reset(self, key: SessionKey) -> None:
        if self._open.pop(key, None) is not None:
            self._forget(key)

    def drop_user(self, user_id: str) -> None:
        for key in self._sessions.pop(user_id, set()):
            self._open.pop(key, None)

    def _forget(self, key: SessionKey) -> None:
        mine = self._sessions.get(key[0])
        if mine is not None:
            mine.discard(key)
            if not mine:
                del self._sessions[key[0]]

    def _is_split_point(self, message: Message, current: _OpenEpisode) -> bool:
        if (message.ts - current.last_ts).total_seconds() > self.idle_timeout_s:
            return True
        return self.classifier.is_switch(message, current.messages)

    def _close(self, key: SessionKey) -> ClosedEpisode:
        current = self._open.pop(key)
        self._forget(key)
        return ClosedEpisode(build_episode(current.messages, self.action_max_chars),
                             tuple(current.messages))
