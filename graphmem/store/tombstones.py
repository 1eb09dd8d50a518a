"""Tombstones: a forgotten user stays forgotten.

``forget_user`` first writes the user's tombstone — ``(:Tombstone {key, forgotten_at})``,
the key a one-way hash of the user id (``ids.forget_key``), so it keeps nothing of the user
but the moment — and only then deletes the user's graph. Every transaction that creates a
user's data (the episode writer, online facts) reads its users' tombstones right after
taking their locks (``store/lock_users``; ``bury`` takes the same lock, so the two are
ordered) and hands them to its caller's check: a process holding data of the user from
before that moment — another application instance with an open episode, a buffer
replayed after a crash, a write in flight — refuses it there, inside the transaction,
and cleans its own raw buffer (``graphmem.ingest.forgetting``). A user who comes back is
written as new: what arrives after the tombstone is kept.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from graphmem._models import fixed_offset
from graphmem.store.ids import forget_key
from graphmem.store.runner import QueryRunner, Tx

# A writer's check of its users' tombstones, run inside its transaction after their locks:
# raises (and so rolls the transaction back) when it holds data from before one of them.
Verify = Callable[[dict[str, datetime]], None]


def bury(runner: QueryRunner, user_id: str) -> datetime:
    """Write (or move) the user's tombstone; returns its time (Neo4j's clock)."""

    def work(tx: Tx) -> datetime:
        tx.write("store/lock_users", user_ids=[user_id])
        return _native(tx.write("store/bury_user", key=forget_key(user_id))[0]["forgotten_at"])

    return runner.transaction("store/bury_user", work)


def forgotten_at(store: QueryRunner | Tx, user_ids: Iterable[str]) -> dict[str, datetime]:
    """When each of these users was last forgotten (those never forgotten are left out)."""
    users = [{"user_id": u, "key": forget_key(u)} for u in sorted(set(user_ids))]
    if not users:
        return {}
    rows = store.read("store/get_tombstones", users=users)
    return {r["user_id"]: _native(r["forgotten_at"]) for r in rows}


def _native(value: Any) -> datetime:
    return fixed_offset(value.to_native() if hasattr(value, "to_native") else value)
