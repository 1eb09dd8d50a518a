"""The foundation: schema, vector and full-text indexes on the real Neo4j."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

import neo4j
import pytest

import graphmem
from graphmem import ConfigError
from graphmem.store import cypher
from graphmem.store.ids import tenant_key
from graphmem.store.runner import QueryRunner
from graphmem.store.schema import apply_schema

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def runner(neo4j_uri):
    r = QueryRunner(neo4j_uri, None)
    apply_schema(r, 384)
    yield r
    r.close()


def unit(i: int, dim: int = 384) -> list[float]:
    v = [0.0] * dim
    v[i] = 1.0
    return v


def test_schema_is_idempotent_and_vector_indexes_are_online(runner):
    apply_schema(runner, 384)  # second time: nothing changes, no error
    rows = {r["name"]: r for r in runner.read("admin/show_vector_indexes")}
    for name in ("episode_embedding", "fact_embedding"):
        assert rows[name]["state"] == "ONLINE"
        assert rows[name]["dimension"] == 384
        assert rows[name]["similarity"] == "COSINE"


def test_vector_index_query_returns_the_nearest_known_vector(runner, driver, user_id):
    vectors = {"north": unit(0), "east": unit(1), "north-east": [0.7, 0.7] + [0.0] * 382}
    for name, vec in vectors.items():
        driver.execute_query(
            "CREATE (e:Episode {event_id: $id, user_id: $u, goal: $name}) "
            "WITH e CALL db.create.setNodeVectorProperty(e, 'embedding', $vec)",
            id=f"{user_id}-{name}", u=user_id, name=name, vec=vec,
        )
    driver.execute_query("CALL db.awaitIndexes(60)")
    probe = [0.6, 0.4] + [0.0] * 382  # cos: NE 0.98, N 0.83, E 0.55
    records, _, _ = driver.execute_query(
        "CALL db.index.vector.queryNodes('episode_embedding', 50, $v) YIELD node, score "
        "WHERE node.user_id = $u RETURN node.goal AS goal, score ORDER BY score DESC",
        v=probe, u=user_id,
    )
    assert [r["goal"] for r in records] == ["north-east", "north", "east"]
    plan = driver.execute_query(
        "EXPLAIN CALL db.index.vector.queryNodes('episode_embedding', 5, $v) YIELD node "
        "RETURN node", v=probe,
    ).summary.plan
    assert "ProcedureCall" in str(plan)


@pytest.mark.parametrize(
    ("text", "word"),
    [("帮我规划下周三的生日聚会，女朋友喜欢玫瑰", "生日"),
     ("我不喜欢用微信沟通，请发邮件", "微信"),
     ("Please plan the birthday party for next Wednesday", "birthday")],
)
def test_fulltext_finds_a_word_inside_a_sentence(runner, driver, user_id, text, word):
    driver.execute_query(
        "CREATE (:Episode {event_id: $id, user_id: $u, tenant: $t, goal: $g, result: '', "
        "actions_text: ''})", id=f"{user_id}-ft", u=user_id, t=tenant_key(user_id), g=text,
    )
    driver.execute_query("CALL db.awaitIndexes(60)")
    records, _, _ = driver.execute_query(  # the tenant key scopes the search to the user
        "CALL db.index.fulltext.queryNodes('episode_fulltext', $q) YIELD node "
        "RETURN node.goal AS goal", q=f"tenant:{tenant_key(user_id)} AND ({word})",
    )
    assert [r["goal"] for r in records] == [text]


def test_fulltext_does_not_match_an_absent_word(runner, driver, user_id):
    driver.execute_query(
        "CREATE (:Episode {event_id: $id, user_id: $u, goal: '预算500以内'})",
        id=f"{user_id}-neg", u=user_id,
    )
    records, _, _ = driver.execute_query(
        "CALL db.index.fulltext.queryNodes('episode_fulltext', '玫瑰') YIELD node "
        "WHERE node.user_id = $u RETURN node", u=user_id,
    )
    assert records == []


def test_other_dimension_than_the_existing_index_is_a_clear_error(runner):
    with pytest.raises(ConfigError, match=r"384 dimensions but the embedder makes 768"):
        apply_schema(runner, 768)


@pytest.mark.parametrize("name", [n for n in cypher.all_names() if not n.startswith("schema")])
def test_every_named_query_passes_explain(runner, name):
    text = cypher.load(name)
    if text.lstrip("/ \n").upper().startswith("SHOW") or "awaitIndexes" in text:
        runner.read(name)  # admin commands cannot be EXPLAINed; run them instead
        return
    if name == "admin/probe_vector_search":  # plans a missing index on purpose
        return
    params = {p: None for p in re.findall(r"\$(\w+)", text)}
    statement, cypher_25 = re.subn(r"^CYPHER 25\b", "CYPHER 25 EXPLAIN", text, count=1,
                                   flags=re.MULTILINE)
    if not cypher_25:
        statement = "EXPLAIN " + text
    if cypher_25 and not runner.server().search_clause:  # 5.26: graphmem never sends these
        with pytest.raises(neo4j.exceptions.ClientError):
            runner.driver.execute_query(statement, params)
        return
    runner.driver.execute_query(statement, params)


def test_every_cypher_file_has_a_header_and_is_used_or_documented():
    library = (REPO / "docs" / "cypher.md").read_text(encoding="utf-8")
    code = "\n".join(p.read_text(encoding="utf-8") for p in (REPO / "graphmem").rglob("*.py"))
    for name in cypher.all_names():
        text = cypher.load(name)
        assert text.startswith("//"), f"{name} needs a header comment"
        assert "Parameters:" in text, f"{name} must list its parameters"
        assert f'"{name}"' in code or f"`cypher/{name}.cypher`" in library, (
            f"{name} is neither used nor documented in docs/cypher.md")
    listed = set(re.findall(r"^\| `cypher/([\w/]+)\.cypher` \|", library, re.MULTILINE))
    assert listed and listed <= set(cypher.all_names()), (
        f"docs/cypher.md lists statements that do not exist: {listed - set(cypher.all_names())}")


def test_public_namespace_is_sorted_and_complete():
    assert graphmem.__all__ == sorted(graphmem.__all__)
    exported = {n for n in dir(graphmem) if not n.startswith("_")} - {
        "annotations"
    }
    modules = {n for n in exported if type(getattr(graphmem, n)).__name__ == "module"}
    assert set(graphmem.__all__) - {"__version__"} == exported - modules


def test_wheel_ships_the_cypher_files(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(REPO)],
        check=True, capture_output=True,
    )
    [wheel] = tmp_path.glob("graphmem-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in cypher.all_names():
        assert f"graphmem/cypher/{name}.cypher" in names
