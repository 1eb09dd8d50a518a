"""The one error tree: every bad setting or argument is a graphmem error that says what to
fix, and the tree the README draws is the tree the code has."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import graphmem
from graphmem import (
    AsyncMemory,
    ConfigError,
    ExtractionError,
    GraphmemError,
    InvalidInputError,
    MemoryConfig,
    QueryRefusedError,
    RetrievalConfig,
    StoreUnavailableError,
)

REPO = Path(__file__).resolve().parent.parent


def test_the_tree_in_the_readme_is_the_tree_of_the_code():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    drawn = re.findall(r"[├└]── (\w+Error)", readme)
    errors = {name for name in graphmem.__all__ if name.endswith("Error")}
    assert set(drawn) == errors - {"GraphmemError"}, "README draws the error tree"
    for name in drawn:
        assert issubclass(getattr(graphmem, name), GraphmemError)
    assert issubclass(InvalidInputError, ValueError)


@pytest.mark.parametrize("make", [
    lambda: MemoryConfig(neo4j_uri="http://localhost:7474"),
    lambda: MemoryConfig(idle_timeout_s=-1),
    lambda: MemoryConfig(embedder="minilm-gpu"),
    lambda: MemoryConfig(no_such_setting=1),
    lambda: MemoryConfig(retrieval={"fact_pointers": -1}),
    lambda: RetrievalConfig(memory_share=0.9),
    lambda: RetrievalConfig(vector_search="sideways"),
], ids=["http-uri", "negative-timeout", "unknown-embedder", "unknown-setting",
        "nested-retrieval", "share", "vector-search"])
def test_a_bad_setting_is_a_config_error_that_names_it(make):
    with pytest.raises(ConfigError) as caught:
        make()
    assert "settings" in str(caught.value)


def test_a_bad_argument_is_an_invalid_input_error():
    with pytest.raises(InvalidInputError, match=r"AsyncMemory\.connect"):
        AsyncMemory(None)  # type: ignore[arg-type]


def test_an_unknown_mcp_transport_is_a_config_error():
    from graphmem.mcp import serve

    with pytest.raises(ConfigError, match="stdio"):
        serve(lambda: None, transport="carrier-pigeon")  # type: ignore[arg-type]


def test_the_errors_carry_what_a_caller_needs():
    refused = QueryRefusedError("query 'x' was refused", query="x", code="Neo.ClientError")
    assert (refused.query, refused.code) == ("x", "Neo.ClientError")
    assert StoreUnavailableError("down", query="y").query == "y"
    assert ExtractionError("e1: boom", event_id="e1").event_id == "e1"
