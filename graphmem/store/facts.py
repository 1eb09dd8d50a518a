"""Semantic store (pipeline stage 4b): fact versions, their typed edges and provenance.

Every version is a ``(:Fact)`` node (so it can carry ``SUPERSEDES`` and
``DERIVED_FROM``); the current one is also the typed edge
``(entity)-[:PREDICATE]->(value)``. One episode's changes go in one transaction, so
the node and edge views never disagree. Callers run them inside a transaction that
locked the user first (``store/lock_users``); each list is sorted by id, so locks inside
a transaction are always taken in the same order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem._models import EpisodeRef, Fact, FactVersion
from graphmem.store.cypher import relationship_type
from graphmem.store.episodes import as_datetime
from graphmem.store.ids import tenant_key
from graphmem.store.runner import QueryRunner, Tx

Store = QueryRunner | Tx


# -- what the store is given: fact versions and the changes they make -------------------

@dataclass(frozen=True)
class NewVersion:
    """A fact version ready to store: normalized ids, names and provenance."""

    fact_id: str
    user_id: str
    entity_id: str
    entity: str
    predicate: str
    value_id: str
    value: str
    negated: bool
    confidence: float
    observed_at: datetime
    valid_until: datetime | None
    episode_id: str
    sentence: str
    message_id: str | None = None  # the message node it was said in


@dataclass(frozen=True)
class CurrentVersion:
    fact_id: str
    value_id: str
    negated: bool
    confidence: float
    valid_from: datetime
    last_verified: datetime
    source_episodes: tuple[str, ...]


@dataclass(frozen=True)
class Create:
    new: NewVersion


@dataclass(frozen=True)
class Reverify:
    fact_id: str
    predicate: str
    confidence: float
    verified_at: datetime
    episode_id: str
    message_id: str | None = None


@dataclass(frozen=True)
class Supersede:
    new: NewVersion
    old_fact_id: str


@dataclass(frozen=True)
class Historic:
    new: NewVersion


Change = Create | Reverify | Supersede | Historic


@dataclass(frozen=True)
class EntityRow:
    """One stored entity of a user: its key, display name, kind and aliases."""

    key: str
    name: str
    kind: str
    aliases: frozenset[str]


def list_entities(runner: Store, user_id: str) -> list[EntityRow]:
    """The user's entities with their aliases (what an alias table is loaded from)."""
    return [EntityRow(r["key"], r["name"], r["kind"] or "thing", frozenset(r["aliases"] or ()))
            for r in runner.read("store/list_entities", user_id=user_id)]


def current_versions(
    runner: Store, keys: Iterable[tuple[str, str, str]]
) -> dict[tuple[str, str, str], list[CurrentVersion]]:
    """Current versions per (user_id, entity_id, predicate), in one read for every user."""
    out: dict[tuple[str, str, str], list[CurrentVersion]] = {}
    wanted = sorted(set(keys))
    if not wanted:
        return out
    rows = runner.read("store/get_current_facts", keys=[
        {"user_id": u, "entity_id": e, "predicate": p} for u, e, p in wanted])
    for r in rows:
        out.setdefault((r["user_id"], r["entity_id"], r["predicate"]), []).append(
            CurrentVersion(r["fact_id"], r["value_id"], bool(r["negated"]),
                           float(r["confidence"]), as_datetime(r["valid_from"]),
                           as_datetime(r["last_verified"]), tuple(r["source_episodes"] or ())))
    return out


def foreign_episodes(tx: Tx, claims: Sequence[dict[str, Any]]) -> set[str]:
    """The episodes of ``claims`` that another raw buffer's are (``store/
    find_foreign_episodes``): the online path's facts read in them are not stored."""
    if not claims:
        return set()
    return set(tx.read("store/find_foreign_episodes", claims=list(claims))[0]["foreign"])


UNCONFIRMED = ("read online from one message; consolidation read the whole episode and "
               "did not find it")


def retract_unconfirmed(tx: Tx, user_id: str, read: Mapping[str, Iterable[str]],
                        at: datetime) -> int:
    """Retract the user's online facts that the whole episodes' reading did not repeat
    (``read``: episode id → the ids of the versions consolidation read in it;
    ``consolidate/retract_unconfirmed_facts`` says which qualify). How many were."""
    if not read:
        return 0
    return len(tx.write("consolidate/retract_unconfirmed_facts", user_id=user_id, at=at,
                        reason=UNCONFIRMED, episodes=[
                            {"event_id": e, "read": sorted(ids)} for e, ids in read.items()]))


