"""The MCP server (``graphmem mcp``): memory as tools for agents that speak the Model
Context Protocol, over stdio or streamable HTTP, built on the official ``mcp`` SDK
(``pip install 'graphmem[mcp]'``).

Tools (``TOOLS``) — each wraps one ``AsyncMemory`` call:

    remember     add_messages (+ flush with close_episode=true)
    recall       query_memory, with ``now`` and ``token_budget``
    explain      explain_query: recall's context and how it was chosen (for debugging)
    facts        facts
    history      history (a fact's version chain)
    episodes     episodes in a time window
    forget_user  forget_user

Every tool takes ``user_id``, required and never inferred: there is no default user, no
user remembered from an earlier call, no user taken from the connection — one server
serves many users, and each call names whose memory it touches. Each result carries
text for the model (the prompt block, one line per fact or episode) and the same
result as structured content for programs. graphmem's errors come back as tool errors
(``isError``) that say what to fix, never what ran: a bad argument's message (cut to
``MAX_ERROR_CHARS``), and for the database's own troubles (unreachable, a statement refused
or stopped) a plain sentence — the details (query names, Neo4j's codes and text) go to the
server's log, cut too: an argument can be megabytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, field_validator

from graphmem._async_client import AsyncMemory
from graphmem._client import Memory
from graphmem._errors import (
    ConfigError,
    GraphmemError,
    InvalidInputError,
    QueryRefusedError,
    StoreUnavailableError,
)
from graphmem._models import (
    MAX_ID_CHARS,
    MAX_MESSAGE_CHARS,
    MAX_NAME_CHARS,
    MAX_QUESTION_CHARS,
    Episode,
    Fact,
    FactVersion,
    MemoryContext,
    QueryExplanation,
    Role,
)
from graphmem.retrieve.explain import channel_counts, channel_ranks
from graphmem.store.runner import timed_out

log = logging.getLogger("graphmem.mcp")

Transport = Literal["stdio", "streamable-http"]
TOOLS = ("remember", "recall", "explain", "facts", "history", "episodes", "forget_user")
EXPLAIN_LINES = 15  # of the fused ranking, in the explain tool's text
MAX_ERROR_CHARS = 500  # of an error's text, to the client and to the log
INSTRUCTIONS = (
    "Long-term memory of conversations with users, kept in Neo4j. Call `remember` with "
    "each turn (close_episode=true when a conversation or topic ends), `recall` before "
    "answering to get what memory knows about the question. Every call names the user "
    "whose memory it touches: pass the same user_id you were given for this user; "
    "never guess one."
)

UserId = Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS, description=(
    "Whose memory this is. Required on every call; never inferred."))]
When = Annotated[datetime | None, Field(description=(
    "ISO 8601 date-time; without a zone it is read as UTC."))]
Query = Annotated[str, Field(min_length=1, max_length=MAX_QUESTION_CHARS, description=(
    "The question or the user's latest message."))]
AsOf = Annotated[When, Field(description=(
    "Resolve 'yesterday', 'last time', 上周三 … as of this time (default: now)."))]
Budget = Annotated[int | None, Field(gt=0, description=(
    "Most tokens the memory block may take (default: 20% of the model window)."))]
TopEpisodes = Annotated[int, Field(ge=0, le=50)]
TopFacts = Annotated[int, Field(ge=0, le=100)]


class Turn(BaseModel):
    """One message of a conversation, as a tool caller sends it."""

    role: Role
    content: str = Field(min_length=1, max_length=MAX_MESSAGE_CHARS)
    ts: When = None

    @field_validator("ts")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        return _aware(value)


class Remembered(BaseModel):
    stored: int
    msg_ids: list[int]
    episodes_closed: list[str]


class FactList(BaseModel):
    facts: list[Fact]


class VersionList(BaseModel):
    versions: list[FactVersion]


class EpisodeList(BaseModel):
    episodes: list[Episode]


class Forgotten(BaseModel):
    user_id: str
    forgotten: bool


def build_server(memory: AsyncMemory) -> MCPServer:
    """The MCP server with graphmem's tools bound to ``memory``."""
    server: MCPServer = MCPServer("graphmem", instructions=INSTRUCTIONS,
                                  version=_version())

    @server.tool(title="Remember messages", annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=True))
    async def remember(
        user_id: UserId,
        session_id: Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS, description=(
            "The conversation the messages belong to (scoped by the user)."))],
        messages: Annotated[list[Turn], Field(min_length=1)],
        close_episode: Annotated[bool, Field(description=(
            "True when the conversation or its topic is over: the open episode is closed "
            "and stored now, so `recall` finds it. Otherwise an episode closes by itself "
            "on a change of topic or after a silence."))] = False,
    ) -> Annotated[CallToolResult, Remembered]:
        """Record conversation turns in the user's memory (durable on return; a re-sent
        message is not stored twice)."""
        stored = await _call(memory.add_messages(
            [{"user_id": user_id, "session_id": session_id, **t.model_dump()}
             for t in messages]))
        closed = await _call(memory.flush(user_id)) if close_episode else []
        result = Remembered(stored=len(stored), msg_ids=[m.msg_id for m in stored],
                            episodes_closed=[e.event_id for e in closed])
        text = f"stored {len(stored)} of {len(messages)} messages"
        if close_episode:
            text += f"; closed {len(closed)} episode(s)"
        return _result(text, result)

    @server.tool(title="Recall memory", annotations=ToolAnnotations(read_only_hint=True))
    async def recall(
        user_id: UserId, query: Query, now: AsOf = None, token_budget: Budget = None,
        top_k_episodes: TopEpisodes = 3, top_k_facts: TopFacts = 5,
    ) -> Annotated[CallToolResult, MemoryContext]:
        """The memory context for answering `query`: facts and past episodes, ranked,
        compressed and kept within the token budget, with their provenance."""
        ctx = await _call(memory.query_memory(
            query, user_id, now=_aware(now), top_k_episodes=top_k_episodes,
            top_k_facts=top_k_facts, token_budget=token_budget))
        return _result(ctx.text or "(nothing remembered)", ctx)

    @server.tool(title="Explain a recall", annotations=ToolAnnotations(read_only_hint=True))
    async def explain(
        user_id: UserId, query: Query, now: AsOf = None, token_budget: Budget = None,
        top_k_episodes: TopEpisodes = 3, top_k_facts: TopFacts = 5,
    ) -> Annotated[CallToolResult, QueryExplanation]:
        """Why `recall` gives what it gives for these arguments: the same context, each
        channel's messages with its weight, the fused ranking (score, coverage of the
        question's words, rank per channel, shown or not) and the candidate facts. A
        message ranked but not shown lost to the budget; one in no channel was never
        found."""
        why = await _call(memory.explain_query(
            query, user_id, now=_aware(now), top_k_episodes=top_k_episodes,
            top_k_facts=top_k_facts, token_budget=token_budget))
        return _result(_explanation_text(why), why)

    @server.tool(title="List facts", annotations=ToolAnnotations(read_only_hint=True))
    async def facts(
        user_id: UserId,
        entity: Annotated[str | None, Field(max_length=MAX_NAME_CHARS,
                                            description="Any alias of the entity.")] = None,
        predicate: Annotated[str | None, Field(max_length=MAX_NAME_CHARS,
                                               description="e.g. likes, budget.")] = None,
        include_superseded: bool = False,
    ) -> Annotated[CallToolResult, FactList]:
        """The user's facts (current ones unless include_superseded), with their ids."""
        found = await _call(memory.facts(user_id, entity, predicate, include_superseded))
        lines = [f"{'NOT ' if f.negated else ''}{f.sentence} ({f.status}, confidence "
                 f"{f.confidence:.2f}) [{f.fact_id}]" for f in found]
        return _result("\n".join(lines) or "(no facts)", FactList(facts=found))

    @server.tool(title="Fact history", annotations=ToolAnnotations(read_only_hint=True))
    async def history(
        user_id: UserId,
        fact_id: Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS,
                                      description="From `facts` or `recall`.")],
    ) -> Annotated[CallToolResult, VersionList]:
        """A fact's version chain, newest first, each version with its source episodes."""
        versions = await _call(memory.history(fact_id, user_id))
        lines = [f"{v.fact.status}: {v.fact.sentence} (confidence {v.fact.confidence:.2f}, "
                 f"from {', '.join(e.event_id for e in v.episodes) or '?'})"
                 for v in versions]
        return _result("\n".join(lines), VersionList(versions=versions))

    @server.tool(title="List episodes", annotations=ToolAnnotations(read_only_hint=True))
    async def episodes(
        user_id: UserId,
        since: When = None,
        until: When = None,
    ) -> Annotated[CallToolResult, EpisodeList]:
        """The user's episodes overlapping [since, until), oldest first."""
        found = await _call(memory.episodes(user_id, _aware(since), _aware(until)))
        lines = [f"{e.start_time:%Y-%m-%d %H:%M} {e.goal} → {e.result} "
                 f"[{e.event_id}, session {e.session_id}, messages "
                 f"{e.raw_span[0]}–{e.raw_span[1]}]" for e in found]
        return _result("\n".join(lines) or "(no episodes)", EpisodeList(episodes=found))

    @server.tool(title="Forget a user", annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=True, idempotent_hint=True))
    async def forget_user(user_id: UserId) -> Annotated[CallToolResult, Forgotten]:
        """Delete everything remembered about the user: episodes, messages, facts,
        entities, sessions and the raw buffer. Cannot be undone."""
        await _call(memory.forget_user(user_id))
        return _result(f"forgot everything about {user_id}",
                       Forgotten(user_id=user_id, forgotten=True))

    return server


