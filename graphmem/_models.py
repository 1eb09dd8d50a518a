"""Typed inputs and results, validated at the API boundary (pydantic)."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator

Role = Literal["user", "assistant", "tool"]
Route = Literal["episodic", "semantic", "both"]
FactStatus = Literal["current", "superseded", "expired", "retracted"]
# Why a version was made or ended by a person rather than by what was said: a correction, a
# retraction, or an episode deleted that was its only evidence (with reason, who and when).
FactChange = Literal["corrected", "retracted", "evidence_deleted", "unconfirmed"]


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


# What graphmem stores: a timestamp Neo4j and every read can hold, and text that is text.
EARLIEST_TS = datetime(1900, 1, 1, tzinfo=UTC)
LATEST_TS = datetime(2200, 1, 1, tzinfo=UTC)
MAX_MESSAGE_CHARS = 2_000_000
MAX_ID_CHARS = 256
# A question (query_memory, explain_query, search_episodes) is at most this long: its cost
# grows with its words, and no question needs more (the embedder reads 256 tokens of it).
MAX_QUESTION_CHARS = 10_000
MAX_NAME_CHARS = 1_000  # an entity or predicate asked for (facts(entity=..., predicate=...))
MAX_TOP_K = 1_000  # top_k_episodes, top_k_facts, search_episodes' k


def check_text(value: str, what: str) -> str:
    """``value`` if it can be stored as UTF-8 (no lone surrogates), else a clear error."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise ValueError(f"{what} is not valid text ({exc.reason} at position {exc.start})"
                         ) from None
    return value


def check_id(value: str, what: str) -> str:
    """An id: 1–256 characters of valid text, not blank, no control characters."""
    check_text(value, what)
    if not value.strip():
        raise ValueError(f"{what} is empty")
    if len(value) > MAX_ID_CHARS:
        raise ValueError(f"{what} is longer than {MAX_ID_CHARS} characters")
    if any(unicodedata.category(ch) == "Cc" for ch in value):
        raise ValueError(f"{what} contains a control character")
    return value


def fixed_offset(value: datetime) -> datetime:
    """``value`` with a fixed UTC offset of whole minutes: a zone name
    (``ZoneInfo("Europe/Paris")``, ``"UTC"``) becomes the offset it has at that instant.
    Neo4j stores a zoned value, which never equals an offset one, and the driver's packer
    has crashed the process on them; it refuses an offset with seconds (local mean time,
    before 1940 in some zones: Kolkata +05:21:10), which goes to the nearest minute — the
    same instant, told in that offset."""
    offset = value.utcoffset()
    if offset is None:
        return value
    if offset.seconds % 60 or offset.microseconds:
        minutes = round(offset.total_seconds() / 60)
        return value.astimezone(timezone(timedelta(minutes=minutes)))
    if isinstance(value.tzinfo, timezone):
        return value
    return value.astimezone(timezone(offset))


def check_time(value: datetime, what: str) -> datetime:
    """An aware datetime inside the supported range [1900, 2200), with a fixed UTC offset
    (``fixed_offset``)."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{what} must be timezone-aware (e.g. datetime.now(timezone.utc))")
    if not EARLIEST_TS <= value < LATEST_TS:
        raise ValueError(f"{what} {value.isoformat()} is outside the supported range "
                         "1900-01-01 to 2200-01-01")
    return fixed_offset(value)


class MessageIn(BaseModel):
    """One turn as a caller hands it to ``add_messages``, checked at the door."""

    user_id: str
    session_id: str
    role: Role
    content: str
    ts: datetime | None = None

    @field_validator("user_id", "session_id")
    @classmethod
    def _id(cls, value: str, info: ValidationInfo) -> str:
        return check_id(value, info.field_name or "id")

    @field_validator("content")
    @classmethod
    def _content(cls, value: str) -> str:
        check_text(value, "content")
        if not value.strip():
            raise ValueError("content is empty")
        if len(value) > MAX_MESSAGE_CHARS:
            raise ValueError(f"content has {len(value):,} characters; the limit is "
                             f"{MAX_MESSAGE_CHARS:,} (split long documents before adding)")
        return value

    @field_validator("ts")
    @classmethod
    def _time(cls, value: datetime | None) -> datetime | None:
        return None if value is None else check_time(value, "ts")


class Action(_Frozen):
    role: Role
    content: str
    ts: datetime
    msg_id: int = 0  # the message it is (0: unknown, e.g. episodes stored before it was kept)


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


SessionKey = tuple[str, str]  # (user_id, session_id)


@dataclass(frozen=True)
class ClosedEpisode:
    """An episode as the splitter closes it, with every raw message of its span (fillers
    too) — what the store keeps as the episode's messages."""

    episode: Episode
    messages: tuple[Message, ...]


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
    change: FactChange | None = None  # set when a person changed it (see FactChange)
    reason: str | None = None
    changed_by: str | None = None
    changed_at: datetime | None = None


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
    source_messages: tuple[str, ...] = ()  # Message node ids it was said in
    outdated_messages: tuple[str, ...] = ()  # where the versions it replaced were said
    sentence: str = ""
    status: FactStatus = "current"


