"""Every bad input is a clear graphmem error, never a raw exception, a partial write or
executed Cypher; one bad item never stalls anyone else (issue 10)."""

from __future__ import annotations

import os
import threading
from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from graphmem import GraphmemError, InvalidInputError, Memory
from graphmem._models import check_time
from graphmem.text.chat import is_filler

T0 = datetime(2025, 6, 2, 10, 0, tzinfo=UTC)
PLUS5 = timezone(timedelta(hours=5))
MINUS930 = timezone(timedelta(hours=-9, minutes=-30))

# Cypher, Lucene and JSON syntax, quoting and escapes: text, never code.
INJECTIONS = [
    "'}) MATCH (n) DETACH DELETE n //", '"}) RETURN 1 //', "$user_id", "`x`) DELETE n",
    "tenant:t* OR *:*", "*", "?", "~", "title:(a OR b)^3", "[a TO z]", "{a TO z}", "\\",
    "AND OR NOT", "\"unterminated", "a/b/c", "&& || !", "/.*/", "\u0000", "\u202eevil",
    "CALL db.labels()", "; DROP DATABASE neo4j;", "{{x}}", "%s%n", "<script>x</script>",
]


# -- arguments ----------------------------------------------------------------------------

@pytest.mark.parametrize("call", [
    lambda m, u: m.query_memory(None, u),
    lambda m, u: m.query_memory("what do I like", None),
    lambda m, u: m.query_memory("   ", u),
    lambda m, u: m.query_memory("q", u, filters={"since": "yesterday"}),
    lambda m, u: m.query_memory("q", u, filters={"since": T0, "until": T0 - timedelta(1)}),
    lambda m, u: m.query_memory("q", u, filters={"since": datetime(2025, 1, 1)}),
    lambda m, u: m.query_memory("q", u, filters="since today"),
    lambda m, u: m.query_memory("q", u, top_k_facts=-1),
    lambda m, u: m.query_memory("q", u, token_budget=0),
    lambda m, u: m.query_memory("q", u, now=datetime(2025, 1, 1)),
    lambda m, u: m.search_episodes(u, None),
    lambda m, u: m.search_episodes(u, "trip", k=-1),
    lambda m, u: m.search_episodes(u, "trip", k=True),
    lambda m, u: m.search_episodes(u, "trip", since=T0, until=T0),
    lambda m, u: m.raw(u, None),
    lambda m, u: m.raw(u, "s", "x"),
    lambda m, u: m.raw(u, "s", (5, 2)),
    lambda m, u: m.raw(None, "s"),
    lambda m, u: m.history(None, u),
    lambda m, u: m.history("fact-of-nobody", u),
    lambda m, u: m.facts(u, entity="\udc80"),
    lambda m, u: m.episodes(u, since="monday"),
    lambda m, u: m.flush(123),
    lambda m, u: m.consolidate(u, now=datetime(2025, 1, 1)),
    lambda m, u: m.forget_user(""),
    lambda m, u: m.add_messages("not a list"),
    lambda m, u: m.add_messages([42]),
    lambda m, u: m.add_message(u, "s", "user", None),
])
def test_a_bad_argument_is_an_invalid_input_error(memory, user_id, call):
    with pytest.raises(InvalidInputError):
        call(memory, user_id)


class NotAPath:
    pass


@pytest.mark.parametrize("call", [
    *(lambda m, u, bad=bad: m.export_user(u, bad) for bad in
      (None, ["a"], {"a": 1}, 1.5, NotAPath(), b"/tmp/x", "", "/tmp/a\0b", "/tmp/\ud800")),
    *(lambda m, u, bad=bad: m.import_user(bad) for bad in
      (None, ["a"], {"a": 1}, 1.5, NotAPath(), "/tmp/a\0b", "/tmp/\ud800")),
    lambda m, u: m.facts(u, entity="x" * 1_000_001),
    lambda m, u: m.facts(u, predicate="likes" * 300_000),
    lambda m, u: m.query_memory("q", u, top_k_episodes=2**63),
    lambda m, u: m.query_memory("q", u, top_k_facts=2**64),
    lambda m, u: m.explain_query("q", u, token_budget=2**63),
    lambda m, u: m.search_episodes(u, "trip", k=2**63),
    lambda m, u: m.raw(u, "s", (1, float("inf"))),
    lambda m, u: m.raw(u, "s", (float("-inf"), 1)),
    lambda m, u: m.history("f" * 100_000, u),
])
def test_arguments_that_escaped_untyped_are_invalid_input_errors(memory, user_id, call):
    """24 of 1,213 bad-input calls escaped as TypeError, ValueError, UnicodeEncodeError,
    OverflowError or spaCy's E088 (issue 28)."""
    memory.add_message(user_id, "s", "user", "one message, so the session exists", T0)
    with pytest.raises(InvalidInputError) as caught:
        call(memory, user_id)
    assert len(str(caught.value)) < 300  # says what is wrong, never echoes it whole


