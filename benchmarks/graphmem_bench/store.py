"""The benchmarks' own Neo4j connection: the baselines' messages (``:BenchMessage``) and
their indexes, through the Neo4j driver, with the named statements of
``graphmem_bench/cypher/``. It connects where a ``Memory`` is connected (its public
``config``): graphmem's own store is never touched from here."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import neo4j

CYPHER_DIR = Path(__file__).resolve().parent / "cypher"


@cache
def statement(name: str) -> str:
    """The text of ``bench/<name>`` (``graphmem_bench/cypher/<name>.cypher``)."""
    path = CYPHER_DIR / f"{name.removeprefix('bench/')}.cypher"
    if not path.is_file():
        raise FileNotFoundError(f"no benchmark statement {name!r} in {CYPHER_DIR}")
    return path.read_text(encoding="utf-8")


def statement_names() -> list[str]:
    return sorted(f"bench/{p.stem}" for p in CYPHER_DIR.glob("*.cypher"))


class BenchStore:
    """Runs the benchmarks' named statements: ``read`` / ``write`` return rows as dicts."""

    def __init__(self, uri: str, auth: tuple[str, str] | None = None,
                 database: str | None = None) -> None:
        self.driver = neo4j.GraphDatabase.driver(uri, auth=auth)
        self.database = database

    @classmethod
    def beside(cls, mem: Any) -> BenchStore:
        """A connection to the database ``mem`` (a ``graphmem.Memory``) uses."""
        config = mem.config
        return cls(config.driver_uri, config.auth, config.neo4j_database)

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self._run(name, params, neo4j.RoutingControl.READ)

    def write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self._run(name, params, neo4j.RoutingControl.WRITE)

    def wait_for_indexes(self) -> None:
        self._execute("CALL db.awaitIndexes(300)", {}, neo4j.RoutingControl.READ)

    def server_version(self) -> str:
        rows = self._execute("CALL dbms.components() YIELD name, versions "
                             "RETURN name, versions[0] AS version", {},
                             neo4j.RoutingControl.READ)
        return next((r["version"] for r in rows if r["name"] == "Neo4j Kernel"), "")

    def close(self) -> None:
        self.driver.close()

    def _run(self, name: str, params: dict[str, Any], routing: neo4j.RoutingControl
             ) -> list[dict[str, Any]]:
        return self._execute(statement(name), params, routing)

    def _execute(self, text: str, params: dict[str, Any], routing: neo4j.RoutingControl
                 ) -> list[dict[str, Any]]:
        records, _, _ = self.driver.execute_query(text, params, routing_=routing,
                                                  database_=self.database)
        return [record.data() for record in records]
