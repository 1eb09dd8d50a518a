"""The online path (article 2.2): explicit preferences and constraints in a user message
become facts at once, off the ``add_message`` path (``OnlineFacts``); consolidation later
only re-verifies them.

``OnlineReader`` is its extraction: each new user message
read once, as it arrives, with the reading context of its open episode carried from one
message to the next.

Reading the whole open episode again for every message (what consolidation does once,
at the end) costs time in the square of the episode's length on the ``add_message``
path; here each message is read once. What the rules need of the messages before it —
who "she" is, the names given, the plans made, the episode's event — lives in the
episode's ``Context``, kept per session. A session not seen for a while (or after a
restart) gets its context back by reading the open episode's earlier user messages
again, so a fact is attributed the same either way.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from graphmem._errors import GraphmemError, StoreUnavailableError
from graphmem._models import Message, SessionKey
from graphmem.extract.candidate import Candidate, Context
from graphmem.extract.dates import event_in
from graphmem.extract.reader import MAX_READ_CHARS, RuleExtractor, settle
from graphmem.ingest.background import BackgroundQueue
from graphmem.ingest.forgetting import Freshness, LateWrite
from graphmem.ingest.splitter import episode_id, key_of
from graphmem.store.ids import episode_anchor, message_node_id
from graphmem.text.chat import is_filler, summarize_goal

if TYPE_CHECKING:
    from graphmem.facts.consolidate import Consolidator

log = logging.getLogger("graphmem.ingest.online")
MAX_SESSIONS = 4096  # contexts kept; an evicted session's context is read back
ONLINE_PREDICATES = frozenset({"likes", "dietary_restriction", "allergic_to", "budget",
                               "uses_channel"})
ONLINE_MIN_CONFIDENCE = 0.85
ONLINE_BATCH = 64  # messages' online facts decided and written in one transaction, at most
ONLINE_READ_BATCH = 512  # messages the online thread takes from its queue at a time
Found = tuple[str, str, str, list[Candidate]]  # (user_id, session_id, episode_id, facts)


@dataclass
class _Reading:
    """Where the reading of one session's open episode is."""

    first_msg_id: int  # the open episode's first message
    last_msg_id: int  # the last message read into ``ctx``
    ctx: Context
    said: bool = False  # a user message was read (the event comes from the first)


class OnlineReader:
    """Candidates from one new message of an open episode (the rule extractor's reading,
    message by message). Thread-safe across sessions; calls for one session must come in
    message order (the client's one online thread reads them as they were added)."""

    def __init__(self, extractor: RuleExtractor | None = None,
                 max_sessions: int = MAX_SESSIONS) -> None:
        self.extractor = extractor or RuleExtractor(generic=False)
        self.max_sessions = max_sessions
        self._readings: OrderedDict[SessionKey, _Reading] = OrderedDict()
        self._lock = threading.Lock()

    def read(self, msg: Message, open_messages: Sequence[Message],
             names: dict[str, str] | None = None) -> list[Candidate]:
        """What ``msg`` (the newest of ``open_messages``, its open episode so far) says,
        read in the context of what the episode said before it and of the ``names`` the
        user's people and pets were given before (糯米 → the daughter, said sessions ago)."""
        if msg.role != "user" or not open_messages or is_filler(msg.content):
            return []
        key = key_of(msg)
        first = open_messages[0].msg_id
        with self._lock:
            reading = self._readings.pop(key, None)
        if reading is None or reading.first_msg_id != first or reading.last_msg_id >= msg.msg_id:
            reading = _Reading(first, 0, Context(names=dict(names or {})))
        start = len(open_messages)  # walk back to what this reading has not seen yet
        while start > 0 and open_messages[start - 1].msg_id > reading.last_msg_id:
            start -= 1
        for earlier in open_messages[start:]:
            if earlier.msg_id < msg.msg_id:
                self._read(earlier, reading)
        found = self._read(msg, reading)
        with self._lock:
            self._readings[key] = reading
            while len(self._readings) > self.max_sessions:
                self._readings.popitem(last=False)
        return [replace(c, msg_id=msg.msg_id) for c in settle(found)]

    def forget(self, user_id: str) -> None:
        with self._lock:
            for key in [k for k in self._readings if k[0] == user_id]:
                del self._readings[key]

    def _read(self, msg: Message, reading: _Reading) -> list[Candidate]:
        reading.last_msg_id = msg.msg_id
        if msg.role != "user":  # what the user answers ("ok i like the milestones") is of it
            reading.ctx.heard = msg.content[:MAX_READ_CHARS].lower()
            return []
        if is_filler(msg.content):
            return []
        if not reading.said:  # the episode's event: that of the first thing said, whole
            reading.ctx.event = event_in(summarize_goal([msg], limit=10_000))
            reading.said = True
        return self.extractor.extract_text(msg.content[:MAX_READ_CHARS], msg.ts, reading.ctx)


