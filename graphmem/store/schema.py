"""Applies the schema idempotently, with the vector indexes the server can use, and
checks vector dimensions."""

from __future__ import annotations

from graphmem._errors import ConfigError
from graphmem.store import cypher
from graphmem.store.migrate import migrate_graph
from graphmem.store.runner import QueryRunner

VECTOR_INDEXES = ("episode_embedding", "fact_embedding", "message_embedding")
# What each vector index holds where Cypher 25's SEARCH filters inside it (Neo4j 2026.x):
# the vector, then the filter properties (schema_filtered_vector_indexes.cypher).
FILTERED_PROPERTIES = {
    "episode_embedding": ["embedding", "user_id", "start_time", "end_time"],
    "fact_embedding": ["embedding", "user_id", "valid_from"],
    "message_embedding": ["embedding", "user_id", "ts"],
}
QUANTIZATION = "NONE"  # binary quantization loses recall when filtered (docs/vector-search.md)


# The only embedding model before graphmem recorded which one made a database's vectors.
LEGACY_SPACE = "all-MiniLM-L6-v2"


def apply_schema(runner: QueryRunner, dimension: int, space: str | None = None) -> None:
    """Create constraints and indexes if missing, wait until they are ONLINE, then
    migrate a graph written by an older graphmem (``graphmem.store.migrate``) and check
    that its vectors were made in ``space`` (the embedder's vector space; None: unchecked).

    On a server with ``SEARCH`` the vector indexes carry filter properties; one built
    without them (a database from 5.26) is dropped and rebuilt from the stored vectors.
    Raises ``ConfigError`` when an existing vector index has another dimension
    than the embedder's (a different model was used before).
    """
    check_vector_dimensions(runner, dimension)
    server = runner.server(refresh=True)
    _apply(runner, "schema", dimension)
    if server.search_clause:
        for name in outdated_vector_indexes(runner):
            runner.write("schema_drop_vector_index", index=name)
        _apply(runner, "schema_filtered_vector_indexes", dimension)
    else:
        _apply(runner, "schema_vector_indexes", dimension)
    runner.read("admin/wait_for_indexes")
    runner.server(refresh=True)  # which indexes now filter
    migrate_graph(runner)
    if space is not None:
        check_vector_space(runner, space, dimension)


def check_vector_space(runner: QueryRunner, space: str, dimension: int) -> None:
    """Record the database's vector space on first use; refuse another one later (two
    models of one dimension make vectors that look alike and mean nothing together)."""
    row = runner.read("store/get_vector_space")[0]
    stored = row["space"] or (LEGACY_SPACE if row["embedded"] else None)
    if stored is not None and stored != space:
        raise ConfigError(
            f"this database's vectors were made by {stored!r}, but this Memory embeds with "
            f"{space!r}: connect with the embedder that made them (GRAPHMEM_EMBEDDER), or "
            "re-embed the database with `graphmem reembed` (every episode, fact and message "
            "with the configured embedder).")
    if row["space"] is None:
        runner.write("store/set_vector_space", space=space, dimension=dimension)


def _apply(runner: QueryRunner, name: str, dimension: int) -> None:
    for i, statement in enumerate(cypher.statements(name)):
        params = {"dimension": dimension} if "$dimension" in statement else {}
        runner.write_text(f"{name}#{i + 1}", statement, **params)


def outdated_vector_indexes(runner: QueryRunner) -> list[str]:
    """graphmem's vector indexes whose filter properties or quantization differ from
    those ``SEARCH`` is meant to use."""
    return [
        row["name"] for row in runner.read("admin/show_vector_indexes")
        if row["name"] in FILTERED_PROPERTIES
        and (row["properties"] != FILTERED_PROPERTIES[row["name"]]
             or row["quantization"] != QUANTIZATION)
    ]


def check_vector_dimensions(runner: QueryRunner, dimension: int) -> None:
    for row in runner.read("admin/show_vector_indexes"):
        if row["name"] in VECTOR_INDEXES and row["dimension"] not in (None, dimension):
            raise ConfigError(
                f"vector index {row['name']!r} has {row['dimension']} dimensions but the "
                f"embedder makes {dimension}. Use the model the index was built with, or "
                "re-embed the database with `graphmem reembed`."
            )


def schema_status(runner: QueryRunner) -> dict[str, str]:
    """Index name -> state, for the indexes graphmem needs."""
    rows = runner.read("admin/show_vector_indexes")
    return {row["name"]: row["state"] for row in rows}
