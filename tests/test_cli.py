"""The CLI wraps the library: every command, in-process and as a real subprocess."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
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


def bench_commands() -> list[str]:
    """The commands of this checkout's benchmarks (``@app.command("name")`` in its CLI),
    read from the source: the installed graphmem-bench may be another checkout's."""
    import ast

    tree = ast.parse((REPO / "benchmarks" / "graphmem_bench" / "cli.py").read_text("utf-8"))
    return [d.args[0].value if d.args else node.name
            for node in tree.body if isinstance(node, ast.FunctionDef)
            for d in node.decorator_list
            if isinstance(d, ast.Call) and ast.unparse(d.func) == "app.command"]


def test_every_cli_command_is_documented():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    guide = (REPO / "docs" / "cli.md").read_text(encoding="utf-8")
    for name in [c.name or c.callback.__name__ for c in app.registered_commands]:
        assert f"graphmem {name}" in readme, f"`graphmem {name}` is not in the README"
        assert f"| `graphmem {name}" in guide, f"`graphmem {name}` is not in docs/cli.md"
    assert bench_commands(), "the benchmarks' commands were not found"
    for name in bench_commands():
        assert f"| `graphmem bench {name}" in guide, (
            f"`graphmem bench {name}` is not in docs/cli.md")


# --- every command in a real subprocess, as a user runs it ---------------------------------

PROGRAM_ENV = {"PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
               "COLUMNS": "200", "NO_COLOR": "1"}


def graphmem_cli(*args: str, env: dict[str, str] | None = None,
                 timeout: int = 600) -> subprocess.CompletedProcess[str]:
    """``python -m graphmem ARGS`` in a fresh interpreter (exactly what ``graphmem`` runs)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_NEO4J_")}
    return subprocess.run([sys.executable, "-m", "graphmem", *args], cwd=REPO,
                          env=base | PROGRAM_ENV | (env or {}), capture_output=True,
                          text=True, timeout=timeout)


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def test_python_m_graphmem_help_lists_every_command():
    done = graphmem_cli("--help")
    assert done.returncode == 0, done.stderr
    for name in ("doctor", "init", "ingest", "episodes", "query", "facts", "history",
                 "consolidate", "demo", "cypher", "mcp", "bench"):
        assert re.search(rf"│ {name}\s", done.stdout), name
    doctor_help = graphmem_cli("doctor", "--help")
    assert doctor_help.returncode == 0 and "--timeout" in doctor_help.stdout


def test_help_loads_no_model_and_no_driver():
    probe = ("import sys, graphmem.cli, graphmem; "
             "print(sorted(m for m in ('spacy', 'torch', 'sentence_transformers', 'neo4j', "
             "'transformers', 'pydantic') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True,
                          text=True, env=os.environ | PROGRAM_ENV, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    lazy = subprocess.run(
        [sys.executable, "-c", "from graphmem import Memory, FactHit; import sys; "
         "print(Memory.__name__, FactHit.__name__, 'spacy' in sys.modules)"],
        cwd=REPO, capture_output=True, text=True, env=os.environ | PROGRAM_ENV, timeout=120)
    assert lazy.stdout.split() == ["Memory", "FactHit", "False"], lazy.stderr


def test_doctor_gives_up_on_a_silent_server_after_its_timeout():
    """A port that accepts connections but never answers the Bolt handshake: without a
    connect timeout the driver waits 60 s; doctor stops after --timeout with the fix."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        port = silent.getsockname()[1]
        done = graphmem_cli("doctor", "--uri", f"bolt://127.0.0.1:{port}", "--timeout", "1",
                            timeout=45)
    assert done.returncode == 1
    assert "FAIL neo4j" in done.stdout and "scripts/neo4j-local start" in done.stdout
    assert "skip models" in done.stdout  # the slow checks wait until Neo4j answers
    assert "384 dimensions" not in done.stdout


def test_doctor_subprocess_passes_when_neo4j_is_up(neo4j_uri):
    done = graphmem_cli("doctor", "--uri", neo4j_uri)
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"ok\s+neo4j: ", done.stdout)
    assert "ok   embedder" in done.stdout and "ok   spacy-zh" in done.stdout