class IngestStats(_Frozen):
    """What the write path did since ``connect``: episodes written, time spent embedding
    and writing, outages waited out, episodes Neo4j refused (their messages stay in the
    raw buffer), the backlog still waiting, what buffer recovery had to cut or skip, and
    the transactions the driver retried after a transient failure, by Neo4j error code
    (graphmem orders its locks so that a ``DeadlockDetected`` there would be a bug)."""

    episodes_written: int
    batches: int
    embed_s: float
    write_s: float
    outages: int
    backlog: int
    rejected: tuple[str, ...] = ()
    # episodes not written because their user was forgotten meanwhile (here or by another
    # process); their messages left the raw buffer
    forgotten: tuple[str, ...] = ()
    buffer_recovered: tuple[str, ...] = ()
    retried: dict[str, int] = {}


class EpisodeDeletion(_Frozen):
    """What ``delete_episode`` did: the episode's messages deleted from the graph, the fact
    versions that lost it as evidence (expired when it was their only evidence), the raw
    buffer lines removed, and every place that still holds its raw messages (another
    writer's session, another raw buffer), with what to do."""

    event_id: str
    session_id: str
    raw_span: tuple[int, int]
    messages: int
    facts_expired: tuple[str, ...] = ()
    facts_updated: tuple[str, ...] = ()
    raw_messages: int = 0
    not_reached: tuple[str, ...] = ()


class ForgetReport(_Frozen):
    """What ``forget_user`` did: graph nodes deleted, raw messages and sessions removed
    from this Memory's raw buffer, and every place it could not reach — a session another
    writer owns, a raw buffer elsewhere that wrote the user's sessions — with what to do."""

    user_id: str
    nodes: int
    raw_messages: int = 0
    raw_sessions: int = 0
    not_reached: tuple[str, ...] = ()


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


class ChannelMessage(_Frozen):
    """A message a passage channel found, at its rank there (1: best)."""

    rank: int
    session_id: str
    msg_id: int
    ts: datetime
    text: str


class Channel(_Frozen):
    """One passage channel of a question: what it found, best first, and how much its
    ranks count in the fusion."""

    name: str
    weight: float
    messages: tuple[ChannelMessage, ...]


class RankedMessage(_Frozen):
    """A message in the fused ranking: its score (reciprocal-rank fusion of the channels,
    × (1 + coverage weight × coverage), × the session decay when one is set), its rank
    in each channel that found it, and whether the context shows it."""

    session_id: str
    msg_id: int
    ts: datetime
    text: str
    score: float
    ranks: dict[str, int]
    coverage: float  # its share of the question's words (rarer ones count more), 0-1
    shown: bool


class QueryExplanation(_Frozen):
    """What ``explain_query`` returns: the context ``query_memory`` gives for the same
    arguments, and how it was chosen — each channel's messages, the fused ranking, and the
    facts that were candidates (``context.facts`` are the ones shown)."""

    context: MemoryContext
    channels: tuple[Channel, ...]
    ranked: tuple[RankedMessage, ...]
    candidate_facts: tuple[FactHit, ...]


FactVersion.model_rebuild()
