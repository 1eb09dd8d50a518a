"""Nearest neighbours inside a filter, on whichever server the suite runs against: Cypher 25
``SEARCH`` over filtered vector indexes on 2026.x, oversampling / exact scans on 5.26 — the
same answers. And the keyword channels never starve a small user beside a big one."""

from __future__ import annotations

import os
import random
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import RetrievalConfig
from graphmem.retrieve.lucene import lucene_terms
from graphmem.store.ids import tenant_key
from graphmem.store.runner import QueryRunner
from graphmem.store.schema import FILTERED_PROPERTIES, VECTOR_INDEXES, apply_schema
from graphmem.store.search import keyword, keyword_messages, nearest

DIM = 384
T0 = datetime(2025, 1, 1, tzinfo=UTC)
TEST_NEO4J_VERSION = os.environ.get("GRAPHMEM_TEST_NEO4J_VERSION", "")  # as tests/conftest.py


@pytest.fixture(scope="module")
def runner(neo4j_server):
    r = QueryRunner(neo4j_server.uri, None)
    apply_schema(r, DIM)
    yield r
    r.close()


def vectors(seed: int, n: int, centre: list[float] | None = None) -> list[list[float]]:
    """Seeded vectors; around ``centre`` when given (neighbours that are near one another)."""
    rng = random.Random(seed)
    base = centre or [0.0] * DIM
    return [[b + rng.gauss(0, 1) for b in base] for _ in range(n)]


def cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / (sum(x * x for x in a) ** 0.5 * sum(y * y for y in b) ** 0.5)


def assert_nearest(runner, kind: str, exact_scan_max: int, hits, expected) -> None:
    """Exact ids and scores from an exact scan and from SEARCH over an unquantized filtered
    index; 5.26's oversampled index scores quantized vectors: nearly the same ranking."""
    ids, want = [i for i, _ in hits], [i for i, _ in expected]
    scores, want_scores = [s for _, s in hits], [(1 + s) / 2 for _, s in expected]
    index = {"episodes": "episode_embedding", "facts": "fact_embedding"}[kind]
    if exact_scan_max > 0 or runner.server().filters(index):
        assert ids == want
        assert scores == pytest.approx(want_scores, abs=1e-4)
    else:
        assert len(set(ids) & set(want)) >= len(want) - 1
        assert scores == pytest.approx(sorted(scores, reverse=True))
        assert scores[0] == pytest.approx(want_scores[0], abs=0.01)


def add_episodes(driver, user_id: str, embeddings: list[list[float]], words: str = "") -> None:
    rows = [{"id": f"{user_id}-e{i}", "start": T0 + timedelta(days=i),
             "end": T0 + timedelta(days=i, hours=1), "vec": vec}
            for i, vec in enumerate(embeddings)]
    driver.execute_query(
        "UNWIND $rows AS r CREATE (e:Episode {event_id: r.id, user_id: $u, tenant: $t, "
        "start_time: r.start, end_time: r.end, goal: $words, result: '', actions_text: ''}) "
        "WITH e, r CALL db.create.setNodeVectorProperty(e, 'embedding', r.vec)",
        rows=rows, u=user_id, t=tenant_key(user_id), words=words,
    )
    driver.execute_query("CALL db.awaitIndexes(120)")


def test_the_suite_runs_on_the_server_it_asked_for(runner):
    server = runner.server()
    expected = {"": "2026.09.", "2026.09": "2026.09.", "5.26": "5.26."}.get(
        TEST_NEO4J_VERSION, TEST_NEO4J_VERSION)
    assert server.version.startswith(expected)
    assert server.search_clause == (int(server.version.split(".")[0]) >= 2026)
    assert server.cypher_versions == (("5", "25") if server.search_clause else ("5",))


def test_vector_indexes_hold_their_filters_where_search_exists(runner):
    rows = {r["name"]: r for r in runner.read("admin/show_vector_indexes")}
    for name in VECTOR_INDEXES:
        if runner.server().search_clause:
            assert rows[name]["properties"] == FILTERED_PROPERTIES[name]
            assert rows[name]["quantization"] == "NONE"
            assert runner.server().filters(name)
        else:
            assert rows[name]["properties"] == ["embedding"]
            assert not runner.server().filters(name)


def test_an_unfiltered_index_is_rebuilt_with_its_filters(runner):
    if not runner.server().search_clause:
        assert runner.server().filtered_indexes == frozenset()
        return
    runner.schema_change("schema_drop_vector_index", index="fact_embedding")
    runner.schema_change("old fact index", "CREATE VECTOR INDEX fact_embedding FOR (f:Fact) "
                         "ON f.embedding OPTIONS {indexConfig: {`vector.dimensions`: 384}}")
    assert not runner.server(refresh=True).filters("fact_embedding")
    apply_schema(runner, DIM)  # as on the first connect of 2026.x to a 5.26 database
    assert runner.server().filters("fact_embedding")


