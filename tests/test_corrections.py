"""Correcting what memory got wrong, from Python (issue 27): delete an episode, retract a
fact, correct a value, forget a user — each checked by reading the graph and the raw buffer
afterwards: nothing left behind, version chains whole, the reason and who in the history."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import AsyncMemory, InvalidInputError, Memory
from graphmem.ingest.buffer import CURSOR_FILE, safe_name

pytestmark = pytest.mark.neo4j
T0 = datetime(2025, 3, 1, 10, tzinfo=UTC)
NOW = T0 + timedelta(days=3)


def turn(user: str, session: str, day: float, text: str) -> dict:
    return {"user_id": user, "session_id": session, "role": "user", "content": text,
            "ts": T0 + timedelta(days=day)}


def three_days(user: str) -> list[dict]:
    return [turn(user, "s1", 0, "I live in Berlin and I love tulips."),
            turn(user, "s2", 1, "I love tulips so much. I'm allergic to peanuts."),
            turn(user, "s3", 2, "My budget for the party is 500 dollars.")]


@pytest.fixture
def told(memory: Memory, user_id: str) -> Memory:
    memory.add_messages(three_days(user_id))
    memory.flush()
    memory.consolidate(user_id, now=NOW)
    return memory


def fact(mem: Memory, user: str, predicate: str):
    [found] = [f for f in mem.facts(user) if f.predicate == predicate]
    return found


def typed_edges(driver, fact_id: str) -> list[str]:
    records, _, _ = driver.execute_query(
        "MATCH (:Entity)-[r {fact_id: $id}]->(v:Entity) RETURN v.name AS value", id=fact_id)
    return [r["value"] for r in records]


def test_deleting_an_episode_removes_its_messages_and_what_only_it_proved(told, driver,
                                                                         user_id):
    first, second, third = told.episodes(user_id)
    tulips = fact(told, user_id, "likes")
    allergy = fact(told, user_id, "allergic_to")
    assert set(tulips.source_episodes) == {first.event_id, second.event_id}

    done = told.delete_episode(user_id, second.event_id, by="test")
    assert (done.session_id, done.raw_span, done.messages) == ("s2", (1, 1), 1)
    assert done.facts_expired == (allergy.fact_id,) and done.facts_updated == (tulips.fact_id,)
    assert done.raw_messages == 1 and done.not_reached == ()

    records, _, _ = driver.execute_query(
        "OPTIONAL MATCH (e:Episode {event_id: $e}) OPTIONAL MATCH (m:Message {event_id: $e}) "
        "OPTIONAL MATCH (s:Session {user_id: $u, session_id: 's2'}) "
        "RETURN count(e) AS e, count(m) AS m, count(s) AS s", e=second.event_id, u=user_id)
    assert records[0].data() == {"e": 0, "m": 0, "s": 0}  # the episode, its messages, its session
    chain, _, _ = driver.execute_query(  # the NEXT chain closes over the gap
        "MATCH (a:Episode {user_id: $u})-[:NEXT]->(b) RETURN a.event_id AS a, b.event_id AS b",
        u=user_id)
    assert [(r["a"], r["b"]) for r in chain] == [(first.event_id, third.event_id)]
    assert told.raw(user_id, "s1")  # other sessions' raw messages stay
    assert told.raw(user_id, "s2") == []  # the episode's raw lines are gone

    [expired] = [f for f in told.facts(user_id, include_superseded=True)
                 if f.fact_id == allergy.fact_id]
    assert expired.status == "expired" and expired.change == "evidence_deleted"
    assert second.event_id in (expired.reason or "") and expired.changed_by == "test"
    assert typed_edges(driver, allergy.fact_id) == []
    kept = fact(told, user_id, "likes")  # other evidence: still current, that evidence only
    assert kept.fact_id == tulips.fact_id and kept.source_episodes == (first.event_id,)
    assert "peanuts" not in told.query_memory("what am I allergic to?", user_id).text
    with pytest.raises(InvalidInputError, match="no episode"):
        told.delete_episode(user_id, second.event_id)
    with pytest.raises(InvalidInputError, match="no episode"):
        told.delete_episode(f"{user_id}-other", first.event_id)  # never another user's


def test_a_deleted_episode_does_not_come_back_on_replay(neo4j_uri, embedder, tmp_path,
                                                        user_id):
    buffer_dir = tmp_path / "buffer"
    with Memory.connect(neo4j_uri, buffer_dir=buffer_dir, embedder=embedder) as mem:
        mem.add_messages(three_days(user_id))
        mem.flush()
        gone = mem.episodes(user_id)[1].event_id
        mem.delete_episode(user_id, gone)
    (buffer_dir / safe_name(user_id) / CURSOR_FILE).write_text("", encoding="utf-8")
    with Memory.connect(neo4j_uri, buffer_dir=buffer_dir, embedder=embedder) as mem:
        mem.flush()  # the cursor was lost: everything left in the buffer is replayed
        assert [e.session_id for e in mem.episodes(user_id)] == ["s1", "s3"]
        assert gone not in {e.event_id for e in mem.episodes(user_id)}


def test_correcting_a_fact_is_a_new_version_with_the_reason(told, driver, user_id):
    berlin = fact(told, user_id, "lives_in")
    munich = told.correct_fact(user_id, berlin.fact_id, "Munich", "I moved in May", by="ana")
    assert (munich.value, munich.status, munich.supersedes) == ("Munich", "current",
                                                                  berlin.fact_id)
    assert munich.change == "corrected" and munich.reason == "I moved in May"
    assert munich.changed_by == "ana" and munich.changed_at is not None
    assert munich.confidence == 1.0 and munich.sentence == "the user lives in Munich"
    assert fact(told, user_id, "lives_in").fact_id == munich.fact_id
    chain = told.history(munich.fact_id, user_id)
    assert [(v.fact.value, v.fact.status) for v in chain] == [("Munich", "current"),
                                                             ("Berlin", "superseded")]
    assert chain[1].episodes  # the old version keeps its provenance
    assert [v.fact.fact_id for v in told.history(berlin.fact_id, user_id)] == [
        munich.fact_id, berlin.fact_id]  # from any version
    assert typed_edges(driver, berlin.fact_id) == []
    assert typed_edges(driver, munich.fact_id) == ["Munich"]
    ctx = told.query_memory("where do I live?", user_id)  # changes count from now on
    assert "- the user lives in Munich" in ctx.text and "lives in Berlin" not in ctx.text
    assert "I live in Berlin and I love tulips. [outdated]" in ctx.text  # said, not true

    with pytest.raises(InvalidInputError, match=f"current version is '{munich.fact_id}'"):
        told.correct_fact(user_id, berlin.fact_id, "Paris", "again")
    with pytest.raises(InvalidInputError, match="already says"):
        told.correct_fact(user_id, munich.fact_id, "munich", "same")
    with pytest.raises(InvalidInputError, match="reason is empty"):
        told.correct_fact(user_id, munich.fact_id, "Paris", "  ")
    with pytest.raises(InvalidInputError, match="no fact"):
        told.correct_fact(f"{user_id}-other", munich.fact_id, "Paris", "not yours")


def test_retracting_a_fact_takes_it_back_without_deleting_anything(told, driver, user_id):
    tulips = fact(told, user_id, "likes")
    taken = told.retract_fact(user_id, tulips.fact_id, "I never said that")
    assert (taken.status, taken.change, taken.changed_by) == ("retracted", "retracted", "api")
    assert taken.supersedes == tulips.fact_id and taken.value == "tulips"
    assert [f for f in told.facts(user_id) if f.predicate == "likes"] == []
    chain = told.history(tulips.fact_id, user_id)
    assert [(v.fact.fact_id, v.fact.status) for v in chain] == [
        (taken.fact_id, "retracted"), (tulips.fact_id, "superseded")]
    assert chain[0].fact.reason == "I never said that"
    assert typed_edges(driver, tulips.fact_id) == []
    ctx = told.query_memory("which flowers do I like?", user_id)
    assert tulips.fact_id not in {f.fact_id for f in ctx.facts}
    with pytest.raises(InvalidInputError, match=r"is retracted, no longer current"):
        told.retract_fact(user_id, taken.fact_id, "twice")


def test_async_memory_corrects_the_same_way(neo4j_uri, embedder, tmp_path, user_id):
    async def run() -> None:
        async with AsyncMemory.connect(neo4j_uri, buffer_dir=tmp_path / "b",
                                       embedder=embedder) as mem:
            await mem.add_messages(three_days(user_id))
            await mem.flush()
            await mem.consolidate(user_id, now=NOW)
            facts = {f.predicate: f for f in await mem.facts(user_id)}
            fixed = await mem.correct_fact(user_id, facts["lives_in"].fact_id, "Rome", "moved")
            gone = await mem.retract_fact(user_id, facts["budget"].fact_id, "not mine")
            first = (await mem.episodes(user_id))[0]
            deleted = await mem.delete_episode(user_id, first.event_id)
            report = await mem.forget_user(user_id)
            assert fixed.value == "Rome" and gone.status == "retracted"
            assert deleted.event_id == first.event_id and report.nodes > 0
            assert await mem.facts(user_id, include_superseded=True) == []

    asyncio.run(run())


def count_user_nodes(driver, user: str) -> dict[str, int]:
    records, _, _ = driver.execute_query(
        "MATCH (n) WHERE n.user_id = $u UNWIND labels(n) AS l RETURN l, count(*) AS n", u=user)
    return {r["l"]: r["n"] for r in records}


def test_forget_removes_the_raw_buffer_and_names_what_it_cannot_reach(
        neo4j_uri, embedder, driver, tmp_path, user_id):
    shared, elsewhere = tmp_path / "shared", tmp_path / "elsewhere"
    with Memory.connect(neo4j_uri, buffer_dir=elsewhere, embedder=embedder) as other:
        other.add_messages([turn(user_id, "far", 0, "I have a dog named Rex.")])
        other.flush()  # a session written through another raw buffer
    app = Memory.connect(neo4j_uri, buffer_dir=shared, embedder=embedder)
    cli = Memory.connect(neo4j_uri, buffer_dir=shared, embedder=embedder, ingest=False)
    try:
        app.add_messages(three_days(user_id)[:2])
        app.flush()
        app.add_message(user_id, "open", "user", "I'm planning a trip to Kyoto.",
                        T0 + timedelta(days=5))  # an open episode: the app owns "open"
        report = cli.forget_user(user_id)
        assert report.nodes > 0 and report.raw_sessions == 2 and report.raw_messages == 2
        [busy, far] = report.not_reached
        assert "'open'" in busy and app._buffer.me in busy
        assert "'far'" in far and str(elsewhere.resolve()) in far
        assert f"graphmem forget --user {user_id} --buffer-dir {elsewhere.resolve()}" in far
        assert count_user_nodes(driver, user_id) == {}  # the graph: nothing left
        folder = shared / safe_name(user_id)
        assert sorted(p.name for p in folder.glob("*.jsonl")) == ["open.jsonl"]
    finally:
        cli.close()
    try:
        again = app.forget_user(user_id)  # through the writer that owns it: all gone
        assert again.raw_sessions == 1 and not any(".jsonl" in n for n in again.not_reached)
        assert not (shared / safe_name(user_id)).exists()
    finally:
        app.close()
    assert count_user_nodes(driver, user_id) == {}


def test_a_memory_without_ingest_reads_and_corrects_but_takes_no_messages(
        neo4j_uri, embedder, tmp_path, user_id):
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "app", embedder=embedder) as app:
        app.add_messages(three_days(user_id))
        app.flush()
    reader = Memory.connect(neo4j_uri, buffer_dir=tmp_path / "none", embedder=embedder,
                            ingest=False)
    try:
        assert len(reader.episodes(user_id)) == 3
        for write in (lambda: reader.add_message(user_id, "s", "user", "hello"),
                      reader.replay, lambda: reader.import_user(tmp_path / "x.jsonl")):
            with pytest.raises(InvalidInputError, match="ingest=False"):
                write()
        report = reader.consolidate(user_id, now=NOW)
        assert report.episodes == 3
    finally:
        reader.close()
    assert not (tmp_path / "none").exists()  # it opened no raw buffer for writing
