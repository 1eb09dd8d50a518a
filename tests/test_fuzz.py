"""Every public method and every MCP tool, fuzzed (issue 28): arguments of any type and
size — hostile text, huge numbers, naive or far-off times, paths that are no paths — give a
result or one of graphmem's own errors, never a raw exception, and nothing takes long.

Users are named after this test's prefix (the shared test server holds other tests' users);
paths stay under the test's folder. Deterministic (``derandomize``): CI runs the same
1,000 method calls and 500 tool calls each time."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from pydantic import ValidationError

from graphmem import AsyncMemory, GraphmemError, Memory, RetrievalConfig
from graphmem._models import MAX_QUESTION_CHARS
from graphmem.mcp import TOOLS, build_server

METHOD_CALLS = 1_000
TOOL_CALLS = 500
SLOWEST_S = 30.0  # no call may take longer (a question of any size is answered or refused)
T0 = datetime(2025, 3, 1, 9, 0, tzinfo=UTC)

anything = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(2**62, 2**70).map(lambda n: -n),
    st.integers(2**62, 2**70), st.floats(), st.text(max_size=40), st.binary(max_size=12),
    st.lists(st.integers(), max_size=3), st.dictionaries(st.text(max_size=4), st.integers(),
                                                         max_size=2),
    st.builds(object), st.datetimes(), st.datetimes(timezones=st.just(UTC)),
    st.just(float("inf")), st.just(float("nan")),
)
SAID = ["I like roses and my budget is $300", "我喜欢郁金香", "what do I like?", "ok",
        "my budget for the trip is 500 euros", "where did we go last week?", "上周三聊了什么",
        "I'm allergic to peanuts, remember that", "*:*", "'}) MATCH (n) DETACH DELETE n //"]
good_text = st.one_of(st.sampled_from(SAID), st.text(
    st.characters(codec="utf-8", exclude_categories=["Cc", "Cs"]), min_size=1, max_size=80))
bad_text = st.one_of(
    st.text(max_size=200),  # every code point: lone surrogates, NUL, controls
    st.sampled_from(["\u0000", "\ud800", " ", ""]),
    st.integers(MAX_QUESTION_CHARS - 5, MAX_QUESTION_CHARS + 5).map(lambda n: "词" * n),
    st.just(" ".join(f"w{i}x" for i in range(2_000))),  # 2,000 distinct words
    st.just("word " * 700_000),  # 3.5 MB
    anything)
good_time = st.one_of(st.none(), st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
    timezones=st.sampled_from([UTC, timezone(timedelta(hours=5))])))
bad_time = st.one_of(st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 1, 1),
                                  timezones=st.just(UTC)), st.datetimes(), anything)
bad_count = st.one_of(st.integers(-3, 0), st.integers(2**62, 2**70), anything)


def mostly(good: st.SearchStrategy, bad: st.SearchStrategy) -> st.SearchStrategy:
    """Four times in five a good value: the calls go deep, not only into the door (a plain
    one_of flattens the branches of ``bad`` and would pick it nearly always)."""
    return st.integers(0, 4).flatmap(lambda pick: bad if pick == 0 else good)


texts, times = mostly(good_text, bad_text), mostly(good_time, bad_time)
counts = mostly(st.integers(1, 12), bad_count)


def calls(prefix: str, folder: Path) -> st.SearchStrategy[tuple[str, tuple, dict]]:
    """(method name, args, kwargs) for every public method but close()."""
    users = mostly(st.sampled_from([prefix, prefix + "-b"]) | st.text(
        st.characters(codec="utf-8", exclude_categories=["Cc", "Cs"]), max_size=20).map(
            lambda s: prefix + s), st.text(max_size=30).map(lambda s: prefix + s)
        | anything.filter(lambda v: v is not None))
    sessions = mostly(st.sampled_from(["s", "s2", "另一个"]), st.text(max_size=30) | anything)
    paths = mostly(st.from_regex(r"[a-z0-9]{1,8}", fullmatch=True).map(
        lambda name: folder / f"{name}.jsonl") | st.just(folder / "seed.jsonl"),
        anything | st.sampled_from(["\x00", str(folder / "\ud800"), ""]))
    roles = mostly(st.sampled_from(["user", "assistant", "tool"]),
                   st.sampled_from(["system", "", "USER"]) | anything)
    message = st.fixed_dictionaries(
        {"user_id": users, "session_id": sessions, "role": roles, "content": texts,
         "ts": times})
    retrieval = mostly(st.none() | st.just(RetrievalConfig(keyword_messages=5)), anything)
    filters = mostly(st.none() | st.fixed_dictionaries({}, optional={
        "since": good_time, "until": good_time, "route": st.sampled_from(
            ["episodic", "semantic", "both"]), "include_superseded": st.booleans()}),
        anything | st.fixed_dictionaries({"since": bad_time, "route": anything}))
    flag = mostly(st.booleans(), anything)
    question = st.tuples(texts, users, filters, times, counts, counts,
                         mostly(st.none() | st.integers(50, 5_000), bad_count), retrieval)
    arguments = {
        "add_message": st.tuples(users, sessions, roles, texts, times),
        "add_messages": st.tuples(
            mostly(st.lists(message, min_size=1, max_size=3), anything)),
        "flush": st.tuples(st.none() | users),
        "replay": st.just(()),
        "stats": st.just(()),
        "consolidate": st.tuples(users, times),
        "forget_user": st.tuples(users),
        "delete_episode": st.tuples(users, texts, texts),
        "retract_fact": st.tuples(users, texts, texts, texts),
        "correct_fact": st.tuples(users, texts, texts, texts, texts),
        "export_user": st.tuples(users, paths),
        "import_user": st.tuples(paths),
        "facts": st.tuples(users, st.none() | texts, st.none() | texts, flag),
        "query_memory": question,
        "explain_query": question,
        "history": st.tuples(texts, users),
        "episodes": st.tuples(users, times, times, st.none() | counts),
        "search_episodes": st.tuples(
            users, mostly(good_text, st.lists(st.floats(), max_size=4) | bad_text), times,
            times, counts, retrieval),
        "raw": st.tuples(users, sessions, st.none() | mostly(
            st.tuples(st.integers(1, 4), st.integers(1, 9)), st.tuples(bad_count, bad_count)
            | anything)),
    }
    return st.sampled_from(sorted(arguments)).flatmap(
        lambda name: arguments[name].map(lambda args: (name, args, {})))


def seeded(mem: Memory, prefix: str, folder: Path) -> None:
    """Something to find, to export and to import."""
    mem.add_messages([{"user_id": prefix, "session_id": "s", "role": role, "content": text,
                       "ts": T0 + timedelta(minutes=i)} for i, (role, text) in enumerate([
                           ("user", "I like roses and my budget is $300"),
                           ("assistant", "Noted: roses, $300."),
                           ("user", "我对花生过敏")])])
    mem.flush()
    mem.consolidate(prefix)
    mem.export_user(prefix, folder / "seed.jsonl")


def test_every_public_method_fuzzed_gives_a_result_or_a_graphmem_error(
        neo4j_uri, embedder, tmp_path, user_id):
    folder = tmp_path / "files"
    folder.mkdir()
    slowest: list[tuple[float, str]] = []
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "b", embedder=embedder,
                        fsync="never") as mem:
        seeded(mem, user_id, folder)

        @settings(max_examples=METHOD_CALLS, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(call=calls(user_id, folder))
        def call_once(call: tuple[str, tuple, dict]) -> None:
            name, args, kwargs = call
            started = time.monotonic()
            try:
                getattr(mem, name)(*args, **kwargs)
            except GraphmemError as exc:
                assert str(exc), name
            except Exception as exc:  # what the test is looking for
                pytest.fail(f"{name}{_shown(args)} raised {exc!r}")
            slowest.append((time.monotonic() - started, name))

        call_once()
        assert mem.stats().rejected == ()
    took, name = max(slowest)
    assert len(slowest) >= METHOD_CALLS and took < SLOWEST_S, (took, name)


def tool_calls(prefix: str) -> st.SearchStrategy[tuple[str, dict[str, Any]]]:
    users = mostly(st.sampled_from([prefix, prefix + "-b"]),
                   st.text(max_size=30).map(lambda s: prefix + s)
                   | anything.filter(lambda v: v is not None))
    iso = mostly(good_time.map(lambda t: t.isoformat() if t else "2025-03-02T10:00:00"),
                 st.text(max_size=30) | bad_time.map(
                     lambda t: t.isoformat() if isinstance(t, datetime) else t))
    turn = st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant", "x"]),
                                  "content": texts}, optional={"ts": iso})
    common = {"user_id": users}
    flag = mostly(st.booleans(), anything)
    arguments = {
        "remember": st.fixed_dictionaries(common | {
            "session_id": mostly(st.sampled_from(["s", "s2"]), texts), "messages": mostly(
                st.lists(turn, min_size=1, max_size=3), anything)}, optional={
            "close_episode": flag}),
        "recall": st.fixed_dictionaries(common | {"query": texts}, optional={
            "now": iso, "token_budget": counts, "top_k_episodes": counts,
            "top_k_facts": counts}),
        "explain": st.fixed_dictionaries(common | {"query": texts}, optional={
            "now": iso, "top_k_facts": counts}),
        "facts": st.fixed_dictionaries(common, optional={
            "entity": texts, "predicate": texts, "include_superseded": flag}),
        "history": st.fixed_dictionaries(common | {"fact_id": texts}),
        "episodes": st.fixed_dictionaries(common, optional={"since": iso, "until": iso}),
        "correct_fact": st.fixed_dictionaries(common | {
            "fact_id": texts, "value": texts, "reason": texts}),
        "retract_fact": st.fixed_dictionaries(common | {"fact_id": texts, "reason": texts}),
        "delete_episode": st.fixed_dictionaries(common | {"event_id": texts}),
        "forget_user": st.fixed_dictionaries(common),
    }
    assert set(arguments) == set(TOOLS)
    return st.sampled_from(TOOLS).flatmap(lambda tool: st.tuples(st.just(tool), mostly(
        arguments[tool], st.dictionaries(st.text(max_size=10), anything, max_size=3))))


def test_every_mcp_tool_fuzzed_answers_or_says_what_to_fix(neo4j_uri, embedder, tmp_path,
                                                         user_id):
    slowest: list[tuple[float, str]] = []
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "b", embedder=embedder,
                        fsync="never") as mem:
        seeded(mem, user_id, tmp_path)
        server = build_server(AsyncMemory(mem))

        @settings(max_examples=TOOL_CALLS, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(call=tool_calls(user_id))
        def call_once(call: tuple[str, dict[str, Any]]) -> None:
            tool, arguments = call
            started = time.monotonic()
            try:
                asyncio.run(server.call_tool(tool, arguments))
            except UnexpectedToolError as exc:
                pytest.fail(f"{tool}({_shown(arguments)}) raised {exc.__cause__!r}")
            except ToolError as exc:  # a bad argument (the schema), or graphmem's error
                causes = []
                while (exc_ := (causes[-1] if causes else exc).__cause__) is not None:
                    causes.append(exc_)
                assert all(isinstance(c, ToolError | GraphmemError | ValidationError)
                           for c in causes), (tool, causes)
                assert len(str(exc)) < 2_000, (tool, str(exc)[:200])
            slowest.append((time.monotonic() - started, tool))

        call_once()
    took, tool = max(slowest)
    assert len(slowest) >= TOOL_CALLS and took < SLOWEST_S, (took, tool)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 300 else text[:300] + "…"
