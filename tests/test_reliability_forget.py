"""A forgotten user stays forgotten (issue 28): with an episode in flight, a worker's lease,
another process holding an open episode of the user, and a crash after the user came
back, nothing of theirs is left or comes back — and what they said afterwards is kept."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from conftest import REPO

from graphmem import InvalidInputError, Memory
from graphmem.ingest.buffer import safe_name
from graphmem.store.ids import forget_key, tenant_key
from graphmem.worker import ConsolidationWorker

T0 = datetime(2025, 6, 1, 9, 0, tzinfo=UTC)
OLD = ["I like roses.", "My budget for the garden is $300.", "I'm allergic to peanuts.",
       "Plant the roses by the fence.", "Water them on Sundays."]
NEW = ["I like tulips.", "The tulips go in pots.", "Two pots on the balcony.",
       "Blue pots, please.", "Thanks!"]


def turns(user: str, texts: list[str], start: datetime, session: str = "s") -> list[dict]:
    return [{"user_id": user, "session_id": session, "role": "user", "content": text,
             "ts": start + timedelta(minutes=i)} for i, text in enumerate(texts)]


def nodes_of(driver, user: str) -> dict[str, int]:
    """Every node of the user (by user_id or tenant key), by label."""
    records, _, _ = driver.execute_query(
        "MATCH (n) WHERE n.user_id = $u OR n.tenant = $t "
        "RETURN labels(n)[0] AS label, count(*) AS n", u=user, t=tenant_key(user))
    return {r["label"]: r["n"] for r in records}


def stored_contents(driver, user: str) -> list[str]:
    records, _, _ = driver.execute_query(
        "MATCH (:Episode {user_id: $u})-[:HAS_MESSAGE]->(m:Message) "
        "RETURN m.content AS c ORDER BY m.msg_id", u=user)
    return [r["c"] for r in records]


def buffered(buffer_dir: Path) -> str:
    """Everything a buffer folder holds, as one text."""
    return "".join(p.read_text(encoding="utf-8") for p in buffer_dir.rglob("*.jsonl"))


def assert_gone(driver, user: str, *buffer_dirs: Path) -> None:
    """No node of the user, no buffer folder of theirs, nothing they said before; the
    tombstone keeps nothing but a hash and a time."""
    assert nodes_of(driver, user) == {}
    for folder in buffer_dirs:
        assert not (folder / safe_name(user)).exists()
        assert not any(text in buffered(folder) for text in OLD)
    records, _, _ = driver.execute_query(
        "MATCH (t:Tombstone {key: $k}) RETURN keys(t) AS keys", k=forget_key(user))
    assert sorted(records[0]["keys"]) == ["forgotten_at", "key"]


IN_FLIGHT = """
import sys, threading, time
from datetime import UTC, datetime, timedelta
from graphmem import Memory, MemoryConfig
from graphmem.embed import load_embedder, vector_space

uri, buffer_dir, user = sys.argv[1:4]
old, new = sys.argv[4].split("|"), sys.argv[5].split("|")
gate = threading.Event()
gate.set()

class Gated:  # the real model, held at the gate: an episode stays in flight
    def __init__(self, real):
        self.real, self.dimension = real, real.dimension
        self.space = vector_space(real)  # the real model's vectors
    def embed(self, texts):
        gate.wait()
        return self.real.embed(texts)

mem = Memory.connect(uri, buffer_dir=buffer_dir, embedder=Gated(load_embedder(MemoryConfig())))
t0 = datetime(2025, 6, 1, 9, 0, tzinfo=UTC)
mem.add_messages([{"user_id": user, "session_id": "s", "role": "user", "content": c,
                   "ts": t0 + timedelta(minutes=i)} for i, c in enumerate(old)])
mem.facts(user)  # the online facts are written
gate.clear()
threading.Thread(target=mem.flush, daemon=True).start()  # the episode goes in flight
while mem.stats().backlog == 0:
    time.sleep(0.01)
mem.forget_user(user)
gate.set()  # the write in flight goes on
mem.flush()
t1 = t0 + timedelta(days=30)
mem.add_messages([{"user_id": user, "session_id": "s", "role": "user", "content": c,
                   "ts": t1 + timedelta(minutes=i)} for i, c in enumerate(new)])
