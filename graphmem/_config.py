"""Settings: small immutable objects with module-level defaults.

``MemoryConfig`` reads ``GRAPHMEM_*`` environment variables (pydantic-settings), so
``Memory.connect()`` with no arguments works against a local Neo4j.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import unquote, urlsplit, urlunsplit

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from graphmem._errors import ConfigError

URI_SCHEMES = ("bolt", "bolt+s", "bolt+ssc", "neo4j", "neo4j+s", "neo4j+ssc")


def default_neo4j_uri() -> str:
    """Local Neo4j; follows ``NEO4J_BOLT_PORT`` like ``scripts/neo4j-local`` does."""
    return f"bolt://127.0.0.1:{os.environ.get('NEO4J_BOLT_PORT', '7687')}"
_URI_PASSWORD = re.compile(r"(://[^/@:]*:)[^/@]*@")


def redact_uri(uri: str) -> str:
    """The URI as it may be shown or logged: a password in it becomes ``***``."""
    return _URI_PASSWORD.sub(r"\1***@", uri)


def split_uri_credentials(uri: str) -> tuple[str, str | None, str | None]:
    """``bolt://user:pass@host`` → (``bolt://host``, user, pass); the driver takes
    credentials only as ``auth``, never in the URI."""
    parts = urlsplit(uri)
    if "@" not in parts.netloc:
        return uri, None, None
    userinfo, host = parts.netloc.rsplit("@", 1)
    user, _, password = userinfo.partition(":")
    clean = urlunsplit(parts._replace(netloc=host))
    return clean, unquote(user) or None, unquote(password) if password else None


def settings_problems(exc: ValidationError) -> str:
    """What is wrong with the settings, without the values given (they may hold a
    password)."""
    return "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'settings'}: {e['msg']}"
                     for e in exc.errors())


DEFAULT_EMBEDDING_MODEL = "all-MiniLM-L6-v2"
# all-MiniLM-L6-v2 three ways, same 384-d vectors: sentence-transformers on torch (fp32), or
# onnxruntime on the ONNX export from the langchain4j jars (fp32, or int8-quantized).
EmbedderName = Literal["e5-small-int8", "minilm-torch", "minilm-onnx", "minilm-onnx-int8"]
# int8 by the numbers: LoCoMo answer-in-context within 0.4 points of torch at every budget
# (docs/benchmarks.md), 2-3x the texts/s and a question embedded in a few ms.
DEFAULT_EMBEDDER: EmbedderName = "e5-small-int8"
DEFAULT_IDLE_TIMEOUT_S = 900.0
DEFAULT_MIN_CONFIDENCE = 0.7

FsyncPolicy = Literal["always", "batch", "never"]


class RetrievalConfig(BaseModel):
    """Every setting of ``query_memory``: how big the context is, how deep each channel
    reads, how the channels are fused and ranked, which facts earn a line, how long
    messages are cut, and how vector search runs inside a filter. Set it on
    ``Memory.connect(retrieval=RetrievalConfig(...))`` (or ``GRAPHMEM_RETRIEVAL__<FIELD>``),
    or for one question: ``query_memory(..., retrieval=RetrievalConfig(...))``.
    Defaults are the measured ones (``docs/benchmarks.md``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    def __init__(self, **values: Any) -> None:
        try:
            super().__init__(**values)
        except ValidationError as exc:
            raise ConfigError(f"invalid retrieval settings: {settings_problems(exc)}") from None

    # -- the budget: what leaves (1 - memory_share) of the model window to the conversation
    model_window_tokens: int = Field(default=8192, ge=256)
    memory_share: float = Field(default=0.2, gt=0, le=0.5)

    # -- passage channels (the episodic side): candidate messages, fused by weighted rank
    keyword_messages: int = Field(default=40, ge=0)  # best keyword messages read, at least
    keyword_per_item: int = Field(default=2, ge=0)  # ... and this many per episode asked for
    fact_pointers: int = Field(default=5, ge=0)  # nearest facts whose messages are candidates
    fact_weight: float = Field(default=0.5, ge=0)  # their weight in the fusion
    vector_episodes: int = Field(default=3, ge=0)  # nearest episodes' best message
    episode_weight: float = Field(default=0.3, ge=0)
    episode_floor: float = Field(default=0.3, ge=-1, le=1)  # cosine an episode needs
    few_keywords: int = Field(default=5, ge=0)  # fewer keyword hits: episodes join in
    vector_messages: int = Field(default=20, ge=0)  # nearest messages read (their vectors)
    message_weight: float = Field(default=3.0, ge=0)  # their weight in the fusion
    # ... when the messages are transcripts of people talking to each other ("Caroline: …",
    # LoCoMo), not a user's chat with an assistant: episodes tell those well
    people_message_weight: float = Field(default=1.0, ge=0)
    message_floor: float | None = Field(default=None, ge=-1, le=1)  # cosine they need (None: any)
    session_decay: float = Field(default=1.0, gt=0, le=1)  # per further message of a session
    window_weight: float = Field(default=1.0, ge=0)  # messages inside the question's window
    replies: bool = True  # a question brings the message that answers it
    # ...when that message is the assistant's: "asked" only when the question asks what
    # the assistant said (a user's question on a user↔assistant chat brings the long advice
    # after it, which takes the room of the next user message); "always" as a person's
    assistant_replies: Literal["asked", "always"] = "asked"
    # the assistant's messages count this times their fused score unless the question asks
    # what the assistant said
    assistant_weight: float = Field(default=0.7, ge=0, le=1)
    # a message's share of the question's words (rarer ones count more) multiplies its
    # fused score by 1 + this × share: rank fusion alone lets a message two channels found
    # for one common word ("Denver") beat the one keyword hit holding every rare word
    coverage_weight: float = Field(default=0.5, ge=0)
    rrf_k: int = Field(default=60, ge=1)  # reciprocal-rank fusion: weight / (rrf_k + rank)
    # a question about how things stand now ("where do I work now", "我现在还在学吉他吗"):
    # the user's messages among the best present_candidates gain up to this share of their
    # score, the newest most
    present_weight: float = Field(default=0.5, ge=0)
    present_candidates: int = Field(default=20, ge=1)

    # -- facts (the semantic side)
    min_fact_similarity: float = Field(default=0.35, ge=-1, le=2)  # raw cosine (+ bonus)
    relative_floor: float = Field(default=0.75, ge=0, le=1)  # of the best fact's similarity
    strong_similarity: float = Field(default=0.7, ge=-1, le=1)  # no shared word needed
    generic_floor: float = Field(default=0.7, ge=-1, le=1)  # a generic reading's line
    predicate_bonus: float = Field(default=0.3, ge=0)  # the question names the predicate
    request_bonus: float = Field(default=0.3, ge=0)  # a request for help: tastes, health
    no_embedding_similarity: float = Field(default=0.3, ge=-1, le=1)  # not embedded yet
    fact_pool: int = Field(default=2, ge=1)  # candidates per fact asked for
    recency_boost: float = Field(default=1.3, ge=1)  # verified within boost_days
    boost_days: float = Field(default=7.0, ge=0)

    # -- compression: how much of the budget facts may take first, by route
    fact_share_semantic: float = Field(default=0.3, ge=0, le=1)
    fact_share_both: float = Field(default=0.15, ge=0, le=1)
    fact_share_episodic: float = Field(default=0.0, ge=0, le=1)
    line_tokens: int | None = Field(default=None, ge=1)  # None: budget / line_share
    line_share: int = Field(default=6, ge=1)  # a message shows at most 1/6 of the budget
    lead_passages: int = Field(default=1, ge=0)  # the best passages may show more:
    lead_line_share: float = Field(default=0.25, ge=0, le=1)  # up to this share of the budget
    min_line_tokens: int = Field(default=60, ge=1)
    # a question about what the assistant said ("the recipe you gave me"): the assistant's
    # replies in the first assistant_passages passages may show this share of the budget
    assistant_line_share: float = Field(default=0.4, ge=0, le=1)
    assistant_passages: int = Field(default=2, ge=0)
    redundant: float = Field(default=0.75, ge=0, le=1)  # fact words a shown passage holds
    # a passage that does not fit at its line caps is cut to the room left (when at least
    # min_fill_tokens), before a worse-ranked one that fits whole
    fill_room: bool = True
    min_fill_tokens: int = Field(default=16, ge=1)

    # -- vector and keyword search inside a filter (user, time window). vector_search:
    # "auto" filters inside the index where the server can (2026.x), else scans exactly up
    # to exact_scan_max items and oversamples the index beyond; "exact", "index" (the
    # oversampled index) and "filtered" force one design (to compare them)
    vector_search: Literal["auto", "exact", "index", "filtered"] = "auto"
    exact_scan_max: int = Field(default=2000, ge=0)  # "auto" on 5.26: exact up to this many
    search_width: int = Field(default=10, ge=1)  # SEARCH asks the index for width × k
    max_vector_candidates: int = Field(default=10_000, ge=1)
    max_keyword_candidates: int = Field(default=4096, ge=1)  # one windowed keyword channel

    def fact_share(self, route: str) -> float:
        """Of the budget, what facts may take before passages, for a route."""
        return {"semantic": self.fact_share_semantic, "both": self.fact_share_both,
                "episodic": self.fact_share_episodic}[route]

    @property
    def default_budget(self) -> int:
        return int(self.model_window_tokens * self.memory_share)


class MemoryConfig(BaseSettings):
    """Everything ``Memory`` needs to know, with defaults that work on one machine."""

    model_config = SettingsConfigDict(env_prefix="GRAPHMEM_", env_nested_delimiter="__",
                                      frozen=True, extra="forbid")

    def __init__(self, **values: Any) -> None:
        try:
            super().__init__(**values)
        except ValidationError as exc:  # ConfigError, not pydantic's: says what to fix
            raise ConfigError(f"invalid graphmem settings: {settings_problems(exc)}") from None

    neo4j_uri: str = Field(default_factory=default_neo4j_uri)
    neo4j_user: str = "neo4j"
    neo4j_password: str | None = Field(default=None, repr=False)  # never shown or logged
    neo4j_database: str | None = None
    neo4j_retry_s: float = Field(default=30.0, ge=0)  # managed transactions retry this long
    # Give up on an unreachable or silent server after this long (connect + Bolt handshake,
    # and waiting for a pooled connection); None keeps the driver's 30 s / 60 s.
    neo4j_connect_timeout_s: float | None = Field(default=None, gt=0)
    # Neo4j stops a read that runs longer than this (server-side); it is not retried.
    neo4j_read_timeout_s: float = Field(default=30.0, gt=0)
    # Write transactions of every process take one turn (store/take_write_turn): on a
    # small server, reads are not starved by a queue of concurrent writes. False lets the
    # writes of different users run in parallel (a big server, write throughput first).
    neo4j_serial_writes: bool = True

    buffer_dir: Path = Field(default=Path(".graphmem/buffer"))
    fsync: FsyncPolicy = "batch"
    # False: this Memory takes no messages — it opens no raw buffer for writing and replays
    # nothing (the worker, the CLI's read commands, a reader next to the application); it
    # reads Neo4j, consolidates, corrects and forgets.
    ingest: bool = True

    idle_timeout_s: float = Field(default=DEFAULT_IDLE_TIMEOUT_S, gt=0)
    action_max_chars: int = Field(default=200, ge=20)
    write_batch_size: int = Field(default=256, ge=1)
    # Background threads (embedding and writing episodes, online facts, the idle timer,
    # scheduled consolidation) run this much nicer than requests: on shared cores they take
    # what questions and add_message leave (graphmem.ingest.background); 0: same priority.
    background_nice: int = Field(default=10, ge=0, le=19)

    embedder: EmbedderName = DEFAULT_EMBEDDER
    embedding_model: str = DEFAULT_EMBEDDING_MODEL  # minilm-torch only: name or local folder
    onnx_model_dir: Path | None = None  # from scripts/setup; None: ~/.cache/graphmem/models
    embedding_batch_size: int = Field(default=64, ge=1)

    online_extraction: bool = True
    min_confidence: float = Field(default=DEFAULT_MIN_CONFIDENCE, ge=0, le=1)
    alias_merge_score: float = Field(default=92.0, ge=0, le=100)
    alias_review_score: float = Field(default=80.0, ge=0, le=100)

    retrieval: RetrievalConfig = Field(default_factory=RetrievalConfig)

    consolidate_every_s: float | None = None

    # Fact extraction in consolidation: "rules" (offline, the default) or "llm", any
    # OpenAI-compatible chat-completions endpoint (``pip install graphmem[llm]``).
    extraction: Literal["rules", "llm"] = "rules"
    llm_base_url: str | None = None  # e.g. http://127.0.0.1:8000/v1 (…/chat/completions added)
    llm_model: str | None = None
    llm_api_key: SecretStr | None = None
    llm_episodes_per_call: int = Field(default=4, ge=1, le=64)
    llm_timeout_s: float = Field(default=120.0, gt=0)
    llm_max_retries: int = Field(default=2, ge=0, le=10)

    @property
    def driver_uri(self) -> str:
        """The URI the driver gets: without any ``user:password@`` in it."""
        return split_uri_credentials(self.neo4j_uri)[0]

    @property
    def auth(self) -> tuple[str, str] | None:
        """Driver credentials (the password setting, else one in the URI); None when no
        password is set (auth disabled)."""
        _, uri_user, uri_password = split_uri_credentials(self.neo4j_uri)
        if self.neo4j_password is not None:
            return (self.neo4j_user, self.neo4j_password)
        if uri_password is not None:
            return (uri_user or self.neo4j_user, uri_password)
        return None

    @field_validator("neo4j_uri")
    @classmethod
    def _bolt_uri(cls, value: str) -> str:
        scheme = value.split("://", 1)[0].lower() if "://" in value else ""
        if scheme not in URI_SCHEMES:
            schemes = ", ".join(f"{s}://" for s in URI_SCHEMES)
            raise ValueError(f"Neo4j URI must start with {schemes} (got {redact_uri(value)!r}; "
                             "http://…:7474 is the Browser, not Bolt)")
        return value
    # Delete superseded/expired fact versions this long after they stopped being true;
    # None keeps every version (history() shows whole chains).
    retention_days: float | None = Field(default=None, gt=0)
