"""Ranking (pipeline stage 5b): decay, recency boost, reciprocal-rank fusion. Pure code.

- fact score = similarity × exp(-days_since_verified / 30) × (1.3 if verified ≤ 7 days ago)
- a fact whose confidence, decayed by time unverified, falls below ``min_confidence``
  is shown as reference only, not as a conclusion
- channels (vector, full-text) are fused with reciprocal-rank fusion (k = 60)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime

DECAY_DAYS = 30.0
BOOST_DAYS = 7.0
RECENCY_BOOST = 1.3
CONFIDENCE_DECAY_DAYS = 90.0
RRF_K = 60


def days_between(earlier: datetime, later: datetime) -> float:
    return max(0.0, (later - earlier).total_seconds() / 86_400)


def fact_score(similarity: float, last_verified: datetime, now: datetime) -> float:
    days = days_between(last_verified, now)
    boost = RECENCY_BOOST if days <= BOOST_DAYS else 1.0
    return similarity * math.exp(-days / DECAY_DAYS) * boost


def effective_confidence(confidence: float, last_verified: datetime, now: datetime) -> float:
    return confidence * math.exp(-days_between(last_verified, now) / CONFIDENCE_DECAY_DAYS)


def is_reference_only(confidence: float, last_verified: datetime, now: datetime,
                      min_confidence: float) -> bool:
    return effective_confidence(confidence, last_verified, now) < min_confidence


def rrf(*rankings: Sequence[str], k: int = RRF_K) -> list[tuple[str, float]]:
    """Fuse ranked id lists: score(id) = Σ 1 / (k + rank), best first."""
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
