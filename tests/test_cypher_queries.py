"""The analysts' Cypher library (cypher/queries/) on the demo data, on the real Neo4j."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest

from graphmem import InvalidInputError
from graphmem.cli.demo import NOW, conversation_messages
from graphmem.queries import (
    bind_parameters,
    get_query,
    list_queries,
    parse_parameter_args,
    parse_value,
    run_query,
)
from graphmem.store.runner import QueryRunner

pytestmark = pytest.mark.neo4j
REPO = Path(__file__).resolve().parent.parent

LIBRARY = {"count_user_nodes", "entities_to_review", "entity_episodes", "fact_versions",
           "facts_as_of", "facts_superseded_between", "user_timeline", "version_chain_graph"}
# What an analyst knows: ids graphmem hands out and plain values — never an internal key
# (a tenant hash, an entity id) that only graphmem's code can compute.
PUBLIC_PARAMETERS = {"user_id", "fact_id", "entity", "since", "until", "at"}


@pytest.fixture(scope="module")
def demo_user(neo4j_uri, embedder, tmp_path_factory) -> str:
    """The demo's conversations stored and consolidated as of the demo's today."""
    from graphmem import Memory

    user_id = f"demo_{uuid.uuid4().hex[:8]}"
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path_factory.mktemp("buffer"),
                        embedder=embedder) as mem:
        mem.add_messages(conversation_messages(user_id))
        mem.flush()
        mem.consolidate(user_id, now=NOW)
    return user_id


@pytest.fixture(scope="module")
def runner(neo4j_uri):
    r = QueryRunner(neo4j_uri, None)
    yield r
    r.close()


def rows(runner, name: str, **given: str) -> list[dict]:
    query = get_query(name)
    return run_query(runner, query, bind_parameters(query, given))


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_the_library_lists_every_file_with_its_header_and_typed_parameters():
    found = {q.name: q for q in list_queries()}
    assert set(found) == LIBRARY
    for query in found.values():
        assert query.summary and query.summary[0].isupper()
        assert query.parameters and all(p.type for p in query.parameters)
    for query in found.values():
        assert {p.name for p in query.parameters} <= PUBLIC_PARAMETERS, query.name
    since = found["facts_superseded_between"].parameters
    assert [(p.name, p.type, p.optional) for p in since] == [
        ("since", "DATETIME", False), ("until", "DATETIME", False), ("user_id", "STRING", True)]


def test_parameters_are_typed_from_text():
    assert parse_value("2025-01-21") == datetime(2025, 1, 21, tzinfo=UTC)
    assert parse_value("2025-01-21T08:30:00") == datetime(2025, 1, 21, 8, 30, tzinfo=UTC)
    assert parse_value("2025-01-21T08:30:00+08:00").utcoffset().total_seconds() == 8 * 3600
    assert parse_value("42") == 42 and parse_value("0.5") == 0.5
    assert parse_value("true") is True and parse_value("null") is None
    assert parse_value('["a", 1]') == ["a", 1]
    assert parse_value("u_42") == "u_42"
    assert parse_value("42", "STRING") == "42"  # the header's type wins over the look
    with pytest.raises(InvalidInputError, match="not a DATETIME"):
        parse_value("yesterday", "DATETIME")
    assert parse_parameter_args(["user_id=a=b", "$at=2025-01-01"]) == {
        "user_id": "a=b", "at": "2025-01-01"}
    with pytest.raises(InvalidInputError, match="key=value"):
        parse_parameter_args(["user_id"])


def test_missing_and_unknown_parameters_are_refused_by_name():
    query = get_query("facts_as_of")
    with pytest.raises(InvalidInputError, match=r"needs --param at="):
        bind_parameters(query, {"user_id": "u"})
    with pytest.raises(InvalidInputError, match=r"takes no parameter when"):
        bind_parameters(query, {"user_id": "u", "at": "2025-01-01", "when": "x"})
    optional = bind_parameters(get_query("facts_superseded_between"),
                               {"since": "2025-01-01", "until": "2025-02-01"})
    assert optional["user_id"] is None
    with pytest.raises(InvalidInputError, match="no query named 'nope'"):
        get_query("nope")
    with pytest.raises(InvalidInputError):
        get_query("../store/supersede_facts")  # only the analysts' folder


def test_user_timeline_between_two_dates(runner, demo_user):
    found = rows(runner, "user_timeline", user_id=demo_user,
                 since="2025-01-13", until="2025-01-21")
    assert [r["goal"] for r in found] == ["我不喜欢用微信沟通", "加我微信把文档发过来"]
    assert [r["session_id"] for r in found] == [f"{demo_user}-wechat-d1",
                                                f"{demo_user}-wechat-d8"]
    assert all(r["raw_span"] == [1, 2] for r in found)
    assert found[0]["start_time"] == at("2025-01-13T16:30:02")
    assert "用户用微信沟通 [superseded]" in found[1]["facts"]
    whole = rows(runner, "user_timeline", user_id=demo_user,
                 since="2025-01-01", until="2025-02-01")
    assert len(whole) == 7  # party (2), WeChat (3), dinner (2)
    assert [r["start_time"] for r in whole] == sorted(r["start_time"] for r in whole)


def test_facts_as_of_a_date_travel_in_time(runner, demo_user):
    def channel(day: str) -> set[str]:
        found = rows(runner, "facts_as_of", user_id=demo_user, at=day)
        return {r["value"] for r in found if r["predicate"] == "uses_channel"}

    assert channel("2025-01-12") == set()
    assert channel("2025-01-14") == {"NOT 微信", "邮件"}
    assert channel("2025-01-21") == {"微信"}
    assert channel("2025-01-28") == {"邮件"}
    on_14th = rows(runner, "facts_as_of", user_id=demo_user, at="2025-01-14")
    party_date = [r for r in on_14th if r["predicate"] == "date"]
    assert [(r["value"], r["status_today"]) for r in party_date] == [("2025-01-15", "expired")]
    later = {(r["entity"], r["predicate"], r["value"])
             for r in rows(runner, "facts_as_of", user_id=demo_user, at="2025-01-29")}
    assert {("女朋友", "likes", "玫瑰"), ("女朋友", "likes", "郁金香花")} <= later
    assert not any(p == "date" for _, p, _ in later)  # the party date expired on the 16th


def test_fact_versions_from_any_version_with_episodes_and_raw_spans(runner, demo_user):
    [oldest] = [r for r in rows(runner, "facts_as_of", user_id=demo_user, at="2025-01-14")
                if r["value"] == "NOT 微信"]
    found = rows(runner, "fact_versions", fact_id=oldest["fact_id"])
    by_version: dict[int, list[dict]] = {}
    for row in found:
        by_version.setdefault(row["version"], []).append(row)
    assert sorted(by_version) == [1, 2, 3]
    assert {r["status"] for r in by_version[1]} == {"current"}
    assert {r["statement"] for r in by_version[1]} == {"用户用邮件沟通"}
    [second] = by_version[2]
    assert (second["status"], second["statement"]) == ("superseded", "用户用微信沟通")
    assert second["session_id"] == f"{demo_user}-wechat-d8"
    assert second["raw_span"] == [1, 2]
    assert second["said"] == ["user: 加我微信把文档发过来"]
    assert second["valid_until"] == at("2025-01-27T16:30:02")
    assert {r["statement"] for r in by_version[3]} == {"用户不用微信沟通", "用户用邮件沟通"}
    assert all(r["said"] == ["user: 我不喜欢用微信沟通，有事发邮件。"] for r in by_version[3])
    newest_sessions = {r["session_id"] for r in by_version[1]}
    assert f"{demo_user}-wechat-d15" in newest_sessions
    head = rows(runner, "fact_versions", fact_id=by_version[1][0]["fact_id"])
    assert [(r["version"], r["fact_id"]) for r in head] == [
        (r["version"], r["fact_id"]) for r in found]  # the same chain from its head


def test_facts_superseded_in_a_period(runner, demo_user):
    first_week = rows(runner, "facts_superseded_between", user_id=demo_user,
                      since="2025-01-20", until="2025-01-27")
    assert sorted((r["old_value"], r["new_value"]) for r in first_week) == [
        ("NOT 微信", "微信"), ("邮件", "微信")]
    assert all(r["superseded_at"] == at("2025-01-20T16:30:02") for r in first_week)
    month = rows(runner, "facts_superseded_between", user_id=demo_user,
                 since="2025-01-01", until="2025-02-01")
    assert [(r["old_value"], r["new_value"]) for r in month][-1] == ("微信", "邮件")
    everyone = rows(runner, "facts_superseded_between", since="2025-01-01", until="2025-02-01")
    mine = [r for r in everyone if r["user_id"] == demo_user]
    assert [r["old_fact_id"] for r in mine] == [r["old_fact_id"] for r in month]
    assert rows(runner, "facts_superseded_between", user_id=demo_user,
                since="2025-01-28", until="2025-02-01") == []


def test_entities_merged_or_pending_review(runner, demo_user):
    found = rows(runner, "entities_to_review", user_id=demo_user)
    merged = {r["entity"]: set(r["aliases"]) for r in found if r["status"] == "merged"}
    assert merged["女朋友"] == {"女朋友", "女友"}
    assert {"郁金香", "郁金香花"} == next(a for e, a in merged.items() if "郁金香" in a)
    [review] = [r for r in found if r["status"] == "review"]
    assert {review["entity"], review["maybe_same_as"]} == {"寿司", "寿司拼盘"}
    assert 80 <= review["score"] < 92  # the grey band: recorded, not merged


def test_episodes_that_mention_an_entity(runner, demo_user):
    wechat = rows(runner, "entity_episodes", user_id=demo_user, entity="WeChat")
    assert [r["session_id"] for r in wechat] == [
        f"{demo_user}-wechat-d1", f"{demo_user}-wechat-d8", f"{demo_user}-wechat-d15"]
    assert wechat[1]["facts"] == ["用户用微信沟通"]
    assert wechat[2]["facts"] == []  # only named in the messages ("微信消息太多了")
    by_alias = rows(runner, "entity_episodes", user_id=demo_user, entity="微信")
    assert [r["event_id"] for r in by_alias] == [r["event_id"] for r in wechat]
    girlfriend = rows(runner, "entity_episodes", user_id=demo_user, entity="女友")
    assert [r["goal"] for r in girlfriend][-1] == "我女友也很喜欢郁金香花"
    assert rows(runner, "entity_episodes", user_id=demo_user, entity="火星") == []


def test_an_entity_is_named_by_whole_words_not_inside_other_words(runner, driver, user_id):
    """'trip' is in "our trip to Rome", not in "paid with Stripe" (nor in "a tripod")."""
    driver.execute_query(
        "CREATE (:Entity {entity_id: $u + '-trip', user_id: $u, key: 'trip', name: 'trip', "
        "kind: 'event', aliases: ['trip']}) "
        "WITH 1 AS one UNWIND $said AS said "
        "WITH datetime('2025-01-01T10:00Z') + duration({hours: toInteger(said[0])}) AS at, said "
        "CREATE (e:Episode {event_id: $u + '-' + said[0], user_id: $u, session_id: said[0], "
        "start_time: at, end_time: at, goal: said[1], result: '', raw_span_start: 1, "
        "raw_span_end: 1, consolidated_at: at})"  # stored and distilled: no worker's work
        "-[:HAS_MESSAGE]->(:Message {message_id: $u + '-m' + said[0], user_id: $u, "
        "session_id: said[0], msg_id: 1, role: 'user', ts: at, content: said[1]})",
        u=user_id, said=[["1", "Our TRIP to Rome is booked"], ["2", "I paid with Stripe"],
                         ["3", "Bought a tripod"], ["4", "The trip: 3 days."]])
    found = rows(runner, "entity_episodes", user_id=user_id, entity="Trip")
    assert [r["goal"] for r in found] == ["Our TRIP to Rome is booked", "The trip: 3 days."]


def test_version_chain_graph_returns_versions_episodes_and_messages(runner, demo_user):
    [current] = [r for r in rows(runner, "facts_as_of", user_id=demo_user, at="2025-01-28")
                 if r["predicate"] == "uses_channel"]
    found = rows(runner, "version_chain_graph", fact_id=current["fact_id"])
    nodes = [item for row in found for path in row.values() if path
             for item in path if isinstance(item, dict)]
    facts = {n["fact_id"] for n in nodes if "fact_id" in n and "sentence" in n}
    assert len(facts) == 4  # 邮件 ← 微信 ← (NOT 微信, 邮件)
    said = {n["content"] for n in nodes if "content" in n}
    assert {"加我微信把文档发过来", "微信消息太多了，以后还是发邮件吧。"} <= said
    assert not any("embedding" in n for n in nodes)


def test_the_browser_guide_queries_find_the_demo_data(runner, demo_user):
    """Every query docs/browser.md tells people to paste runs and finds something."""
    guide = (REPO / "docs" / "browser.md").read_text(encoding="utf-8")
    pasted = re.findall(r"```cypher\n(.*?)```", guide, re.S)
    assert len(pasted) >= 5
    [current] = [r for r in rows(runner, "facts_as_of", user_id=demo_user, at="2025-01-28")
                 if r["predicate"] == "uses_channel"]
    for text in pasted:
        params = {"user_id": demo_user, "fact_id": current["fact_id"]}
        used = {p: params[p] for p in re.findall(r"\$(\w+)", text)}
        found = runner.driver.execute_query(text, used).records
        assert found, text


def test_the_grass_style_tells_every_kind_of_node_apart():
    grass = (REPO / "docs" / "graphmem.grass").read_text(encoding="utf-8")
    rules = {m.group(1): dict(re.findall(r"([\w-]+):\s*([^;]+);", m.group(2)))
             for m in re.finditer(r"node\.(\w+)\s*\{(.*?)\n\}", grass, re.S)}
    kinds = ("Episode", "Fact", "Entity", "Value", "Message")
    assert set(kinds) <= set(rules)
    assert len({rules[k]["color"] for k in kinds}) == len(kinds)
    captions = {k: re.findall(r"\{(\w+)\}", rules[k]["caption"]) for k in kinds}
    assert captions == {"Episode": ["goal"], "Fact": ["sentence", "status"],
                        "Entity": ["name"], "Value": ["name"], "Message": ["content"]}
    assert "SUPERSEDES" in grass and "DERIVED_FROM" in grass


def test_value_entities_carry_the_value_label(runner, demo_user):
    found = runner.driver.execute_query(
        "MATCH (:Fact {user_id: $u})-[:HAS_VALUE]->(v:Entity) "
        "RETURN count(DISTINCT v) AS values, count(DISTINCT CASE WHEN v:Value THEN v END) AS "
        "labelled", u=demo_user).records[0]
    assert found["values"] > 0 and found["labelled"] == found["values"]