@pytest.mark.parametrize("exact_scan_max", [0, 10_000])  # 5.26: oversampled index, exact scan
def test_nearest_episodes_in_a_window_are_the_exact_ones(runner, driver, user_id,
                                                          exact_scan_max):
    centre = vectors(1, 1)[0]
    mine = vectors(2, 150, centre)
    add_episodes(driver, user_id, mine)
    add_episodes(driver, f"{user_id}-other", vectors(3, 400, centre))  # nearer, not mine
    probe = vectors(4, 1, centre)[0]
    since, until = T0 + timedelta(days=30), T0 + timedelta(days=90)
    hits = nearest(runner, "episodes", probe, 8, RetrievalConfig(exact_scan_max=exact_scan_max),
                   user_id=user_id,
                   since=since, until=until)
    inside = [(f"{user_id}-e{i}", cosine(v, probe)) for i, v in enumerate(mine)
              if 30 <= i < 90]
    expected = sorted(inside, key=lambda p: -p[1])[:8]
    assert_nearest(runner, "episodes", exact_scan_max, hits, expected)


def test_nearest_facts_keep_what_is_true_now_unless_all_versions(runner, driver, user_id):
    now = T0 + timedelta(days=100)
    centre = vectors(5, 1)[0]
    kinds = ["current", "ended", "future"] * 20
    rows = [{"id": f"{user_id}-f{i}", "vec": vec,
             "from": now + timedelta(days=5) if kind == "future" else T0,
             "until": now - timedelta(days=1) if kind == "ended" else None}
            for i, (kind, vec) in enumerate(zip(kinds, vectors(6, 60, centre), strict=True))]
    driver.execute_query(
        "UNWIND $rows AS r CREATE (f:Fact {fact_id: r.id, user_id: $u, valid_from: r.from, "
        "valid_until: r.until}) WITH f, r CALL db.create.setNodeVectorProperty(f, 'embedding', "
        "r.vec)", rows=rows, u=user_id,
    )
    driver.execute_query("CALL db.awaitIndexes(120)")
    probe = vectors(7, 1, centre)[0]
    for exact_scan_max in (0, 10_000):
        settings = RetrievalConfig(exact_scan_max=exact_scan_max)
        current = nearest(runner, "facts", probe, 10, settings, user_id=user_id, now=now,
                          all_versions=False)
        everything = nearest(runner, "facts", probe, 60, settings, user_id=user_id,
                             now=now, all_versions=True)
        assert len(current) == 10
        assert {int(i.rsplit("f", 1)[1]) % 3 for i, _ in current} == {0}  # "current" only
        assert len(everything) == 60
        ranked = sorted(((r["id"], cosine(r["vec"], probe)) for r in rows
                         if r["until"] is None and r["from"] <= now), key=lambda p: -p[1])
        assert_nearest(runner, "facts", exact_scan_max, current, ranked[:10])


def test_the_keyword_channels_find_a_small_users_words_beside_a_big_user(runner, driver,
                                                                        user_id):
    big, small = f"{user_id}-big", user_id
    n_big = 600  # far more matches than any channel's depth (k × 20 and the like)
    for uid, n in ((big, n_big), (small, 1)):
        driver.execute_query(
            "UNWIND range(0, $n - 1) AS i "
            "CREATE (:Message {message_id: $u + '-m' + i, user_id: $u, tenant: $t, "
            "session_id: $u + '-s', event_id: $u + '-e' + i, msg_id: i, role: 'user', "
            "content: 'espresso espresso espresso order', text: 'espresso espresso espresso "
            "order', ts: $ts + duration({minutes: i})}) "
            "CREATE (:Fact {fact_id: $u + '-f' + i, user_id: $u, tenant: $t, "
            "sentence: 'likes espresso espresso', value: 'espresso', valid_from: $ts})",
            n=n, u=uid, t=tenant_key(uid), ts=T0,
        )
    add_episodes(driver, big, vectors(8, n_big), words="espresso espresso espresso")
    add_episodes(driver, small, vectors(9, 1), words="espresso")
    window = {"since": T0 - timedelta(days=1), "until": T0 + timedelta(days=900)}
    messages = keyword_messages(runner, lucene_terms("espresso"), 5, small, windowed=True, **window)
    assert [m["message"]["message_id"] for m in messages] == [f"{small}-m0"]
    facts = keyword(runner, "facts", "espresso", 5, user_id=small, now=T0 + timedelta(days=1),
                    all_versions=False)
    assert [i for i, _ in facts] == [f"{small}-f0"]
    episodes = keyword(runner, "episodes", "espresso", 5, user_id=small, **window)
    assert [i for i, _ in episodes] == [f"{small}-e0"]
    big_hits = keyword_messages(runner, lucene_terms("espresso"), 5, big, windowed=True, **window)
    assert len(big_hits) == 5 and all(m["message"]["message_id"].startswith(big)
                                      for m in big_hits)
