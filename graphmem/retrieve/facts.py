"""Facts (the semantic side of recall): the user's facts true at ``now`` that speak to the
question — sharing a word with it, of a predicate it names, or very close in meaning —
above an absolute and a relative floor, best first by similarity × decay × recency boost
(``rank``). Pure code over the rows the channels read."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from graphmem._config import RetrievalConfig
from graphmem._models import FactHit
from graphmem.facts.predicates import PREDICATES, predicates_in
from graphmem.retrieve.channels import true_at
from graphmem.retrieve.question import Question
from graphmem.retrieve.rank import fact_score, is_reference_only
from graphmem.retrieve.router import is_request
from graphmem.store.episodes import as_datetime
from graphmem.text import topics
from graphmem.text.words import content_words

# What a request for help (recommend me a show, 帮我排个行程, 推荐几种搭配) asks of the user
# without naming it: their tastes, what they cannot eat, their health.
ASKED_BY_A_REQUEST = frozenset({"likes", "allergic_to", "dietary_restriction", "diet",
                                "has_condition"})


class FactRetriever:
    """Which candidate facts earn a line, and in what order (``RetrievalConfig``:
    min_fact_similarity, relative_floor, strong_similarity, generic_floor,
    predicate_bonus, request_bonus, no_embedding_similarity)."""

    def __init__(self, config: RetrievalConfig) -> None:
        self.config = config

    def hits(self, rows: Sequence[dict[str, Any]], q: Question) -> list[FactHit]:
        """Facts that speak to the question, best first, at most ``q.top_k_facts``."""
        if not rows or not q.top_k_facts:
            return []
        c = self.config
        asked = predicates_in(q.query)
        # (a request that names what it needs — 我在哪家公司上班 帮我填个信息 — wants that)
        implied = ASKED_BY_A_REQUEST if is_request(q.query) and not asked else frozenset()
        names = {row["fact"]["entity"] for row in rows}
        wanted = content_words(q.query, names)
        named = topics.asked(frozenset(wanted))
        scored = []
        for row in rows:
            # (the user's own: someone else's tastes count when the request names the taste)
            mine = implied if row["fact"]["entity"] == "user" else frozenset()
            of_topic = any(topics.said(row["fact"]["value"], t) for t in named)
            if ((of_topic or self._on_topic(row, wanted, names, asked | mine, q))
                    and self._worth_a_line(row, q)):
                scored.append((row, self.similarity_of(row, asked, q, mine, of_topic)))
        best = max((sim for _, sim in scored if sim >= c.min_fact_similarity), default=0.0)
        floor = max(c.min_fact_similarity, c.relative_floor * best)
        hits = [self._hit(row, sim, q) for row, sim in scored if sim >= floor]
        return sorted(hits, key=lambda h: (-h.score, h.fact_id))[:q.top_k_facts]

    def similarity_of(self, row: dict[str, Any], asked: set[str], q: Question,
                      implied: frozenset[str] = frozenset(), of_topic: bool = False
                      ) -> float:
        """Cosine (on the reference scale), plus a bonus when the question names the
        predicate (``request_bonus`` when a request for help implies it), and one more
        when it names a topic the value is of ("what hobbies…" and likes 象棋, not likes
        点茯茶: ``topics``)."""
        cosine = cosine_of(row, q)
        predicate = row["fact"]["predicate"]
        return ((self.config.no_embedding_similarity if cosine is None else cosine)
                + (self.config.predicate_bonus if predicate in asked else
                   self.config.request_bonus if predicate in implied else 0.0)
                + (self.config.predicate_bonus if of_topic else 0.0))

    def _on_topic(self, row: dict[str, Any], wanted: set[str], names: set[str],
                  asked: set[str], q: Question) -> bool:
        """A fact speaks to the question when it shares a content word with it (names
        aside: "Jon met investors" is not about Jon's trip to Rome), is of a predicate the
        question names, or is very close in meaning."""
        fact = row["fact"]
        cosine = cosine_of(row, q)
        return (bool(wanted & content_words(fact.get("sentence") or fact["value"], names))
                or fact["predicate"] in asked
                or (cosine is not None and cosine >= self.config.strong_similarity))

    def _worth_a_line(self, row: dict[str, Any], q: Question) -> bool:
        """A fact of the canonical vocabulary (a preference, a job, an allergy...) earns a
        line of its own; a generic reading ("Melanie loves camping trips") is mostly the
        message it came from in other words — it points the passages at that message, and
        earns a line only when it is very close to the question."""
        cosine = cosine_of(row, q)
        return row["fact"]["predicate"] in PREDICATES or (
            cosine is not None and cosine >= self.config.generic_floor)

    def _hit(self, row: dict[str, Any], similarity: float, q: Question) -> FactHit:
        fact = row["fact"]
        verified = as_datetime(fact["last_verified"])
        episodes = [e for e in row["episodes"] if e.get("session_id") is not None]
        return FactHit(
            fact_id=fact["fact_id"], entity=fact["entity"], predicate=fact["predicate"],
            value=fact["value"], negated=bool(fact.get("negated")),
            confidence=float(fact["confidence"]),
            score=fact_score(similarity, verified, q.now, fact["predicate"], self.config),
            reference_only=is_reference_only(float(fact["confidence"]), verified, q.now,
                                             q.min_confidence, fact["predicate"])
            or not true_at(fact, q.now),
            source_episodes=tuple(e["event_id"] for e in episodes),
            session_ids=tuple(e["session_id"] for e in episodes),
            raw_spans=tuple((int(e["raw_span_start"]), int(e["raw_span_end"]))
                            for e in episodes),
            source_messages=tuple(fact.get("source_messages") or ()),
            outdated_messages=tuple(row.get("outdated_messages") or ()),
            sentence=fact.get("sentence") or "", status=fact["status"],
        )


def cosine_of(row: dict[str, Any], q: Question) -> float | None:
    """The cosine of the fact and the question (Neo4j reports (1 + cos) / 2) on the
    reference scale (``Question.relatedness``); None for a fact not embedded yet."""
    if row["similarity"] is None:
        return None
    return q.relatedness(2 * float(row["similarity"]) - 1)
