"""The online path reads each new message once, with its open episode's context carried
over (``graphmem.ingest.online``): what it finds in a message is what reading the whole
open episode again would find there, on every labelled conversation."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from graphmem._models import Message
from graphmem.extract import RuleExtractor
from graphmem.ingest.online import OnlineReader
from graphmem.ingest.splitter import build_episode

DATA = Path(__file__).parent / "data"
T0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)


def _conversations() -> list[tuple[str, list[str]]]:
    """Every labelled conversation, and runs of six of them told as one episode (so that
    what one says is the context of the next)."""
    out = []
    for path in sorted(DATA.glob("extraction_*.jsonl")):
        samples = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        out += [(s["id"], s["messages"]) for s in samples]
        out += [(f"{run[0]['id']}..{run[-1]['id']}", [t for s in run for t in s["messages"]])
                for run in (samples[i:i + 6] for i in range(0, len(samples), 6))]
    return out


def _messages(texts: list[str], session: str = "s1", user: str = "u1") -> list[Message]:
    return [Message(msg_id=i + 1, user_id=user, session_id=session, role="user",
                    content=text, ts=T0 + timedelta(minutes=i)) for i, text in enumerate(texts)]


def _key(c) -> tuple:
    return (c.entity, c.predicate, c.value, c.negated, c.confidence, c.msg_id)


def _whole_episode_reading(msgs: list[Message]) -> dict[int, set]:
    """Each message's candidates as reading its whole open episode gives them (the
    episode up to that message: what was known when it arrived)."""
    extractor = RuleExtractor(generic=False)
    out = {}
    for i, msg in enumerate(msgs):
        found = extractor.extract(build_episode(msgs[:i + 1], action_max_chars=10**9))
        out[msg.msg_id] = {_key(c) for c in found if c.observed_at == msg.ts}
    return out


CONVERSATIONS = _conversations()


def test_the_labelled_conversations_are_there():
    assert len(CONVERSATIONS) > 700
    assert sum(len(texts) > 1 for _, texts in CONVERSATIONS) > 150  # context matters


@pytest.mark.parametrize("max_sessions", [4096, 1])
def test_each_message_read_once_finds_what_the_whole_episode_reading_finds(max_sessions):
    reader = OnlineReader(max_sessions=max_sessions)
    differ = []
    for sample_id, texts in CONVERSATIONS:
        msgs = _messages(texts)
        other = _messages(["I like tea."] * len(texts), session="other")
        want = _whole_episode_reading(msgs)
        for i, msg in enumerate(msgs):
            got = {_key(c) for c in reader.read(msg, msgs[:i + 1])}
            # another session in between: with room for one context, this one's is
            # evicted and read back from the open episode
            reader.read(other[i], other[:i + 1])
            if got != want[msg.msg_id]:
                differ.append((sample_id, i, sorted(got ^ want[msg.msg_id])))
        reader.forget("u1")
    assert differ == []


def test_a_fact_said_late_in_a_long_message_is_read():
    story = "So the weekend was long. " * 20  # ~500 characters before the fact
    [msg] = _messages([story + "Oh and I'm allergic to peanuts."])
    found = OnlineReader().read(msg, [msg])
    assert ("user", "allergic_to", "peanuts") in {(c.entity, c.predicate, c.value)
                                                   for c in found}


def test_she_is_who_an_earlier_message_named_and_never_the_user():
    msgs = _messages(["My sister Emma is coming over on Sunday.", "She's vegan, by the way."])
    reader = OnlineReader()
    reader.read(msgs[0], msgs[:1])
    found = {(c.entity, c.predicate, c.value) for c in reader.read(msgs[1], msgs)}
    assert found and all(entity != "user" for entity, _, _ in found)
    # a new episode of the session starts from nothing: "she" is nobody there
    fresh = _messages(["She's vegan, by the way."])
    fresh = [m.model_copy(update={"msg_id": 3}) for m in fresh]
    assert reader.read(fresh[0], fresh) == []


def test_assistant_and_filler_messages_give_nothing():
    reader = OnlineReader()
    [said] = _messages(["I'm allergic to peanuts."])
    reply = said.model_copy(update={"role": "assistant"})
    assert reader.read(reply, [reply]) == []
    [ok] = _messages(["ok thanks"])
    assert reader.read(ok, [ok]) == []


def test_each_message_is_read_once_however_long_the_episode():
    class Counting(RuleExtractor):
        def __init__(self) -> None:
            super().__init__(generic=False)
            self.read: list[str] = []

        def extract_text(self, text, observed_at, ctx=None, deferred=None):
            self.read.append(text)
            return super().extract_text(text, observed_at, ctx, deferred)

    extractor = Counting()
    reader = OnlineReader(extractor)
    texts = [f"I like tea number {i}" if i % 2 == 0 else "noted" for i in range(400)]
    msgs = [m.model_copy(update={"role": "user" if i % 2 == 0 else "assistant"})
            for i, m in enumerate(_messages(texts))]
    for i, msg in enumerate(msgs):
        if msg.role == "user":
            reader.read(msg, msgs[:i + 1])
    assert extractor.read == [m.content for m in msgs if m.role == "user"]


def test_liking_what_the_assistant_just_said_is_no_taste_online_either():
    msgs = _messages(["plan my year", "Here is a plan with three milestones.",
                      "ok i like the milestones"])
    msgs[1] = msgs[1].model_copy(update={"role": "assistant"})
    reader = OnlineReader()
    for i, msg in enumerate(msgs):
        found = reader.read(msg, msgs[:i + 1])
    assert not {c for c in found if c.predicate == "likes"}
