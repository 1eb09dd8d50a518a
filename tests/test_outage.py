"""Nothing is lost when Neo4j dies mid-ingest: replay gives exactly the clean run's episodes;
close() with Neo4j gone returns promptly and leaves the backlog for the next connect."""

from __future__ import annotations

import logging
import os
import signal
import time
from datetime import UTC, datetime, timedelta

import pytest
from conftest import run_launcher
from graphmem_bench.generate import generate_messages
from netcut import Forwarder

from graphmem import Memory

TOTAL = 2000


def snapshot(driver, prefix: str, users: int) -> list[tuple]:
    """Episodes of every user, ids stripped of the run prefix, in NEXT order."""
    out = []
    for u in range(users):
        user = f"{prefix}-u{u}"
        records, _, _ = driver.execute_query(
            "MATCH (e:Episode {user_id: $u}) OPTIONAL MATCH (e)-[:NEXT]->(n) "
            "RETURN e.session_id AS s, e.raw_span_start AS a, e.raw_span_end AS b, e.goal AS g, "
            "e.result AS r, e.start_time AS t, e.end_time AS t2, size(e.actions) AS n, "
            "n.raw_span_start AS next_a, n.session_id AS next_s, e.embedding IS NOT NULL AS v "
            "ORDER BY t, s, a", u=user,
        )
        for r in records:
            out.append((r["s"].removeprefix(prefix), r["a"], r["b"], r["g"], r["r"], r["t"],
                        r["t2"], r["n"], r["next_a"], (r["next_s"] or "").removeprefix(prefix),
                        r["v"]))
    return out


def test_killing_neo4j_mid_ingest_loses_nothing_and_the_backlog_drains_by_itself(
    neo4j_server, driver, embedder, tmp_path
):
    if neo4j_server.home is None:
        pytest.skip("needs the server the tests started (GRAPHMEM_NEO4J_URI is external)")
    users = 10
    clean_msgs = list(generate_messages(TOTAL, users, 4, prefix="clean"))
    crash_msgs = list(generate_messages(TOTAL, users, 4, prefix="crash"))

    with Memory.connect(neo4j_server.uri, buffer_dir=tmp_path / "clean",
                        embedder=embedder) as mem:
        for i in range(0, TOTAL, 50):
            mem.add_messages(clean_msgs[i:i + 50])
        mem.flush()
        clean = snapshot(driver, "clean", users)

    # A short retry window, so the writer really sees the outage (the driver's default
    # 30 s of retries would ride it out) and has to wait it out with its backlog.
    mem = Memory.connect(neo4j_server.uri, buffer_dir=tmp_path / "crash", embedder=embedder,
                         write_batch_size=32, neo4j_retry_s=1)
    try:
        pid = int((neo4j_server.home / "run" / "neo4j.pid").read_text())
        for i in range(0, TOTAL, 50):
            if i == TOTAL // 2:
                os.kill(pid, signal.SIGKILL)  # a hard crash, mid-ingest
                time.sleep(1)
            mem.add_messages(crash_msgs[i:i + 50])  # keeps working: the buffer takes it
        assert mem.stats().backlog > 0  # waiting for Neo4j, in memory and in the buffer
        run_launcher("start", neo4j_server.env())
        mem.flush()  # no replay() call: the writer retries by itself
        stats = mem.stats()
        assert stats.outages >= 1, "the outage should have been noticed by the writer"
        assert stats.backlog == 0 and stats.rejected == ()
        crashed = snapshot(driver, "crash", users)
    finally:
        mem.close()
    assert len(clean) > 300
    assert crashed == clean


def test_close_with_neo4j_gone_returns_within_ten_seconds_and_keeps_the_backlog(
        neo4j_uri, embedder, driver, tmp_path, user_id, caplog):
    """close() with Neo4j down blocked ~90 s (a 60 s flush, then a 30 s writer wait)."""
    link = Forwarder.to(neo4j_uri)
    buffer_dir = tmp_path / "b"
    t0 = datetime(2025, 4, 1, 9, 0, tzinfo=UTC)
    sent = [{"user_id": user_id, "session_id": f"s{i % 4}", "role": "user",
             "content": f"note {i}: water the tomatoes in bed {i}",
             "ts": t0 + timedelta(minutes=i)} for i in range(40)]
    mem = Memory.connect(link.uri, buffer_dir=buffer_dir, embedder=embedder)
    mem.add_messages(sent[:20])
    link.cut()  # Neo4j is gone for this Memory (the driver's default 30 s of retries)
    mem.add_messages(sent[20:])
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="graphmem"):
        mem.close()
    assert time.monotonic() - started <= 10
    assert any("not yet in Neo4j" in r.getMessage() for r in caplog.records)  # says so

    with Memory.connect(neo4j_uri, buffer_dir=buffer_dir, embedder=embedder) as again:
        again.flush()  # the next connect writes what close() left in the buffer
    records, _, _ = driver.execute_query(
        "MATCH (m:Message {user_id: $u}) RETURN m.content AS c", u=user_id)
    assert sorted(r["c"] for r in records) == sorted(m["content"] for m in sent)


def test_a_write_the_closing_driver_cuts_short_is_no_outage(neo4j_uri, embedder, user_id,
                                                            caplog):
    """At close (or at exit) the driver closes under a write in flight: the batch stays
    unacknowledged in the raw buffer for the next connect, and no outage is reported —
    nothing is down, and the application's own last error stays the last thing it says."""
    from graphmem._models import ClosedEpisode, Message
    from graphmem.ingest.splitter import build_episode
    from graphmem.ingest.writer import EpisodeWriter, _Embedded
    from graphmem.store.runner import QueryRunner

    forwarder = Forwarder.to(neo4j_uri)
    runner = QueryRunner(forwarder.uri, None, retry_s=0.5)
    acknowledged: list[object] = []
    writer = EpisodeWriter(runner, embedder, lambda upto, stamps: acknowledged.append(upto))
    msg = Message(msg_id=1, user_id=user_id, session_id="s", role="user",
                  content="I live in Berlin", ts=datetime(2025, 1, 1, tzinfo=UTC))
    closed = ClosedEpisode(build_episode([msg]), (msg,))
    item = _Embedded([(closed, 0)], [(closed, 0)], embedder.embed([closed.episode.text]))
    writer.close()  # told to stop; then the connection dies under its write
    forwarder.cut()
    try:
        with caplog.at_level(logging.WARNING, logger="graphmem"):
            assert writer._write_with_retry(item) is False
        assert writer.stats.outages == 0 and writer.unavailable is None
        assert acknowledged == []
        assert [r.getMessage() for r in caplog.records if r.name.startswith("graphmem")] == []
    finally:
        runner.close()