def test_init_applies_the_schema(neo4j_uri, driver):
    done = graphmem_cli("init", "--uri", neo4j_uri)
    assert done.returncode == 0, done.stderr
    assert "schema applied" in done.stdout
    names = {r["name"] for r in driver.execute_query("SHOW INDEXES YIELD name").records}
    assert {"episode_embedding", "fact_embedding", "message_fulltext"} <= names


@pytest.fixture(scope="module")
def cli_user(neo4j_uri, tmp_path_factory) -> dict[str, Any]:
    """The demo's conversations through `graphmem ingest` and `graphmem consolidate`."""
    from graphmem.cli.demo import NOW, conversation_messages

    folder = tmp_path_factory.mktemp("cli")
    user_id = f"u_{uuid.uuid4().hex[:10]}"
    path = folder / "messages.jsonl"
    path.write_text("\n".join(json.dumps(m | {"ts": m["ts"].isoformat()}, ensure_ascii=False)
                              for m in conversation_messages(user_id)), encoding="utf-8")
    common = ("--uri", neo4j_uri, "--buffer-dir", str(folder / "buffer"))
    ingested = graphmem_cli("ingest", str(path), *common, "--quiet")
    consolidated = graphmem_cli("consolidate", "--user-id", user_id, "--now", NOW.isoformat(),
                                *common, "--quiet")
    return {"user_id": user_id, "common": common, "now": NOW.isoformat(),
            "ingest": ingested, "consolidate": consolidated}


def test_ingest_and_consolidate(cli_user):
    ingest, consolidate = cli_user["ingest"], cli_user["consolidate"]
    assert ingest.returncode == 0, ingest.stderr
    assert "ingested 17 messages" in ingest.stdout
    assert consolidate.returncode == 0, consolidate.stderr
    assert re.search(r"7 episodes distilled: \d+ facts created", consolidate.stdout)


def test_episodes_lists_the_users_episodes(cli_user):
    done = graphmem_cli("episodes", cli_user["user_id"], *cli_user["common"], "--json",
                        "--since", "2025-01-13", "--until", "2025-01-21")
    assert done.returncode == 0, done.stderr
    assert [e["goal"] for e in json_lines(done.stdout)] == ["我不喜欢用微信沟通",
                                                            "加我微信把文档发过来"]


def test_facts_and_history(cli_user):
    user_id, common = cli_user["user_id"], cli_user["common"]
    done = graphmem_cli("facts", user_id, *common, "--predicate", "uses_channel", "--json")
    assert done.returncode == 0, done.stderr
    [current] = json_lines(done.stdout)
    assert (current["value"], current["status"]) == ("邮件", "current")
    every = json_lines(graphmem_cli("facts", user_id, *common, "--all", "--json").stdout)
    assert sum(f["predicate"] == "uses_channel" for f in every) == 4
    chain = graphmem_cli("history", user_id, current["fact_id"], *common, "--json")
    assert chain.returncode == 0, chain.stderr
    versions = json_lines(chain.stdout)
    assert [v["fact"]["status"] for v in versions] == ["current", "superseded", "superseded",
                                                       "superseded"]
    assert versions[1]["fact"]["value"] == "微信"
    shown = graphmem_cli("history", user_id, current["fact_id"], *common)
    assert "superseded 用户用微信沟通" in shown.stdout


def test_query_returns_the_memory_context(cli_user):
    done = graphmem_cli("query", cli_user["user_id"], "上次我女朋友喜欢的花是什么来着",
                        *cli_user["common"], "--now", cli_user["now"], "--json")
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)
    assert {"玫瑰", "郁金香花"} <= {f["value"] for f in context["facts"]}
    assert "玫瑰" in context["text"]


