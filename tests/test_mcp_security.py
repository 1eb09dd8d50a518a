"""`graphmem mcp` over HTTP is safe by default: bearer tokens (one for any user, one bound to
a user), no listening beyond loopback without one, and argument errors without pydantic's
text — checked with the official MCP client against the server run as a subprocess."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from test_mcp import SERVER, free_port, server_env, text, wait_for_port

from graphmem._mcp_auth import Tokens, is_loopback

ADMIN = "admin-token-" + "a" * 24
ALICE = "alice-token-" + "b" * 24
TURN = {"role": "user", "ts": "2025-03-01T10:00:00Z",
        "content": "I'm allergic to peanuts, and I live in Lisbon."}


def client(port: int, token: str | None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return streamable_http_client(f"http://127.0.0.1:{port}/mcp",
                                  http_client=httpx2.AsyncClient(headers=headers, timeout=300))


async def connects(port: int, token: str | None) -> bool:
    """Whether a session with ``token`` gets as far as listing the tools."""
    try:
        async with client(port, token) as (read, write), ClientSession(read, write) as session:
            with anyio.fail_after(60):
                await session.initialize()
                await session.list_tools()
        return True
    except Exception:  # refused: 401 before any MCP message
        return False


def test_the_server_refuses_to_listen_beyond_loopback_without_a_token(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "GRAPHMEM_MCP_TOKEN"} | server_env()
    done = subprocess.run([*SERVER, "--transport", "streamable-http", "--host", "0.0.0.0",
                           "--uri", "bolt://127.0.0.1:1", "--buffer-dir", str(tmp_path / "b")],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 1
    assert "refuses to listen on 0.0.0.0 without a bearer token" in done.stderr
    assert "GRAPHMEM_MCP_TOKEN" in done.stderr
    short = tmp_path / "short.txt"
    short.write_text("tiny\n", encoding="utf-8")
    weak = subprocess.run([*SERVER, "--transport", "streamable-http", "--tokens", str(short)],
                          env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert weak.returncode == 1 and "at least 16 characters" in weak.stderr


def test_tokens_are_read_and_compared_by_digest(tmp_path):
    path = tmp_path / "tokens"
    path.write_text(f"# who may call\n{ADMIN}\n{ALICE}  alice  # bound\n\n", encoding="utf-8")
    tokens = Tokens.load(path, env={})
    admin, alice = tokens.grant(ADMIN), tokens.grant(ALICE)
    assert admin is not None and admin.user_id is None
    assert alice is not None and alice.user_id == "alice"
    assert tokens.grant(ALICE + "x") is None and tokens.grant("") is None
    assert ALICE not in repr(alice) and alice.label.startswith("token ")
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.2")


@pytest.mark.neo4j
def test_a_token_is_required_and_a_bound_token_reaches_its_user_only(neo4j_uri, tmp_path,
                                                                     user_id):
    alice, bob = f"{user_id}-alice", f"{user_id}-bob"
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{ADMIN}\n{ALICE} {alice}\n", encoding="utf-8")
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [*SERVER, "--transport", "streamable-http", "--port", str(port), "--tokens",
             str(tokens), "--uri", neo4j_uri, "--buffer-dir", str(tmp_path / "buffer")],
            env=os.environ | server_env(), cwd=tmp_path, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, process, log, timeout=300)

        async def run() -> None:
            assert not await connects(port, None)  # no token: 401
            assert not await connects(port, "wrong-token-" + "c" * 24)
            async with client(port, ALICE) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                stored = await session.call_tool("remember", {
                    "user_id": alice, "session_id": "s1", "messages": [TURN],
                    "close_episode": True})
                assert not stored.is_error, text(stored)
                mine = await session.call_tool("recall", {
                    "user_id": alice, "query": "what am I allergic to?"})
                assert not mine.is_error and "peanuts" in text(mine)
                for tool, args in (("recall", {"query": "what am I allergic to?"}),
                                   ("facts", {}), ("forget_user", {}),
                                   ("remember", {"session_id": "s", "messages": [TURN]})):
                    other = await session.call_tool(tool, {"user_id": bob, **args})
                    assert other.is_error, tool
                    assert f"is for user {alice!r} only" in text(other)
                    assert ALICE not in text(other)
                wrong = await session.call_tool("recall", {
                    "user_id": alice, "query": "peanuts?", "top_k_episodes": -1})
                assert wrong.is_error
                message = text(wrong)
                assert "top_k_episodes" in message and "greater than or equal to 0" in message
                assert "pydantic" not in message and "-1" not in message
                assert "input_value" not in message
            async with client(port, ADMIN) as (read, write), \
                    ClientSession(read, write) as session:
                await session.initialize()
                theirs = await session.call_tool("recall", {
                    "user_id": bob, "query": "what am I allergic to?"})
                assert not theirs.is_error and "peanuts" not in text(theirs)
                facts = await session.call_tool("facts", {"user_id": alice})
                [allergy] = [f for f in facts.structured_content["facts"]
                             if f["predicate"] == "allergic_to"]
                fixed = await session.call_tool("retract_fact", {
                    "user_id": alice, "fact_id": allergy["fact_id"],
                    "reason": "said as a joke"})
                assert not fixed.is_error, text(fixed)
                assert fixed.structured_content["changed_by"].startswith("mcp:token ")
                assert ADMIN not in str(fixed.structured_content)

        anyio.run(run)
    finally:
        process.terminate()
        returncode = process.wait(timeout=60)
    assert returncode == 0, log.read_text()
    assert ADMIN not in log.read_text() and ALICE not in log.read_text()


def test_the_guide_explains_tokens():
    guide = (Path(__file__).resolve().parent.parent / "docs" / "mcp.md").read_text("utf-8")
    assert "--tokens" in guide and "GRAPHMEM_MCP_TOKEN" in guide
