"""Ownership of a user's data (issue 10): export → forget_user → import gives back the same
memory; forget_user leaves nothing; an import refuses a user that already has data."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import InvalidInputError, Memory, queries
from graphmem.store.ids import tenant_key

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
NOW = T0 + timedelta(days=20)
QUESTIONS = ["what is my budget?", "which flowers do I like?",
             "what did we plan last week?", "where do I live?"]
TURNS = [
    ("s1", 0, "user", "I like roses and tulips"),
    ("s1", 1, "assistant", "Noted, roses and tulips."),
    ("s1", 2, "user", "my budget is $500"),
    ("s2", 60 * 24 * 3, "user", "I live in Lisbon now"),
    ("s2", 60 * 24 * 3 + 1, "user", "let's plan the garden party for Saturday"),
    ("s2", 60 * 24 * 3 + 2, "assistant", "The garden party is planned for Saturday at 4pm."),
    ("s3", 60 * 24 * 9, "user", "my budget is now $800"),
    ("s3", 60 * 24 * 9 + 1, "user", "I prefer WeChat for messages"),
]


def count_user_nodes(mem: Memory, user_id: str) -> dict[str, int]:
    """The analysts' query, as `graphmem cypher count_user_nodes -p user_id=…` runs it: by
    user_id alone, and nothing with the user's tenant key escapes it."""
    query = queries.get_query("count_user_nodes")
    assert [p.name for p in query.parameters] == ["user_id"]
    rows = queries.run_query(mem._runner, query, {"user_id": user_id})
    tenant, _, _ = mem._runner.driver.execute_query(  # none has the tenant key alone
        "MATCH (n) WHERE n.tenant = $t AND n.user_id IS NULL RETURN count(n) AS n",
        t=tenant_key(user_id))
    assert tenant[0]["n"] == 0
    return {r["label"]: r["n"] for r in rows}


def snapshot(mem: Memory, user_id: str) -> dict:
    facts = mem.facts(user_id, include_superseded=True)
    return {
        "answers": [mem.query_memory(q, user_id, now=NOW).text for q in QUESTIONS],
        "facts": sorted(f.model_dump_json() for f in facts),
        "history": {f.fact_id: [v.model_dump_json() for v in mem.history(f.fact_id, user_id)]
                    for f in facts},
        "episodes": [e.model_dump_json() for e in mem.episodes(user_id)],
        "raw": {s: [m.model_dump_json() for m in mem.raw(user_id, s)]
                for s in ("s1", "s2", "s3")},
    }


@pytest.fixture
def memory(neo4j_uri, embedder, tmp_path):
    """Facts from consolidation only (no online path): one writer at a time."""
    mem = Memory.connect(neo4j_uri, buffer_dir=tmp_path / "buffer", embedder=embedder,
                         online_extraction=False)
    try:
        yield mem
    finally:
        mem.close()


@pytest.fixture
def filled(memory: Memory, user_id: str) -> Memory:
    memory.add_messages([
        {"user_id": user_id, "session_id": s, "role": role, "content": text,
         "ts": T0 + timedelta(minutes=minutes)} for s, minutes, role, text in TURNS])
    memory.flush()
    memory.consolidate(user_id, now=NOW)
    return memory


def test_export_forget_import_gives_back_the_same_memory(filled, user_id, tmp_path):
    before = snapshot(filled, user_id)
    assert any(json.loads(f)["status"] == "superseded" for f in before["facts"])
    assert before["history"] and before["episodes"]
    path = tmp_path / "user.jsonl"
    counts = filled.export_user(user_id, path)
    kinds = [json.loads(line)["kind"] for line in path.read_text("utf-8").splitlines()]
    assert kinds[0] == "header" and kinds[-1] == "end"
    assert counts["buffer"] == len(TURNS) and counts["episode"] == len(before["episodes"])
    assert counts["fact"] == len(before["facts"])
    assert {"user", "session", "entity", "edge", "buffer_cursor"} <= set(kinds)

    filled.forget_user(user_id)
    assert count_user_nodes(filled, user_id) == {}
    assert filled.facts(user_id, include_superseded=True) == []

    user, restored = filled.import_user(path)
    assert user == user_id and restored["buffer"] == len(TURNS)
    assert snapshot(filled, user_id) == before
    assert filled.replay() == 0  # the restored cursor: nothing to send again


