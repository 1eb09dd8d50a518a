"""Semantic memory in the real Neo4j: facts, version chains, provenance, expiry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem import InvalidInputError

T0 = datetime(2025, 1, 12, 16, 30, 2, tzinfo=UTC)
BIRTHDAY = {
    "zh": [("user", "帮我规划下周三的生日聚会，女朋友喜欢玫瑰，预算500以内。"),
           ("assistant", "需要地点还是在家？大概多少人？"),
           ("user", "在家就行，大概8个人，她不吃香菜。"),
           ("assistant", "好的，我按玫瑰主题、8人、禁香菜、预算500来规划。")],
    "en": [("user", "Can you help me plan a birthday party next Wednesday? My girlfriend likes "
                    "roses, budget under $500."),
           ("assistant", "At home or at a venue? How many people?"),
           ("user", "At home, about 8 people. She doesn't eat coriander."),
           ("assistant", "OK, a rose theme for 8, no coriander, under $500.")],
}
EXPECTED = {
    "zh": {("女朋友", "likes", "玫瑰"), ("女朋友", "dietary_restriction", "香菜"),
           ("聚会", "budget", "500以内"), ("聚会", "date", "2025-01-15")},
    "en": {("girlfriend", "likes", "roses"), ("girlfriend", "dietary_restriction", "coriander"),
           ("party", "budget", "under $500"), ("party", "date", "2025-01-15")},
}


def say(memory, user_id, session, text, at, role="user"):
    memory.add_message(user_id, f"{user_id}-{session}", role, text, ts=at)


def converse(memory, user_id, lang):
    for i, (role, text) in enumerate(BIRTHDAY[lang]):
        say(memory, user_id, "party", text, T0 + timedelta(seconds=60 * i), role)
    memory.flush()
    return memory.consolidate(user_id, now=T0 + timedelta(hours=1))


def fact_table(memory, user_id, **kwargs):
    return {(f.entity, f.predicate, f.value) for f in memory.facts(user_id, **kwargs)}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_birthday_conversation_gives_the_four_facts_derived_from_its_episode(
    memory, driver, user_id, lang
):
    converse(memory, user_id, lang)
    assert EXPECTED[lang] <= fact_table(memory, user_id)
    [episode] = memory.episodes(user_id)
    facts = [f for f in memory.facts(user_id)
             if (f.entity, f.predicate, f.value) in EXPECTED[lang]]
    assert all(f.source_episodes == (episode.event_id,) for f in facts)
    records, _, _ = driver.execute_query(
        "MATCH (f:Fact {user_id: $u})-[:DERIVED_FROM]->(e:Episode) RETURN f.fact_id AS f, "
        "e.event_id AS e, e.semantics_refs AS refs", u=user_id)
    assert {r["e"] for r in records} == {episode.event_id}
    assert {f.fact_id for f in facts} <= set(records[0]["refs"])
    [budget] = [f for f in facts if f.predicate == "budget"]
    assert budget.valid_until is not None and budget.valid_until - T0 <= timedelta(days=31)
    [date] = [f for f in facts if f.predicate == "date"]
    assert date.valid_until == datetime(2025, 1, 16, tzinfo=UTC)


@pytest.mark.parametrize(("before", "after", "entity"), [
    ("我不喜欢用微信沟通", "加我微信把文档发过来", "微信沟通"),
    ("I don't like using WeChat", "Add me on WeChat and send the doc over", "wechat"),
])
def test_wechat_story_supersedes_with_history(memory, driver, user_id, before, after, entity):
    say(memory, user_id, "w1", before, T0)
    say(memory, user_id, "w2", after, T0 + timedelta(days=7))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=7, hours=1))
    [current] = memory.facts(user_id, entity=entity)
    assert (current.predicate, current.negated, current.status) == ("uses_channel", False,
                                                                     "current")
    history = memory.history(current.fact_id, user_id)
    assert [(v.fact.status, v.fact.negated) for v in history] == [("current", False),
                                                                 ("superseded", True)]
    assert history[0].fact.supersedes == history[1].fact.fact_id
    assert [v.episodes[0].session_id for v in history] == [f"{user_id}-w2", f"{user_id}-w1"]
    assert memory.raw(user_id, history[1].episodes[0].session_id,
                      history[1].episodes[0].raw_span)[
        0].content == before
    records, _, _ = driver.execute_query(  # the typed edge exists for the current version only
        "MATCH (:Entity {user_id: $u})-[r:USES_CHANNEL]->(v) RETURN r.fact_id AS f, r.negated AS n",
        u=user_id)
    assert [(r["f"], r["n"]) for r in records] == [(current.fact_id, False)]


def test_budget_update_supersedes_and_likes_accumulate(memory, user_id):
    say(memory, user_id, "b1", "我预算500以内", T0)
    say(memory, user_id, "b2", "预算提到800", T0 + timedelta(weeks=3))
    say(memory, user_id, "l1", "I like roses", T0 + timedelta(weeks=3, days=1))
    say(memory, user_id, "l2", "I also like tulips", T0 + timedelta(weeks=3, days=2))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(weeks=3, days=3))
    assert fact_table(memory, user_id, predicate="budget") == {("user", "budget", "800")}
    everything = memory.facts(user_id, predicate="预算", include_superseded=True)
    assert {(f.value, f.status) for f in everything} == {("800", "current"),
                                                        ("500以内", "superseded")}
    assert fact_table(memory, user_id, predicate="喜好") == {("user", "likes", "roses"),
                                                            ("user", "likes", "tulips")}


def test_running_the_same_input_twice_creates_nothing_new(memory, driver, user_id):
    converse(memory, user_id, "zh")
    count = "MATCH (f:Fact {user_id: $u}) RETURN count(f) AS n, sum(f.confidence) AS c"
    before = driver.execute_query(count, u=user_id).records[0]
    for i, (role, text) in enumerate(BIRTHDAY["zh"]):
        say(memory, user_id, "party", text, T0 + timedelta(seconds=60 * i), role)
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(hours=2))
    assert driver.execute_query(count, u=user_id).records[0] == before


def test_repeated_evidence_in_other_episodes_raises_confidence(memory, user_id):
    for day in range(3):
        say(memory, user_id, f"d{day}", "I like jazz", T0 + timedelta(days=day))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=3))
    [jazz] = memory.facts(user_id, entity="jazz")
    assert jazz.confidence > 0.9 and len(jazz.source_episodes) == 3
    assert jazz.last_verified == T0 + timedelta(days=2)


def test_online_path_stores_explicit_preferences_before_any_flush(memory, user_id):
    say(memory, user_id, "o", "我对花生过敏", T0)
    assert fact_table(memory, user_id) == {("user", "allergic_to", "花生")}


def test_facts_expire_after_their_validity(memory, user_id):
    say(memory, user_id, "x", "my budget is $300", T0)
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=1))
    assert fact_table(memory, user_id, predicate="budget") == {("user", "budget", "$300")}
    report = memory.consolidate(user_id, now=T0 + timedelta(days=45))
    assert report.expired >= 1
    assert memory.facts(user_id, predicate="budget") == []
    [expired] = memory.facts(user_id, predicate="budget", include_superseded=True)
    assert expired.status == "expired"


def test_low_confidence_candidates_are_not_stored(memory, user_id):
    say(memory, user_id, "h", "maybe I like jazz", T0)
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(hours=1))
    assert memory.facts(user_id) == []


def test_history_of_an_unknown_fact_is_a_clear_error(memory, user_id):
    with pytest.raises(InvalidInputError, match="no fact"):
        memory.history("fact_does_not_exist", user_id)


def test_consolidating_one_user_expires_only_that_users_facts(memory, user_id):
    other = user_id + "-other"
    for who in (user_id, other):
        memory.add_message(who, f"{who}-x", "user", "my budget is $300", ts=T0)
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=45))
    assert memory.facts(user_id, predicate="budget") == []
    assert [f.value for f in memory.facts(other, predicate="budget")] == ["$300"]


def test_ambiguous_entities_are_recorded_for_review_not_merged(memory, driver, user_id):
    say(memory, user_id, "j1", "I work at Initech", T0)  # WRatio(initech, initech labs) = 90:
    say(memory, user_id, "j2", "I work at Initech Labs", T0 + timedelta(days=1))  # grey band
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=2))
    records, _, _ = driver.execute_query(
        "MATCH (a:Entity {user_id: $u})-[r:MAYBE_SAME_AS]->(b:Entity) "
        "RETURN a.name AS a, b.name AS b, r.score AS score", u=user_id)
    assert [(r["a"], r["b"]) for r in records] == [("Initech Labs", "Initech")]
    assert 80 <= records[0]["score"] < 92
    history = memory.facts(user_id, predicate="works_at", include_superseded=True)
    assert {f.value for f in history} == {"Initech", "Initech Labs"}  # two entities, not one


def test_retention_deletes_only_versions_retired_long_enough(neo4j_uri, embedder, tmp_path,
                                                               user_id):
    from graphmem import Memory

    with Memory.connect(neo4j_uri, buffer_dir=tmp_path, embedder=embedder,
                        retention_days=30) as mem:
        mem.add_message(user_id, f"{user_id}-a", "user", "我预算500以内", ts=T0)
        mem.add_message(user_id, f"{user_id}-b", "user", "预算提到800", ts=T0 + timedelta(days=3))
        mem.flush()
        mem.consolidate(user_id, now=T0 + timedelta(days=4))
        assert len(mem.facts(user_id, predicate="budget", include_superseded=True)) == 2
        report = mem.consolidate(user_id, now=T0 + timedelta(days=20))
        assert report.deleted == 0  # superseded 17 days ago: kept
        [current] = mem.facts(user_id, predicate="budget")
        report = mem.consolidate(user_id, now=T0 + timedelta(days=34))
        assert report.deleted == 1  # the 500 version, superseded 31 days ago
        assert [v.fact.value for v in mem.history(current.fact_id, user_id)] == ["800"]
