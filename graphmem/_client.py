"""``Memory``: the public client. It wires the pipeline stages together and holds no
logic of its own beyond ordering them and checking what callers hand it:

    add_message → Ingestion (RawBuffer → EpisodeSplitter → EpisodeWriter: embed + Neo4j,
    in the background) ; consolidate() → extract → normalize → facts ;
    query_memory() → retrieve ; delete_episode / retract_fact / correct_fact →
    facts.corrections

Public attributes: ``config`` (the settings) and ``embedder`` (the ``Embedder`` in use —
the extension point benchmarks share). Everything else is private.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from graphmem import _exit
from graphmem._checks import (
    check_window,
    in_its_process,
    message_in,
    retrieval_settings,
    valid_count,
    valid_id,
    valid_name,
    valid_path,
    valid_question,
    valid_span,
    valid_time,
    valid_vector,
)
from graphmem._config import EmbedderName, MemoryConfig, RetrievalConfig
from graphmem._correcting import Correcting
from graphmem._errors import InvalidInputError, StoreUnavailableError
from graphmem._models import (
    Episode,
    Fact,
    FactVersion,
    IngestStats,
    MemoryContext,
    Message,
    MessageIn,
    QueryExplanation,
)
from graphmem.embed import Embedder, cosine_scale, embed_queries, load_embedder, vector_space
from graphmem.extract import Extractor, configured_extractor
from graphmem.facts.consolidate import ConsolidationReport, Consolidator, Progress
from graphmem.facts.predicates import canonical_predicate
from graphmem.ingest.buffer import RawBuffer
from graphmem.ingest.forgetting import Freshness
from graphmem.ingest.ingestion import Ingestion
from graphmem.ingest.online import OnlineFacts
from graphmem.ingest.splitter import EpisodeSplitter, IntentClassifier
from graphmem.ingest.writer import EpisodeWriter
from graphmem.retrieve.compress import Block
from graphmem.retrieve.explain import explain
from graphmem.retrieve.question import Question
from graphmem.retrieve.recall import Recalled, assemble, recall
from graphmem.retrieve.router import route_query
from graphmem.store import episodes as episode_store
from graphmem.store import facts as fact_store
from graphmem.store.runner import QueryRunner, Tracer
from graphmem.store.schema import ensure_schema
from graphmem.store.tombstones import forgotten_at
from graphmem.text import language as nlp
from graphmem.text.language import is_chinese
from graphmem.worker import start_scheduler

Clock = Callable[[], datetime]
log = logging.getLogger("graphmem")
FLUSH_TIMEOUT_S = 60.0  # flush() waits this long for an unavailable Neo4j, then raises
CLOSE_STALL_S = 5.0  # close() stops waiting once Neo4j has taken nothing for this long
CLOSE_JOIN_S = 2.0  # ... and gives its background threads this long, in all, to stop
EXIT_FINISH_S = 30.0  # at exit, the embedder's current call (32 texts) may end first
READ_WAIT_S = 5.0  # a read waits at most this long for its user's online facts
MAX_TOKEN_BUDGET = 10_000_000


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Memory(Correcting):
    """Long-term memory for one application instance (``add_message`` is thread-safe)."""

    def __init__(
        self,
        config: MemoryConfig | None = None,
        *,
        embedder: Embedder | None = None,
        classifier: IntentClassifier | None = None,
        extractor: Extractor | None = None,
        clock: Clock = _utcnow,
        tracer: Tracer | None = None,
    ) -> None:
        if config is not None and not isinstance(config, MemoryConfig):
            raise InvalidInputError(
                f"config must be a MemoryConfig, got {type(config).__name__}")
        self.config = config or MemoryConfig()  # bad settings: ConfigError
        self._clock = clock
        self._owns_extractor = extractor is None
        self._extractor = extractor or configured_extractor(self.config)
        self._runner = QueryRunner(
            self.config.driver_uri, self.config.auth, self.config.neo4j_database, tracer=tracer,
            retry_s=self.config.neo4j_retry_s,
            connect_timeout_s=self.config.neo4j_connect_timeout_s,
            read_timeout_s=self.config.neo4j_read_timeout_s,
            serial_writes=self.config.neo4j_serial_writes,
        )
        self._closed = False
        self._pid = os.getpid()  # the process it belongs to (in_its_process)
        try:
            self._runner.verify()
            self.embedder: Embedder = embedder or load_embedder(self.config)
            ensure_schema(self._runner, self.embedder.dimension, vector_space(self.embedder))
            self._buffer = RawBuffer(self.config.buffer_dir, self.config.fsync,
                                     create=self.config.ingest)
        except Exception:
            self._runner.close()
            raise
        fresh = Freshness(self._buffer)  # who was forgotten (graphmem.ingest.forgetting)
        nice = self.config.background_nice  # background threads yield to requests
        self._writer = EpisodeWriter(
            self._runner, self.embedder, self._buffer.acknowledge, self.config.write_batch_size,
            fresh, self._buffer.location, nice,
        )
        self._consolidator = Consolidator(
            self._runner, self.embedder, self._extractor, self.config.min_confidence,
            self.config.alias_merge_score, self.config.alias_review_score,
            timedelta(days=self.config.retention_days) if self.config.retention_days else None,
        )
        self._online = OnlineFacts(self._consolidator, fresh, nice)
        self._ingestion = Ingestion(
            self._buffer,
            EpisodeSplitter(self.config.idle_timeout_s, classifier,
                            self.config.action_max_chars),
            self._writer, clock,
            on_message=self._online.submit if self.config.online_extraction else None,
            freshness=fresh, on_forget=self._online.forget, nice=nice,
        )
        _exit.track(self)  # background threads stopped at exit if close() never comes
        if self.config.ingest:
            self._ingestion.resume()
            self._ingestion.catch_up(self._runner, self._buffer.users())  # forgotten elsewhere
        # online extraction reads English with spaCy: load it now, not with the first message
        nlp.warm_up_in_background(english=self.config.online_extraction and self.config.ingest)
        self._scheduler = (
            start_scheduler(self.consolidate, self.config.consolidate_every_s, nice)
            if self.config.consolidate_every_s else None
        )

    @classmethod
    def connect(
        cls,
        uri: str | None = None,
        user: str | None = None,
        password: str | None = None,
        database: str | None = None,
        *,
        buffer_dir: str | Path | None = None,
        embedder: Embedder | EmbedderName | None = None,
        extractor: Extractor | None = None,
        clock: Clock = _utcnow,
        tracer: Tracer | None = None,
        **settings: Any,
    ) -> Memory:
        """Connect to Neo4j (``GRAPHMEM_NEO4J_*`` env vars or arguments) and apply the schema.

        ``embedder`` is an object with ``embed()``, or the name of a built-in one
        (``"minilm-torch"``, ``"minilm-onnx"``, ``"minilm-onnx-int8"``; the
        ``embedder`` setting, ``GRAPHMEM_EMBEDDER``).
        """
        if isinstance(embedder, str):
            settings["embedder"], embedder = embedder, None
        given = {
            "neo4j_uri": uri, "neo4j_user": user, "neo4j_password": password,
            "neo4j_database": database, "buffer_dir": buffer_dir,
        }
        overrides = {k: v for k, v in given.items() if v is not None} | settings
        config = MemoryConfig(**overrides)  # bad settings: ConfigError
        return cls(config, embedder=embedder, extractor=extractor, clock=clock, tracer=tracer)

    # -- writing -----------------------------------------------------------------------

    @in_its_process
    def add_message(
        self, user_id: str, session_id: str, role: str, content: str, ts: datetime | None = None
    ) -> Message:
        """Record one turn. Durable on return; episodes reach Neo4j in the background."""
        item = message_in({"user_id": user_id, "session_id": session_id, "role": role,
                            "content": content, "ts": ts})
        stored = self._ingestion.add([item])
        return stored[0] if stored else self._buffer.find(item)

    @in_its_process
    def add_messages(self, messages: Iterable[MessageIn | dict[str, Any]]) -> list[Message]:
        """Record many turns with one buffer write, all or nothing; returns the new ones
        (a re-sent message — same session, role, ``ts`` and content — is not stored twice)."""
        if isinstance(messages, str | bytes | dict):
            raise InvalidInputError("add_messages takes a list of messages")
        try:
            items = [m if isinstance(m, MessageIn) else message_in(m) for m in messages]
        except TypeError as exc:
            raise InvalidInputError(f"add_messages takes a list of messages: {exc}") from exc
        return self._ingestion.add(items)

    @in_its_process
    def flush(self, user_id: str | None = None) -> list[Episode]:
        """Close open episodes (of one user, or all) and wait until Neo4j has them.

        If Neo4j stays unavailable, raises ``StoreUnavailableError`` after a minute; the
        episodes wait in the raw buffer and are written when Neo4j returns."""
        if user_id is not None:
            valid_id(user_id, "user_id")
        closed = self._ingestion.flush(user_id, timeout=FLUSH_TIMEOUT_S)
        self._online.drain()
        return [c.episode for c in closed]

    @in_its_process
    def replay(self) -> int:
        """Re-send from the raw buffer everything Neo4j has not acknowledged (``connect``
        does it, and the writer does it by itself after an outage) — of the sessions this
        Memory owns or can take. Idempotent: episodes have deterministic ids and are
        MERGEd. Returns how many messages were re-fed."""
        self._ingesting("replay")
        return self._ingestion.resume()

    @in_its_process
    def consolidate(
        self, user_id: str | None = None, now: datetime | None = None,
        on_progress: Progress | None = None,
    ) -> ConsolidationReport:
        """Distill stored, not yet consolidated episodes into versioned facts; embed new
        facts; expire facts past their validity (what the background job runs)."""
        if user_id is not None:
            valid_id(user_id, "user_id")
        if now is not None:
            now = valid_time(now, "now")
        self._writer.drain(FLUSH_TIMEOUT_S)
        self._online.drain()
        return self._consolidator.run(now or self._clock(), user_id, on_progress)

    @in_its_process
    def export_user(self, user_id: str, path: str | Path) -> dict[str, int]:
        """Write everything of a user — episodes with their messages, every fact version
        with its provenance, entities and aliases, the raw buffer — to ``path`` as JSONL
        (``graphmem.export``; embeddings included). Returns lines written per kind."""
        from graphmem.export import export_to_file

        valid_id(user_id, "user_id")
        path = valid_path(path, "path")
        self.flush(user_id)
        self._writer.drain(FLUSH_TIMEOUT_S)
        return export_to_file(self._runner, self._buffer, user_id, path,
                              self.embedder.dimension, self._clock())

    @in_its_process
    def import_user(self, path: str | Path) -> tuple[str, dict[str, int]]:
        """Restore a ``export_user`` file into this database and raw buffer, where its user
        must have nothing yet. Returns the user id and what was restored per kind."""
        from graphmem.export import import_from_file

        path = valid_path(path, "path")
        self._ingesting("import_user")
        user_id, counts = import_from_file(self._runner, self._buffer, path,
                                           self.embedder.dimension)
        self._consolidator.drop_cached(user_id)
        return user_id, counts

    # -- reading -----------------------------------------------------------------------

    @in_its_process
    def facts(
        self, user_id: str, entity: str | None = None, predicate: str | None = None,
        include_superseded: bool = False,
    ) -> list[Fact]:
        """The user's facts (current only unless ``include_superseded``), optionally for
        one entity (any alias: 微信沟通 finds WeChat) and/or predicate (喜好 → likes)."""
        valid_id(user_id, "user_id")
        for name, value in (("entity", entity), ("predicate", predicate)):
            if value is not None:
                valid_name(value, name)
        self._online.drain(READ_WAIT_S, user_id)  # read your own writes
        entity_id = None
        if entity is not None:
            entity_id = self._consolidator.lookup_entity(user_id, entity)
            if entity_id is None:
                return []
        return fact_store.list_facts(
            self._runner, user_id, entity_id,
            canonical_predicate(predicate) if predicate else None, bool(include_superseded),
        )

    @in_its_process
    def query_memory(
        self,
        user_query: str,
        user_id: str,
        filters: dict[str, Any] | None = None,
        now: datetime | None = None,
        top_k_episodes: int = 3,
        top_k_facts: int = 5,
        token_budget: int | None = None,
        retrieval: RetrievalConfig | None = None,
    ) -> MemoryContext:
        """The memory context for the next prompt: routed, recalled from both stores,
        ranked, compressed and kept inside ``token_budget`` (default: what leaves
        ``1 - memory_share`` of the model window to the conversation). ``retrieval``
        replaces the connection's ``RetrievalConfig`` for this question."""
        context, _, _ = self._answer(user_query, user_id, filters, now, top_k_episodes,
                                     top_k_facts, token_budget, retrieval)
        return context

    @in_its_process
    def explain_query(
        self,
        user_query: str,
        user_id: str,
        filters: dict[str, Any] | None = None,
        now: datetime | None = None,
        top_k_episodes: int = 3,
        top_k_facts: int = 5,
        token_budget: int | None = None,
        retrieval: RetrievalConfig | None = None,
    ) -> QueryExplanation:
        """``query_memory``'s context for the same arguments, with how it was chosen: each
        passage channel's messages in rank order, the fused ranking (which messages the
        context shows) and the candidate facts — for finding out why an answer is missing."""
        context, found, blocks = self._answer(user_query, user_id, filters, now,
                                              top_k_episodes, top_k_facts, token_budget,
                                              retrieval)
        return explain(context, found, blocks)

    def _answer(
        self, user_query: str, user_id: str, filters: dict[str, Any] | None,
        now: datetime | None, top_k_episodes: int, top_k_facts: int, token_budget: int | None,
        retrieval: RetrievalConfig | None,
    ) -> tuple[MemoryContext, Recalled, list[Block]]:
        valid_question(user_query, "user_query")
        valid_id(user_id, "user_id")
        valid_count(top_k_episodes, "top_k_episodes", 0)
        valid_count(top_k_facts, "top_k_facts", 0)
        if token_budget is not None:
            valid_count(token_budget, "token_budget", 1, MAX_TOKEN_BUDGET)
        now = self._clock() if now is None else valid_time(now, "now")
        route, window = route_query(user_query, now, filters)
        settings = retrieval_settings(retrieval, self.config.retrieval)
        budget = token_budget or settings.default_budget
        self._online.drain(READ_WAIT_S, user_id)  # your own writes, not behind others'
        vector = embed_queries(self.embedder, [user_query])[0]
        question = Question(
            query=user_query, vector=vector, user_id=user_id, route=route, window=window,
            now=now, top_k_episodes=top_k_episodes, top_k_facts=top_k_facts,
            include_superseded=bool((filters or {}).get("include_superseded")),
            min_confidence=self.config.min_confidence,
            cosine_scale=cosine_scale(self.embedder, is_chinese(user_query)))
        passages, found = recall(self._runner, question, settings)
        context, blocks = assemble(question, passages, found, budget, settings)
        return context, found, blocks

    @in_its_process
    def history(self, fact_id: str, user_id: str) -> list[FactVersion]:
        """The version chain ``fact_id`` belongs to, newest first, with source episodes —
        only if the fact is the user's."""
        valid_id(fact_id, "fact_id")
        valid_id(user_id, "user_id")
        self._online.drain(READ_WAIT_S, user_id)
        versions = fact_store.fact_history(self._runner, fact_id, user_id)
        if not versions:
            raise InvalidInputError(f"no fact with id {fact_id!r} for user {user_id!r}")
        return versions

    @in_its_process
    def episodes(
        self, user_id: str, since: datetime | None = None, until: datetime | None = None,
        limit: int | None = None,
    ) -> list[Episode]:
        """The user's stored episodes overlapping ``[since, until)``, oldest first: all of
        them, or the first ``limit``."""
        valid_id(user_id, "user_id")
        since, until = check_window(since, until)
        if limit is not None:
            valid_count(limit, "limit", 1, None)
        return episode_store.list_episodes(self._runner, user_id, since, until, limit)

    @in_its_process
    def search_episodes(
        self,
        user_id: str,
        query: str | Sequence[float],
        since: datetime | None = None,
        until: datetime | None = None,
        k: int = 3,
        retrieval: RetrievalConfig | None = None,
    ) -> list[tuple[Episode, float]]:
        """Time window ∩ vector similarity: the ``k`` episodes nearest ``query`` (a text, or
        its vector from ``embedder``), by the ``vector_search`` design of ``retrieval``."""
        valid_id(user_id, "user_id")
        if isinstance(query, str):
            valid_question(query, "query")
            vector = embed_queries(self.embedder, [query])[0]
        else:
            vector = valid_vector(query, self.embedder.dimension)
        valid_count(k, "k", 1)
        since, until = check_window(since, until)
        settings = retrieval_settings(retrieval, self.config.retrieval)
        hits = episode_store.search_episodes_in_window(
            self._runner, user_id, vector, since, until, k, settings)
        found = episode_store.get_episodes(self._runner, [eid for eid, _ in hits])
        return [(found[eid], score) for eid, score in hits if eid in found]

    @in_its_process
    def raw(self, user_id: str, session_id: str,
            raw_span: Sequence[int] | None = None) -> list[Message]:
        """The user's original messages ``raw_span = (first, last)`` of a session, exactly
        (the whole session when ``raw_span`` is None). Nothing of another user's."""
        valid_id(user_id, "user_id")
        valid_id(session_id, "session_id")
        first, last = valid_span(raw_span)
        since = None
        with contextlib.suppress(StoreUnavailableError):  # Neo4j down: the buffer answers
            if self.config.ingest:  # forgotten elsewhere? its lines from before go
                self._ingestion.catch_up(self._runner, [user_id])
            elif at := forgotten_at(self._runner, [user_id]).get(user_id):
                since = at.timestamp()  # a reader deletes nothing: it leaves them out
        if not self._buffer.has_session(user_id, session_id):
            raise InvalidInputError(
                f"no raw buffer for session {session_id!r} of user {user_id!r}")
        return self._buffer.read(user_id, session_id, first, last, since)

    @in_its_process
    def stats(self) -> IngestStats:
        """The write path's counters (see ``IngestStats``); ``retried`` counts every
        query of this ``Memory``, consolidation included."""
        s = self._writer.stats
        return IngestStats(
            episodes_written=s.episodes, batches=s.batches, embed_s=s.embed_s,
            write_s=s.write_s, outages=s.outages, backlog=self._writer.backlog,
            rejected=tuple(map(str, self._writer.rejected)),
            forgotten=tuple(map(str, self._writer.forgotten)),
            buffer_recovered=tuple(self._buffer.recovered),
            retried=dict(self._runner.retries),
        )

    def close(self) -> None:
        """Close open episodes, write what Neo4j still takes, and stop: once Neo4j has
        taken nothing for ``CLOSE_STALL_S`` (5 s: it is down), within ~7 s. What is not
        written stays in the raw buffer, unacknowledged, for the next ``connect()`` (a
        warning says how much). Closing twice, or in a forked child, does nothing."""
        if self._closed:
            return
        self._closed = True
        if self._pid != os.getpid():  # a forked child: the parent's lock, sockets, threads
            return
        try:
            if self._scheduler is not None:
                self._scheduler.shutdown(wait=False)
            try:
                self._ingestion.flush(stall_s=CLOSE_STALL_S)
                self._online.drain(CLOSE_STALL_S)
            except StoreUnavailableError:
                pass  # Neo4j is down: the online facts wait too (consolidation finds them)
        finally:
            self._stop(abandon=False)

    def _stop(self, abandon: bool) -> None:
        """Stop every thread within ``CLOSE_JOIN_S`` and let go of everything; ``abandon``
        (at exit, ``_exit``): at once, whatever still waits (it stays in the raw buffer for
        the next connect). In a forked child: nothing (the parent's threads and locks)."""
        self._closed = True
        _exit.untrack(self)
        if self._pid != os.getpid():
            return
        if abandon and self._scheduler is not None:
            self._scheduler.shutdown(wait=False)
        deadline = time.monotonic() + CLOSE_JOIN_S

        def left_s() -> float:
            return max(0.01, deadline - time.monotonic())

        self._ingestion.close(left_s())
        self._online.close(left_s(), abandon=abandon)
        self._writer.close(deadline, finish_s=EXIT_FINISH_S if abandon else 0.0)
        if (left := self._writer.backlog) and not abandon:  # at exit: _exit says so
            log.warning("closed with %d episode(s) not yet in Neo4j; they stay in the raw "
                        "buffer at %s and are written at the next connect", left,
                        self._buffer.directory)
        self._runner.close()
        self._buffer.close()
        if self._owns_extractor and hasattr(self._extractor, "close"):
            self._extractor.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ---------------------------------------------------------------------

    def _ingesting(self, what: str) -> None:
        if not self.config.ingest:
            raise InvalidInputError(f"{what} writes the raw buffer: this Memory was connected "
                                    "with ingest=False (connect without it to write)")

    def _settle(self) -> None:
        """Wait until what this Memory wrote is in Neo4j (episodes, online facts)."""
        self._writer.drain(FLUSH_TIMEOUT_S)
        self._online.drain()

