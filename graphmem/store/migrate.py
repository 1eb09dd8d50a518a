"""Migrations of graphs written by older graphmem versions, run by ``apply_schema``.

What is migrated (once per database; a ``(:GraphmemSchema {key: 'graph'})`` node records
the version reached, so later connects only read that one node):

- **version 1 — the tenant key.** Episode, Fact and Message nodes written before full-text
  queries were scoped by ``tenant`` lack it, so keyword search never finds them; it is
  computed from their ``user_id`` and set.
- **version 2 — speakers' names.** User nodes get ``speakers``, the words of the names
  their messages' speakers go by (keyword search weighs those words less).

Done elsewhere: the schema drops the old session-id-only constraint and the full-text
indexes without ``tenant`` (``cypher/schema.cypher``); raw buffers in the old flat layout
move into per-user folders (``graphmem.ingest.buffer``). Not migrated: episode ids written before
they included the user keep their old id (they stay readable; two users' episodes that
collided under one old id cannot be told apart again).
"""

from __future__ import annotations

import logging

from graphmem.store.episodes import name_words
from graphmem.store.ids import tenant_key
from graphmem.store.runner import QueryRunner, Tx

log = logging.getLogger("graphmem.migrate")

GRAPH_VERSION = 2
_USERS_PER_TX = 100


def migrate_graph(runner: QueryRunner) -> int:
    """Bring the graph to ``GRAPH_VERSION``; returns how many nodes were changed."""
    version = runner.read("store/get_graph_version")[0]["version"]
    if version is not None and int(version) >= GRAPH_VERSION:
        return 0
    changed = backfill_tenant(runner) + backfill_speakers(runner)
    runner.write("store/set_graph_version", version=GRAPH_VERSION)
    if changed:
        log.warning("graph migrated to version %d: %d nodes updated",
                    GRAPH_VERSION, changed)
    return changed


def backfill_tenant(runner: QueryRunner) -> int:
    changed = 0
    while users := [r["user_id"] for r in runner.read(
            "store/list_users_without_tenant", limit=_USERS_PER_TX)]:

        def work(tx: Tx, users: list[str] = users) -> int:
            tx.write("store/lock_users", user_ids=sorted(users))
            rows = tx.write("store/set_tenant", users=[
                {"user_id": u, "tenant": tenant_key(u)} for u in sorted(users)])
            return int(rows[0]["updated"])

        changed += runner.transaction("store/set_tenant", work)
    return changed


def backfill_speakers(runner: QueryRunner) -> int:
    changed = 0
    while rows := runner.read("store/list_users_without_speakers", limit=_USERS_PER_TX):
        users = sorted(({"user_id": r["user_id"], "speakers": name_words(r["names"])}
                        for r in rows), key=lambda u: u["user_id"])

        def work(tx: Tx, users: list[dict] = users) -> int:
            tx.write("store/lock_users", user_ids=[u["user_id"] for u in users])
            return int(tx.write("store/set_user_speakers", users=users)[0]["updated"])

        changed += runner.transaction("store/set_user_speakers", work)
    return changed
