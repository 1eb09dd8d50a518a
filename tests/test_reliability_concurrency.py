"""Concurrency (issue 10): consolidations racing on one user never fork a version chain,
writers never deadlock, ``add_message`` is thread-safe, a quiet episode closes on a
timer, one odd fact never stops a run."""

from __future__ import annotations

import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
import stories
from stories import fact_table, heads

from graphmem import Memory
from graphmem.extract import Candidate, RuleExtractor
from graphmem.store.cypher import relationship_type, safe_predicate
from graphmem.store.runner import QueryRunner

T0 = datetime(2025, 2, 3, 9, 0, tzinfo=UTC)
CITIES = ["Paris", "Berlin", "Lisbon", "Oslo", "Madrid"]
JOBS = ["Acme", "Globex", "Initech", "Hooli"]
LIKES = ["jazz", "roses", "hiking"]


def life_story(user: str, sessions: int = 16) -> list[dict]:
    return stories.life_story(user, sessions, start=T0, cities=CITIES, jobs=JOBS,
                              likes=LIKES, budget_steps=7)


def test_racing_consolidations_never_fork_a_version_chain(neo4j_uri, embedder, driver,
                                                          tmp_path, user_id):
    racer, calm = f"{user_id}-race", f"{user_id}-calm"
    settings = {"embedder": embedder, "online_extraction": False}
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "w", **settings) as mem:
        mem.add_messages(life_story(racer) + life_story(calm))
        mem.flush()
        mem.consolidate(calm, now=T0 + timedelta(days=40))  # one run: the reference
        reference = fact_table(mem, calm)
        episodes = len(mem.episodes(racer))

    mems = [Memory.connect(neo4j_uri, buffer_dir=tmp_path / f"c{i}", **settings)
            for i in range(2)]
    start = threading.Barrier(4)
    reports, failures = [], []

    def consolidate(mem: Memory) -> None:
        try:
            start.wait()
            reports.append(mem.consolidate(racer, now=T0 + timedelta(days=40)))
        except BaseException as exc:  # pragma: no cover - reported below
            failures.append(exc)

    threads = [threading.Thread(target=consolidate, args=(m,)) for m in mems for _ in range(2)]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert failures == []
        assert sum(r.episodes - r.skipped_episodes for r in reports) == episodes  # each once
        raced = fact_table(mems[0], racer)
    finally:
        for m in mems:
            m.close()
    assert raced == reference  # same versions, same confidences: nothing twice
    single = {k: n for k, n in heads(driver, racer).items()
              if k[1] in ("budget", "lives_in", "works_at")}
    assert len(single) == 3 and set(single.values()) == {1}


def test_writers_and_consolidation_together_need_no_deadlock_retry(
        neo4j_uri, embedder, driver, tmp_path, user_id):
    users = [f"{user_id}-{i}" for i in range(3)]
    mems = [Memory.connect(neo4j_uri, buffer_dir=tmp_path / f"w{i}", embedder=embedder,
                           write_batch_size=8) for i in range(2)]
    failures: list[BaseException] = []
    done = threading.Event()

    def write(w: int) -> None:
        try:
            for k in range(12):
                batch = []
                for user in users:  # overlapping users, each writer its own sessions
                    for msg in life_story(user, 1):
                        batch.append(msg | {"session_id": f"w{w}-s{k}",
                                            "ts": msg["ts"] + timedelta(hours=2 * k + w)})
                mems[w].add_messages(batch)
            mems[w].flush()
        except BaseException as exc:  # pragma: no cover
            failures.append(exc)

    def consolidate() -> None:
        try:
            while not done.is_set():
                for user in users:
                    mems[0].consolidate(user, now=T0 + timedelta(days=3))
        except BaseException as exc:  # pragma: no cover
            failures.append(exc)

    writers = [threading.Thread(target=write, args=(w,)) for w in range(2)]
    consolidator = threading.Thread(target=consolidate)
    try:
        consolidator.start()
        for t in writers:
            t.start()
        for t in writers:
            t.join()
        done.set()
        consolidator.join()
        for user in users:
            mems[1].consolidate(user, now=T0 + timedelta(days=3))
        retries = sum((Counter(m.stats().retried) for m in mems), Counter())
    finally:
        for m in mems:
            m.close()
    assert failures == []
    assert not [code for code in retries if "Deadlock" in code], retries
    for user in users:
        records, _, _ = driver.execute_query(
            "MATCH (m:Message {user_id: $u}) RETURN count(m) AS n", u=user)
        assert records[0]["n"] == 2 * 12 * 4
        assert set(heads(driver, user).values()) <= {1}