@pytest.mark.parametrize("fd", ["pipe", True, 1])
def test_an_integer_is_no_path_and_nobody_elses_file_is_written_or_closed(memory, user_id,
                                                                          fd):
    """export_user(U, w) with w from os.pipe() wrote into the pipe and closed it;
    export_user(U, True) closed stdout."""
    read_end, write_end = os.pipe()
    target = write_end if fd == "pipe" else fd
    try:
        for call in (lambda: memory.export_user(user_id, target),
                     lambda: memory.import_user(target)):
            with pytest.raises(InvalidInputError, match="path"):
                call()
        os.fstat(target)  # still open
        os.set_blocking(read_end, False)
        with pytest.raises(BlockingIOError):
            os.read(read_end, 1)  # nothing was written into the pipe
    finally:
        os.close(read_end)
        os.close(write_end)


@pytest.mark.parametrize(("ts", "ok"), [
    (datetime(1, 1, 1, 1, tzinfo=PLUS5), False), (datetime(9999, 12, 31, tzinfo=UTC), False),
    (datetime(1899, 12, 31, tzinfo=UTC), False), (datetime(2200, 1, 1, tzinfo=UTC), False),
    (datetime(2025, 1, 1), False),  # naive
    (datetime(1970, 1, 1, tzinfo=UTC), True), (datetime(2100, 6, 1, 12, tzinfo=PLUS5), True),
])
def test_timestamps_are_checked_at_the_door_and_stored_ones_come_back(memory, user_id, ts, ok):
    if not ok:
        with pytest.raises(InvalidInputError, match="ts"):
            memory.add_message(user_id, "s", "user", "when was this", ts)
        return
    memory.add_message(user_id, "s", "user", "a message from another era", ts)
    memory.flush()
    found = memory.episodes(user_id)
    assert [e.start_time for e in found] == [ts]
    assert memory.raw(user_id, "s")[0].ts == ts


def test_ids_and_content_limits(memory, user_id):
    for bad in [{"user_id": "a\nb"}, {"session_id": "x" * 257}, {"content": "x" * 2_000_001},
                {"content": ""}, {"content": "\t \n"}]:
        item = {"user_id": user_id, "session_id": "s", "role": "user", "content": "hi",
                "ts": T0} | bad
        with pytest.raises(InvalidInputError):
            memory.add_messages([item])
    long = "x" * 2_000_000  # the limit itself is accepted
    assert memory.add_message(user_id, "s", "user", long, T0).content == long


# -- one bad item never stalls the others --------------------------------------------------

def test_one_unstorable_timestamp_never_blocks_other_users(memory, user_id):
    others = [f"{user_id}-{i}" for i in range(20)]
    with pytest.raises(InvalidInputError):
        memory.add_message(user_id, "s", "user", "hello", datetime(1, 1, 1, 1, tzinfo=PLUS5))
    for i, other in enumerate(others):
        memory.add_message(other, "s", "user", f"book a table for {i} people", T0)
    memory.flush()  # none of these raise
    memory.consolidate(others[0])
    memory.replay()
    assert all(len(memory.episodes(o)) == 1 for o in others)


class RefusingEmbedder:
    """The real model, except that it fails on one text — like a model that chokes."""

    def __init__(self, real, poison: str) -> None:
        self.real, self.poison = real, poison
        self.dimension, self.model_name, self.space = real.dimension, "refusing", real.space

    def embed(self, texts):
        if any(self.poison in t for t in texts):
            raise RuntimeError("the model failed on this text")
        return self.real.embed(texts)


def test_an_episode_that_fails_alone_is_rejected_and_the_rest_are_stored(
        neo4j_uri, embedder, tmp_path, user_id):
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "b", write_batch_size=64,
                        embedder=RefusingEmbedder(embedder, "POISON")) as mem:
        for i in range(6):
            mem.add_message(user_id, f"s{i}", "user",
                            "POISON pill" if i == 3 else f"plan trip number {i}", T0)
        mem.flush()
        stats = mem.stats()
        assert len(stats.rejected) == 1 and "s3 1-1" in stats.rejected[0]
        assert sorted(e.session_id for e in mem.episodes(user_id)) == [
            "s0", "s1", "s2", "s4", "s5"]
        assert [m.content for m in mem.raw(user_id, "s3")] == ["POISON pill"]  # kept
        mem.add_message(user_id, "s3", "user", "later message", T0 + timedelta(hours=2))
        mem.flush()  # the session goes on
        assert "s3" in {e.session_id for e in mem.episodes(user_id)}


def test_close_returns_promptly_and_stops_every_thread(neo4j_uri, embedder, tmp_path,
                                                      user_id):
    before = {t.ident for t in threading.enumerate()}
    mem = Memory.connect(neo4j_uri, buffer_dir=tmp_path / "b", embedder=embedder,
                         write_batch_size=4)
    for i in range(200):  # close() arrives while batches are being embedded
        mem.add_message(user_id, f"s{i % 7}", "user", f"message {i} about the plan",
                        T0 + timedelta(minutes=i))
    mem.close()
    left = [t for t in threading.enumerate() if t.ident not in before and t.is_alive()]
    assert left == []