class OnlineFacts:
    """Reads each user message as it is added (``submit``, cheap rules with its open
    episode's context) and writes what it states of the online predicates in the
    background, batched: a burst of messages is a handful of writes, not one each. The
    fact's episode id is already known (deterministic), so consolidation later only
    re-verifies it. If Neo4j is down, consolidation distills the same episodes later:
    nothing is lost."""

    def __init__(self, consolidator: Consolidator, freshness: Freshness | None = None,
                 nice: int = 0) -> None:
        self.consolidator = consolidator
        self.freshness = freshness  # a user forgotten meanwhile: their facts are refused
        self.reader = OnlineReader(RuleExtractor(generic=False))  # cheap rules only
        # a batch of online facts holds its users' locks while it is decided: ONLINE_BATCH
        # keeps that to ~0.5 s (the episode writer waits behind it); a burst is a few writes
        self._queue = BackgroundQueue(self._store, name="graphmem-online-facts",
                                      batch=ONLINE_READ_BATCH, nice=nice)

    @property
    def errors(self) -> list[str]:
        """What failed: a message the rules choke on, a batch Neo4j refused."""
        return self._queue.errors

    def submit(self, msg: Message, open_messages: list[Message], stamp: int = 0) -> None:
        """Read ``msg`` (the newest of its open episode's ``open_messages``; ``stamp``: its
        user's buffer generation) later."""
        if msg.role == "user" and not is_filler(msg.content):
            self._queue.submit((msg, open_messages, stamp), key=msg.user_id)

    def drain(self, timeout: float | None = None, user_id: str | None = None) -> bool:
        """Wait until every message submitted so far — of ``user_id`` only, when given:
        they are read first, not behind other users' backlog — is read and its facts
        written (a reader sees its own writes); at most ``timeout`` seconds. Whether it
        was."""
        if user_id is None:
            return self._queue.drain(timeout)
        return self._queue.drain(timeout, key=user_id)

    def _names(self, user_id: str, names: dict[str, dict[str, str]]) -> dict[str, str]:
        """The user's people's and pets' names, once a batch (none when Neo4j cannot say:
        the message is read without them, as before)."""
        if user_id not in names:
            try:
                names[user_id] = self.consolidator.person_names(user_id)
            except GraphmemError:
                names[user_id] = {}
        return names[user_id]

    def forget(self, user_id: str) -> None:
        """Drop the reading of the user's open episodes (their messages were dropped);
        what is queued of the user is refused when written (its stamp is stale)."""
        self.reader.forget(user_id)

    def close(self, timeout: float = 60.0, abandon: bool = False) -> None:
        """Stop the thread once what waits is written (``abandon``: once the message being
        read is done; consolidation distills the others' episodes later), waiting for it at
        most ``timeout`` seconds."""
        self._queue.close(timeout, abandon)

    def _store(self, items: list[object]) -> None:
        """Read the messages waiting, then write their facts in one transaction; if Neo4j
        refuses the batch, one by one, so one bad item costs only itself."""
        found: list[tuple[Found, dict, int]] = []
        names: dict[str, dict[str, str]] = {}  # per user, read once a batch
        for msg, open_messages, stamp in items:  # type: ignore[misc]
            if self._queue.abandoned:  # exiting: consolidation distills these later
                return
            try:
                read = self.reader.read(msg, open_messages, self._names(msg.user_id, names))
            except Exception as exc:  # a message the rules choke on costs only itself
                self.errors.append(repr(exc))
                continue
            candidates = [c for c in read if c.observed_at == msg.ts
                          and c.predicate in ONLINE_PREDICATES
                          and c.confidence >= ONLINE_MIN_CONFIDENCE]
            if candidates:
                first = open_messages[0]
                event_id = episode_id(first.user_id, first.session_id, first.msg_id)
                found.append(((msg.user_id, msg.session_id, event_id, candidates),
                              _claim(event_id, first, msg), stamp))
        for start in range(0, len(found), ONLINE_BATCH):
            self._write(found[start:start + ONLINE_BATCH])

    def _write(self, found: list[tuple[Found, dict, int]]) -> None:
        """One transaction for ``found``; if Neo4j refuses it, one item at a time. Facts
        of an episode another raw buffer stored first are refused (``distill_many``), and
        so are those of a user forgotten since they were read."""
        with contextlib.suppress(StoreUnavailableError):
            try:
                self._distill(found)
            except StoreUnavailableError:
                raise
            except Exception:
                for one in found:
                    try:
                        self._distill([one])
                    except StoreUnavailableError:
                        raise
                    except Exception as exc:
                        self.errors.append(repr(exc))

    def _distill(self, found: list[tuple[Found, dict, int]]) -> None:
        for _ in range(2):  # a forget found here is caught up with, then its facts dropped
            if self.freshness is not None:
                fresh = self.freshness.current
                found = [f for f in found if fresh(f[0][0], f[2])]
            if not found:
                return
            verify = (self.freshness.verify((f[0][0], f[2]) for f in found)
                      if self.freshness else None)
            try:
                self._refused(self.consolidator.distill_many(
                    [f[0] for f in found], [f[1] for f in found], verify))
                return
            except LateWrite as late:
                assert self.freshness is not None
                self.freshness.catch_up(late)
                found = [f for f in found if f[0][0] not in late.users]

    def _refused(self, foreign: set[str]) -> None:
        for event_id in sorted(foreign):
            problem = (f"online facts of episode {event_id} not stored: another raw buffer "
                       "stored an episode of that id first (the session was begun there)")
            log.warning("%s", problem)
            self.errors.append(problem)


def _claim(event_id: str, first: Message, said: Message) -> dict:
    """What an online fact's episode begins with and what it was said in
    (``store/find_foreign_episodes``)."""
    return {"event_id": event_id,
            "anchor": episode_anchor(first.role, first.ts, first.content),
            "first_message_id": message_node_id(first.user_id, first.session_id, first.msg_id),
            "first_content": first.content,
            "message_id": message_node_id(said.user_id, said.session_id, said.msg_id),
            "content": said.content}