def test_query_explain_shows_the_ranking_behind_the_context(cli_user):
    asked = ("query", cli_user["user_id"], "上次我女朋友喜欢的花是什么来着", *cli_user["common"],
             "--now", cli_user["now"], "--explain")
    done = graphmem_cli(*asked, "--json")
    assert done.returncode == 0, done.stderr
    why = json.loads(done.stdout)
    assert "玫瑰" in why["context"]["text"]
    assert why["channels"][0]["name"] == "keyword" and why["channels"][0]["messages"]
    assert any(m["shown"] for m in why["ranked"])
    assert {"玫瑰", "郁金香花"} <= {f["value"] for f in why["candidate_facts"]}
    table = graphmem_cli(*asked)
    assert table.returncode == 0, table.stderr
    assert "fused ranking" in table.stdout and "keyword #1" in table.stdout
    assert "candidate facts" in table.stdout


def test_cypher_runs_a_named_query_as_a_table_and_as_json(cli_user):
    user_id, uri = cli_user["user_id"], cli_user["common"][1]
    listed = graphmem_cli("cypher", "--list")
    assert listed.returncode == 0
    assert "facts_as_of" in listed.stdout and "Time travel" in listed.stdout
    as_json = graphmem_cli("cypher", "facts_as_of", "--param", f"user_id={user_id}",
                           "--param", "at=2025-01-21", "--uri", uri, "--json")
    assert as_json.returncode == 0, as_json.stderr
    found = json_lines(as_json.stdout)
    assert [r["value"] for r in found if r["predicate"] == "uses_channel"] == ["微信"]
    assert all(r["valid_from"] <= "2025-01-21" for r in found)
    table = graphmem_cli("cypher", "user_timeline", "-p", f"user_id={user_id}",
                         "-p", "since=2025-01-13", "-p", "until=2025-01-14", "--uri", uri)
    assert table.returncode == 0, table.stderr
    assert "user_timeline (1 rows)" in table.stdout and "我不喜欢用微信沟通" in table.stdout
    assert "[superseded]" in table.stdout  # values are text, not rich markup
    missing = graphmem_cli("cypher", "facts_as_of", "--param", f"user_id={user_id}",
                           "--uri", uri)
    assert missing.returncode == 1 and "needs --param at=" in missing.stderr


def test_demo_ends_with_the_browser_url_and_the_query(neo4j_uri, driver):
    records, _, _ = driver.execute_query(  # the port the server's own HTTP connector has
        "SHOW SETTINGS YIELD name, value WHERE name = 'server.http.listen_address' "
        "RETURN value")
    port = records[0]["value"].rpartition(":")[2]
    # NEO4J_HTTP_PORT says something else: the server's own answer wins
    done = graphmem_cli("demo", "--uri", neo4j_uri, env={"NEO4J_HTTP_PORT": "7999"})
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    user_id = re.search(r"user (demo_\w+)", out).group(1)
    assert "Version chain of the channel fact" in out
    chain = out.split("Version chain of the channel fact")[1].split("query_memory")[0]
    assert [line.split()[0] for line in chain.splitlines()[1:] if line.strip()] == [
        "current", "superseded", "superseded", "superseded"]
    tail = out.split("See it in Neo4j Browser")[1]
    assert f"http://127.0.0.1:{port}/browser/" in tail and port != "7999"
    assert f"user_id: '{user_id}'" in tail and "RETURN p" in tail
    assert "docs/graphmem.grass" in tail


