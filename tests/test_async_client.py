"""AsyncMemory: the same methods as Memory, async, running Memory's own code off the
event loop."""

from __future__ import annotations

import asyncio
import inspect
import threading
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import AsyncMemory, InvalidInputError, Memory
from graphmem._async_client import Opening

T0 = datetime(2025, 5, 3, 9, 0, tzinfo=UTC)


def public_methods(cls: type) -> dict[str, inspect.Signature]:
    return {name: inspect.signature(getattr(cls, name)) for name in vars(cls)
            if not name.startswith("_") and callable(getattr(cls, name))}


def test_async_memory_has_every_method_of_memory_with_the_same_signature():
    sync, aio = public_methods(Memory), public_methods(AsyncMemory)
    missing = set(sync) - set(aio)
    assert not missing, f"AsyncMemory lacks {sorted(missing)}"
    for name, signature in sync.items():
        if name == "connect":
            assert aio[name].parameters == signature.parameters
            continue
        assert inspect.iscoroutinefunction(getattr(AsyncMemory, name)), name
        assert aio[name].parameters == signature.parameters, name
    # and the constructor's settings are those of `open`
    assert list(inspect.signature(AsyncMemory.open).parameters) == list(
        inspect.signature(Memory.__init__).parameters)[1:]


def test_async_memory_wraps_only_a_memory():
    with pytest.raises(InvalidInputError, match=r"AsyncMemory\.connect"):
        AsyncMemory(object())  # type: ignore[arg-type]
    assert isinstance(AsyncMemory.connect("bolt://127.0.0.1:1"), Opening)


@pytest.mark.neo4j
def test_async_memory_end_to_end(neo4j_uri, embedder, tmp_path, user_id):
    query_threads: set[int] = set()

    def tracer(_line: str) -> None:
        query_threads.add(threading.get_ident())

    async def run() -> None:
        loop_thread = threading.get_ident()
        async with AsyncMemory.connect(neo4j_uri, buffer_dir=tmp_path / "buffer",
                                       embedder=embedder, tracer=tracer) as mem:
            assert mem.config.neo4j_uri == neo4j_uri and mem.embedder is embedder
            # two sessions written concurrently from two tasks
            said = [
                ("s1", "user", "I'm allergic to shellfish, please remember that."),
                ("s1", "assistant", "Noted: no shellfish."),
                ("s2", "user", "Book the team dinner in Porto for Friday."),
                ("s2", "assistant", "Booked a table for eight in Porto."),
            ]
            await asyncio.gather(*(
                mem.add_message(user_id, f"{user_id}-{s}", role, text, T0 + timedelta(minutes=i))
                for i, (s, role, text) in enumerate(said)))
            closed = await mem.flush(user_id)
            assert len(closed) == 2
            ctx = await mem.query_memory("Where is the team dinner?", user_id,
                                         now=T0 + timedelta(days=1))
            assert "Porto" in ctx.text
            why = await mem.explain_query("Where is the team dinner?", user_id,
                                          now=T0 + timedelta(days=1))
            assert why.context == ctx and any(m.shown and "Porto" in m.text
                                              for m in why.ranked)
            [allergy] = [f for f in await mem.facts(user_id) if f.predicate == "allergic_to"]
            assert allergy.value == "shellfish"
            assert [v.fact.fact_id for v in await mem.history(allergy.fact_id, user_id)] == [
                allergy.fact_id]
            episodes = await mem.episodes(user_id)
            assert {e.session_id for e in episodes} == {f"{user_id}-s1", f"{user_id}-s2"}
            [(nearest, _score)] = await mem.search_episodes(user_id, "restaurant booking", k=1)
            assert nearest.session_id == f"{user_id}-s2"
            raw = await mem.raw(user_id, f"{user_id}-s2", nearest.raw_span)
            assert [m.content for m in raw] == [t for s, _, t in said if s == "s2"]
            report = await mem.consolidate(user_id)
            assert report.errors == [] and report.extraction is None
            assert (await mem.stats()).episodes_written >= 2
            with pytest.raises(InvalidInputError, match="user_id"):
                await mem.query_memory("anything", "")
            await mem.forget_user(user_id)
            assert await mem.episodes(user_id) == []
            assert await mem.replay() == 0
        assert query_threads and loop_thread not in query_threads  # never on the loop

    asyncio.run(run())


@pytest.mark.neo4j
def test_awaited_connect_gives_a_memory_to_close(neo4j_uri, embedder, tmp_path, user_id):
    async def run() -> None:
        mem = await AsyncMemory.connect(neo4j_uri, buffer_dir=tmp_path / "b", embedder=embedder)
        try:
            await mem.add_message(user_id, "s", "user", "Plan a weekend trip to Kyoto.", T0)
            assert [e.raw_span for e in await mem.flush(user_id)] == [(1, 1)]
        finally:
            await mem.close()
        assert isinstance(mem.sync, Memory)

    asyncio.run(run())
