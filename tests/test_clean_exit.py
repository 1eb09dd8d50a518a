"""A script that raises before ``close()`` ends with its own error and exit status — not
with "terminate called without an active exception" and a core dump while the embedder
still runs in a background thread (issue 27). Real processes, a real Neo4j."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import REPO

pytestmark = pytest.mark.neo4j

BUSY_THEN_RAISE = """
import sys
from datetime import datetime, timedelta, timezone
from graphmem import Memory
mem = Memory.connect(sys.argv[1], buffer_dir=sys.argv[2], idle_timeout_s=1)
t0 = datetime(2025, 1, 1, tzinfo=timezone.utc)
mem.add_messages([{"user_id": sys.argv[3], "session_id": f"s{i % 7}", "role": "user",
                   "ts": t0 + timedelta(hours=i),
                   "content": f"I love tulips number {i}. By the way, another question: my "
                              f"budget is {i * 10} dollars and I live in Berlin"}
                  for i in range(int(sys.argv[4]))])
if sys.argv[5] == "raise":
    mem.add_messages([{"user_id": sys.argv[3], "session_id": "s", "role": "user",
                       "content": ""}])  # InvalidInputError: content is empty
sys.exit(int(sys.argv[5]))
"""


def run_script(neo4j_uri: str, tmp_path, user_id: str, messages: int, end: str):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")}
    return subprocess.run(
        [sys.executable, "-c", BUSY_THEN_RAISE, neo4j_uri, str(tmp_path / end), user_id,
         str(messages), end], capture_output=True, text=True, timeout=600,
        env=env | {"PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"})


@pytest.mark.parametrize(("messages", "end", "status"), [
    (1500, "raise", 1),  # the embedder busy with hundreds of episodes when it raises
    (3, "raise", 1),
    (1500, "3", 3),  # sys.exit with the Memory still open
])
def test_a_script_that_never_closes_exits_with_its_own_status(neo4j_uri, tmp_path, user_id,
                                                              messages, end, status):
    done = run_script(neo4j_uri, tmp_path, user_id, messages, end)
    assert done.returncode == status, done.stderr[-2000:]
    assert "terminate called" not in done.stderr and "core dumped" not in done.stderr
    if end == "raise":
        assert done.stderr.rstrip().endswith("content is empty")
        assert "InvalidInputError" in done.stderr
