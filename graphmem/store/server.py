"""What the connected Neo4j can do, found out on connect (one or two cheap round trips).

Neo4j 2026.x speaks Cypher 25, whose ``SEARCH`` clause filters *inside* a vector index on
the properties the index lists in ``WITH [...]``; 5.26 LTS has neither. graphmem builds its
vector indexes and picks its vector queries from what is found here, so the same code runs
on both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from neo4j.exceptions import ClientError

from graphmem._errors import GraphmemError, StoreUnavailableError

if TYPE_CHECKING:
    from graphmem.store.runner import QueryRunner

# The error a server that understands ``SEARCH … WHERE`` gives for the probe's made-up index.
_INDEX_NOT_FOUND = "Neo.ClientError.Schema.IndexNotFound"


@dataclass(frozen=True)
class ServerInfo:
    """The server's version and the features graphmem chooses between."""

    version: str
    edition: str
    cypher_versions: tuple[str, ...]
    search_clause: bool  # Cypher 25 ``SEARCH … WHERE`` over a filtered vector index
    filtered_indexes: frozenset[str] = field(default_factory=frozenset)

    def filters(self, index: str) -> bool:
        """True when ``index`` exists with its filter properties and ``SEARCH`` can use it."""
        return self.search_clause and index in self.filtered_indexes


def components(runner: QueryRunner) -> tuple[str, str, tuple[str, ...]]:
    """``(kernel version, edition, Cypher versions)`` from ``dbms.components()``: one row on
    5.26 ("Neo4j Kernel"), two on 2026.x ("Neo4j Kernel" and "Cypher", versions 5 and 25)."""
    return read_components(runner.read("admin/server_components"))


def read_components(rows: list[dict]) -> tuple[str, str, tuple[str, ...]]:
    """``components``' answer from the rows of ``dbms.components()``."""
    kernel = next((r for r in rows if r["name"] == "Neo4j Kernel"), rows[0])
    cypher = next((r for r in rows if r["name"] == "Cypher"), None)
    versions = tuple(cypher["versions"]) if cypher else ("5",)
    return kernel["versions"][0], kernel["edition"], versions


def supports_search_clause(runner: QueryRunner) -> bool:
    """Plans a filtered ``SEARCH`` against an index that does not exist: a server that knows
    the clause answers "no such index"; one that does not refuses the statement itself."""
    try:
        runner.read("admin/probe_vector_search")
    except StoreUnavailableError:
        raise
    except GraphmemError as exc:  # the refusal is the answer
        cause = exc.__cause__
        return isinstance(cause, ClientError) and cause.code == _INDEX_NOT_FOUND
    return True


def filtered_vector_indexes(runner: QueryRunner) -> frozenset[str]:
    """Names of the vector indexes that carry filter properties besides the vector."""
    return frozenset(
        row["name"] for row in runner.read("admin/show_vector_indexes")
        if len(row["properties"] or []) > 1
    )


def detect(runner: QueryRunner) -> ServerInfo:
    version, edition, cypher_versions = components(runner)
    search = "25" in cypher_versions and supports_search_clause(runner)
    return ServerInfo(version, edition, cypher_versions, search,
                      filtered_vector_indexes(runner) if search else frozenset())