def test_the_retry_counter_sees_a_real_deadlock(neo4j_uri, user_id):
    """The check above is only worth something if a deadlock would be counted (with writes
    in parallel: the write turn leaves two transactions nothing to deadlock on)."""
    runner = QueryRunner(neo4j_uri, None, serial_writes=False)
    a, b = f"{user_id}-a", f"{user_id}-b"
    runner.write("store/lock_users", user_ids=[a, b])
    both_hold_one = threading.Barrier(2, timeout=30)

    def lock(first: str, second: str) -> None:
        calls = 0

        def work(tx):
            nonlocal calls
            calls += 1
            tx.write("store/lock_users", user_ids=[first])
            if calls == 1:
                both_hold_one.wait()
            tx.write("store/lock_users", user_ids=[second])

        runner.transaction("test/opposite_order", work)

    try:
        threads = [threading.Thread(target=lock, args=order) for order in ((a, b), (b, a))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert any("Deadlock" in code for code in runner.retries), runner.retries
    finally:
        runner.close()


def test_add_message_is_thread_safe_on_one_session(memory, user_id, driver):
    def send(t: int) -> None:
        for i in range(30):
            memory.add_message(user_id, "busy", "user", f"thread {t} message {i} on the plan")

    threads = [threading.Thread(target=send, args=(t,)) for t in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    memory.flush()
    raw = memory.raw(user_id, "busy")
    assert [m.msg_id for m in raw] == list(range(1, 121))
    records, _, _ = driver.execute_query(
        "MATCH (m:Message {user_id: $u}) OPTIONAL MATCH (e:Episode)-[:HAS_MESSAGE]->(m) "
        "WITH m, count(e) AS episodes RETURN count(m) AS n, collect(DISTINCT episodes) AS c",
        u=user_id)
    assert records[0]["n"] == 120 and records[0]["c"] == [1]


def test_a_quiet_episode_is_closed_by_the_idle_timer(neo4j_uri, embedder, tmp_path, user_id):
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "b", embedder=embedder,
                        idle_timeout_s=1.0) as mem:
        mem.add_message(user_id, "quiet", "user", "remind me to water the plants")
        deadline = time.monotonic() + 60  # generous: this is not a speed test
        while not mem.episodes(user_id) and time.monotonic() < deadline:
            time.sleep(0.25)
        found = mem.episodes(user_id)  # no flush(), no further message
        assert [e.session_id for e in found] == ["quiet"]


class OddPredicates:
    """An extractor (the documented plug-in point) that also emits predicates no
    relationship type can be made of as they are."""

    def __init__(self) -> None:
        self.rules = RuleExtractor()

    def extract(self, episode):
        found = self.rules.extract(episode)
        first = episode.actions[0]
        for predicate in ["1" * 45, "x" * 39 + " y", "喜欢吃", "`) DETACH DELETE n //", "_"]:
            found.append(Candidate(entity="user", predicate=predicate, value="kale",
                                   negated=False, confidence=0.9, observed_at=first.ts,
                                   evidence=first.content, msg_id=first.msg_id))
        return found


def test_odd_predicates_never_stop_a_consolidation_run(neo4j_uri, embedder, tmp_path,
                                                       user_id):
    for word in ["1" * 45, "x" * 39 + " y", "喜欢吃", "_", "a_" * 30]:
        name = safe_predicate(word)
        assert safe_predicate(name) == name and relationship_type(name)
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "b", embedder=embedder,
                        extractor=OddPredicates(), online_extraction=False) as mem:
        mem.add_messages(life_story(user_id, 3))
        mem.flush()
        report = mem.consolidate(user_id, now=T0 + timedelta(days=5))
        assert report.episodes == 3 and report.errors == []
        predicates = {f.predicate for f in mem.facts(user_id)}
    assert {"budget", "lives_in", "likes", "works_at"} <= predicates
    assert {"rel_" + "1" * 36, "x" * 39, "related_to"} <= predicates


@pytest.mark.parametrize("word", ["", "__", "9", "Ünïcödé", "a" * 100])
def test_a_safe_predicate_is_its_own_safe_predicate(word):
    name = safe_predicate(word)
    assert safe_predicate(name) == name
    assert relationship_type(name) == name.upper()


@pytest.mark.parametrize("serial", [True, False])
def test_writers_take_turns_unless_told_otherwise(neo4j_uri, serial):
    """Every write transaction takes the one write turn first: a write of another user waits
    for a transaction already holding it (readers beside a queue of writes are not starved);
    with serial writes off, writes of different users run side by side."""
    first, second = QueryRunner(neo4j_uri, None, serial_writes=serial), \
        QueryRunner(neo4j_uri, None, serial_writes=serial)
    finished: dict[str, float] = {}
    holding = threading.Event()

    def hold(tx):
        tx.write("store/lock_users", user_ids=["turn-a"])
        holding.set()
        time.sleep(2.0)

    def long_write():
        first.transaction("hold the turn", hold)
        finished["first"] = time.monotonic()

    try:
        first.write("store/lock_users", user_ids=["turn-a"])  # the gate node exists
        writer = threading.Thread(target=long_write)
        writer.start()
        assert holding.wait(30)
        second.write("store/lock_users", user_ids=["turn-b"])
        finished["second"] = time.monotonic()
        writer.join(30)
    finally:
        first.close()
        second.close()
    assert (finished["second"] > finished["first"]) is serial
