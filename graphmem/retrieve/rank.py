"""Ranking (pipeline stage 5b): decay, recency boost, reciprocal-rank fusion. Pure code.

- fact score = similarity × decay × (1.3 if verified ≤ 7 days ago), where decay =
  0.5 ** (days_since_verified / half-life) and the half-life is the predicate's own
  (``graphmem.facts.predicates``: a name, a relative or an allergy lasts years, a job or a
  home months, a budget or a plan weeks). Without a predicate, or for one outside the
  vocabulary, the half-life is 30·ln 2 days: the article's exp(-days / 30) exactly.
- a fact whose confidence, decayed by the same half-life while unverified, falls below
  ``min_confidence`` is shown as reference only, not as a conclusion: a mother's
  favourite flower or an allergy stays trustworthy for months or years, a weekly budget
  not for a week

The boost and its window are ``RetrievalConfig.recency_boost`` / ``boost_days``.
"""

from __future__ import annotations

from datetime import datetime

from graphmem._config import RetrievalConfig
from graphmem.facts.predicates import GENERIC_HALF_LIFE, half_life_days

DEFAULTS = RetrievalConfig()


def days_between(earlier: datetime, later: datetime) -> float:
    return max(0.0, (later - earlier).total_seconds() / 86_400)


def decay(last_verified: datetime, now: datetime, predicate: str | None = None) -> float:
    """How much a fact unverified since ``last_verified`` still weighs at ``now``: 1.0
    when just verified, 0.5 after one half-life of its predicate."""
    half_life = (GENERIC_HALF_LIFE.total_seconds() / 86_400 if predicate is None
                 else half_life_days(predicate))
    return 0.5 ** (days_between(last_verified, now) / half_life)


def fact_score(similarity: float, last_verified: datetime, now: datetime,
               predicate: str | None = None, settings: RetrievalConfig = DEFAULTS) -> float:
    days = days_between(last_verified, now)
    boost = settings.recency_boost if days <= settings.boost_days else 1.0
    return similarity * decay(last_verified, now, predicate) * boost


def effective_confidence(confidence: float, last_verified: datetime, now: datetime,
                         predicate: str | None = None) -> float:
    return confidence * decay(last_verified, now, predicate)


def is_reference_only(confidence: float, last_verified: datetime, now: datetime,
                      min_confidence: float, predicate: str | None = None) -> bool:
    return effective_confidence(confidence, last_verified, now, predicate) < min_confidence