print("back", len(getattr(mem.stats(), "forgotten", ())), flush=True)  # then a crash
time.sleep(600)
"""


def test_an_episode_in_flight_never_brings_the_user_back_and_their_return_survives_a_crash(
        neo4j_uri, embedder, driver, tmp_path, user_id):
    """In-flight acknowledgements wrote the user's cursor.json back after forget_user;
    when the user returned and the process crashed, replay skipped the new messages (5 in
    the buffer, 0 in Neo4j)."""
    buffer_dir = tmp_path / "buf"
    proc = subprocess.Popen(
        [sys.executable, "-c", IN_FLIGHT, neo4j_uri, str(buffer_dir), user_id, "|".join(OLD),
         "|".join(NEW)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ | {"PYTHONPATH": str(REPO)})
    try:
        assert proc.stdout is not None
        said = proc.stdout.readline()
        assert said.startswith("back "), proc.stderr.read()
    finally:
        os.kill(proc.pid, signal.SIGKILL)  # the crash, with the user's new messages open
        proc.wait(timeout=60)
    assert nodes_of(driver, user_id) == {}  # nothing came back meanwhile

    with Memory.connect(neo4j_uri, buffer_dir=buffer_dir, embedder=embedder) as mem:
        mem.flush()
        assert [m.content for m in mem.raw(user_id, "s")] == NEW
        mem.consolidate(user_id)
        values = {f.value for f in mem.facts(user_id)}
    assert stored_contents(driver, user_id) == NEW  # the return survived the crash
    assert "tulips" in values and not values & {"roses", "peanuts", "$300"}
    assert not any(text in buffered(buffer_dir) for text in OLD)
    assert said == "back 1\n"  # the episode in flight was dropped, and reported


HOLDER = """
import sys, time
from datetime import UTC, datetime, timedelta
from graphmem import Memory

uri, buffer_dir, user = sys.argv[1:4]
t0 = datetime(2025, 6, 1, 9, 0, tzinfo=UTC)
mem = Memory.connect(uri, buffer_dir=buffer_dir)
mem.add_messages([{"user_id": user, "session_id": "s", "role": "user", "content": c,
                   "ts": t0 + timedelta(minutes=i)} for i, c in enumerate(sys.argv[4:])])
mem.facts(user)
print("holding", flush=True)
time.sleep(600)
"""


def test_other_buffers_holding_the_user_refuse_their_late_writes_and_drop_them(
        neo4j_uri, embedder, driver, tmp_path, user_id):
    """Another process with an open episode of the user wrote User, Session, Episode and
    Message nodes back on its next flush(), and its raw() still returned the text."""
    killed_dir = tmp_path / "killed"  # a process holding an open episode, then a crash
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, neo4j_uri, str(killed_dir), user_id, *OLD[:2]],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=os.environ | {"PYTHONPATH": str(REPO)})
    try:
        assert proc.stdout is not None and proc.stdout.readline() == "holding\n"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=60)
    one = Memory.connect(neo4j_uri, buffer_dir=tmp_path / "one", embedder=embedder)
    two = Memory.connect(neo4j_uri, buffer_dir=tmp_path / "two", embedder=embedder)
    try:
        one.add_messages(turns(user_id, OLD[2:], T0 + timedelta(hours=1), "s1"))
        one.flush()
        two.add_messages(turns(user_id, OLD, T0 + timedelta(hours=2), "s2"))  # left open
        two.facts(user_id)  # its online facts are in Neo4j
        with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "three",
                            embedder=embedder) as three:
            three.forget_user(user_id)  # a third process forgets the user

        two.flush()  # the late write is refused inside its transaction
        assert nodes_of(driver, user_id) == {}
        with pytest.raises(InvalidInputError, match="no raw buffer"):
            one.raw(user_id, "s1")  # gone from the other buffers too, when they look
        with pytest.raises(InvalidInputError, match="no raw buffer"):
            two.raw(user_id, "s2")
        assert_gone(driver, user_id, tmp_path / "one", tmp_path / "two")
        assert len(two.stats().forgotten) == 1 and two.stats().rejected == ()  # reported

        two.add_messages(turns(user_id, NEW, T0 + timedelta(days=30), "s2"))  # back again
        two.flush()
        assert stored_contents(driver, user_id) == NEW
    finally:
        one.close()
        two.close()
    with Memory.connect(neo4j_uri, buffer_dir=killed_dir, embedder=embedder) as again:
        again.flush()  # a buffer replayed after the forget drops what it held of the user
        with pytest.raises(InvalidInputError, match="no raw buffer"):
            again.raw(user_id, "s")
    assert not (killed_dir / safe_name(user_id)).exists()
    assert stored_contents(driver, user_id) == NEW


def test_the_workers_lease_goes_with_the_user_and_is_not_taken_again(
        neo4j_uri, embedder, driver, tmp_path, user_id):
    """The worker's :Lease {user_id} node stayed after forget_user."""
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "b", embedder=embedder) as mem:
        mem.add_messages(turns(user_id, OLD, T0))
        mem.flush()
        with ConsolidationWorker(mem, owner="worker-1") as worker:
            assert worker.acquire(user_id)  # mid-run when the user is forgotten
            mem.consolidate(user_id)
            mem.forget_user(user_id)
            assert not worker.acquire(user_id)  # the renewal finds no user: no lease again
            assert not worker.release(user_id)
            assert worker.induce(user_id, T0) == 0
            mem.consolidate(user_id)
        assert_gone(driver, user_id, tmp_path / "b")
        records, _, _ = driver.execute_query(
            "MATCH (l:Lease {user_id: $u}) RETURN count(l) AS n", u=user_id)
        assert records[0]["n"] == 0
