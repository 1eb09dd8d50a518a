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
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from graphmem._models import Action, Episode, Message

SWITCH_MARKERS_ZH = (
    "另外", "换个话题", "回到", "还有一个问题", "还有个问题", "接下来", "顺便问",
    "顺便说", "对了", "话说", "再问一个", "另一个问题", "说回",
)
SWITCH_MARKERS_EN = (
    "by the way", "btw", "another question", "back to", "switching topics",
    "switching gears", "change of topic", "changing the subject", "on another note",
    "different question", "new topic", "unrelated", "one more thing", "moving on",
    "next question", "also, another",
)
_CLAUSE_START = r"(?:^|[。！？!?.;；，,\n]\s*)"
_MARKER_RE = re.compile(
    _CLAUSE_START + "(?:" + "|".join(re.escape(m) for m in SWITCH_MARKERS_ZH) + ")"
    + "|" + _CLAUSE_START + r"(?:" + "|".join(re.escape(m) for m in SWITCH_MARKERS_EN)
    + r")\b",
    re.IGNORECASE,
)
_FILLER_WORDS = (
    "好的", "好滴", "好", "嗯嗯", "嗯", "哦", "噢", "ok", "okay", "okey", "k", "thanks",
    "thankyou", "thx", "ty", "谢谢你", "谢谢", "多谢", "感谢", "收到", "行", "可以", "没问题",
    "是的", "对", "sure", "gotit", "cool", "great", "alright", "yes", "yep", "yeah", "nice",
    "perfect", "哈哈", "呵呵", "好嘞", "了解", "明白", "noted", "sounds good", "soundsgood",
    "awesome", "np", "ack", "啊", "呀", "啦",
)
_FILLER_RE = re.compile("^(?:" + "|".join(sorted(map(re.escape, _FILLER_WORDS),
                                                   key=len, reverse=True)) + ")*$")
_STRIP_RE = re.compile(r"[\s\W_]+", re.UNICODE)
_CLAUSE_SPLIT = re.compile(r"[。！？!?;；\n]+|(?<=[，,])|(?<=\.)\s+")
_POLITE_PREFIX = re.compile(
    r"^(?:(?:请|麻烦|帮我|帮忙|能不能|可以|可不可以|你能|我想|我要|想|我需要|请你|您能|"
    r"给我|帮)\s*)+|^(?:(?:hi|hello|hey|please|can you|could you|would you|help me|"
    r"i want to|i'd like to|i would like to|i need to|i need you to|let's|let us|"
    r"ok|okay|sure|so)\b[\s,]*)+",
    re.IGNORECASE,
)
_LEADING_FILLER = re.compile(
    r"^(?:好的|好|嗯|ok|okay|sure|alright|great|got it|thanks|明白了?|了解|收到)[\s,，。.!！]*",
    re.IGNORECASE,
)
_GREETING = re.compile(r"^(?:hi|hello|hey|你好|您好|嗨|哈喽|早上好|晚上好)\W*$", re.IGNORECASE)


def is_filler(text: str) -> bool:
    """True for pleasantries that carry no action: 好的, 嗯, ok, thanks, 👍 ..."""
    squeezed = _STRIP_RE.sub("", text.lower())
    return len(squeezed) <= 12 and bool(_FILLER_RE.match(squeezed))


def has_switch_marker(text: str) -> bool:
    """True when a clause of ``text`` opens with an intent-switch marker."""
    return bool(_MARKER_RE.search(text.strip()))


class IntentClassifier(Protocol):
    """Decides whether ``message`` starts a new goal after the ``open`` messages."""

    def is_switch(self, message: Message, open_messages: Sequence[Message]) -> bool: ...


class MarkerIntentClassifier:
    """Default classifier: a user message whose clause opens with a switch marker."""

    def is_switch(self, message: Message, open_messages: Sequence[Message]) -> bool:
        return message.role == "user" and bool(open_messages) and has_switch_marker(
            message.content
        )


def truncate(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters, at a word boundary for Latin text."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit * 0.6 and cut.isascii():
        cut = cut[:space]
    return cut.rstrip(" ,，.。;；:：") + "…"


def _clauses(text: str) -> list[str]:
    parts = [p.strip(" ，,.。:：") for p in _CLAUSE_SPLIT.split(text)]
    return [p for p in parts if p and not _GREETING.match(p) and not is_filler(p)]


def _strip_marker(text: str) -> str:
    match = _MARKER_RE.match(text.strip())
    return text.strip()[match.end():].lstrip(" ，,：:") if match else text


def summarize_goal(messages: Sequence[Message], limit: int = 40) -> str:
    """The goal: the first clause of the first substantive user message, de-politened."""
    for msg in messages:
        if msg.role != "user" or is_filler(msg.content):
            continue
        for clause in _clauses(_strip_marker(msg.content)):
            core = _POLITE_PREFIX.sub("", clause).strip(" ，,")
            if core:
                return truncate(core, limit)
    first = next((m for m in messages if not is_filler(m.content)), messages[0])
    return truncate(first.content, limit)


def summarize_result(messages: Sequence[Message], limit: int = 60) -> str:
    """The result: the first sentence of the last substantive assistant reply."""
    for role in ("assistant", "tool", "user"):
        for msg in reversed(messages):
            if msg.role != role or is_filler(msg.content):
                continue
            text = _LEADING_FILLER.sub("", msg.content.strip())
            sentences = [s for s in re.split(r"(?<=[。！？!?])|(?<=\.)\s+", text) if s.strip()]
            if sentences:
                return truncate(sentences[0].strip(), limit)
    return ""


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


SessionKey = tuple[str, str]  # (user_id, session_id)


@dataclass(frozen=True)
class ClosedEpisode:
    """An episode as the splitter closes it, with every raw message of its span (fillers
    too) — what the store keeps as the episode's messages."""

    episode: Episode
    messages: tuple[Message, ...]


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