# -- hostile input, fuzzed -------------------------------------------------------------------

ids = st.one_of(st.sampled_from(INJECTIONS), st.text(min_size=0, max_size=40),
                st.text(st.characters(codec="utf-8"), min_size=1, max_size=12))
contents = st.one_of(
    st.sampled_from(INJECTIONS),
    st.text(max_size=300),  # every code point, lone surrogates and controls included
    st.text(st.characters(categories=["Cc", "Cf", "Zs", "Zl", "Zp"]), max_size=20),
    st.builds(lambda a, b: a + b, st.sampled_from(INJECTIONS), st.text(max_size=50)),
    st.integers(5_000, 20_000).map(lambda n: "长" * n),
)
timestamps = st.one_of(
    st.none(),
    st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31),
                 timezones=st.sampled_from([UTC, PLUS5, MINUS930])),
    st.datetimes(min_value=datetime(1960, 1, 1), max_value=datetime(2120, 1, 1)),  # naive
    st.datetimes(min_value=datetime(1960, 1, 1), max_value=datetime(2120, 1, 1),
                 timezones=st.just(UTC)),
)
roles = st.sampled_from(["user"] * 4 + ["assistant"] * 4 + ["system", "", "USER", "' OR 1"])


def test_two_thousand_hostile_messages_are_stored_or_refused_cleanly(
        neo4j_uri, embedder, driver, tmp_path, user_id):
    accepted: list = []
    refused = 0
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "b", embedder=embedder,
                        fsync="never", online_extraction=False) as mem:

        @settings(max_examples=2000, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(user=ids, session=ids, role=roles, content=contents, ts=timestamps)
        def send(user, session, role, content, ts):
            nonlocal refused
            user = f"{user_id}{user}"  # scoped to this test; the rest is hostile
            try:
                accepted.append(mem.add_message(user, session, role, content, ts))
            except InvalidInputError as exc:
                assert str(exc)  # says what is wrong
                refused += 1

        send()
        assert len(accepted) + refused >= 2000
        assert len(accepted) > 200 and refused > 200  # both paths exercised
        mem.flush()
        assert mem.stats().rejected == ()
        for m in accepted:  # every accepted message: exactly in the buffer ...
            assert m in mem.raw(m.user_id, m.session_id, (m.msg_id, m.msg_id))
    records, _, _ = driver.execute_query(  # ... and once in Neo4j, unaltered
        "MATCH (m:Message) WHERE m.user_id STARTS WITH $p "
        "RETURN m.user_id AS u, m.session_id AS s, m.msg_id AS i, m.content AS c, m.ts AS t",
        p=user_id)
    stored = {(r["u"], r["s"], r["i"]): (r["c"], r["t"].to_native()) for r in records}
    assert len(stored) == len(records)
    expected = {(m.user_id, m.session_id, m.msg_id): (m.content, m.ts) for m in accepted}
    assert {k: v for k, v in expected.items() if k in stored} == stored
    # an episode of nothing but fillers ("ok", "?") stays only in the raw buffer
    missing = [v[0] for k, v in expected.items() if k not in stored]
    assert all(is_filler(text) for text in missing)


@settings(max_examples=30, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(text=st.one_of(st.sampled_from(INJECTIONS), st.text(max_size=60),
                      st.builds(lambda a, b: a + " " + b, st.text(max_size=20),
                                st.sampled_from(INJECTIONS))))
def test_hostile_questions_and_filters_answer_or_refuse_cleanly(memory, user_id, text):
    for call in (lambda: memory.query_memory(text, user_id),
                 lambda: memory.search_episodes(user_id, text),
                 lambda: memory.facts(user_id, entity=text),
                 lambda: memory.facts(user_id, predicate=text),
                 lambda: memory.raw(user_id, text)):
        try:
            call()
        except GraphmemError as exc:
            assert isinstance(exc, InvalidInputError), repr(exc)


def test_a_time_in_a_named_zone_becomes_its_fixed_offset():
    summer = datetime(2025, 7, 1, 12, 0, tzinfo=ZoneInfo("Europe/Paris"))
    fixed = check_time(summer, "ts")
    assert fixed == summer and fixed.tzinfo == timezone(timedelta(hours=2))
    assert check_time(fixed, "ts") is fixed
    assert check_time(datetime(2025, 1, 1, tzinfo=UTC), "ts").tzinfo is UTC


def test_an_offset_with_seconds_becomes_the_nearest_minute_at_the_same_instant():
    """Local mean time (Kolkata +05:21:10 in 1905): the driver refuses an offset with
    seconds, so the message would never be stored."""
    lmt = datetime(1905, 3, 1, 12, 0, tzinfo=ZoneInfo("Asia/Kolkata"))
    fixed = check_time(lmt, "ts")
    assert fixed == lmt and fixed.utcoffset() == timedelta(hours=5, minutes=21)
    odd = datetime(1950, 1, 1, tzinfo=timezone(timedelta(hours=1, seconds=40)))
    assert check_time(odd, "ts").utcoffset() == timedelta(hours=1, minutes=1)