def apply_changes(
    runner: Store,
    entities: list[dict],
    maybe_same: list[dict],
    changes: Sequence[Change],
    name: str = "store/apply_fact_changes",
    anchors: Mapping[str, str] | None = None,
) -> None:
    """Entities, new versions, supersessions, typed edges and re-verifications: one tx.
    ``anchors`` (episode id → ``episode_anchor``) mark the episodes the online path begins
    before they are stored."""
    anchors = anchors or {}
    creates = sorted((c.new for c in changes if isinstance(c, Create | Supersede)),
                     key=lambda v: v.fact_id)
    historic = sorted((c.new for c in changes if isinstance(c, Historic)),
                      key=lambda v: v.fact_id)
    steps: list[tuple[str, dict[str, Any]]] = [("store/merge_entities", {"entities": entities})]
    if maybe_same:
        steps.append(("store/mark_maybe_same", {"pairs": maybe_same}))
    facts = [_version_row(v, "current") | {"anchor": anchors.get(v.episode_id)}
             for v in creates]
    facts += [_version_row(v, "superseded") | {"anchor": anchors.get(v.episode_id)}
              for v in historic]
    facts.sort(key=lambda f: f["fact_id"])
    if facts:
        steps.append(("store/create_fact_versions", {"facts": facts}))
    pairs = [{"new_id": c.new.fact_id, "old_id": c.old_fact_id, "at": c.new.observed_at,
              "rel_type": relationship_type(c.new.predicate)}
             for c in sorted((c for c in changes if isinstance(c, Supersede)),
                             key=lambda c: (c.old_fact_id, c.new.fact_id))]
    if pairs:
        steps.append(("store/supersede_facts", {"pairs": pairs}))
    if creates:
        steps.append(("store/merge_current_edges", {"edges": [
            {"fact_id": v.fact_id, "entity_id": v.entity_id, "value_id": v.value_id,
             "rel_type": relationship_type(v.predicate), "confidence": v.confidence,
             "negated": v.negated, "since": v.observed_at} for v in creates]}))
    reverify = sorted((c for c in changes if isinstance(c, Reverify)), key=lambda c: c.fact_id)
    if reverify:
        steps.append(("store/reverify_facts", {"items": [
            {"fact_id": c.fact_id, "confidence": c.confidence, "verified_at": c.verified_at,
             "episode_id": c.episode_id, "message_id": c.message_id,
             "anchor": anchors.get(c.episode_id), "rel_type": relationship_type(c.predicate)}
            for c in reverify]}))
    runner.write_many(steps, name=name)


def _version_row(v: NewVersion, status: str) -> dict[str, Any]:
    return {
        "fact_id": v.fact_id, "user_id": v.user_id, "tenant": tenant_key(v.user_id),
        "entity_id": v.entity_id,
        "entity": v.entity, "predicate": v.predicate, "value_id": v.value_id, "value": v.value,
        "negated": v.negated, "sentence": v.sentence, "confidence": v.confidence,
        "observed_at": v.observed_at, "valid_until": v.valid_until, "episode_id": v.episode_id,
        "message_id": v.message_id,
        "status": status,
    }


def fact_from_record(rec: dict[str, Any], supersedes: str | None = None) -> Fact:
    return Fact(
        fact_id=rec["fact_id"], user_id=rec["user_id"], entity=rec["entity"],
        predicate=rec["predicate"], value=rec["value"], negated=bool(rec.get("negated")),
        sentence=rec.get("sentence") or "", confidence=float(rec["confidence"]),
        status=rec["status"], first_seen=as_datetime(rec["first_seen"]),
        last_verified=as_datetime(rec["last_verified"]), valid_from=_opt(rec.get("valid_from")),
        valid_until=_opt(rec.get("valid_until")),
        source_episodes=tuple(rec.get("source_episodes") or ()), supersedes=supersedes,
        change=rec.get("change"), reason=rec.get("reason"), changed_by=rec.get("changed_by"),
        changed_at=_opt(rec.get("changed_at")),
    )


def list_facts(runner: QueryRunner, user_id: str, entity_id: str | None, predicate: str | None,
               include_superseded: bool) -> list[Fact]:
    rows = runner.read("retrieve/list_facts", user_id=user_id, entity_id=entity_id,
                       predicate=predicate, include_superseded=include_superseded)
    return [fact_from_record(r["fact"], r["supersedes"]) for r in rows]


def fact_history(runner: QueryRunner, fact_id: str, user_id: str) -> list[FactVersion]:
    rows = runner.read("retrieve/fact_history", fact_id=fact_id, user_id=user_id)
    return [
        FactVersion(
            fact=fact_from_record(r["fact"], r["supersedes"]),
            episodes=tuple(
                EpisodeRef(event_id=e["event_id"], session_id=e["session_id"],
                           raw_span=(int(e["raw_span_start"]), int(e["raw_span_end"])),
                           start_time=as_datetime(e["start_time"]))
                for e in sorted(r["episodes"], key=lambda e: str(e.get("start_time")))
                if e.get("session_id") is not None
            ),
        )
        for r in rows
    ]


def _opt(value: Any) -> datetime | None:
    return None if value is None else as_datetime(value)


def delete_user(runner: QueryRunner, user_id: str) -> int:
    """Delete every node of the user (episodes, messages, facts, entities, sessions, a
    worker's lease, the user), in batches; returns how many nodes went."""
    deleted = 0

    def batch(tx: Tx) -> int:
        tx.write("store/lock_users", user_ids=[user_id])
        return int(tx.write("store/delete_user_nodes", user_id=user_id, batch=5000)[0]["n"])

    def user_node(tx: Tx) -> int:
        tx.write("store/lock_users", user_ids=[user_id])
        return int(tx.write("store/delete_user_node", user_id=user_id)[0]["n"])

    while True:
        n = runner.transaction("store/delete_user_nodes", batch)
        deleted += n
        if n == 0:
            return deleted + runner.transaction("store/delete_user_node", user_node)
