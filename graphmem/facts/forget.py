"""Forgetting a user in the graph: the tombstone first, then every node of theirs.

``forget_user`` writes the user's tombstone (``store.tombstones.bury``: from then on every
writer refuses what it holds of the user from before it), lets the caller clean what it
holds itself (``before_delete``: a ``Memory`` empties its raw buffer of the user there),
then deletes the user's episodes, messages, facts, entities, sessions, worker lease and
user node in batches. Needs Neo4j: without it nothing is forgotten (a
``StoreUnavailableError``) and a retry does it all. A caller without a raw buffer (a
command that only talks to Neo4j) calls it alone; the raw buffers of other processes
clean themselves when they next write or read the user (``graphmem.ingest.forgetting``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from graphmem.store.facts import delete_user
from graphmem.store.runner import QueryRunner
from graphmem.store.tombstones import bury


@dataclass(frozen=True)
class Forgotten:
    user_id: str
    forgotten_at: datetime  # the tombstone's time (Neo4j's clock)
    nodes_deleted: int


def forget_user(runner: QueryRunner, user_id: str,
                before_delete: Callable[[datetime], None] | None = None) -> Forgotten:
    """Tombstone, ``before_delete(forgotten_at)``, then the user's whole graph."""
    at = bury(runner, user_id)
    if before_delete is not None:
        before_delete(at)
    return Forgotten(user_id, at, delete_user(runner, user_id))
