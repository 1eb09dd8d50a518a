"""``LLMExtractor``: fact extraction by any OpenAI-compatible chat-completions endpoint
(optional: ``pip install graphmem[llm]``; the default extractor needs no LLM).

Several episodes go into one request; the model must answer with JSON that follows
``RESPONSE_SCHEMA`` (asked for with ``response_format: json_schema``, strict). Each fact
item is checked on its own: a malformed one — a missing or mistyped field, a confidence
outside 0–1, an episode number or ``msg_id`` that is not in the request — is dropped and
counted, and the rest of the batch is kept. A request that fails (after retries on
network errors, 429 and 5xx) or answers with no JSON at all raises ``ExtractionError``;
consolidation then leaves those episodes for its next run. ``take_stats()`` returns the
calls, tokens (the endpoint's ``usage``), facts and dropped items since it was last
called — consolidation puts them in its report, once per run.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from graphmem._errors import ConfigError, ExtractionError
from graphmem._models import Episode
from graphmem.extract.candidate import USER, Candidate, ExtractionStats
from graphmem.facts.predicates import PREDICATES

if TYPE_CHECKING:
    import httpx

    from graphmem._config import MemoryConfig

MAX_MESSAGE_CHARS = 4_000     # per message in the prompt
MAX_EPISODE_CHARS = 16_000    # per episode in the prompt
_USER_WORDS = {"user", "the user", "i", "me", "myself", "我", "用户", "speaker"}

RESPONSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["episodes"],
    "properties": {"episodes": {"type": "array", "items": {
        "type": "object",
        "additionalProperties": False,
        "required": ["episode", "facts"],
        "properties": {
            "episode": {"type": "integer", "description": "The episode's number in the prompt."},
            "facts": {"type": "array", "items": {
                "type": "object",
                "additionalProperties": False,
                "required": ["entity", "predicate", "value", "negated", "confidence",
                             "value_kind", "msg_id", "evidence"],
                "properties": {
                    "entity": {"type": "string",
                               "description": "Who or what it is about; 'user' for the user."},
                    "predicate": {"type": "string"},
                    "value": {"type": "string"},
                    "negated": {"type": "boolean"},
                    "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                    "value_kind": {"type": "string", "enum": ["thing", "amount", "date"]},
                    "msg_id": {"type": "integer",
                               "description": "The [number] of the message that says it."},
                    "evidence": {"type": "string"},
                },
            }},
        },
    }}},
}

SYSTEM_PROMPT = f"""You extract long-term memory from conversations between a user and an \
assistant. For each numbered episode, list the facts the USER states about themselves or \
about the people, pets, things and events in their life that stay true beyond the \
conversation: likes and dislikes, diet and foods avoided, allergies, budgets, dates and \
deadlines, contact channels, where they live or come from, work, studies, pets, plans, \
relatives and names.
- entity: "user" for the user; otherwise the person or thing (e.g. "sister", "Emma", "party").
- predicate: one of {", ".join(PREDICATES)} when one fits, else a short snake_case verb.
- value: short, in the user's own language (a noun phrase, an amount, an ISO date).
- negated: true when the user says it is not so (does not like, gave up, no longer).
- confidence: 0.9 for plain statements, 0.6 for hedged ones; skip questions, \
hypotheticals and things no longer true.
- msg_id: the [number] of the message that says it; evidence: its words that say it.
- Resolve relative dates against that message's time.
Answer with JSON only, following the schema; an episode without facts gets "facts": []."""


class _FactItem(BaseModel):
    model_config = ConfigDict(extra="ignore")

    entity: str = Field(min_length=1, max_length=200)
    predicate: str = Field(min_length=1, max_length=80)
    value: str = Field(min_length=1, max_length=300)
    negated: bool = False
    confidence: float = Field(ge=0, le=1)
    value_kind: Literal["thing", "amount", "date"] = "thing"
    msg_id: int
    evidence: str = ""


class LLMExtractor:
    """Candidate facts from an OpenAI-compatible chat endpoint, ``episodes_per_call`` at
    a time. ``base_url`` is the API root (``http://host:8000/v1``)."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        *,
        episodes_per_call: int = 4,
        timeout_s: float = 120.0,
        max_retries: int = 2,
        retry_backoff_s: float = 1.0,
        client: httpx.Client | None = None,
    ) -> None:
        try:
            import httpx
        except ImportError as exc:  # pragma: no cover - depends on the environment
            raise ConfigError("the LLM extractor needs httpx: pip install 'graphmem[llm]'"
                              ) from exc
        if not base_url or not model:
            raise ConfigError("the LLM extractor needs a base URL and a model name "
                              "(GRAPHMEM_LLM_BASE_URL, GRAPHMEM_LLM_MODEL)")
        if episodes_per_call < 1:
            raise ConfigError("episodes_per_call must be >= 1")
        root = base_url.rstrip("/")
        self.url = root if root.endswith("/chat/completions") else root + "/chat/completions"
        self.model = model
        self.episodes_per_call = episodes_per_call
        self.max_retries = max_retries
        self.retry_backoff_s = retry_backoff_s
        self._headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._owns_client = client is None
        self._client = client or httpx.Client(timeout=timeout_s)
        self._stats = ExtractionStats()

    @classmethod
    def from_config(cls, config: MemoryConfig) -> LLMExtractor:
        if not config.llm_base_url or not config.llm_model:
            raise ConfigError("extraction='llm' needs llm_base_url and llm_model "
                              "(GRAPHMEM_LLM_BASE_URL, GRAPHMEM_LLM_MODEL)")
        key = config.llm_api_key.get_secret_value() if config.llm_api_key else None
        return cls(config.llm_base_url, config.llm_model, key,
                   episodes_per_call=config.llm_episodes_per_call,
                   timeout_s=config.llm_timeout_s, max_retries=config.llm_max_retries)

    def extract(self, episode: Episode) -> list[Candidate]:
        return self.extract_many([episode])[0]

    def extract_many(self, episodes: Sequence[Episode]) -> list[list[Candidate]]:
        """Each episode's candidates, in order; one request per ``episodes_per_call``."""
        found: list[list[Candidate]] = []
        for start in range(0, len(episodes), self.episodes_per_call):
            found += self._extract_call(episodes[start:start + self.episodes_per_call])
        return found

    def take_stats(self) -> ExtractionStats:
        """Calls, tokens, facts and dropped items since the last ``take_stats()``."""
        stats, self._stats = self._stats, ExtractionStats()
        return stats

    def close(self) -> None:
        if self._owns_client:
            self._client.close()

    # -- one request -------------------------------------------------------------------

    def _extract_call(self, episodes: Sequence[Episode]) -> list[list[Candidate]]:
        body = {
            "model": self.model,
            "temperature": 0,
            "messages": [{"role": "system", "content": SYSTEM_PROMPT},
                         {"role": "user", "content": render_episodes(episodes)}],
            "response_format": {"type": "json_schema", "json_schema": {
                "name": "graphmem_facts", "strict": True, "schema": RESPONSE_SCHEMA}},
        }
        reply = self._post(body)
        try:
            content = reply["choices"][0]["message"].get("content") or ""
            data = json.loads(_strip_fences(content))
            items = data["episodes"]
            if not isinstance(items, list):
                raise TypeError("episodes is not a list")
        except (KeyError, IndexError, TypeError, AttributeError, json.JSONDecodeError) as exc:
            self._stats.failed_calls += 1
            raise ExtractionError(f"{self.url} answered without the expected JSON "
                                  f"({type(exc).__name__}: {exc})") from None
        found: list[list[Candidate]] = [[] for _ in episodes]
        for item in items:
            if not isinstance(item, dict) or not isinstance(item.get("facts"), list):
                self._stats.dropped += 1
                continue
            number = item.get("episode")
            if not isinstance(number, int) or not 1 <= number <= len(episodes):
                self._stats.dropped += len(item["facts"]) or 1
                continue
            episode = episodes[number - 1]
            for raw in item["facts"]:
                candidate = self._candidate(raw, episode)
                if candidate is None:
                    self._stats.dropped += 1
                else:
                    found[number - 1].append(candidate)
                    self._stats.facts += 1
        return found

    def _candidate(self, raw: Any, episode: Episode) -> Candidate | None:
        if not isinstance(raw, dict):
            return None
        try:
            item = _FactItem.model_validate(raw)
        except ValidationError:
            return None
        if not episode.raw_span[0] <= item.msg_id <= episode.raw_span[1]:
            return None  # a message that is not in this episode: made up
        said = {a.msg_id: a.ts for a in episode.actions}
        entity = item.entity.strip()
        return Candidate(
            entity=USER if entity.lower() in _USER_WORDS else entity,
            predicate=item.predicate.strip(), value=item.value.strip(), negated=item.negated,
            confidence=item.confidence, observed_at=said.get(item.msg_id, episode.end_time),
            evidence=item.evidence or item.value, value_kind=item.value_kind,
            msg_id=item.msg_id,
        )

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        import httpx

        problem = ""
        for attempt in range(self.max_retries + 1):
            if attempt:
                time.sleep(self.retry_backoff_s * 2 ** (attempt - 1))
            self._stats.calls += 1
            try:
                response = self._client.post(self.url, json=body, headers=self._headers)
            except httpx.TransportError as exc:
                problem = f"{type(exc).__name__}: {exc}"
                continue
            if response.status_code == 429 or response.status_code >= 500:
                problem = f"HTTP {response.status_code}"
                continue
            if response.status_code >= 400:
                self._stats.failed_calls += 1
                raise ExtractionError(f"{self.url} refused the request: HTTP "
                                      f"{response.status_code} {response.text[:200]}")
            try:
                reply = response.json()
            except ValueError:
                problem = "the reply is not JSON"
                continue
            usage = reply.get("usage") or {}
            self._stats.prompt_tokens += int(usage.get("prompt_tokens") or 0)
            self._stats.completion_tokens += int(usage.get("completion_tokens") or 0)
            return reply
        self._stats.failed_calls += 1
        raise ExtractionError(f"{self.url} failed after {self.max_retries + 1} attempts "
                              f"({problem})")


def render_episodes(episodes: Sequence[Episode]) -> str:
    """The episodes as the model reads them: numbered, each message with its msg_id,
    role and time, long messages cut."""
    parts = []
    for number, episode in enumerate(episodes, start=1):
        lines = [f"Episode {number} (session {episode.session_id}, "
                 f"{_iso(episode.start_time)} to {_iso(episode.end_time)}):"]
        size = 0
        for action in episode.actions:
            text = action.content[:MAX_MESSAGE_CHARS]
            size += len(text)
            if size > MAX_EPISODE_CHARS:
                lines.append("[…]")
                break
            lines.append(f"[{action.msg_id}] {action.role} ({_iso(action.ts)}): {text}")
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def _iso(ts: datetime) -> str:
    return ts.isoformat(timespec="minutes")


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def _strip_fences(content: str) -> str:
    match = _FENCE.match(content)
    return match.group(1) if match else content