def serve(
    open_memory: Callable[[], Memory],
    transport: Transport = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
) -> None:
    """Open the memory, serve until the client leaves (stdio) or a signal (HTTP), then
    close the memory (flushing open episodes)."""
    if transport not in ("stdio", "streamable-http"):
        raise ConfigError(f"unknown MCP transport {transport!r}: use 'stdio' or "
                          "'streamable-http'")

    async def main() -> None:
        with contextlib.redirect_stdout(sys.stderr):  # stdout is the stdio wire
            memory = AsyncMemory(await asyncio.to_thread(open_memory))
        try:
            server = build_server(memory)
            if transport == "stdio":
                await server.run_stdio_async()
            else:
                await server.run_streamable_http_async(
                    host=host, port=port, streamable_http_path=path)
        finally:
            await memory.close()

    if transport == "streamable-http":
        # uvicorn re-raises the signal it stopped on after restoring these handlers:
        # a no-op lets `main` close the memory instead of dying mid-flush.
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, lambda *_: None)
    asyncio.run(main())


async def _call(awaitable: Any) -> Any:
    """graphmem's errors become tool errors that say what to fix (``client_error``)."""
    try:
        return await awaitable
    except GraphmemError as exc:
        raise ToolError(client_error(exc)) from exc


def client_error(exc: GraphmemError) -> str:
    """What a tool caller is told of ``exc``: a bad argument's or setting's message; for the
    database's own troubles a sentence without internals (logged here with the details)."""
    if isinstance(exc, InvalidInputError | ConfigError):
        return _cut(str(exc))
    if isinstance(exc, StoreUnavailableError):
        log.warning("memory store unavailable: %s", _cut(str(exc)))
        return ("memory's database is unavailable right now; nothing remembered is lost, "
                "try again later")
    if isinstance(exc, QueryRefusedError) and timed_out(exc):
        log.warning("a read took too long: %s", _cut(str(exc)))
        return "memory took too long to answer this and stopped; ask a shorter question"
    log.error("tool call failed: %s: %s", type(exc).__name__, _cut(str(exc)))
    return "memory could not do this (a fault of the server; its log says more)"


def _cut(text: str) -> str:
    return text if len(text) <= MAX_ERROR_CHARS else text[:MAX_ERROR_CHARS] + "…"


def _result(text: str, model: BaseModel) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)],
                          structured_content=model.model_dump(mode="json"))


def _explanation_text(why: QueryExplanation) -> str:
    lines = [why.context.text or "(nothing remembered)", "",
             f"channels (messages found): {channel_counts(why)}",
             f"fused ranking (best {EXPLAIN_LINES}): score, coverage, shown, session/msg, "
             "rank per channel, text"]
    for i, m in enumerate(why.ranked[:EXPLAIN_LINES], start=1):
        lines.append(f"{i}. {m.score:.4f} {m.coverage:.2f} {'shown' if m.shown else '-'} "
                     f"{m.session_id}/{m.msg_id} ({channel_ranks(m)}): {m.text}")
    return "\n".join(lines)


def _aware(value: datetime | None) -> datetime | None:
    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def _version() -> str:
    from graphmem import __version__

    return __version__
