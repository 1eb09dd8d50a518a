"""Applies ``cypher/schema.cypher`` idempotently and checks vector dimensions."""

from __future__ import annotations

from graphmem._errors import ConfigError
from graphmem.store import cypher
from graphmem.store.migrate import migrate_graph
from graphmem.store.runner import QueryRunner

VECTOR_INDEXES = ("episode_embedding", "fact_embedding")


def apply_schema(runner: QueryRunner, dimension: int) -> None:
    """Create constraints and indexes if missing, wait until they are ONLINE, then
    migrate a graph written by an older graphmem (``graphmem.store.migrate``).

    Raises ``ConfigError`` when an existing vector index has another dimension
    than the embedder's (a different model was used before).
    """
    check_vector_dimensions(runner, dimension)
    for i, statement in enumerate(cypher.statements("schema")):
        params = {"dimension": dimension} if "$dimension" in statement else {}
        runner.write_text(f"schema#{i + 1}", statement, **params)
    runner.read("queries/wait_for_indexes")
    migrate_graph(runner)


def check_vector_dimensions(runner: QueryRunner, dimension: int) -> None:
    for row in runner.read("queries/show_vector_indexes"):
        if row["name"] in VECTOR_INDEXES and row["dimension"] not in (None, dimension):
            raise ConfigError(
                f"vector index {row['name']!r} has {row['dimension']} dimensions but the "
                f"embedder makes {dimension}. Use the model the index was built with, or drop "
                f"the index (DROP INDEX {row['name']}) and re-embed."
            )


def schema_status(runner: QueryRunner) -> dict[str, str]:
    """Index name -> state, for the indexes graphmem needs."""
    rows = runner.read("queries/show_vector_indexes")
    return {row["name"]: row["state"] for row in rows}
