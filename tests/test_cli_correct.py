"""`graphmem correct / retract / delete-episode / forget`: real processes, as a user runs
them next to the data an application wrote — then the graph and the raw buffer are read."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from test_cli import graphmem_cli, json_lines

from graphmem import Memory
from graphmem.ingest.buffer import safe_name

pytestmark = pytest.mark.neo4j
T0 = datetime(2025, 3, 1, 10, tzinfo=UTC)


def test_correct_retract_delete_and_forget_from_the_command_line(neo4j_uri, embedder,
                                                                 driver, tmp_path, user_id):
    buffer_dir = tmp_path / "buffer"
    with Memory.connect(neo4j_uri, buffer_dir=buffer_dir, embedder=embedder) as mem:
        mem.add_messages([
            {"user_id": user_id, "session_id": s, "role": "user", "content": text,
             "ts": T0 + timedelta(days=day)}
            for s, day, text in [("s1", 0, "I live in Berlin and I love tulips."),
                                 ("s2", 1, "I'm allergic to peanuts."),
                                 ("s3", 2, "My budget for the party is 500 dollars.")]])
        mem.flush()
        mem.consolidate(user_id, now=T0 + timedelta(days=3))
    where = ["--uri", neo4j_uri, "--buffer-dir", str(buffer_dir)]
    facts = {f["predicate"]: f for f in json_lines(
        graphmem_cli("facts", user_id, "--json", *where).stdout)}

    fixed = graphmem_cli("correct", user_id, facts["lives_in"]["fact_id"], "Munich",
                         "--reason", "moved in May", "--json", *where)
    assert fixed.returncode == 0, fixed.stderr
    munich = json.loads(fixed.stdout)
    assert munich["value"] == "Munich" and munich["changed_by"].startswith("cli")
    shown = graphmem_cli("history", user_id, munich["fact_id"], *where)
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert lines[0].startswith("current the user lives in Munich")
    assert lines[1].strip().startswith("corrected by cli") and "moved in May" in lines[1]
    assert any(line.startswith("superseded the user lives in Berlin") for line in lines)

    taken = graphmem_cli("retract", user_id, facts["likes"]["fact_id"], "--reason",
                         "never said", *where)
    assert taken.returncode == 0 and "retracted" in taken.stdout, taken.stderr
    again = graphmem_cli("retract", user_id, facts["likes"]["fact_id"], "--reason", "x",
                         *where)
    assert again.returncode == 1 and "was retracted" in again.stderr
    missing = graphmem_cli("retract", user_id, "fact_nope", "--reason", "x", *where)
    assert missing.returncode == 1 and "no fact with id 'fact_nope'" in missing.stderr

    episodes = json_lines(graphmem_cli("episodes", user_id, "--json", *where).stdout)
    allergy = next(e for e in episodes if e["session_id"] == "s2")
    unsure = graphmem_cli("delete-episode", user_id, allergy["event_id"], *where)
    assert unsure.returncode == 1  # no --yes and nobody to answer: nothing deleted
    assert len(json_lines(graphmem_cli("episodes", user_id, "--json", *where).stdout)) == 3
    gone = graphmem_cli("delete-episode", user_id, allergy["event_id"], "--yes", "--json",
                        *where)
    assert gone.returncode == 0, gone.stderr
    deletion = json.loads(gone.stdout)
    assert deletion["facts_expired"] == [facts["allergic_to"]["fact_id"]]
    assert deletion["raw_messages"] == 1
    assert [e["session_id"] for e in json_lines(
        graphmem_cli("episodes", user_id, "--json", *where).stdout)] == ["s1", "s3"]

    forgot = graphmem_cli("forget", "--user", user_id, "--yes", "--json", *where)
    assert forgot.returncode == 0, forgot.stderr
    report = json.loads(forgot.stdout)
    assert report["nodes"] > 0 and report["raw_sessions"] == 3
    assert report["not_reached"] == []
    assert not (buffer_dir / safe_name(user_id)).exists()
    records, _, _ = driver.execute_query("MATCH (n) WHERE n.user_id = $u RETURN count(n) AS n",
                                         u=user_id)
    assert records[0]["n"] == 0
    left = graphmem_cli("cypher", "count_user_nodes", "-p", f"user_id={user_id}", "--json",
                        "--uri", neo4j_uri)
    assert left.returncode == 0 and left.stdout.strip() == ""