TINY_LOCOMO = [{
    "sample_id": "tiny-1",
    "conversation": {
        "speaker_a": "Ann", "speaker_b": "Bob",
        "session_1_date_time": "1:56 pm on 8 May, 2023",
        "session_1": [
            {"speaker": "Ann", "dia_id": "D1:1", "text": "I moved to Lisbon for a new job."},
            {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice! Do you like it there?"},
            {"speaker": "Ann", "dia_id": "D1:3", "text": "I love the tram rides."},
        ],
        "session_2_date_time": "10:04 am on 19 June, 2023",
        "session_2": [
            {"speaker": "Bob", "dia_id": "D2:1", "text": "I adopted a dog named Rex."},
            {"speaker": "Ann", "dia_id": "D2:2", "text": "Congrats, Rex sounds lovely."},
        ],
    },
    "qa": [
        {"question": "Where did Ann move?", "answer": "Lisbon", "evidence": ["D1:1"],
         "category": 4},
        {"question": "What is the name of Bob's dog?", "answer": "Rex",
         "evidence": ["D2:1"], "category": 4},
    ],
    "observation": {
        "session_1_observation": {"Ann": [["Ann moved to Lisbon for a new job.", "D1:1"]]},
        "session_2_observation": {"Bob": [["Bob adopted a dog named Rex.", "D2:1"]]},
    },
}]


@pytest.fixture(scope="module")
def tiny_locomo(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("locomo") / "tiny.json"
    path.write_text(json.dumps(TINY_LOCOMO), encoding="utf-8")
    return path


def test_bench_ingest_reports_throughput(neo4j_uri):
    done = graphmem_cli("bench", "ingest", "--messages", "120", "--users", "2",
                        "--sessions", "2", "--uri", neo4j_uri, "--quiet")
    assert done.returncode == 0, done.stderr
    assert "| messages | 120 |" in done.stdout
    assert re.search(r"\| messages/s \(end to end\) \| [\d,]+ \|", done.stdout)


def test_bench_locomo_on_a_tiny_conversation(neo4j_uri, tiny_locomo, tmp_path):
    scores = tmp_path / "scores.json"
    done = graphmem_cli("bench", "locomo", "--data", str(tiny_locomo), "--systems",
                        "graphmem,flat", "--budgets", "default", "--json", str(scores),
                        "--uri", neo4j_uri, "--quiet")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "LoCoMo retrieval (1 conversations, 2 questions" in done.stdout
    report = json.loads(scores.read_text(encoding="utf-8"))
    assert {s["system"] for s in report["scores"]} == {"graphmem", "flat"}
    assert all(s["error"] is None for s in report["scores"])


def test_bench_extraction_on_a_tiny_conversation(neo4j_uri, tiny_locomo, tmp_path):
    out = tmp_path / "extraction.json"
    done = graphmem_cli("bench", "extraction", "--data", str(tiny_locomo), "--json", str(out),
                        "--uri", neo4j_uri, "--quiet")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["samples"] == ["tiny-1"] and report["observations"] == 2
    assert report["episodes"] >= 1
    assert "gold observations" in done.stdout


def test_an_empty_question_is_refused_before_connecting():
    result = runner.invoke(app, ["query", "alice", "  ", "--uri", "bolt://127.0.0.1:1"])
    assert result.exit_code == 2
    assert "QUESTION is empty" in result.output


@pytest.mark.parametrize("args", [["query", "alice", "hi?", "--now", "yesterday"],
                                  ["episodes", "alice", "--since", "2024-13-01"],
                                  ["consolidate", "--now", "last week"]])
def test_a_time_that_is_not_iso_is_refused_with_an_example(args):
    result = runner.invoke(app, [*args, "--uri", "bolt://127.0.0.1:1"])
    assert result.exit_code == 2
    assert "is not an ISO date or datetime" in result.output
    assert "2024-05-08T14:30" in result.output


def test_a_piped_table_keeps_whole_ids_and_times(cli_user):
    done = graphmem_cli("episodes", cli_user["user_id"], *cli_user["common"],
                        env={"COLUMNS": ""})
    assert done.returncode == 0, done.stderr
    assert f"{cli_user['user_id']}-wechat-d15" in done.stdout  # not "u_3f…" at 80 columns
    assert re.search(r"│ \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", done.stdout)


def test_facts_of_an_unknown_predicate_name_the_canonical_ones(cli_user):
    done = graphmem_cli("facts", cli_user["user_id"], *cli_user["common"], "--predicate",
                        "nosuch")
    assert done.returncode == 0, done.stderr
    assert "'nosuch' is not a canonical predicate" in done.stdout
    assert "uses_channel" in done.stdout


def test_doctor_names_a_browser_url_as_a_bad_setting_without_a_traceback():
    done = graphmem_cli("doctor", "--uri", "http://127.0.0.1:7474")
    assert done.returncode == 1
    assert "FAIL config" in done.stdout and "Bolt" in done.stdout
    assert "Traceback" not in done.stderr
