"""LLMExtractor against a local HTTP server that speaks the chat-completions protocol and
replays recorded replies (tests/data/llm_replies/), malformed ones included. No LLM is
reachable from these machines; the replies are in the format such endpoints return."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from graphmem import ConfigError, ExtractionError, Memory
from graphmem._models import Action, Episode
from graphmem.extract import USER, BatchExtractor
from graphmem.extract.llm import RESPONSE_SCHEMA, LLMExtractor

REPLIES = Path(__file__).parent / "data" / "llm_replies"
T0 = datetime(2025, 4, 2, 18, 0, tzinfo=UTC)


def recorded(name: str) -> tuple[int, dict[str, Any]]:
    return 200, json.loads((REPLIES / f"{name}.json").read_text(encoding="utf-8"))


class ReplayServer:
    """POST /v1/chat/completions answers with the next queued (status, body); every
    request (headers and JSON body) is kept for the test to read."""

    def __init__(self) -> None:
        self.queue: list[tuple[int, dict[str, Any]]] = []
        self.requests: list[dict[str, Any]] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                if self.path != "/v1/chat/completions":
                    return self._send(404, {"error": {"message": "not found"}})
                if not isinstance(body.get("messages"), list) or not body.get("model"):
                    return self._send(400, {"error": {"message": "model and messages"}})
                owner.requests.append({"headers": dict(self.headers), "body": body})
                if not owner.queue:
                    return self._send(500, {"error": {"message": "no recorded reply left"}})
                self._send(*owner.queue.pop(0))

            def _send(self, status: int, body: dict[str, Any]) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def prompts(self) -> list[str]:
        return [r["body"]["messages"][-1]["content"] for r in self.requests]


@pytest.fixture
def llm_server() -> Iterator[ReplayServer]:
    server = ReplayServer()
    server.thread.start()
    try:
        yield server
    finally:
        server.httpd.shutdown()
        server.httpd.server_close()


def episode(n: int, *said: str) -> Episode:
    start = T0 + timedelta(days=n)
    actions = tuple(Action(role="user" if i % 2 == 0 else "assistant", content=text,
                           ts=start + timedelta(minutes=i), msg_id=i + 1)
                    for i, text in enumerate(said))
    return Episode(event_id=f"ep{n}", user_id="u", session_id=f"s{n}", start_time=start,
                   end_time=actions[-1].ts, participants=("user",), goal=said[0],
                   actions=actions, result=said[-1], raw_span=(1, len(said)))


EPISODES = [
    episode(1, "I really like jasmine tea, especially in the evening.", "Noted!"),
    episode(2, "My sister lives in Berlin and I'm allergic to peanuts.", "Got it."),
    episode(3, "Let's keep the trip under 500 euros.", "Sure, I'll plan within that."),
]


def test_several_episodes_per_call_malformed_items_dropped_and_counted(llm_server):
    llm_server.queue = [recorded("two_episodes_with_malformed_items"),
                        recorded("one_episode_fenced")]
    extractor = LLMExtractor(llm_server.base_url, "replay-model", "test-key",
                             episodes_per_call=2)
    assert isinstance(extractor, BatchExtractor)
    found = extractor.extract_many(EPISODES)

    assert [[(c.entity, c.predicate, c.value) for c in cands] for cands in found] == [
        [(USER, "likes", "jasmine tea")],
        [("sister", "lives_in", "Berlin"), (USER, "allergic_to", "peanuts")],
        [("trip", "budget", "under 500 euros")],
    ]
    budget = found[2][0]
    assert budget.value_kind == "amount" and budget.msg_id == 1
    assert budget.observed_at == EPISODES[2].actions[0].ts  # the time of the message said
    stats = extractor.take_stats()
    assert (stats.calls, stats.failed_calls, stats.facts, stats.dropped) == (2, 0, 4, 5)
    assert (stats.prompt_tokens, stats.completion_tokens) == (812 + 402, 231 + 64)
    assert stats.total_tokens == 812 + 402 + 231 + 64
    assert extractor.take_stats().calls == 0  # counts are per run

    first = llm_server.requests[0]
    assert first["headers"]["Authorization"] == "Bearer test-key"
    assert first["body"]["model"] == "replay-model"
    assert first["body"]["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "graphmem_facts", "strict": True, "schema": RESPONSE_SCHEMA}}
    one, two = llm_server.prompts()
    assert "Episode 1" in one and "Episode 2" in one and "Episode 3" not in one
    assert "[1] user (2025-04-03T18:00+00:00): I really like jasmine tea" in one
    assert "[2] assistant" in one
    assert "Episode 1" in two and "under 500 euros" in two
    extractor.close()


def test_transient_errors_are_retried_and_refusals_are_not(llm_server):
    llm_server.queue = [(503, {"error": {"message": "overloaded"}}),
                        recorded("one_episode_fenced"),
                        (401, {"error": {"message": "invalid api key"}})]
    extractor = LLMExtractor(llm_server.base_url, "replay-model", retry_backoff_s=0)
    [[budget]] = extractor.extract_many([EPISODES[2]])
    assert budget.value == "under 500 euros"
    assert "Authorization" not in llm_server.requests[0]["headers"]  # no key, no header
    with pytest.raises(ExtractionError, match="HTTP 401"):
        extractor.extract(EPISODES[2])
    stats = extractor.take_stats()
    assert (stats.calls, stats.failed_calls) == (3, 1)  # 503 retried once; 401 not retried
    assert len(llm_server.requests) == 3


def test_a_reply_without_json_fails_the_call(llm_server):
    llm_server.queue = [recorded("not_json")]
    extractor = LLMExtractor(llm_server.base_url, "replay-model", max_retries=0)
    with pytest.raises(ExtractionError, match="without the expected JSON"):
        extractor.extract(EPISODES[0])
    assert extractor.take_stats().failed_calls == 1


def test_settings_are_checked():
    with pytest.raises(ConfigError, match="base URL and a model"):
        LLMExtractor("", "m")
    from graphmem import MemoryConfig

    with pytest.raises(ConfigError, match="llm_base_url and llm_model"):
        LLMExtractor.from_config(MemoryConfig(extraction="llm"))
    extractor = LLMExtractor.from_config(MemoryConfig(
        extraction="llm", llm_base_url="http://127.0.0.1:9/v1/", llm_model="m",
        llm_api_key="secret", llm_episodes_per_call=3))
    assert extractor.url == "http://127.0.0.1:9/v1/chat/completions"
    assert extractor.episodes_per_call == 3
    assert "secret" not in repr(MemoryConfig(llm_api_key="secret"))


@pytest.mark.neo4j
def test_consolidation_with_the_llm_extractor(neo4j_uri, embedder, tmp_path, user_id,
                                              llm_server):
    """Configured by settings alone; calls and tokens land in the report; a failed call
    leaves its episodes for the next run."""
    llm_server.queue = [recorded("two_episodes_with_malformed_items"), recorded("not_json"),
                        recorded("one_episode_fenced")]
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "buffer", embedder=embedder,
                        online_extraction=False, extraction="llm",
                        llm_base_url=llm_server.base_url, llm_model="replay-model",
                        llm_api_key="k", llm_episodes_per_call=2, llm_max_retries=0) as mem:
        for ep in EPISODES:  # one session per episode, as in the recorded replies
            mem.add_messages([{"user_id": user_id, "session_id": f"{user_id}-{ep.session_id}",
                               "role": a.role, "content": a.content, "ts": a.ts}
                              for a in ep.actions])
        mem.flush(user_id)

        first = mem.consolidate(user_id, now=T0 + timedelta(days=5))
        assert first.episodes == 2 and first.created == 3
        assert len(first.errors) == 1 and "without the expected JSON" in first.errors[0]
        assert first.extraction is not None
        assert (first.extraction.calls, first.extraction.failed_calls) == (2, 1)
        assert (first.extraction.facts, first.extraction.dropped) == (3, 5)
        assert first.extraction.total_tokens == 812 + 231 + 380 + 12

        second = mem.consolidate(user_id, now=T0 + timedelta(days=5))  # retries episode 3
        assert second.episodes == 1 and second.errors == [] and second.created == 1
        assert second.extraction is not None and second.extraction.calls == 1

        facts = {(f.entity, f.predicate, f.value) for f in mem.facts(user_id)}
        assert ("user", "likes", "jasmine tea") in facts
        assert ("user", "allergic_to", "peanuts") in facts
        assert ("trip", "budget", "under 500 euros") in facts
        assert not any(v in {"green tea", "coffee", "opera"} for _, _, v in facts)
        assert "Episode 3" not in llm_server.prompts()[0]
        assert "under 500 euros" in llm_server.prompts()[2]


RESERVED = ["SUPERSEDES", "NEXT", "DERIVED_FROM", "HAS_MESSAGE", "ABOUT", "HAS_VALUE",
            "MAYBE_SAME_AS", "HAS_SESSION", "HAS_EPISODE"]


@pytest.mark.neo4j
def test_predicates_named_like_graphmems_own_relationships_are_renamed(
        neo4j_uri, embedder, driver, tmp_path, user_id, llm_server):
    """An extractor naming supersedes, next, derived_from, has_message, about, has_value or
    maybe_same_as made them relationship types between entities (a maybe_same_as fact was
    a review pair and counted in exports)."""
    llm_server.queue = [recorded("reserved_predicates")]
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "buffer", embedder=embedder,
                        online_extraction=False, extraction="llm",
                        llm_base_url=llm_server.base_url, llm_model="replay-model",
                        llm_api_key="k", llm_max_retries=0) as mem:
        mem.add_message(user_id, "s", "user", "I'm planning a trip to Kyoto", T0)
        mem.flush(user_id)
        report = mem.consolidate(user_id, now=T0 + timedelta(days=1))
        assert report.created == len(RESERVED) and report.errors == []
        stored = sorted(f.predicate for f in mem.facts(user_id))
        assert stored == sorted(f"rel_{name.lower()}" for name in RESERVED)
        counts = mem.export_user(user_id, tmp_path / "export.jsonl")
        assert counts.get("maybe_same_as", 0) == 0
    records, _, _ = driver.execute_query(
        "MATCH (:Entity {user_id: $u})-[r]->(:Entity) RETURN collect(DISTINCT type(r)) AS t",
        u=user_id)
    assert sorted(records[0]["t"]) == sorted(f"REL_{name}" for name in RESERVED)
    review, _, _ = driver.execute_query(
        "MATCH (:Entity {user_id: $u})-[r:MAYBE_SAME_AS]->() RETURN count(r) AS n", u=user_id)
    assert review[0]["n"] == 0
