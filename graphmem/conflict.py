"""Conflict handling (pipeline stage 3c): what a new candidate does to stored versions.

Facts conflict on the normalized key: ``(entity, predicate)`` for single-valued
predicates, ``(entity, predicate, value)`` for multi-valued ones. Against the
*current* version for that key a candidate either

- creates the first version (``Create``),
- re-verifies it — same value and polarity from another episode: ``last_verified``
  moves, confidence rises, a new ``DERIVED_FROM`` (``Reverify``),
- does nothing — the same episode again, so re-running is idempotent (``None``),
- replaces it — a different value, or a negation flip: the new version
  ``SUPERSEDES`` the old, which becomes ``superseded`` (``Supersede``),
- or, when the evidence is older than the current version, is kept as history
  without touching the current one (``Historic``). Pure code, no I/O.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from datetime import datetime


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


def fact_version_id(user_id: str, entity_id: str, predicate: str, value_id: str,
                    negated: bool, episode_id: str) -> str:
    """Deterministic: the same fact from the same episode is the same version."""
    raw = f"{user_id}\0{entity_id}\0{predicate}\0{value_id}\0{negated}\0{episode_id}"
    return "fact_" + hashlib.sha1(raw.encode()).hexdigest()[:16]


def reinforced(old: float, new: float) -> float:
    """Confidence after independent confirming evidence (half-weight noisy-or, ≤ 0.99)."""
    return round(min(0.99, old + (1 - old) * new * 0.5), 4)


def decide(candidate: NewVersion, current: CurrentVersion | None) -> Change | None:
    """The change a candidate makes against the current version of its key."""
    if current is None:
        return Create(candidate)
    same = current.value_id == candidate.value_id and current.negated == candidate.negated
    if same:
        if candidate.episode_id in current.source_episodes:
            return None
        return Reverify(
            current.fact_id,
            candidate.predicate,
            reinforced(current.confidence, candidate.confidence),
            max(current.last_verified, candidate.observed_at),
            candidate.episode_id,
            candidate.message_id,
        )
    if candidate.observed_at < current.valid_from:  # older evidence, arriving late
        return Historic(replace(candidate, valid_until=current.valid_from))
    return Supersede(candidate, current.fact_id)
