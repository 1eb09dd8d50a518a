"""Corrections a person makes (pipeline stage 5, beside consolidation): retract a fact,
correct a fact's value, delete an episode and what it proved.

Nothing is silently deleted from a version chain:

- **retract** — a new version heads the chain with status ``retracted``, saying who, when
  and why; the version it took back is ``superseded`` (``correct/retract_fact``);
- **correct** — a new ``current`` version with the value given (normalized like any value:
  "Tulips" finds the user's entity ``tulip``), confidence 1.0, saying who, when and why,
  ``SUPERSEDES`` the wrong one; the typed edge moves (``correct/correct_fact``);
- **delete an episode** — its messages and the episode go; every version derived from it
  loses it as evidence, and a current version left with no evidence at all expires, saying
  why (``correct/remove_episode_evidence``, ``correct/delete_episode``). A version made by a
  correction has the person as its evidence and stays.

Only a current version is retracted or corrected (an older one names the current one to
use). Each change is one transaction that locks the user first (``store/lock_users``), like
every fact write, so it never races consolidation.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from graphmem._errors import InvalidInputError
from graphmem._models import Fact
from graphmem.embed import Embedder
from graphmem.facts.normalize import USER_KEY, alias_table, clean_surfaces, entity_rows
from graphmem.facts.predicates import predicate_info, sentence
from graphmem.store import facts as fact_store
from graphmem.store.cypher import relationship_type
from graphmem.store.runner import QueryRunner, Tx
from graphmem.text.language import is_chinese

_EXACT_KINDS = {"amount", "date"}  # never merged with a look-alike (as consolidation)


@dataclass(frozen=True)
class EpisodeRemoval:
    """What deleting an episode did in the graph."""

    session_id: str
    raw_span: tuple[int, int]
    messages: int  # Message nodes deleted
    facts_expired: tuple[str, ...]  # current versions left without evidence
    facts_updated: tuple[str, ...]  # versions that lost this episode but keep other evidence


def new_fact_id() -> str:
    return "fact_" + uuid.uuid4().hex[:16]


def retract(runner: QueryRunner, user_id: str, fact_id: str, reason: str, by: str,
            at: datetime) -> Fact:
    """Take a current fact version back (see the module docstring); returns the retraction."""

    def work(tx: Tx) -> dict[str, Any]:
        tx.write("store/lock_users", user_ids=[user_id])
        _current(tx, user_id, fact_id, "retract")
        [row] = tx.write("correct/retract_fact", user_id=user_id, fact_id=fact_id,
                         new_id=new_fact_id(), reason=reason, by=by, at=at)
        return row["fact"]

    return fact_store.fact_from_record(runner.transaction("correct/retract_fact", work),
                                       supersedes=fact_id)


def correct(runner: QueryRunner, embedder: Embedder, user_id: str, fact_id: str, value: str,
            reason: str, by: str, at: datetime, merge_score: float = 92.0,
            review_score: float = 80.0) -> Fact:
    """Give a current fact version another value (see the module docstring); returns the
    new current version."""
    clean_surfaces([value])  # spaCy's lemmas before the user's lock, as consolidation does

    def work(tx: Tx) -> dict[str, Any]:
        tx.write("store/lock_users", user_ids=[user_id])
        row = _current(tx, user_id, fact_id, "correct")
        old = row["fact"]
        kind = row["value_kind"] or "thing"
        table = alias_table(user_id, fact_store.list_entities(tx, user_id), merge_score,
                            review_score)
        resolved = table.resolve(value, kind, fuzzy=kind not in _EXACT_KINDS)
        if resolved.entity_id == old["value_id"]:
            raise InvalidInputError(
                f"fact {fact_id!r} already says {old['value']!r} ({value!r} names the same "
                "thing); nothing to correct")
        _no_twin(tx, user_id, old, resolved.entity_id)
        tx.write("store/merge_entities", entities=entity_rows(user_id, table, [resolved]))
        chinese = is_chinese(old.get("sentence") or "") or is_chinese(value)
        who = (("用户" if chinese else "the user") if row["subject_key"] == USER_KEY
               else old["entity"])
        said = sentence(who, old["predicate"], value, bool(old.get("negated")), chinese)
        validity = predicate_info(old["predicate"]).validity
        [made] = tx.write(
            "correct/correct_fact", user_id=user_id, fact_id=fact_id, new_id=new_fact_id(),
            value_id=resolved.entity_id, value=value, sentence=said,
            valid_until=at + validity if validity else None, reason=reason, by=by, at=at,
            rel_type=relationship_type(old["predicate"]),
            embedding=list(embedder.embed([said])[0]))
        tx.write("store/set_facts_revision", user_id=user_id, rev=uuid.uuid4().hex)
        return made["fact"]

    return fact_store.fact_from_record(runner.transaction("correct/correct_fact", work),
                                       supersedes=fact_id)


def delete_episode(runner: QueryRunner, user_id: str, event_id: str, by: str,
                   at: datetime) -> EpisodeRemoval:
    """Delete a stored episode of the user with its messages; the facts it proved lose it
    as evidence (see the module docstring)."""

    def work(tx: Tx) -> EpisodeRemoval:
        tx.write("store/lock_users", user_ids=[user_id])
        facts = tx.write("correct/remove_episode_evidence", user_id=user_id,
                         event_id=event_id, at=at, by=by,
                         reason=f"its only evidence, episode {event_id}, was deleted")
        gone = tx.write("correct/delete_episode", user_id=user_id, event_id=event_id)
        if not gone:
            raise InvalidInputError(f"no episode {event_id!r} for user {user_id!r} "
                                    "(episode ids are in `graphmem episodes USER`)")
        [row] = gone
        return EpisodeRemoval(
            session_id=row["session_id"], raw_span=(int(row["first"]), int(row["last"])),
            messages=int(row["deleted"]),
            facts_expired=tuple(f["fact_id"] for f in facts if f["expired"]),
            facts_updated=tuple(f["fact_id"] for f in facts if not f["expired"]))

    return runner.transaction("correct/delete_episode", work)


def _current(tx: Tx, user_id: str, fact_id: str, verb: str) -> dict[str, Any]:
    """The fact's row, if it is the user's current version; else an error naming the
    version to use instead."""
    rows = tx.read("correct/get_fact_for_change", user_id=user_id, fact_id=fact_id)
    if not rows:
        raise InvalidInputError(f"no fact with id {fact_id!r} for user {user_id!r}")
    row = rows[0]
    status = row["fact"]["status"]
    if status == "current":
        return row
    if row["head_status"] == "current" and row["head_id"] != fact_id:
        raise InvalidInputError(
            f"fact {fact_id!r} is {status}; its current version is {row['head_id']!r}: "
            f"{verb} that one")
    if row["head_status"] == "retracted" and row["head_id"] != fact_id:
        raise InvalidInputError(f"fact {fact_id!r} was retracted ({row['head_id']!r}): "
                                f"there is nothing to {verb}")
    raise InvalidInputError(f"fact {fact_id!r} is {status}, no longer current: there is "
                            f"nothing to {verb} (`history` shows its chain)")


def _no_twin(tx: Tx, user_id: str, old: dict[str, Any], value_id: str) -> None:
    """A correction may not duplicate another current version (same entity, predicate,
    value and polarity): retracting the wrong one is the change meant."""
    current = fact_store.current_versions(tx, [(user_id, old["entity_id"], old["predicate"])])
    twins: Sequence[fact_store.CurrentVersion] = current.get(
        (user_id, old["entity_id"], old["predicate"]), [])
    for twin in twins:
        if (twin.value_id == value_id and twin.negated == bool(old.get("negated"))
                and twin.fact_id != old["fact_id"]):
            raise InvalidInputError(
                f"fact {twin.fact_id!r} already says that; retract {old['fact_id']!r} "
                "instead of correcting it")
