"""Deterministic ids of stored nodes, and the tenant key that scopes full-text search.

A full-text query in Neo4j searches one index for everyone; filtering to a user *after*
the search can starve that user (the global top hits are someone else's). Each Episode,
Fact and Message therefore carries ``tenant``: a hash of its user id that the ``cjk``
analyzer keeps as one lowercase token, and every keyword query requires it
(``tenant:t… AND (…)``), so Lucene itself returns only the user's documents.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime


def _digest(*parts: str | int) -> str:
    raw = "\0".join(str(p) for p in parts).encode("utf-8", "surrogatepass")
    return hashlib.sha1(raw).hexdigest()


def tenant_key(user_id: str) -> str:
    """``t`` and 24 hex digits: one token for the full-text analyzer, never a word."""
    return "t" + _digest("tenant", user_id)[:24]


def forget_key(user_id: str) -> str:
    """The key of a forgotten user's tombstone: a one-way hash, never the id itself."""
    return "f" + _digest("forgotten", user_id)[:32]


def message_node_id(user_id: str, session_id: str, msg_id: int) -> str:
    return "msg_" + _digest(user_id, session_id, msg_id)[:20]


def episode_anchor(role: str, ts: datetime, content: str) -> str:
    """What an episode begins with — its first message's role, time and text — as a digest.
    Two raw buffers that both write a session number its messages from 1, so their episodes
    get the same id; the anchor tells them apart (``store/merge_episodes``,
    ``store/find_foreign_episodes``)."""
    return "a" + _digest(role, ts.astimezone(UTC).isoformat(), content)[:24]
