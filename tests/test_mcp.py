"""`graphmem mcp`: a real MCP client session of the same SDK talks to the server started
as a subprocess against the test Neo4j, over stdio and over streamable HTTP."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from netcut import Forwarder

from graphmem import InvalidInputError, Memory, QueryRefusedError
from graphmem.mcp import TOOLS

REPO = Path(__file__).resolve().parent.parent
SERVER = [sys.executable, "-c", "from graphmem.cli import main; main()", "mcp"]

CONVERSATION = [
    {"role": "user", "ts": "2025-03-01T10:00:00Z",
     "content": "I'm planning my sister Emma's wedding, it will be in Lisbon in June."},
    {"role": "assistant", "ts": "2025-03-01T10:00:30Z",
     "content": "Lovely! Do you need help finding a venue?"},
    {"role": "user", "ts": "2025-03-01T10:01:00Z",
     "content": "Yes, a place by the river for about 80 guests. I'm allergic to peanuts, "
                "so no peanuts in the menu."},
]


def server_env() -> dict[str, str]:
    return {"PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
            "PATH": os.environ.get("PATH", "")}


def text(result: Any) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")


async def remember_and_recall(session: ClientSession, user_id: str) -> None:
    """What both transports must do: list the tools, remember a conversation, recall it."""
    await session.initialize()
    listed = (await session.list_tools()).tools
    assert sorted(t.name for t in listed) == sorted(TOOLS)
    for tool in listed:
        assert "user_id" in tool.input_schema["required"], tool.name
    session_id = f"{user_id}-s1"

    stored = await session.call_tool("remember", {
        "user_id": user_id, "session_id": session_id, "messages": CONVERSATION,
        "close_episode": True})
    assert not stored.is_error, text(stored)
    assert stored.structured_content["stored"] == 3
    assert stored.structured_content["msg_ids"] == [1, 2, 3]
    assert len(stored.structured_content["episodes_closed"]) == 1

    recalled = await session.call_tool("recall", {
        "user_id": user_id, "query": "Where is my sister's wedding going to be?",
        "now": "2025-03-20T09:00:00Z"})
    assert not recalled.is_error, text(recalled)
    assert "Lisbon" in text(recalled)
    [hit] = recalled.structured_content["episodes"]
    assert hit["session_id"] == session_id and hit["raw_span"] == [1, 3]

    # explain: the same context, and the ranking behind it
    why = await session.call_tool("explain", {
        "user_id": user_id, "query": "Where is my sister's wedding going to be?",
        "now": "2025-03-20T09:00:00Z"})
    assert not why.is_error, text(why)
    assert why.structured_content["context"]["text"] == recalled.structured_content["text"]
    best = why.structured_content["ranked"][0]
    assert best["shown"] and best["ranks"] and "Lisbon" in text(why).split("fused ranking")[1]

    # another user's memory holds none of it
    other = await session.call_tool("recall", {
        "user_id": f"{user_id}-other", "query": "Where is my sister's wedding going to be?"})
    assert not other.is_error and "Lisbon" not in text(other)
    assert other.structured_content["episodes"] == []


async def call_without_user(session: ClientSession) -> str:
    """The error a call without user_id gets (a tool error or a protocol error)."""
    try:
        result = await session.call_tool("recall", {"query": "Where is the wedding?"})
    except MCPError as exc:
        return str(exc)
    assert result.is_error
    return text(result)


@pytest.mark.neo4j
def test_stdio_session_remembers_and_recalls(neo4j_uri, tmp_path, user_id):
    params = StdioServerParameters(
        command=SERVER[0], args=[*SERVER[1:], "--uri", neo4j_uri,
                                 "--buffer-dir", str(tmp_path / "buffer")],
        env=server_env(), cwd=str(tmp_path))

    async def run() -> None:
        with (tmp_path / "server.log").open("w") as log:
            async with (stdio_client(params, errlog=log) as (read, write),
                        ClientSession(read, write) as session):
                await remember_and_recall(session, user_id)
                assert "user_id" in await call_without_user(session)
                blank = await session.call_tool("facts", {"user_id": "  "})
                assert blank.is_error and "user_id is empty" in text(blank)

                facts = await session.call_tool("facts", {"user_id": user_id})
                assert not facts.is_error, text(facts)
                [allergy] = [f for f in facts.structured_content["facts"]
                             if f["predicate"] == "allergic_to"]
                assert allergy["value"] == "peanuts" and "peanuts" in text(facts)
                chain = await session.call_tool("history", {
                    "user_id": user_id, "fact_id": allergy["fact_id"]})
                assert [v["fact"]["fact_id"] for v in chain.structured_content["versions"]
                        ] == [allergy["fact_id"]]
                stranger = await session.call_tool("history", {
                    "user_id": f"{user_id}-other", "fact_id": allergy["fact_id"]})
                assert stranger.is_error and "no fact" in text(stranger)

                listed = await session.call_tool("episodes", {
                    "user_id": user_id, "since": "2025-03-01T00:00:00",
                    "until": "2025-03-02T00:00:00"})
                [episode] = listed.structured_content["episodes"]
                assert "wedding" in episode["goal"] and episode["goal"] in text(listed)

                fixed = await session.call_tool("correct_fact", {
                    "user_id": user_id, "fact_id": allergy["fact_id"], "value": "shellfish",
                    "reason": "the user said peanuts by mistake"})
                assert not fixed.is_error, text(fixed)
                assert fixed.structured_content["value"] == "shellfish"
                assert fixed.structured_content["changed_by"] == "mcp"
                chain = await session.call_tool("history", {
                    "user_id": user_id, "fact_id": fixed.structured_content["fact_id"]})
                assert [v["fact"]["value"] for v in chain.structured_content["versions"]
                        ] == ["shellfish", "peanuts"]
                assert "corrected by mcp: the user said peanuts by mistake" in text(chain)
                taken = await session.call_tool("retract_fact", {
                    "user_id": user_id, "fact_id": fixed.structured_content["fact_id"],
                    "reason": "no allergy at all"})
                assert taken.structured_content["status"] == "retracted", text(taken)
                stale = await session.call_tool("retract_fact", {
                    "user_id": user_id, "fact_id": allergy["fact_id"], "reason": "again"})
                assert stale.is_error and "was retracted" in text(stale)

                deleted = await session.call_tool("delete_episode", {
                    "user_id": user_id, "event_id": episode["event_id"]})
                assert not deleted.is_error, text(deleted)
                assert deleted.structured_content["messages"] == 3
                assert deleted.structured_content["raw_messages"] == 3

                gone = await session.call_tool("forget_user", {"user_id": user_id})
                assert not gone.is_error and gone.structured_content["forgotten"]
                assert gone.structured_content["not_reached"] == []
                after = await session.call_tool("episodes", {"user_id": user_id})
                assert after.structured_content["episodes"] == []

    anyio.run(run)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise AssertionError(f"server exited {process.returncode}:\n{log.read_text()}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise AssertionError(f"server did not listen within {timeout}s:\n{log.read_text()}")


@pytest.mark.neo4j
def test_streamable_http_session_remembers_and_recalls(neo4j_uri, tmp_path, user_id):
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [*SERVER, "--transport", "streamable-http", "--port", str(port), "--uri",
             neo4j_uri, "--buffer-dir", str(tmp_path / "buffer")],
            env=os.environ | server_env(), cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, process, log, timeout=300)

        async def run() -> None:
            async with (streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write),
                        ClientSession(read, write) as session):
                await remember_and_recall(session, user_id)
                assert "user_id" in await call_without_user(session)

        anyio.run(run)
    finally:
        process.terminate()
        returncode = process.wait(timeout=60)
    assert returncode == 0, log.read_text()  # closed the memory, then exited cleanly


def test_every_tool_is_registered_and_documented():
    import asyncio

    from graphmem.mcp import build_server

    tools = asyncio.run(build_server(None).list_tools())  # type: ignore[arg-type]
    assert [t.name for t in tools] == list(TOOLS)
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    guide = (REPO / "docs" / "mcp.md").read_text(encoding="utf-8")
    for tool in tools:
        assert f"`{tool.name}`" in readme, f"MCP tool {tool.name} is not named in the README"
        assert f"| `{tool.name}` |" in guide, f"MCP tool {tool.name} is not in docs/mcp.md"
        assert tool.description and tool.input_schema["properties"]["user_id"]["minLength"] == 1


# -- what a client is told, what the log keeps (issue 28) -----------------------------------

def in_process(memory, calls):
    """Run ``calls(client)`` with the official client connected in-process to the tools."""
    from mcp import Client

    from graphmem import AsyncMemory
    from graphmem.mcp import build_server

    async def run() -> None:
        async with Client(build_server(AsyncMemory(memory))) as client:
            await calls(client)

    anyio.run(run)


INTERNALS = ("Neo.", "neo4j.", "bolt://", "Lucene", "TooManyClauses", "retrieve/",
             "ServiceUnavailable", "Exception", "Traceback")


@pytest.mark.neo4j
def test_a_huge_argument_is_refused_briefly_and_never_logged_whole(memory, user_id, caplog):
    """A 100,000-character fact_id was echoed to the client and logged in full (2,701
    lines); 342 distinct words made recall fail with Lucene's class name."""
    caplog.set_level(logging.INFO)  # what a server logs (the driver's DEBUG holds queries)
    question = "Where is the wedding? " + " ".join(f"w{i}q" for i in range(400))

    async def calls(client) -> None:
        for args in ({"user_id": user_id, "fact_id": "x" * 100_000},
                     {"user_id": user_id, "fact_id": "f" * 200}):
            refused = await client.call_tool("history", args)
            assert refused.is_error and len(text(refused)) < 600, text(refused)[:200]
            assert not any(word in text(refused) for word in INTERNALS), text(refused)
        asked = await client.call_tool("recall", {"user_id": user_id, "query": question})
        assert not asked.is_error, text(asked)

    in_process(memory, calls)
    assert max(len(r.getMessage()) for r in caplog.records) < 2_000


