"""The MCP server (``graphmem mcp``): memory as tools for agents that speak the Model
Context Protocol, over stdio or streamable HTTP, built on the official ``mcp`` SDK
(``pip install 'graphmem[mcp]'``).

Tools (``TOOLS``) — each wraps one ``AsyncMemory`` call:

    remember        add_messages (+ flush with close_episode=true)
    recall          query_memory, with ``now`` and ``token_budget``
    explain         explain_query: recall's context and how it was chosen (for debugging)
    facts           facts
    history         history (a fact's version chain)
    episodes        episodes in a time window
    correct_fact    correct_fact (a new version with the right value and the reason)
    retract_fact    retract_fact (a new 'retracted' version with the reason)
    delete_episode  delete_episode (its messages; facts it alone proved expire)
    forget_user     forget_user (and every place it could not reach)

Every tool takes ``user_id``, required and never inferred: there is no default user, no
user remembered from an earlier call, no user taken from the connection — one server
serves many users, and each call names whose memory it touches. Over HTTP, bearer tokens
guard the server (``graphmem._mcp_auth``): it refuses to listen beyond loopback without
one, and a token bound to a user refuses calls that name another. Each result carries
text for the model (the prompt block, one line per fact or episode) and the same result
as structured content for programs. graphmem's errors come back as tool errors
(``isError``) that say what to fix, never what ran: a bad argument's, setting's or busy
session's message (cut to ``MAX_ERROR_CHARS``), arguments that do not fit a tool as the
fields and what is wrong with them (never pydantic's text with the values), and for the
database's own troubles (unreachable, a statement refused or stopped) a plain sentence —
the details (query names, Neo4j's codes and text) go to the server's log, cut too: an
argument can be megabytes.
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

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field, ValidationError, field_validator

from graphmem._async_client import AsyncMemory
from graphmem._client import Memory
from graphmem._errors import (
    ConfigError,
    GraphmemError,
    InvalidInputError,
    QueryRefusedError,
    SessionBusyError,
    StoreUnavailableError,
)
from graphmem._mcp_auth import Tokens, check_listening
from graphmem._models import (
    MAX_ID_CHARS,
    MAX_MESSAGE_CHARS,
    MAX_NAME_CHARS,
    MAX_QUESTION_CHARS,
    Episode,
    EpisodeDeletion,
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
TOOLS = ("remember", "recall", "explain", "facts", "history", "episodes", "correct_fact",
         "retract_fact", "delete_episode", "forget_user")
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
FactId = Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS, description=(
    "A current fact's id, from `facts` or `recall`."))]
Reason = Annotated[str, Field(min_length=1, max_length=2000, description=(
    "Why: kept in the fact's history with who changed it and when."))]
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
    nodes: int
    raw_messages: int
    not_reached: list[str]


class _Server(MCPServer):
    """``MCPServer`` whose argument errors name the fields and what is wrong with them,
    without pydantic's text (which quotes the values and links its docs)."""

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                raise ToolError(f"{name}: invalid arguments: "
                                f"{_problems(exc.__cause__)}") from exc.__cause__
            raise


class _Verifier:
    """The SDK's token verifier over graphmem's ``Tokens``: a token's label is its client
    id, its bound user (if any) its subject."""

    def __init__(self, tokens: Tokens) -> None:
        self.tokens = tokens

    async def verify_token(self, token: str) -> AccessToken | None:
        grant = self.tokens.grant(token)
        if grant is None:
            return None
        return AccessToken(token=token, client_id=grant.label, scopes=[],
                           subject=grant.user_id)


