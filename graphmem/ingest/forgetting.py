"""A forgotten user stays forgotten: what this process checks before it writes a user's data.

``forget_user`` writes the user's tombstone, deletes what this process's raw buffer holds
of the user and then the user's graph (``graphmem.facts.forget``). Any other data of the
user still on its way — an episode or an online fact in flight here, another process's
open episode, a buffer replayed after a crash — was read before that and must not reach
Neo4j. Each is stamped, when read from the buffer, with the user's buffer ``generation``
(it moves on whenever the user's lines are deleted), and each write transaction checks,
under its users' locks (``store.tombstones``):

- a tombstone this buffer has not applied yet (another process forgot the user): the
  write is refused (``LateWrite``), the buffer deletes its lines from before the tombstone
  and feeds the newer ones again (``Ingestion.apply_forget``), and the write is retried
  without what was stale;
- a stale generation: what it holds was deleted here meanwhile — refused, dropped, and
  reported (``IngestStats.forgotten``).

A user who comes back after the tombstone is written as new: their new lines are newer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime

from graphmem._errors import GraphmemError
from graphmem.ingest.buffer import RawBuffer
from graphmem.store.tombstones import Verify


class LateWrite(GraphmemError):
    """A write of data of users forgotten meanwhile (never leaves graphmem: the writer
    catches it). ``users``: each user's tombstone not applied here yet, or None when only
    the write's own data is stale."""

    def __init__(self, users: dict[str, datetime | None]) -> None:
        super().__init__(f"data of forgotten users: {sorted(users)}")
        self.users = users


class Freshness:
    """What this process knows of forgets (its raw buffer's generations and the tombstones
    it applied), and how it catches up with a new one (``apply``, set by ``Ingestion``)."""

    def __init__(self, buffer: RawBuffer) -> None:
        self.buffer = buffer
        self.apply: Callable[[str, datetime], bool] = lambda user_id, at: False

    def stamp(self, user_id: str) -> int:
        return self.buffer.generation(user_id)

    def current(self, user_id: str, generation: int) -> bool:
        return self.buffer.generation(user_id) == generation

    def verify(self, stamped: Iterable[tuple[str, int]]) -> Verify:
        """The check of a write of data stamped ``(user_id, generation)``: given the users'
        tombstones inside the transaction, raises ``LateWrite`` when any is news here or
        any stamp is stale."""
        stamps = list(stamped)

        def check(tombstones: dict[str, datetime]) -> None:
            late: dict[str, datetime | None] = {}
            for user_id, generation in stamps:
                at = tombstones.get(user_id)
                if at is not None and self.buffer.forgotten_at(user_id) != at.timestamp():
                    late[user_id] = at
                elif not self.current(user_id, generation):
                    late.setdefault(user_id, None)
            if late:
                raise LateWrite(late)

        return check

    def catch_up(self, late: LateWrite) -> None:
        """Apply the tombstones a refused write found (its stale data then drops out)."""
        for user_id, at in sorted(late.users.items()):
            if at is not None:
                self.apply(user_id, at)
