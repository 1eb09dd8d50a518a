"""Correcting memory, the ``Memory`` methods that remove or change what it holds:
``forget_user``, ``delete_episode``, ``retract_fact`` and ``correct_fact`` (a mixin of
``graphmem._client.Memory``, which holds the pipeline; the logic is in
``graphmem.facts.forget``, ``graphmem.facts.corrections`` and ``graphmem.ingest``). Each
report names what it could not reach (``graphmem._removal``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

from graphmem._checks import in_its_process, valid_id, valid_note
from graphmem._config import MemoryConfig
from graphmem._errors import InvalidInputError
from graphmem._models import EpisodeDeletion, Fact, ForgetReport
from graphmem._removal import deletion_report, forget_report, session_buffers
from graphmem.embed import Embedder
from graphmem.facts import corrections
from graphmem.facts.consolidate import Consolidator
from graphmem.ingest.buffer import RawBuffer, Removed
from graphmem.ingest.ingestion import Ingestion
from graphmem.store import episodes as episode_store
from graphmem.store.runner import QueryRunner


class Correcting:
    """``Memory``'s corrections (its state, declared here for the reader)."""

    config: MemoryConfig
    embedder: Embedder
    _runner: QueryRunner
    _buffer: RawBuffer
    _ingestion: Ingestion
    _consolidator: Consolidator
    _clock: Callable[[], datetime]
    _closed: bool
    _pid: int

    if TYPE_CHECKING:  # implemented by Memory
        def _settle(self) -> None: ...

    @in_its_process
    def forget_user(self, user_id: str) -> ForgetReport:
        """Remove everything of a user: the graph (episodes, messages, facts, entities,
        sessions, a worker's lease) and their raw messages in this Memory's raw buffer —
        for good: a tombstone makes every writer refuse what it still holds of them from
        before (``graphmem.facts.forget``, ``graphmem.ingest.forgetting``); what they say
        afterwards is new. The report names every place it could not reach (a session
        another writer owns, another raw buffer)."""
        valid_id(user_id, "user_id")
        sessions = session_buffers(self._runner, user_id)  # before the graph goes
        removed = [Removed()]

        def empty_buffer(at: datetime) -> None:  # after the tombstone, before the graph
            removed[0] = self._ingestion.forget_user(user_id, at)

        gone = self._consolidator.forget(user_id, before_delete=empty_buffer)
        return forget_report(user_id, gone.nodes_deleted, removed[0], self._buffer.location,
                             sessions)

    @in_its_process
    def delete_episode(self, user_id: str, event_id: str, by: str = "api") -> EpisodeDeletion:
        """Delete one of the user's stored episodes: its messages (in Neo4j and in this
        Memory's raw buffer) and the episode; the fact versions it proved lose it as
        evidence, and a current one left with none expires (saying why, ``by`` whom and
        when). ``SessionBusyError`` (nothing deleted) while another writer owns the
        session here; raw buffers elsewhere are named in ``not_reached``."""
        valid_id(user_id, "user_id")
        valid_id(event_id, "event_id")
        by = valid_note(by, "by")
        self._settle()
        found = episode_store.get_episodes(self._runner, [event_id]).get(event_id)
        if found is None or found.user_id != user_id:
            raise InvalidInputError(f"no episode {event_id!r} for user {user_id!r} (episode "
                                    "ids are in `graphmem episodes USER`)")
        raw = self._ingestion.remove_messages((user_id, found.session_id), *found.raw_span)
        gone = corrections.delete_episode(self._runner, user_id, event_id, by, self._clock())
        return deletion_report(user_id, event_id, gone, raw, self._buffer.location,
                               session_buffers(self._runner, user_id))

    @in_its_process
    def retract_fact(self, user_id: str, fact_id: str, reason: str, by: str = "api") -> Fact:
        """Take back a current fact version that memory got wrong: a new version heads its
        chain with status ``retracted``, ``reason``, ``by`` whom and when (``history``
        shows it); nothing is deleted. Returns the retraction."""
        valid_id(user_id, "user_id")
        valid_id(fact_id, "fact_id")
        reason, by = valid_note(reason, "reason"), valid_note(by, "by")
        self._settle()
        return corrections.retract(self._runner, user_id, fact_id, reason, by, self._clock())

    @in_its_process
    def correct_fact(self, user_id: str, fact_id: str, value: str, reason: str,
                     by: str = "api") -> Fact:
        """Give a current fact version its right ``value``: a new current version (same
        entity and predicate, confidence 1.0, ``reason``, ``by`` whom and when) supersedes
        it in its chain. Returns the new version."""
        valid_id(user_id, "user_id")
        valid_id(fact_id, "fact_id")
        value = valid_note(value, "value")
        reason, by = valid_note(reason, "reason"), valid_note(by, "by")
        self._settle()
        fact = corrections.correct(self._runner, self.embedder, user_id, fact_id, value,
                                   reason, by, self._clock(), self.config.alias_merge_score,
                                   self.config.alias_review_score)
        self._consolidator.drop_cached(user_id)  # the value may be a new entity
        return fact