def test_import_refuses_a_user_who_already_has_data(filled, user_id, tmp_path):
    path = tmp_path / "user.jsonl"
    filled.export_user(user_id, path)
    facts_before = len(filled.facts(user_id, include_superseded=True))
    with pytest.raises(InvalidInputError, match="already has data"):
        filled.import_user(path)
    assert len(filled.facts(user_id, include_superseded=True)) == facts_before


def test_import_refuses_a_cut_or_tampered_file(filled, user_id, tmp_path):
    path = tmp_path / "user.jsonl"
    filled.export_user(user_id, path)
    lines = path.read_text("utf-8").splitlines(keepends=True)
    filled.forget_user(user_id)

    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[:-1]), "utf-8")
    with pytest.raises(InvalidInputError, match="cut short"):
        filled.import_user(cut)

    def tampered(kind: str, change) -> str:
        out = []
        for line in lines:
            item = json.loads(line)
            if item["kind"] == kind:
                change(item)
            out.append(json.dumps(item) + "\n")
        return "".join(out)

    bad_edge = tmp_path / "edge.jsonl"
    bad_edge.write_text(tampered("edge", lambda e: e.update(rel_type="X`]->() DETACH DELETE")),
                        "utf-8")
    with pytest.raises(InvalidInputError, match="typed edge"):
        filled.import_user(bad_edge)

    other = tmp_path / "other.jsonl"
    other.write_text(tampered("fact", lambda f: f["props"].update(user_id="someone_else")),
                     "utf-8")
    with pytest.raises(InvalidInputError, match="another user"):
        filled.import_user(other)
    assert count_user_nodes(filled, user_id) == {}  # nothing half-imported


def test_forget_user_leaves_nothing_of_the_user(filled, user_id):
    other = user_id + "_other"
    filled.add_message(other, "s1", "user", "I like tulips", ts=T0)
    filled.flush()
    assert count_user_nodes(filled, user_id)["Fact"] > 0
    user_dir = filled._buffer.directory / user_id
    assert user_dir.is_dir()

    filled.forget_user(user_id)

    assert count_user_nodes(filled, user_id) == {}
    assert not user_dir.exists()
    assert filled._buffer.user_sessions(user_id) == []
    assert count_user_nodes(filled, other)["Episode"] == 1  # another user's data stays
    with pytest.raises(InvalidInputError):
        filled.raw(user_id, "s1")


def test_an_export_without_the_raw_buffer_says_so(filled, neo4j_uri, embedder, user_id,
                                                  tmp_path):
    """Exported through another buffer folder, the user's raw messages are missing: the
    export warns and names the buffer that wrote them (the CLI prints it)."""
    import warnings

    from graphmem.export import RawBufferMissingWarning

    with warnings.catch_warnings(record=True) as quiet:  # its own buffer: no warning
        warnings.simplefilter("always")
        filled.export_user(user_id, tmp_path / "whole.jsonl")
    assert not [w for w in quiet if issubclass(w.category, RawBufferMissingWarning)]
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "elsewhere", embedder=embedder,
                        ingest=False) as other, \
            pytest.warns(RawBufferMissingWarning) as warned:
        counts = other.export_user(user_id, tmp_path / "graph-only.jsonl")
    assert "buffer" not in counts and counts["episode"] > 0
    message = str(warned[0].message)
    assert "s1, s2, s3" in message and str((tmp_path / "buffer").resolve()) in message
