"""The CLI wraps the library: doctor, init, ingest, episodes, demo."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from graphmem.cli import app

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()


def test_doctor_fails_with_a_fix_hint_when_neo4j_is_down():
    result = runner.invoke(app, ["doctor", "--uri", "bolt://127.0.0.1:1"])
    assert result.exit_code == 1
    assert "FAIL neo4j" in result.output
    assert "scripts/neo4j-local start" in result.output


def test_doctor_passes_when_neo4j_is_up(neo4j_uri):
    from graphmem.store.runner import QueryRunner

    result = runner.invoke(app, ["doctor", "--uri", neo4j_uri])
    assert result.exit_code == 0, result.output
    assert re.search(r"ok\s+neo4j: .*Neo4j (5\.26|2026\.\d\d)\.\d+ community", result.output)
    probe = QueryRunner(neo4j_uri, None)
    try:  # 2026.x answers dbms.components() with two rows; doctor reads the kernel's
        server = probe.server()
    finally:
        probe.close()
    assert f"Neo4j {server.version} community" in result.output
    assert ("in-index filters" in result.output) == server.search_clause
    assert "384 dimensions" in result.output
    assert "微信" in result.output


def test_ingest_and_list_episodes(neo4j_uri, tmp_path, user_id):
    path = tmp_path / "messages.jsonl"
    rows = [
        {"user_id": user_id, "session_id": f"{user_id}-s", "role": "user",
         "content": "plan the offsite in Lisbon", "ts": "2025-03-01T10:00:00+00:00"},
        {"user_id": user_id, "session_id": f"{user_id}-s", "role": "assistant",
         "content": "Booked a venue near the river.", "ts": "2025-03-01T10:01:00+00:00"},
    ]
    path.write_text("\n".join(json.dumps(r) for r in rows), encoding="utf-8")
    buffer_dir = str(tmp_path / "buf")
    result = runner.invoke(app, ["ingest", str(path), "--uri", neo4j_uri,
                                 "--buffer-dir", buffer_dir, "--quiet"])
    assert result.exit_code == 0, result.output
    assert "ingested 2 messages" in result.output
    listed = runner.invoke(app, ["episodes", user_id, "--uri", neo4j_uri,
                                 "--buffer-dir", buffer_dir, "--json"])
    [episode] = [json.loads(line) for line in listed.output.splitlines()]
    assert episode["goal"] == "plan the offsite in Lisbon"
    assert episode["raw_span"] == [1, 2]


def test_every_cli_command_is_documented_in_the_readme():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    names = [c.name or c.callback.__name__ for c in app.registered_commands]
    names += [f"bench {c.name or c.callback.__name__}"
              for g in app.registered_groups for c in g.typer_instance.registered_commands]
    for name in names:
        assert f"graphmem {name}" in readme, f"`graphmem {name}` is not in the README"
