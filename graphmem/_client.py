"""``Memory``: the public client. It wires the pipeline stages together and holds
no logic of its own beyond ordering them:

    add_message → RawBuffer (durable) → EpisodeSplitter → EpisodeWriter (background:
    embed + Neo4j) ; consolidate() → extract → normalize → facts ; query_memory() → retrieve
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from graphmem._config import MemoryConfig
from graphmem._errors import InvalidInputError, StoreUnavailableError
from graphmem._models import Episode, Fact, FactVersion, MemoryContext, Message, MessageIn
from graphmem.buffer import RawBuffer
from graphmem.consolidate import ConsolidationReport, Consolidator, Progress, start_scheduler
from graphmem.embed import Embedder, SentenceTransformerEmbedder
from graphmem.extract import Extractor, RuleExtractor, might_have_facts
from graphmem.predicates import canonical_predicate
from graphmem.retrieve.recall import assemble, recall_episodes, recall_facts
from graphmem.retrieve.router import route_query
from graphmem.segment import EpisodeSplitter, IntentClassifier, build_episode, episode_id
from graphmem.store import episodes as episode_store
from graphmem.store import facts as fact_store
from graphmem.store.runner import QueryRunner, Tracer
from graphmem.store.schema import apply_schema
from graphmem.store.writer import BackgroundQueue, EpisodeWriter

Clock = Callable[[], datetime]
_IDLE_CHECK_EVERY = 500
# Explicit preferences and constraints become facts right away (article 2.2, online path).
ONLINE_PREDICATES = frozenset({"likes", "dietary_restriction", "allergic_to", "budget",
                               "uses_channel"})
ONLINE_MIN_CONFIDENCE = 0.85


def _utcnow() -> datetime:
    return datetime.now(UTC)


class Memory:
    """Long-term memory for one application instance (thread-safe for ``add_message``)."""

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
        try:
            self.config = config or MemoryConfig()
        except ValidationError as exc:
            raise InvalidInputError(f"invalid graphmem settings: {exc}") from exc
        self.clock = clock
        self.runner = QueryRunner(
            self.config.neo4j_uri, self.config.auth, self.config.neo4j_database, tracer=tracer,
            retry_s=self.config.neo4j_retry_s,
        )
        try:
            self.runner.verify()
            self.embedder = embedder or SentenceTransformerEmbedder(
                self.config.embedding_model, self.config.embedding_batch_size
            )
            apply_schema(self.runner, self.embedder.dimension)
        except Exception:
            self.runner.close()
            raise
        self.buffer = RawBuffer(self.config.buffer_dir, self.config.fsync)
        self.splitter = EpisodeSplitter(
            self.config.idle_timeout_s, classifier, self.config.action_max_chars
        )
        self.writer = EpisodeWriter(
            self.runner, self.embedder, self.buffer, self.config.write_batch_size
        )
        self.extractor = extractor or RuleExtractor()
        self._online_extractor = RuleExtractor(generic=False)  # cheap rules only
        self.consolidator = Consolidator(
            self.runner, self.embedder, self.extractor, self.config.min_confidence,
            self.config.alias_merge_score, self.config.alias_review_score,
            timedelta(days=self.config.retention_days) if self.config.retention_days else None,
        )
        self._online = BackgroundQueue(self._store_online, name="graphmem-online-facts")
        self._since_idle_check = 0
        self._latest_ts: datetime | None = None
        self._resume()
        self._scheduler = (
            start_scheduler(self.consolidate, self.config.consolidate_every_s)
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
        embedder: Embedder | None = None,
        extractor: Extractor | None = None,
        clock: Clock = _utcnow,
        tracer: Tracer | None = None,
        **settings: Any,
    ) -> Memory:
        """Connect to Neo4j (``GRAPHMEM_NEO4J_*`` env vars or arguments) and apply the schema."""
        given = {
            "neo4j_uri": uri, "neo4j_user": user, "neo4j_password": password,
            "neo4j_database": database, "buffer_dir": buffer_dir,
        }
        overrides = {k: v for k, v in given.items() if v is not None} | settings
        try:
            config = MemoryConfig(**overrides)
        except ValidationError as exc:
            raise InvalidInputError(f"invalid graphmem settings: {exc}") from exc
        return cls(config, embedder=embedder, extractor=extractor, clock=clock, tracer=tracer)

    # -- writing -----------------------------------------------------------------------

    def add_message(
        self, user_id: str, session_id: str, role: str, content: str, ts: datetime | None = None
    ) -> Message:
        """Record one turn. Durable on return; episodes reach Neo4j in the background."""
        stored = self.add_messages(
            [{"user_id": user_id, "session_id": session_id, "role": role,
              "content": content, "ts": ts}]
        )
        if stored:
            return stored[0]
        return self._existing(session_id, role, content, ts)

    def add_messages(self, messages: Iterable[MessageIn | dict[str, Any]]) -> list[Message]:
        """Record many turns with one buffer write; same semantics as ``add_message``."""
        try:
            items = [m if isinstance(m, MessageIn) else MessageIn(**m) for m in messages]
        except (ValidationError, TypeError) as exc:
            raise InvalidInputError(f"invalid message: {exc}") from exc
        stored = self.buffer.append(items, now=self.clock())
        closed: list[Episode] = []
        for msg in stored:
            closed.extend(self.splitter.feed(msg))
            if self._latest_ts is None or msg.ts > self._latest_ts:
                self._latest_ts = msg.ts
            if msg.role == "user" and self.config.online_extraction:
                self._extract_online(msg)
        self._since_idle_check += len(stored)
        if self._since_idle_check >= _IDLE_CHECK_EVERY and self._latest_ts is not None:
            self._since_idle_check = 0
            closed.extend(self.splitter.close_idle(self._latest_ts))
        self.writer.submit(closed)
        return stored

    def flush(self, user_id: str | None = None) -> list[Episode]:
        """Close open episodes (of one user, or all) and wait until Neo4j has them."""
        closed = self.splitter.close_all(user_id)
        self.writer.submit(closed)
        self.writer.drain()
        self._online.drain()
        return closed

    def replay(self) -> int:
        """Re-send from the raw buffer everything Neo4j has not acknowledged.

        Idempotent: episodes have deterministic ids and are MERGEd. Returns how many
        messages were re-fed. Call it after a Neo4j outage (``connect`` also does it).
        """
        self.writer.drain(raise_failure=False)
        self.writer.reset_failure()
        return self._resume()

    def consolidate(
        self, user_id: str | None = None, now: datetime | None = None,
        on_progress: Progress | None = None,
    ) -> ConsolidationReport:
        """Distill stored, not yet consolidated episodes into versioned facts; embed new
        facts; expire facts past their validity. The background job runs exactly this."""
        self.writer.drain()
        self._online.drain()
        return self.consolidator.run(now or self.clock(), user_id, on_progress)

    # -- reading -----------------------------------------------------------------------

    def facts(
        self, user_id: str, entity: str | None = None, predicate: str | None = None,
        include_superseded: bool = False,
    ) -> list[Fact]:
        """The user's facts (current only unless ``include_superseded``), optionally for
        one entity (any alias: 微信沟通 finds WeChat) and/or predicate (喜好 → likes)."""
        self._online.drain()  # read your own writes
        entity_id = None
        if entity is not None:
            entity_id = self.consolidator.lookup_entity(user_id, entity)
            if entity_id is None:
                return []
        return fact_store.list_facts(
            self.runner, user_id, entity_id,
            canonical_predicate(predicate) if predicate else None, include_superseded,
        )

    def query_memory(
        self,
        user_query: str,
        user_id: str,
        filters: dict[str, Any] | None = None,
        now: datetime | None = None,
        top_k_episodes: int = 3,
        top_k_facts: int = 5,
        token_budget: int | None = None,
    ) -> MemoryContext:
        """The memory context for the next prompt: routed, recalled from both stores,
        ranked, compressed and kept inside ``token_budget`` (default: what leaves
        ``1 - memory_share`` of the model window to the conversation)."""
        if not user_query.strip():
            raise InvalidInputError("user_query is empty")
        if top_k_episodes < 0 or top_k_facts < 0:
            raise InvalidInputError("top_k_episodes and top_k_facts must be >= 0")
        if token_budget is not None and token_budget <= 0:
            raise InvalidInputError("token_budget must be positive")
        now = now or self.clock()
        if now.tzinfo is None:
            raise InvalidInputError("now must be timezone-aware")
        route, window = route_query(user_query, now, filters)
        budget = token_budget or int(self.config.model_window_tokens * self.config.memory_share)
        self._online.drain()  # read your own writes
        vector = self.embedder.embed([user_query])[0]
        episodes = recall_episodes(
            self.runner, vector, user_query, user_id, window, top_k_episodes,
            self.config.exact_scan_max,
        ) if route != "semantic" and top_k_episodes else []
        facts = recall_facts(
            self.runner, vector, user_query, user_id, now, top_k_facts,
            self.config.exact_scan_max, self.config.min_confidence,
            bool((filters or {}).get("include_superseded")), self.config.min_fact_similarity,
        ) if route != "episodic" and top_k_facts else []
        return assemble(user_query, route, window, episodes, facts, budget)

    def history(self, fact_id: str) -> list[FactVersion]:
        """The version chain ``fact_id`` belongs to, newest first, with source episodes."""
        self._online.drain()
        versions = fact_store.fact_history(self.runner, fact_id)
        if not versions:
            raise InvalidInputError(f"no fact with id {fact_id!r}")
        return versions

    def episodes(
        self, user_id: str, since: datetime | None = None, until: datetime | None = None
    ) -> list[Episode]:
        """The user's stored episodes overlapping ``[since, until)``, oldest first."""
        _check_window(since, until)
        return episode_store.list_episodes(self.runner, user_id, since, until)

    def search_episodes(
        self,
        user_id: str,
        query: str,
        since: datetime | None = None,
        until: datetime | None = None,
        k: int = 3,
    ) -> list[tuple[Episode, float]]:
        """Time window ∩ vector similarity: the ``k`` episodes nearest ``query``."""
        _check_window(since, until)
        vector = self.embedder.embed([query])[0]
        hits = episode_store.search_episodes_in_window(
            self.runner, user_id, vector, since, until, k, self.config.exact_scan_max
        )
        found = episode_store.get_episodes(self.runner, [eid for eid, _ in hits])
        return [(found[eid], score) for eid, score in hits if eid in found]

    def raw(self, session_id: str, raw_span: Sequence[int]) -> list[Message]:
        """The original messages ``raw_span = (first, last)`` of a session, exactly."""
        if len(raw_span) != 2 or raw_span[0] > raw_span[1]:
            raise InvalidInputError(f"raw_span must be (first, last), got {raw_span!r}")
        if not self.buffer.has_session(session_id):
            raise InvalidInputError(f"no raw buffer for session {session_id!r}")
        return self.buffer.read(session_id, raw_span[0], raw_span[1])

    def close(self) -> None:
        try:
            if self._scheduler is not None:
                self._scheduler.shutdown(wait=True)
            self.flush()
        finally:
            self._online.close()
            self.writer.close()
            self.runner.close()

    def __enter__(self) -> Memory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- internals ---------------------------------------------------------------------

    def _resume(self) -> int:
        """Re-feed unacknowledged buffered messages into fresh splitter state."""
        fed = 0
        for session_id in self.buffer.sessions():
            pending = self.buffer.pending(session_id)
            self.splitter.reset(session_id)
            self.writer.submit(self.splitter.feed_all(pending))
            fed += len(pending)
        return fed

    def _extract_online(self, msg: Message) -> None:
        """Explicit preferences/constraints in a user message become facts at once: cheap
        rules here, the Neo4j write in the background; the fact's episode id is already
        known (deterministic), so consolidation later only re-verifies it."""
        if not might_have_facts(msg.content):
            return
        open_messages = self.splitter.open_messages(msg.session_id)
        candidates = [
            c for c in self._online_extractor.extract(build_episode(open_messages))
            if c.observed_at == msg.ts and c.predicate in ONLINE_PREDICATES
            and c.confidence >= ONLINE_MIN_CONFIDENCE
        ]
        if candidates:
            self._online.submit(
                (msg.user_id, episode_id(msg.session_id, open_messages[0].msg_id), candidates))

    def _store_online(self, item: object) -> None:
        user_id, event_id, candidates = item  # type: ignore[misc]
        # If Neo4j is down, consolidation distills the same episode later: nothing is lost.
        with contextlib.suppress(StoreUnavailableError):
            self.consolidator.distill(user_id, event_id, candidates)

    def _existing(self, session_id: str, role: str, content: str, ts: datetime | None) -> Message:
        for msg in self.buffer.iter_session(session_id):
            if msg.role == role and msg.content == content and msg.ts == ts:
                return msg
        raise InvalidInputError("message was neither stored nor found")  # pragma: no cover


def _check_window(since: datetime | None, until: datetime | None) -> None:
    for name, value in (("since", since), ("until", until)):
        if value is not None and value.tzinfo is None:
            raise InvalidInputError(f"{name} must be timezone-aware")
    if since is not None and until is not None and since >= until:
        raise InvalidInputError("since must be earlier than until")
