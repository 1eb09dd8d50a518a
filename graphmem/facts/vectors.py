"""Vectors made off the request path by consolidation: new fact versions' sentences, and the
messages of stored episodes (the nearest-messages channel of recall)."""

from __future__ import annotations

from graphmem.embed import Embedder
from graphmem.store.runner import QueryRunner
from graphmem.text.chat import is_filler

# of a message, what is embedded: a long reply's opening says what it is about, and the
# embedder's cost grows with the length (its window is cut there anyway)
MESSAGE_EMBED_CHARS = 600


def embed_new_messages(runner: QueryRunner, embedder: Embedder, user_id: str | None = None,
                       episodes: int = 32) -> int:
    """Embed the messages of stored episodes not embedded yet (fillers aside), a few
    episodes at a time: off the ingest path, so ingest stays as fast as the episode
    writer. The text embedded is the message's first ``MESSAGE_EMBED_CHARS``."""
    done = 0
    while rows := runner.read("consolidate/list_messages_to_embed", limit=episodes,
                              user_id=user_id):
        said = [(m["message_id"], m["content"][:MESSAGE_EMBED_CHARS]) for r in rows
                for m in r["messages"] if not is_filler(m["content"])]
        vectors = embedder.embed([text for _, text in said]) if said else []
        runner.write_many([
            ("store/lock_existing_users", {"user_ids": sorted({r["user_id"] for r in rows})}),
            ("consolidate/set_message_embeddings", {
                "rows": [{"message_id": mid, "embedding": v}
                         for (mid, _), v in zip(said, vectors, strict=True)],
                "event_ids": [r["event_id"] for r in rows]})],
            name="consolidate/set_message_embeddings")
        done += len(said)
    return done


def embed_new_facts(runner: QueryRunner, embedder: Embedder, batch: int = 256) -> int:
    """Embed fact versions still without a vector (new, or made on the online path)."""
    done = 0
    while True:
        rows = runner.read("consolidate/list_unembedded_facts", limit=batch)
        if not rows:
            return done
        rows.sort(key=lambda r: r["fact_id"])
        vectors = embedder.embed([r["sentence"] for r in rows])
        runner.write_many([
            ("store/lock_existing_users", {"user_ids": sorted({r["user_id"] for r in rows})}),
            ("consolidate/set_fact_embeddings", {"rows": [
                {"fact_id": r["fact_id"], "embedding": v}
                for r, v in zip(rows, vectors, strict=True)]}),
        ], name="consolidate/set_fact_embeddings")
        done += len(rows)

