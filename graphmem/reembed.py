"""Re-embedding a database (``graphmem reembed``): every episode, fact version and message
embedded again with the configured embedder, in pages, with progress — after a change of
embedding model, whose vectors mean nothing beside the old ones.

An index of another dimension is dropped first and built again for the new one; the
database then records the new vector space (``store/set_vector_space``), so ``connect``
accepts the new embedder. Safe to run again after an interruption: it re-embeds from the
start, idempotently."""

from __future__ import annotations

from collections.abc import Callable

from graphmem.embed import Embedder, vector_space
from graphmem.facts.vectors import embed_new_messages
from graphmem.store.episodes import episode_from_record
from graphmem.store.runner import QueryRunner
from graphmem.store.schema import VECTOR_INDEXES, apply_schema

PAGE = 256
Progress = Callable[[int, int], None]


def reembed(runner: QueryRunner, embedder: Embedder,
            on_progress: Progress | None = None) -> dict[str, int]:
    """Embed every episode and fact version with ``embedder``; returns how many of each."""
    for row in runner.read("admin/show_vector_indexes"):
        if row["name"] in VECTOR_INDEXES and row["dimension"] not in (None, embedder.dimension):
            runner.schema_change("schema_drop_vector_index", index=row["name"])
    apply_schema(runner, embedder.dimension)  # indexes of the new dimension; no space check
    counts = runner.read("store/count_embedded")[0]
    total = int(counts["episodes"]) + int(counts["facts"])
    done = {"episodes": 0, "facts": 0}

    def step(kind: str, n: int) -> None:
        done[kind] += n
        if on_progress is not None:
            on_progress(done["episodes"] + done["facts"], total)

    after = ""
    while rows := runner.read("store/list_episodes_to_embed", after=after, limit=PAGE):
        episodes = [episode_from_record(r["episode"]) for r in rows]
        vectors = embedder.embed([e.text for e in episodes])
        runner.write_many([
            ("store/lock_existing_users", {"user_ids": sorted({e.user_id for e in episodes})}),
            ("store/set_episode_embeddings", {"rows": [
                {"event_id": e.event_id, "embedding": v}
                for e, v in zip(episodes, vectors, strict=True)]})],
            name="store/set_episode_embeddings")
        after = episodes[-1].event_id
        step("episodes", len(episodes))
    after = ""
    while rows := runner.read("store/list_facts_to_embed", after=after, limit=PAGE):
        vectors = embedder.embed([r["sentence"] or "" for r in rows])
        runner.write_many([
            ("store/lock_existing_users", {"user_ids": sorted({r["user_id"] for r in rows})}),
            ("consolidate/set_fact_embeddings", {"rows": [
                {"fact_id": r["fact_id"], "embedding": v}
                for r, v in zip(rows, vectors, strict=True)]})],
            name="consolidate/set_fact_embeddings")
        after = rows[-1]["fact_id"]
        step("facts", len(rows))
    runner.write("store/mark_messages_pending")  # their vectors are consolidation's to make
    embed_new_messages(runner, embedder)
    runner.write("store/set_vector_space", space=vector_space(embedder),
                 dimension=embedder.dimension)
    return done
