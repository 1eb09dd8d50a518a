"""Shared fixtures: one real Neo4j per test session, one real embedder.

If ``GRAPHMEM_NEO4J_URI`` points at a running server it is reused (tests isolate
themselves by unique user ids and never wipe it). Otherwise the launcher in
``scripts/neo4j-local`` starts a private server on test ports with its own data
folder, which is wiped at start and stopped at the end: the launcher's default Neo4j
(2026.09), or the version in ``GRAPHMEM_TEST_NEO4J_VERSION`` (e.g. ``5.26``, with its own
data folder ``.neo4j-test-5.26``; give it other ports if the default one runs too).
"""

from __future__ import annotations

import os

os.environ["HF_HUB_OFFLINE"] = "1"  # prove that nothing is fetched from a hub
os.environ["TRANSFORMERS_OFFLINE"] = "1"

import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import neo4j
import pytest

REPO = Path(__file__).resolve().parent.parent
LAUNCHER = REPO / "scripts" / "neo4j-local"
TEST_BOLT_PORT = int(os.environ.get("GRAPHMEM_TEST_BOLT_PORT", "17687"))
TEST_HTTP_PORT = int(os.environ.get("GRAPHMEM_TEST_HTTP_PORT", "17474"))
TEST_NEO4J_VERSION = os.environ.get("GRAPHMEM_TEST_NEO4J_VERSION", "")  # "": the default


@dataclass(frozen=True)
class Neo4jServer:
    uri: str
    http_port: int | None
    home: Path | None  # None when the server is not ours

    def env(self) -> dict[str, str]:
        assert self.home is not None
        return launcher_env(self.home, int(self.uri.rsplit(":", 1)[1]), self.http_port or 0)


def launcher_env(home: Path, bolt: int, http: int) -> dict[str, str]:
    env = os.environ | {
        "GRAPHMEM_NEO4J_DIR": str(home),
        "NEO4J_BOLT_PORT": str(bolt),
        "NEO4J_HTTP_PORT": str(http),
    }
    if TEST_NEO4J_VERSION:
        env["GRAPHMEM_NEO4J_VERSION"] = TEST_NEO4J_VERSION
    return env


def run_launcher(command: str, env: dict[str, str], timeout: int = 600) -> None:
    done = subprocess.run(
        [str(LAUNCHER), command], env=env, capture_output=True, text=True, timeout=timeout
    )
    if done.returncode != 0:
        raise RuntimeError(f"neo4j-local {command} failed:\n{done.stdout}\n{done.stderr}")


@pytest.fixture(scope="session")
def neo4j_server(embedder) -> Iterator[Neo4jServer]:
    external = os.environ.get("GRAPHMEM_NEO4J_URI")
    if external:
        yield Neo4jServer(external, None, None)
        return
    home = REPO / (f".neo4j-test-{TEST_NEO4J_VERSION}" if TEST_NEO4J_VERSION else ".neo4j-test")
    env = launcher_env(home, TEST_BOLT_PORT, TEST_HTTP_PORT)
    run_launcher("start", env)
    server = Neo4jServer(f"bolt://127.0.0.1:{TEST_BOLT_PORT}", TEST_HTTP_PORT, home)
    with neo4j.GraphDatabase.driver(server.uri, auth=None) as driver, driver.session() as s:
        # CALL ... IN TRANSACTIONS needs an implicit (auto-commit) transaction
        s.run("MATCH (n) CALL (n) { DETACH DELETE n } IN TRANSACTIONS").consume()
        # the suite's vectors are the `embedder` fixture's, as a database this graphmem
        # writes records them (tests that write vectors with Cypher record nothing: a
        # database with vectors and no record reads as all-MiniLM-L6-v2's, graphmem's before)
        from graphmem.embed import vector_space
        from graphmem.store import cypher

        s.run(cypher.load("store/set_vector_space"), space=vector_space(embedder),
              dimension=embedder.dimension).consume()
    try:
        yield server
    finally:
        run_launcher("stop", env)


@pytest.fixture(scope="session")
def neo4j_uri(neo4j_server: Neo4jServer) -> str:
    return neo4j_server.uri


@pytest.fixture(scope="session")
def driver(neo4j_uri: str) -> Iterator[neo4j.Driver]:
    with neo4j.GraphDatabase.driver(neo4j_uri, auth=None) as drv:
        yield drv


@pytest.fixture(scope="session")
def embedder():
    """The default embedder (multilingual-e5-small): the test database holds one vector
    space, and every Memory of the session writes into it."""
    from graphmem._config import DEFAULT_EMBEDDER
    from graphmem.embed import load_named_embedder

    return load_named_embedder(DEFAULT_EMBEDDER)


@pytest.fixture
def user_id() -> str:
    return f"u_{uuid.uuid4().hex[:10]}"


@pytest.fixture
def memory(neo4j_uri: str, embedder, tmp_path: Path):
    from graphmem import Memory

    mem = Memory.connect(neo4j_uri, buffer_dir=tmp_path / "buffer", embedder=embedder)
    try:
        yield mem
    finally:
        mem.close()
