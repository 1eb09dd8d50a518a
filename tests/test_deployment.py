"""docs/deployment.md, run as written: the application (the page's own code) writing, a
`graphmem worker` consolidating, and `graphmem facts / query / history / stats` answering —
real processes, all from one folder with the defaults (issue 27)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import REPO

pytestmark = pytest.mark.neo4j
GUIDE = REPO / "docs" / "deployment.md"


def app_code() -> str:
    """The application of docs/deployment.md (its first Python block)."""
    return re.search(r"```python\n(.*?)```", GUIDE.read_text("utf-8"), re.S).group(1)


def environment(neo4j_uri: str) -> dict[str, str]:
    """Defaults everywhere: only where Neo4j is (no buffer folder, nothing else)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    return base | {"GRAPHMEM_NEO4J_URI": neo4j_uri, "PYTHONPATH": str(REPO),
                   "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "COLUMNS": "200"}


class App:
    """The application process, fed one turn a line."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        (folder / "app.py").write_text(app_code(), encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, "app.py"], cwd=folder, env=env, stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=(folder / "app.log").open("w"), text=True)

    def say(self, user: str, session: str, text: str) -> None:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{user}\t{session}\t{text}\n")
        self.process.stdin.flush()
        assert self.process.stdout.readline().strip() == "ok"

    def stop(self) -> int:
        assert self.process.stdin
        self.process.stdin.close()  # end of input: the with-block closes the Memory
        return self.process.wait(timeout=300)


def cli(folder: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    """``graphmem ARGS`` in ``folder``; one that does not end within 300 s fails the test
    with where each of its threads was (faulthandler's dump on SIGABRT), not a bare
    timeout."""
    process = subprocess.Popen(
        [sys.executable, "-m", "graphmem", *args], cwd=folder,
        env=env | {"PYTHONFAULTHANDLER": "1"}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    try:
        out, errors = process.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGABRT)
        try:
            out, errors = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            out, errors = process.communicate()
        pytest.fail(f"graphmem {' '.join(args)} still ran after 300 s; its threads:\n{errors}")
    return subprocess.CompletedProcess(process.args, process.returncode, out, errors)


def test_the_app_the_worker_and_the_cli_share_one_folder(neo4j_uri, tmp_path, user_id):
    env = environment(neo4j_uri)
    app = App(tmp_path, env)
    worker = None
    try:
        app.say(user_id, "chat-1", "I live in Lisbon and I love tulips.")
        app.say(user_id, "chat-1", "My budget for the trip is 800 euros.")
        app.say(user_id, "chat-1", "/end")  # the episode is in Neo4j now
        app.say(user_id, "chat-2", "I'm planning a trip to Kyoto.")  # open: the app's
        assert (tmp_path / ".graphmem" / "buffer").is_dir()

        worker = subprocess.Popen(
            [sys.executable, "-m", "graphmem", "worker", "--every", "2", "--nice", "0"],
            cwd=tmp_path, env=env, stdout=(tmp_path / "worker.out").open("w"),
            stderr=(tmp_path / "worker.log").open("w"))
        deadline = time.monotonic() + 300
        while True:  # until the worker has distilled the app's episode into facts
            facts = cli(tmp_path, env, "facts", user_id, "--json")
            assert facts.returncode == 0, facts.stderr
            found = {f["predicate"]: f for f in map(json.loads, facts.stdout.splitlines())}
            if "lives_in" in found:
                break
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()
            assert time.monotonic() < deadline, "the worker consolidated nothing in 300 s"
            time.sleep(2)
        assert found["lives_in"]["value"] == "Lisbon" and "likes" in found
        while True:  # the run is recorded when it ends: after the facts, the embeddings
            stats = cli(tmp_path, env, "stats", "--json")  # the worker's runs, newest first
            assert stats.returncode == 0, stats.stderr
            runs = [json.loads(line) for line in stats.stdout.splitlines()]
            if any(r["episodes"] >= 1 for r in runs):
                break
            assert worker.poll() is None, (tmp_path / "worker.log").read_text()
            assert time.monotonic() < deadline, "the worker recorded no run in 300 s"
            time.sleep(1)
        answer = cli(tmp_path, env, "query", user_id, "where do I live?")
        assert answer.returncode == 0 and "Lisbon" in answer.stdout, answer.stderr
        chain = cli(tmp_path, env, "history", user_id, found["lives_in"]["fact_id"])
        assert chain.returncode == 0 and "current the user lives in Lisbon" in chain.stdout
        table = cli(tmp_path, env, "stats")
        assert table.returncode == 0 and "recent worker runs" in table.stdout

        # another writer on the same folder: a new session is fine, the app's is refused
        (tmp_path / "more.jsonl").write_text("\n".join(json.dumps(
            {"user_id": user_id, "session_id": s, "role": "user", "content": text})
            for s, text in [("chat-3", "I work at a bakery now.")]), encoding="utf-8")
        more = cli(tmp_path, env, "ingest", "more.jsonl", "--quiet")
        assert more.returncode == 0, more.stderr
        (tmp_path / "clash.jsonl").write_text(json.dumps(
            {"user_id": user_id, "session_id": "chat-2", "role": "user",
             "content": "Actually, Osaka."}), encoding="utf-8")
        clash = cli(tmp_path, env, "ingest", "clash.jsonl", "--quiet")
        assert clash.returncode == 1
        message = " ".join(clash.stderr.split())
        assert f"session 'chat-2' of user '{user_id}' is being written by" in message
        assert f"pid {app.process.pid} " in message and "this writer is pid" in message

        app.say(user_id, "chat-2", "Kyoto in April, for the cherry blossoms.")  # still its
    finally:
        status = app.stop()
        if worker is not None:
            worker.send_signal(signal.SIGINT)
            try:
                worker_status = worker.wait(timeout=120)
            except subprocess.TimeoutExpired:
                worker.kill()  # never left running to consolidate other tests' users
                worker.wait()
                raise
    assert status == 0, (tmp_path / "app.log").read_text()
    assert worker_status == 0, (tmp_path / "worker.log").read_text()
    sessions = cli(tmp_path, env, "episodes", user_id, "--json")
    assert {json.loads(line)["session_id"] for line in sessions.stdout.splitlines()} == {
        "chat-1", "chat-2", "chat-3"}