def build_server(memory: AsyncMemory, tokens: Tokens | None = None,
                 url: str = "http://127.0.0.1") -> MCPServer:
    """The MCP server with graphmem's tools bound to ``memory``; with ``tokens``, every
    HTTP request needs one of them as its bearer token (``url``: where it listens)."""
    auth = {}
    if tokens:
        auth = {"token_verifier": _Verifier(tokens),
                "auth": AuthSettings(issuer_url=url, resource_server_url=None)}
    server: MCPServer = _Server("graphmem", instructions=INSTRUCTIONS, version=_version(),
                                **auth)

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
        _allowed(user_id)
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
        _allowed(user_id)
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
        _allowed(user_id)
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
        _allowed(user_id)
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
        """A fact's version chain, newest first, each version with its source episodes and,
        where a person changed it, who, when and why."""
        _allowed(user_id)
        versions = await _call(memory.history(fact_id, user_id))
        lines = [f"{v.fact.status}: {v.fact.sentence} (confidence {v.fact.confidence:.2f}, "
                 f"from {', '.join(e.event_id for e in v.episodes) or '?'})"
                 + (f" — {v.fact.change} by {v.fact.changed_by}: {v.fact.reason}"
                    if v.fact.change else "")
                 for v in versions]
        return _result("\n".join(lines), VersionList(versions=versions))

    @server.tool(title="List episodes", annotations=ToolAnnotations(read_only_hint=True))
    async def episodes(
        user_id: UserId,
        since: When = None,
        until: When = None,
    ) -> Annotated[CallToolResult, EpisodeList]:
        """The user's episodes overlapping [since, until), oldest first."""
        _allowed(user_id)
        found = await _call(memory.episodes(user_id, _aware(since), _aware(until)))
        lines = [f"{e.start_time:%Y-%m-%d %H:%M} {e.goal} → {e.result} "
                 f"[{e.event_id}, session {e.session_id}, messages "
                 f"{e.raw_span[0]}–{e.raw_span[1]}]" for e in found]
        return _result("\n".join(lines) or "(no episodes)", EpisodeList(episodes=found))

    @server.tool(title="Correct a fact", annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=False))
    async def correct_fact(
        user_id: UserId, fact_id: FactId,
        value: Annotated[str, Field(min_length=1, max_length=2000, description=(
            "The right value, e.g. 'Munich' for where the user lives."))],
        reason: Reason,
    ) -> Annotated[CallToolResult, Fact]:
        """Give a fact memory got wrong its right value: a new current version replaces
        it in its version chain, with the reason (history shows who changed it, when and
        why). Use when the user says a remembered fact is wrong."""
        _allowed(user_id)
        fact = await _call(memory.correct_fact(user_id, fact_id, value, reason, by=_by()))
        return _result(f"corrected: {fact.sentence} [{fact.fact_id}]", fact)

    @server.tool(title="Retract a fact", annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=False))
    async def retract_fact(
        user_id: UserId, fact_id: FactId, reason: Reason,
    ) -> Annotated[CallToolResult, Fact]:
        """Take back a fact memory got wrong (the user never said it, or it no longer
        holds and has no new value): a new 'retracted' version heads its chain with the
        reason; recall no longer shows it."""
        _allowed(user_id)
        fact = await _call(memory.retract_fact(user_id, fact_id, reason, by=_by()))
        return _result(f"retracted: {fact.sentence} [{fact.fact_id}]", fact)

    @server.tool(title="Delete an episode", annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=True, idempotent_hint=False))
    async def delete_episode(
        user_id: UserId,
        event_id: Annotated[str, Field(min_length=1, max_length=MAX_ID_CHARS, description=(
            "From `episodes` or `recall`."))],
    ) -> Annotated[CallToolResult, EpisodeDeletion]:
        """Delete one episode of the user's memory and its messages; facts it was the only
        evidence for expire. Cannot be undone."""
        _allowed(user_id)
        done = await _call(memory.delete_episode(user_id, event_id, by=_by()))
        text = (f"deleted episode {event_id}: {done.messages} messages; "
                f"{len(done.facts_expired)} facts expired")
        return _result("; ".join([text, *done.not_reached]), done)

    @server.tool(title="Forget a user", annotations=ToolAnnotations(
        read_only_hint=False, destructive_hint=True, idempotent_hint=True))
    async def forget_user(user_id: UserId) -> Annotated[CallToolResult, Forgotten]:
        """Delete everything remembered about the user: episodes, messages, facts,
        entities, sessions and their raw messages in this server's raw buffer (the result
        names any other place that still holds some). Cannot be undone."""
        _allowed(user_id)
        report = await _call(memory.forget_user(user_id))
        text = f"forgot everything about {user_id} ({report.nodes} nodes)"
        if report.not_reached:
            text += "; not reached: " + "; ".join(report.not_reached)
        return _result(text, Forgotten(user_id=user_id, forgotten=True, nodes=report.nodes,
                                       raw_messages=report.raw_messages,
                                       not_reached=list(report.not_reached)))

    return server


def serve(
    open_memory: Callable[[], Memory],
    transport: Transport = "stdio",
    host: str = "127.0.0.1",
    port: int = 8000,
    path: str = "/mcp",
    tokens: Tokens | None = None,
) -> None:
    """Open the memory, serve until the client leaves (stdio) or a signal (HTTP), then
    close the memory (flushing open episodes). Over HTTP, ``tokens`` (default: those of
    ``GRAPHMEM_MCP_TOKEN``) guard every request; without any, only loopback is served."""
    if transport not in ("stdio", "streamable-http"):
        raise ConfigError(f"unknown MCP transport {transport!r}: use 'stdio' or "
                          "'streamable-http'")
    tokens = Tokens.load() if tokens is None else tokens
    if transport == "streamable-http":
        check_listening(host, tokens)

    async def main() -> None:
        with contextlib.redirect_stdout(sys.stderr):  # stdout is the stdio wire
            memory = AsyncMemory(await asyncio.to_thread(open_memory))
        try:
            server = build_server(memory, tokens if transport == "streamable-http" else None,
                                  f"http://{host}:{port}")
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


def _allowed(user_id: str) -> None:
    """A token bound to one user refuses a call that names another."""
    token = get_access_token()
    if token is not None and token.subject is not None and token.subject != user_id:
        raise ToolError(f"this server's token ({token.client_id}) is for user "
                        f"{token.subject!r} only; it cannot touch user {user_id!r}")


def _by() -> str:
    """Who makes a change through the server: ``mcp`` and the token's label."""
    token = get_access_token()
    return f"mcp:{token.client_id}" if token is not None else "mcp"


def _problems(exc: ValidationError) -> str:
    """Each field and what is wrong with it, without the value given."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: "
                     f"{e['msg'].removeprefix('Value error, ')}" for e in exc.errors())


async def _call(awaitable: Any) -> Any:
    """graphmem's errors become tool errors that say what to fix (``client_error``)."""
    try:
        return await awaitable
    except GraphmemError as exc:
        raise ToolError(client_error(exc)) from exc


def client_error(exc: GraphmemError) -> str:
    """What a tool caller is told of ``exc``: a bad argument's or setting's message; for the
    database's own troubles a sentence without internals (logged here with the details)."""
    if isinstance(exc, InvalidInputError | ConfigError | SessionBusyError):
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