@pytest.mark.neo4j
def test_when_the_database_is_gone_the_client_is_told_so_without_internals(
        neo4j_uri, embedder, tmp_path, user_id, caplog):
    link = Forwarder.to(neo4j_uri)
    memory = Memory.connect(link.uri, buffer_dir=tmp_path / "b", embedder=embedder,
                            neo4j_retry_s=1, neo4j_connect_timeout_s=2)
    try:
        link.cut()

        async def calls(client) -> None:
            for tool, args in (("recall", {"user_id": user_id, "query": "the wedding?"}),
                               ("facts", {"user_id": user_id})):
                failed = await client.call_tool(tool, args)
                assert failed.is_error and "unavailable" in text(failed), text(failed)
                assert not any(word in text(failed) for word in INTERNALS), text(failed)

        with caplog.at_level(logging.WARNING, logger="graphmem.mcp"):
            in_process(memory, calls)
        assert any("unavailable" in r.getMessage() for r in caplog.records)  # logged here
    finally:
        memory.close()


def test_a_refused_or_stopped_statement_is_told_without_what_ran():
    from graphmem.mcp import client_error

    refused = QueryRefusedError(
        "query 'retrieve/recall_question' was refused by Neo4j: Neo.ClientError.Procedure."
        "ProcedureCallFailed: Caused by: org.apache.lucene.search.IndexSearcher$TooManyClauses",
        query="retrieve/recall_question", code="Neo.ClientError.Procedure.ProcedureCallFailed")
    stopped = QueryRefusedError(
        "query 'retrieve/recall_question' took longer than 30 s and Neo4j stopped it",
        query="retrieve/recall_question",
        code="Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration")
    for exc in (refused, stopped):
        told = client_error(exc)
        assert not any(word in told for word in INTERNALS), told
    assert "shorter" in client_error(stopped)
    assert client_error(InvalidInputError("fact_id is longer than 256 characters")) == \
        "fact_id is longer than 256 characters"
