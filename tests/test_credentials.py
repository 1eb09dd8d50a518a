"""Credentials only from environment or config, never shown or logged (issue 10): `graphmem
doctor`, errors and log lines mask the Neo4j password as ``***``, whether it comes from
GRAPHMEM_NEO4J_PASSWORD or from the URI (``bolt://user:pass@host``)."""

from __future__ import annotations

import logging

import pytest

from graphmem import Memory, MemoryConfig
from graphmem._config import redact_uri, split_uri_credentials
from graphmem._errors import GraphmemError
from tests.test_cli import graphmem_cli

ENV_SECRET = "envSecret-7f3a9c"
URI_SECRET = "uriSecret-41b2d8"
DEAD_URI = "bolt://127.0.0.1:1"  # nothing listens on port 1


def test_redact_and_split_uri():
    uri = f"bolt://neo4j:{URI_SECRET}@db.example:7687"
    assert redact_uri(uri) == "bolt://neo4j:***@db.example:7687"
    assert split_uri_credentials(uri) == ("bolt://db.example:7687", "neo4j", URI_SECRET)
    assert split_uri_credentials("bolt://h:7687") == ("bolt://h:7687", None, None)
    config = MemoryConfig(neo4j_uri=uri)
    assert config.driver_uri == "bolt://db.example:7687"
    assert config.auth == ("neo4j", URI_SECRET)
    assert ENV_SECRET not in repr(MemoryConfig(neo4j_password=ENV_SECRET))


def test_doctor_never_prints_the_password_from_env():
    done = graphmem_cli("doctor", "--uri", DEAD_URI, "--timeout", "1",
                        env={"GRAPHMEM_NEO4J_PASSWORD": ENV_SECRET})
    assert done.returncode == 1
    assert "neo4j" in done.stdout  # the failed check is reported...
    assert ENV_SECRET not in done.stdout + done.stderr  # ...without the password


def test_doctor_masks_a_password_in_the_uri():
    done = graphmem_cli("doctor", "--uri", f"bolt://neo4j:{URI_SECRET}@127.0.0.1:1",
                        "--timeout", "1")
    assert done.returncode == 1
    assert URI_SECRET not in done.stdout + done.stderr
    assert "bolt://127.0.0.1:1" in done.stdout  # the driver got the URI without userinfo
    bad = graphmem_cli("doctor", "--uri", f"http://neo4j:{URI_SECRET}@127.0.0.1:7474")
    assert bad.returncode == 1 and "must start with" in bad.stdout + bad.stderr
    assert URI_SECRET not in bad.stdout + bad.stderr


def test_doctor_against_the_server_with_a_password_set(neo4j_uri):
    done = graphmem_cli("doctor", "--uri", neo4j_uri,
                        env={"GRAPHMEM_NEO4J_PASSWORD": ENV_SECRET})
    output = done.stdout + done.stderr
    assert "Neo4j" in output
    assert ENV_SECRET not in output


def test_connect_errors_and_logs_carry_no_password(tmp_path, embedder, caplog):
    caplog.set_level(logging.DEBUG)
    for kwargs in ({"uri": f"bolt://neo4j:{URI_SECRET}@127.0.0.1:1"},
                   {"uri": DEAD_URI, "password": ENV_SECRET},
                   {"uri": f"http://neo4j:{URI_SECRET}@127.0.0.1:7474"}):
        with pytest.raises(GraphmemError) as raised:
            Memory.connect(**kwargs, buffer_dir=tmp_path / "b", embedder=embedder,
                           neo4j_connect_timeout_s=1)
        message = str(raised.value)
        assert URI_SECRET not in message and ENV_SECRET not in message
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert URI_SECRET not in logged and ENV_SECRET not in logged
