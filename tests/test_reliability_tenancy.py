"""Tenancy (issue 10): sessions belong to a user, and no read — API or CLI — returns
anything of another user's, whatever the query, filters, session or fact id."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from graphmem import InvalidInputError, Memory
from graphmem.cli import app

T0 = datetime(2025, 4, 7, 9, 0, tzinfo=UTC)
MARKS = ["aubergine", "tangerine", "cobalt", "saffron"]  # one word only each user ever says
CITIES = ["Porto", "Tallinn", "Kyoto", "Quito"]
SESSIONS = ["s1", "s2", "shared"]  # every user has sessions with these very ids


def conversation(user: str, i: int) -> list[dict]:
    mark = MARKS[i]
    turns = {
        "s1": [("user", f"I like {mark} flowers"), ("assistant", f"Noted: {mark} flowers."),
               ("user", f"my budget is ${100 * (i + 1)}")],
        "s2": [("user", f"I live in {CITIES[i]} now"),
               ("user", f"let's plan the {mark} party for next week"),
               ("assistant", f"The {mark} party is planned for Saturday.")],
        "shared": [("user", f"my budget is now ${100 * (i + 1) + 50}"),
                   ("user", f"what did we say about the {mark} party?")],
    }
    out = []
    for day, session in enumerate(SESSIONS):
        for k, (role, text) in enumerate(turns[session]):
            out.append({"user_id": user, "session_id": session, "role": role, "content": text,
                        "ts": T0 + timedelta(days=day + i, minutes=k)})
    return out


@pytest.fixture(scope="module")
def tenants(neo4j_uri, embedder, tmp_path_factory):
    """Four users, each in a Memory of their own (like four processes), same session ids."""
    users = [f"t{i}_{tmp_path_factory.mktemp('t').name}" for i in range(len(MARKS))]
    for i, user in enumerate(users):
        with Memory.connect(neo4j_uri, buffer_dir=tmp_path_factory.mktemp("buf"),
                            embedder=embedder) as mem:
            mem.add_messages(conversation(user, i))
            mem.flush()
            mem.consolidate(user, now=T0 + timedelta(days=10))
    buffer_dir = tmp_path_factory.mktemp("reader")
    mem = Memory.connect(neo4j_uri, buffer_dir=buffer_dir, embedder=embedder)
    for i, user in enumerate(users):  # the reader's own buffer holds every user's raw turns
        mem.add_messages(conversation(user, i))
    mem.flush()
    facts = {u: {f.fact_id for f in mem.facts(u, include_superseded=True)} for u in users}
    episodes = {u: {e.event_id for e in mem.episodes(u)} for u in users}
    try:
        yield mem, users, facts, episodes
    finally:
        mem.close()


def test_two_users_with_the_same_session_id_keep_their_own_episodes(tenants, driver):
    mem, users, _, episodes = tenants
    assert all(len(episodes[u]) >= 3 for u in users)
    assert not set.intersection(*episodes.values())  # ids include the user
    records, _, _ = driver.execute_query(
        "MATCH (s:Session {session_id: 'shared'}) WHERE s.user_id IN $users "
        "MATCH (u:User)-[:HAS_SESSION]->(s) RETURN s.user_id AS owner, collect(u.user_id) AS "
        "linked", users=users)
    assert sorted((r["owner"], r["linked"]) for r in records) == sorted(
        (u, [u]) for u in users)
    for i, user in enumerate(users):
        assert {m.content for m in mem.raw(user, "shared")} >= {
            f"what did we say about the {MARKS[i]} party?"}


def others(users: list[str], reader: str) -> list[str]:
    return [MARKS[i] for i, u in enumerate(users) if u != reader]


def leaks(text: str, users: list[str], reader: str) -> list[str]:
    return [mark for mark in others(users, reader) if mark in text]


QUERIES = [*MARKS, *CITIES, "budget", "what do I like", "party", "flowers", "where do I live",
           "昨天我们聊了什么", "last week", "*", "tenant:*", "s1", ""]


@settings(max_examples=1000, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_read_returns_another_users_data(tenants, data):
    mem, users, facts, episodes = tenants
    reader = data.draw(st.sampled_from(users))
    kind = data.draw(st.sampled_from(
        ["raw"] * 4 + ["episodes"] * 4 + ["facts"] * 4 + ["history"] * 4 + ["search"] * 2
        + ["query"]))
    query = data.draw(st.sampled_from(QUERIES))
    day = data.draw(st.integers(-2, 12))
    since = T0 + timedelta(days=day)
    until = since + timedelta(days=data.draw(st.integers(1, 10)))
    if kind == "raw":
        session = data.draw(st.sampled_from([*SESSIONS, "s3", query or "x"]))
        try:
            found = mem.raw(reader, session)
        except InvalidInputError:
            return
        assert all(m.user_id == reader for m in found)
        assert not leaks(" ".join(m.content for m in found), users, reader)
    elif kind == "episodes":
        found = mem.episodes(reader, since, until) if data.draw(st.booleans()) else \
            mem.episodes(reader)
        assert {e.user_id for e in found} <= {reader}
        assert not leaks(" ".join(e.goal + e.result + str(e.actions) for e in found), users,
                         reader)
    elif kind == "facts":
        entity = data.draw(st.sampled_from([None, "user", *MARKS, *CITIES]))
        predicate = data.draw(st.sampled_from([None, "likes", "budget", "lives_in"]))
        found = mem.facts(reader, entity=entity, predicate=predicate,
                          include_superseded=data.draw(st.booleans()))
        assert {f.user_id for f in found} <= {reader}
        assert {f.fact_id for f in found} <= facts[reader]
    elif kind == "history":
        owner = data.draw(st.sampled_from(users))
        fact_id = data.draw(st.sampled_from(sorted(facts[owner])))
        if owner != reader:
            with pytest.raises(InvalidInputError):
                mem.history(fact_id, reader)
        else:
            versions = mem.history(fact_id, reader)
            assert {v.fact.user_id for v in versions} == {reader}
            assert {r.event_id for v in versions for r in v.episodes} <= episodes[reader]
    elif kind == "search":
        if not query.strip():
            return
        found = mem.search_episodes(reader, query, k=5)
        assert {e.event_id for e, _ in found} <= episodes[reader]
    else:
        if not query.strip():
            return
        ctx = mem.query_memory(query, reader, now=T0 + timedelta(days=12),
                               filters={"include_superseded": data.draw(st.booleans())})
        assert {h.fact_id for h in ctx.facts} <= facts[reader]
        assert {h.event_id for h in ctx.episodes} <= episodes[reader]
        assert not leaks(ctx.text, users, reader)


def test_the_cli_reads_only_the_named_user(tenants, neo4j_uri, tmp_path):
    _, users, facts, _ = tenants
    reader = users[0]
    cli = CliRunner()
    base = ["--uri", neo4j_uri, "--buffer-dir", str(tmp_path / "cli")]
    for args in (["episodes", reader, "--json"], ["facts", reader, "--all", "--json"],
                 ["query", reader, "aubergine tangerine cobalt saffron party"]):
        result = cli.invoke(app, [*args, *base])
        assert result.exit_code == 0, result.output
        assert not leaks(result.output, users, reader), (args, result.output)
    other_fact = sorted(facts[users[1]])[0]
    result = cli.invoke(app, ["history", reader, other_fact, *base])
    assert result.exit_code != 0 and "no fact" in result.output


def test_malformed_jsonl_on_ingest_is_a_clear_error(neo4j_uri, tmp_path, user_id):
    path = tmp_path / "bad.jsonl"
    good = {"user_id": user_id, "session_id": "s", "role": "user", "content": "hello there",
            "ts": "2025-03-01T10:00:00+00:00"}
    path.write_text(json.dumps(good) + "\n{not json\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["ingest", str(path), "--uri", neo4j_uri,
                                      "--buffer-dir", str(tmp_path / "b")])
    assert result.exit_code != 0
    output = result.output.replace("\n", "")
    assert "bad.jsonl:2:" in output and "Traceback" not in output
