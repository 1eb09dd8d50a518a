"""Conflict handling (pipeline stage 3c): what a new candidate does to stored versions.

Which current versions a candidate speaks to (``rivals``): for a multi-valued
predicate, the version of the same value (likes roses ≠ likes tulips; "not roses"
flips "roses"); for a single-valued one, a new value replaces the value in use (a new
job, a new home, "switch that to Signal"), while a negation speaks only of its own
value — "not email" does not replace "Slack", it only ends "email" — and a value said
again ends its own negation (不喜欢微信 → 加我微信). Against the rival of the same value
(else the value in use) a candidate either

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
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol, TypeVar

from graphmem.facts.predicates import predicate_info
from graphmem.store.facts import (
    Change,
    Create,
    CurrentVersion,
    Historic,
    NewVersion,
    Reverify,
    Supersede,
)

__all__ = ["Change", "Create", "CurrentVersion", "Historic", "NewVersion", "Reverify",
           "Supersede", "decide", "decide_among", "fact_version_id", "reinforced", "rivals"]


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


class _Valued(Protocol):
    @property
    def value_id(self) -> str: ...
    @property
    def negated(self) -> bool: ...


V = TypeVar("V", bound=_Valued)


def rivals(candidate: _Valued, current: Sequence[V], multi_valued: bool) -> list[V]:
    """The current versions of one (entity, predicate) that ``candidate`` speaks to, the
    one of its own value first."""
    same = [c for c in current if c.value_id == candidate.value_id]
    if multi_valued or candidate.negated:
        return same
    return same + [c for c in current if c.value_id != candidate.value_id and not c.negated]


def decide_among(candidate: NewVersion, current: Sequence[CurrentVersion],
                 multi_valued: bool) -> list[Change]:
    """The changes a candidate makes to the current versions of its (entity, predicate):
    nothing, a re-verification, a new version (superseding every rival it replaces), or
    history."""
    newest_first = sorted(current, key=lambda c: c.valid_from, reverse=True)
    found = rivals(candidate, newest_first, multi_valued)
    first = decide(candidate, found[0] if found else None)
    if not isinstance(first, Supersede):
        return [] if first is None else [first]
    others = [Supersede(candidate, c.fact_id) for c in found[1:]
              if candidate.observed_at >= c.valid_from]
    return [first, *others]


def decide_into(candidate: NewVersion, current: list[CurrentVersion]) -> list[Change]:
    """``decide_among`` for the candidate's key, ``current`` then updated as the changes
    leave it (the versions superseded gone, re-verified ones renewed, the new one added),
    for the next candidate of the same key in one consolidation."""
    made = decide_among(candidate, current, predicate_info(candidate.predicate).multi_valued)
    gone = {c.old_fact_id for c in made if isinstance(c, Supersede)}
    verified = {c.fact_id: c for c in made if isinstance(c, Reverify)}
    current[:] = [_reverified(cv, verified.get(cv.fact_id)) for cv in current
                  if cv.fact_id not in gone]
    if any(isinstance(c, Create | Supersede) for c in made):
        current.append(CurrentVersion(
            candidate.fact_id, candidate.value_id, candidate.negated, candidate.confidence,
            candidate.observed_at, candidate.observed_at, (candidate.episode_id,)))
    return made


def _reverified(current: CurrentVersion, change: Reverify | None) -> CurrentVersion:
    """A current version as a re-verification leaves it (what reverify_facts writes)."""
    if change is None:
        return current
    episodes = current.source_episodes
    return replace(current, confidence=change.confidence,
                   last_verified=max(current.last_verified, change.verified_at),
                   source_episodes=episodes + ((change.episode_id,)
                                               if change.episode_id not in episodes else ()))
