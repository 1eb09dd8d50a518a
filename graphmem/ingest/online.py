"""``OnlineReader``: the online path's extraction (article 2.2) — each new user message
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

import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from graphmem._models import Message, SessionKey
from graphmem.extract.candidate import Candidate, Context
from graphmem.extract.dates import event_in
from graphmem.extract.reader import MAX_READ_CHARS, RuleExtractor, dedupe
from graphmem.ingest.splitter import key_of
from graphmem.text.chat import is_filler, summarize_goal

MAX_SESSIONS = 4096  # contexts kept; an evicted session's context is read back


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

    def read(self, msg: Message, open_messages: Sequence[Message]) -> list[Candidate]:
        """What ``msg`` (the newest of ``open_messages``, its open episode so far) says,
        read in the context of what the episode said before it."""
        if msg.role != "user" or not open_messages or is_filler(msg.content):
            return []
        key = key_of(msg)
        first = open_messages[0].msg_id
        with self._lock:
            reading = self._readings.pop(key, None)
        if reading is None or reading.first_msg_id != first or reading.last_msg_id >= msg.msg_id:
            reading = _Reading(first, 0, Context())
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
        return [replace(c, msg_id=msg.msg_id) for c in dedupe(found)]

    def forget(self, user_id: str) -> None:
        with self._lock:
            for key in [k for k in self._readings if k[0] == user_id]:
                del self._readings[key]

    def _read(self, msg: Message, reading: _Reading) -> list[Candidate]:
        reading.last_msg_id = msg.msg_id
        if msg.role != "user" or is_filler(msg.content):
            return []
        if not reading.said:  # the episode's event: that of the first thing said, whole
            reading.ctx.event = event_in(summarize_goal([msg], limit=10_000))
            reading.said = True
        return self.extractor.extract_text(msg.content[:MAX_READ_CHARS], msg.ts, reading.ctx)
