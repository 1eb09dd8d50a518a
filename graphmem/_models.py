"""Typed inputs and results, validated at the API boundary (pydantic)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

Role = Literal["user", "assistant", "tool"]
Route = Literal["episodic", "semantic", "both"]
FactStatus = Literal["current", "superseded", "expired"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True)


class Message(_Frozen):
    """One turn as written to the raw buffer; ``msg_id`` is per session, from 1 up."""

    msg_id: int
    user_id: str
    session_id: str
    role: Role
    content: str
    ts: datetime


class MessageIn(BaseModel):
    """One turn as a caller hands it to ``add_messages``."""

    user_id: str = Field(min_length=1, max_length=256)
    session_id: str = Field(min_length=1, max_length=256)
    role: Role
    content: str
    ts: datetime | None = None

    @field_validator("ts")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("ts must be timezone-aware (e.g. datetime.now(timezone.utc))")
        return value


class Action(_Frozen):
    role: Role
    content: str
    ts: datetime


class Episode(_Frozen):
    """A closed, goal-bounded piece of one session."""

    event_id: str
    user_id: str
    session_id: str
    start_time: datetime
    end_time: datetime
    participants: tuple[str, ...]
    goal: str
    actions: tuple[Action, ...]
    result: str
    raw_span: tuple[int, int]
    semantics_refs: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """What is embedded: goal, result and a short summary of the user's actions
        (the article: embed goal, result and an actions summary, not the raw turns)."""
        asks = " ".join(a.content[:80] for a in self.actions if a.role == "user")
        return f"{self.goal}. {self.result}. {asks}"[:320]


class Fact(_Frozen):
    """One version of a fact ``(entity)-[predicate]->(value)``."""

    fact_id: str
    user_id: str
    entity: str
    predicate: str
    value: str
    negated: bool = False
    sentence: str
    confidence: float
    status: FactStatus
    first_seen: datetime
    last_verified: datetime
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    source_episodes: tuple[str, ...] = ()
    supersedes: str | None = None


class FactVersion(_Frozen):
    """A fact version with where it came from, as ``history()`` returns it."""

    fact: Fact
    episodes: tuple[EpisodeRef, ...]


class EpisodeRef(_Frozen):
    event_id: str
    session_id: str
    raw_span: tuple[int, int]
    start_time: datetime


class EpisodeHit(_Frozen):
    event_id: str
    session_id: str
    summary: str
    start_time: datetime
    end_time: datetime
    raw_span: tuple[int, int]
    score: float


class FactHit(_Frozen):
    fact_id: str
    entity: str
    predicate: str
    value: str
    negated: bool = False
    confidence: float
    score: float
    reference_only: bool = False
    source_episodes: tuple[str, ...]
    session_ids: tuple[str, ...]
    raw_spans: tuple[tuple[int, int], ...] = ()
    sentence: str = ""
    status: FactStatus = "current"


class TimeWindow(_Frozen):
    since: datetime | None = None
    until: datetime | None = None
    expression: str | None = None


class MemoryContext(_Frozen):
    """What ``query_memory`` returns: the prompt block and the hits behind it."""

    text: str
    route: Route
    window: TimeWindow | None = None
    episodes: tuple[EpisodeHit, ...] = ()
    facts: tuple[FactHit, ...] = ()
    tokens: int = 0
    token_budget: int = 0


FactVersion.model_rebuild()
