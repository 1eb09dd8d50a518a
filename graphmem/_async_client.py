"""``AsyncMemory``: the async twin of ``Memory`` for agent frameworks on asyncio.

One implementation underneath: every method runs the same ``Memory`` method in a worker
thread (``asyncio.to_thread``), so the event loop never blocks on Neo4j, the embedder or
an fsync, and the two clients cannot drift apart in behaviour. ``Memory`` is thread-safe
where it matters (``add_message``, the background writer, consolidation's lock), so
concurrent tasks are fine. A test keeps the method names and signatures the same.

    async with AsyncMemory.connect(buffer_dir=".graphmem/buffer") as mem:   # or: mem = await ...
        await mem.add_message("u1", "s1", "user", "I'm allergic to peanuts")
        ctx = await mem.query_memory("what can't I eat?", "u1")
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Generator, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from graphmem._client import Clock, Memory, _utcnow
from graphmem._config import EmbedderName, MemoryConfig, RetrievalConfig
from graphmem._errors import InvalidInputError
from graphmem._models import (
    Episode,
    EpisodeDeletion,
    Fact,
    FactVersion,
    ForgetReport,
    IngestStats,
    MemoryContext,
    Message,
    MessageIn,
    QueryExplanation,
)
from graphmem.embed import Embedder
from graphmem.extract import Extractor
from graphmem.facts.consolidate import ConsolidationReport, Progress
from graphmem.ingest.splitter import IntentClassifier
from graphmem.store.runner import Tracer


class AsyncMemory:
    """``Memory`` with ``async`` methods. Build it with ``await AsyncMemory.connect(...)``
    or ``async with AsyncMemory.connect(...) as mem`` (``open(config)`` likewise), or wrap
    a ``Memory`` you already have: ``AsyncMemory(memory)``."""

    def __init__(self, memory: Memory) -> None:
        if not isinstance(memory, Memory):
            raise InvalidInputError(
                "AsyncMemory wraps a Memory; use `await AsyncMemory.connect()`")
        self._memory = memory

    @classmethod
    def open(
        cls,
        config: MemoryConfig | None = None,
        *,
        embedder: Embedder | None = None,
        classifier: IntentClassifier | None = None,
        extractor: Extractor | None = None,
        clock: Clock = _utcnow,
        tracer: Tracer | None = None,
    ) -> Opening:
        """``Memory(config, ...)`` built off the event loop (it connects and loads models)."""
        return Opening(lambda: Memory(config, embedder=embedder, classifier=classifier,
                                      extractor=extractor, clock=clock, tracer=tracer))

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
    ) -> Opening:
        """Connect to Neo4j (``GRAPHMEM_NEO4J_*`` env vars or arguments) and apply the
        schema, off the event loop. Await the result, or use it as ``async with``."""
        return Opening(lambda: Memory.connect(
            uri, user, password, database, buffer_dir=buffer_dir, embedder=embedder,
            extractor=extractor, clock=clock, tracer=tracer, **settings))

    @property
    def config(self) -> MemoryConfig:
        return self._memory.config

    @property
    def embedder(self) -> Embedder:
        return self._memory.embedder

    @property
    def sync(self) -> Memory:
        """The ``Memory`` underneath (for code that is not async)."""
        return self._memory

    # -- writing -----------------------------------------------------------------------

    async def add_message(
        self, user_id: str, session_id: str, role: str, content: str, ts: datetime | None = None
    ) -> Message:
        return await asyncio.to_thread(self._memory.add_message, user_id, session_id, role,
                                       content, ts)

    async def add_messages(self, messages: Iterable[MessageIn | dict[str, Any]]) -> list[Message]:
        return await asyncio.to_thread(self._memory.add_messages, messages)

    async def flush(self, user_id: str | None = None) -> list[Episode]:
        return await asyncio.to_thread(self._memory.flush, user_id)

    async def replay(self) -> int:
        return await asyncio.to_thread(self._memory.replay)

    async def consolidate(
        self, user_id: str | None = None, now: datetime | None = None,
        on_progress: Progress | None = None,
    ) -> ConsolidationReport:
        return await asyncio.to_thread(self._memory.consolidate, user_id, now, on_progress)

    async def forget_user(self, user_id: str) -> ForgetReport:
        return await asyncio.to_thread(self._memory.forget_user, user_id)

    async def delete_episode(self, user_id: str, event_id: str,
                             by: str = "api") -> EpisodeDeletion:
        return await asyncio.to_thread(self._memory.delete_episode, user_id, event_id, by)

    async def retract_fact(self, user_id: str, fact_id: str, reason: str,
                           by: str = "api") -> Fact:
        return await asyncio.to_thread(self._memory.retract_fact, user_id, fact_id, reason, by)

    async def correct_fact(self, user_id: str, fact_id: str, value: str, reason: str,
                           by: str = "api") -> Fact:
        return await asyncio.to_thread(self._memory.correct_fact, user_id, fact_id, value,
                                       reason, by)

    async def export_user(self, user_id: str, path: str | Path) -> dict[str, int]:
        return await asyncio.to_thread(self._memory.export_user, user_id, path)

    async def import_user(self, path: str | Path) -> tuple[str, dict[str, int]]:
        return await asyncio.to_thread(self._memory.import_user, path)

    # -- reading -----------------------------------------------------------------------

    async def facts(
        self, user_id: str, entity: str | None = None, predicate: str | None = None,
        include_superseded: bool = False,
    ) -> list[Fact]:
        return await asyncio.to_thread(self._memory.facts, user_id, entity, predicate,
                                       include_superseded)

    async def query_memory(
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
        return await asyncio.to_thread(
            self._memory.query_memory, user_query, user_id, filters, now, top_k_episodes,
            top_k_facts, token_budget, retrieval)

    async def explain_query(
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
        return await asyncio.to_thread(
            self._memory.explain_query, user_query, user_id, filters, now, top_k_episodes,
            top_k_facts, token_budget, retrieval)

    async def history(self, fact_id: str, user_id: str) -> list[FactVersion]:
        return await asyncio.to_thread(self._memory.history, fact_id, user_id)

    async def episodes(
        self, user_id: str, since: datetime | None = None, until: datetime | None = None,
        limit: int | None = None,
    ) -> list[Episode]:
        return await asyncio.to_thread(self._memory.episodes, user_id, since, until, limit)

    async def search_episodes(
        self,
        user_id: str,
        query: str | Sequence[float],
        since: datetime | None = None,
        until: datetime | None = None,
        k: int = 3,
        retrieval: RetrievalConfig | None = None,
    ) -> list[tuple[Episode, float]]:
        return await asyncio.to_thread(self._memory.search_episodes, user_id, query, since,
                                       until, k, retrieval)

    async def raw(self, user_id: str, session_id: str,
                  raw_span: Sequence[int] | None = None) -> list[Message]:
        return await asyncio.to_thread(self._memory.raw, user_id, session_id, raw_span)

    async def stats(self) -> IngestStats:
        return await asyncio.to_thread(self._memory.stats)

    async def close(self) -> None:
        await asyncio.to_thread(self._memory.close)

    async def __aenter__(self) -> AsyncMemory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()


class Opening:
    """An ``AsyncMemory`` being built: ``await`` it, or enter it with ``async with`` (which
    closes the memory on exit)."""

    def __init__(self, build: Callable[[], Memory]) -> None:
        self._build = build
        self._memory: AsyncMemory | None = None

    async def _open(self) -> AsyncMemory:
        return AsyncMemory(await asyncio.to_thread(self._build))

    def __await__(self) -> Generator[Any, None, AsyncMemory]:
        return self._open().__await__()

    async def __aenter__(self) -> AsyncMemory:
        self._memory = await self._open()
        return self._memory

    async def __aexit__(self, *exc: object) -> None:
        if self._memory is not None:
            await self._memory.close()
