"""Episodic memory in the real Neo4j: buffer, episodes, NEXT chains, time channel."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

import pytest

from graphmem import InvalidInputError, Memory, RetrievalConfig

T0 = datetime(2025, 1, 12, 16, 30, tzinfo=UTC)


def turns(user_id, session_id, start, *texts, gap=30):
    return [
        {"user_id": user_id, "session_id": session_id, "role": "user" if i % 2 == 0 else
         "assistant", "content": text, "ts": start + timedelta(seconds=i * gap)}
        for i, text in enumerate(texts)
    ]


def next_chain(driver, user_id):
    records, _, _ = driver.execute_query(
        "MATCH (e:Episode {user_id: $u}) WHERE NOT ()-[:NEXT]->(e) "
        "MATCH p = (e)-[:NEXT*0..]->(last) WHERE NOT (last)-[:NEXT]->() "
        "RETURN [n IN nodes(p) | n.goal] AS goals", u=user_id,
    )
    return [r["goals"] for r in records]


def test_episodes_are_stored_linked_and_readable(memory, driver, user_id):
    s1 = f"{user_id}-s1"
    memory.add_messages(turns(user_id, s1, T0, "帮我规划下周三的生日聚会，预算500以内",
                              "好的，需要几个人？", "大概8个人", "好的，我按8人来规划"))
    memory.add_messages(turns(user_id, s1, T0 + timedelta(minutes=5),
                              "另外，团队分工怎么安排？", "建议分三组"))
    memory.flush()
    episodes = memory.episodes(user_id)
    assert [e.raw_span for e in episodes] == [(1, 4), (5, 6)]
    first, *_ = memory.raw(user_id, s1, episodes[0].raw_span)
    assert first.content.startswith("帮我规划")
    assert next_chain(driver, user_id) == [["规划下周三的生日聚会", "团队分工怎么安排"]]
    records, _, _ = driver.execute_query(
        "MATCH (:User {user_id: $u})-[:HAS_SESSION]->(s:Session)-[:HAS_EPISODE]->(e:Episode) "
        "RETURN s.session_id AS s, count(e) AS n, "
        "all(x IN collect(e.start_time) WHERE x IS :: ZONED DATETIME) AS typed", u=user_id,
    )
    assert [(r["s"], r["n"], r["typed"]) for r in records] == [(s1, 2, True)]


def test_next_links_across_sessions_and_out_of_order_arrivals(memory, driver, user_id):
    late, early, middle = (f"{user_id}-{n}" for n in ("late", "early", "middle"))
    memory.add_messages(turns(user_id, late, T0 + timedelta(days=2), "third topic: taxes"))
    memory.flush()
    memory.add_messages(turns(user_id, early, T0, "first topic: roses"))
    memory.flush()
    memory.add_messages(turns(user_id, middle, T0 + timedelta(days=1), "second topic: budget"))
    memory.flush()
    assert next_chain(driver, user_id) == [
        ["first topic: roses", "second topic: budget", "third topic: taxes"]]


def test_resending_the_same_messages_creates_no_duplicates(memory, driver, user_id):
    batch = turns(user_id, f"{user_id}-s", T0, "what is the price of product A?", "$1,200",
                  "and the delivery time?", "two weeks")
    memory.add_messages(batch)
    memory.flush()
    memory.add_messages(batch)
    memory.flush()
    assert len(memory.episodes(user_id)) == 1
    assert len(memory.raw(user_id, f"{user_id}-s", (1, 100))) == 4


def test_time_range_query(memory, user_id):
    for day in range(5):
        memory.add_messages(turns(user_id, f"{user_id}-d{day}", T0 + timedelta(days=day),
                                  f"day {day} question about invoices"))
    memory.flush()
    got = memory.episodes(user_id, since=T0 + timedelta(days=1), until=T0 + timedelta(days=3))
    assert [e.goal for e in got] == ["day 1 question about invoices",
                                     "day 2 question about invoices"]


def test_episodes_lists_every_episode_page_by_page_or_the_first_limit(memory, user_id,
                                                                    monkeypatch):
    """episodes() once stopped silently at 10,000 (a large user lost the rest); it reads
    page after page now, two episodes sharing a start time included."""
    from graphmem.store import episodes as episode_store

    monkeypatch.setattr(episode_store, "EPISODE_PAGE", 3)
    for day in range(7):
        memory.add_messages(turns(user_id, f"{user_id}-d{day}", T0 + timedelta(days=day),
                                  f"day {day} question about invoices"))
    memory.add_messages(turns(user_id, f"{user_id}-twin", T0 + timedelta(days=2),
                              "a twin of day 2, same minute"))
    memory.flush()
    every = memory.episodes(user_id)
    assert len(every) == 8 == len({e.event_id for e in every})
    assert [e.start_time for e in every] == sorted(e.start_time for e in every)
    assert [e.event_id for e in memory.episodes(user_id, limit=5)] == [
        e.event_id for e in every[:5]]
    with pytest.raises(InvalidInputError, match="limit"):
        memory.episodes(user_id, limit=0)


def test_messages_timed_in_a_named_zone_are_stored_and_read_back_usable(memory, user_id):
    """A ts in a named zone (ZoneInfo) is taken as its fixed offset: the episode is stored
    (the driver's packer crashed or refused the zoned value, so the episode was lost) and
    what graphmem reads back can be sent again as a bound (a zoned value never equals an
    offset one in Cypher)."""
    paris = ZoneInfo("Europe/Paris")
    memory.add_messages(turns(user_id, f"{user_id}-s", T0.astimezone(paris), "roses or tulips?",
                              "tulips"))
    memory.flush()
    (episode,) = memory.episodes(user_id)
    assert isinstance(episode.end_time.tzinfo, timezone)
    assert episode.end_time == T0 + timedelta(seconds=30)
    assert [e.event_id for e in memory.episodes(user_id, since=episode.end_time)] == [
        episode.event_id]


def test_a_message_in_local_mean_time_is_stored_with_its_facts(memory, user_id):
    """An offset with seconds (Kolkata, 1905: +05:21:10) was refused by the driver: the
    episode and the facts of its messages were lost."""
    kolkata = ZoneInfo("Asia/Kolkata")
    t = datetime(1905, 3, 1, 12, 0, tzinfo=kolkata)
    memory.add_messages(turns(user_id, f"{user_id}-s", t, "I'm allergic to peanuts", "noted"))
    memory.flush()
    (episode,) = memory.episodes(user_id)
    assert episode.start_time == t
    memory.consolidate(user_id)
    assert ("allergic_to", "peanuts") in {(f.predicate, f.value) for f in memory.facts(user_id)}


@pytest.mark.parametrize("exact_scan_max", [0, 2000], ids=["vector-index", "exact-scan"])
def test_search_episodes_combines_time_window_and_similarity(
    neo4j_uri, embedder, tmp_path, user_id, exact_scan_max
):
    topics = ["planning a birthday party with roses", "fixing the CI pipeline",
              "booking flights to Shanghai", "planning a wedding with tulips"]
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path, embedder=embedder,
                        retrieval=RetrievalConfig(exact_scan_max=exact_scan_max)) as mem:
        for i, topic in enumerate(topics):
            mem.add_messages(turns(user_id, f"{user_id}-{i}", T0 + timedelta(days=i), topic))
        mem.flush()
        hits = mem.search_episodes(user_id, "flower party", k=1)
        assert [h.goal for h, _ in hits] == ["planning a birthday party with roses"]
        windowed = mem.search_episodes(user_id, "flower party", since=T0 + timedelta(days=2), k=1)
        assert [h.goal for h, _ in windowed] == ["planning a wedding with tulips"]


def test_listed_and_found_episodes_hold_their_whole_messages_with_msg_ids(memory, user_id):
    long = "I need a hotel in Lisbon for the conference. " * 8 + "Budget is 120 euros a night."
    memory.add_messages(turns(user_id, f"{user_id}-s", T0, long, "Booked Hotel Avenida."))
    memory.flush()
    (listed,) = memory.episodes(user_id)
    ((found, _),) = memory.search_episodes(user_id, "hotel in Lisbon", k=1)
    for episode in (listed, found):
        assert [(a.msg_id, a.role) for a in episode.actions] == [(1, "user"), (2, "assistant")]
        assert episode.actions[0].content == long  # not the stored, shortened display text


def test_other_users_episodes_are_invisible(memory, user_id):
    memory.add_messages(turns(f"{user_id}-other", f"{user_id}-o", T0, "secret plans"))
    memory.flush()
    assert memory.episodes(user_id) == []
    assert memory.search_episodes(user_id, "secret plans") == []


def test_bad_input_is_rejected_clearly(memory, user_id):
    with pytest.raises(InvalidInputError, match="role"):
        memory.add_message(user_id, "s", "robot", "hi")
    with pytest.raises(InvalidInputError, match="timezone"):
        memory.add_message(user_id, "s", "user", "hi", ts=datetime(2025, 1, 1))
    with pytest.raises(InvalidInputError, match="since must be earlier"):
        memory.episodes(user_id, since=T0, until=T0)
    with pytest.raises(InvalidInputError, match="empty"):
        memory.add_message(user_id, "s", "user", "   ")
    with pytest.raises(InvalidInputError, match="supported range"):
        memory.add_message(user_id, "s", "user", "hi", ts=datetime(9999, 12, 31, tzinfo=UTC))


def test_buffer_survives_a_restart_and_replays_open_episodes(neo4j_uri, embedder, tmp_path,
                                                             user_id):
    session = f"{user_id}-s"
    mem = Memory.connect(neo4j_uri, buffer_dir=tmp_path, embedder=embedder)
    mem.add_messages(turns(user_id, session, T0, "draft the quarterly report", "on it"))
    # the process dies before flushing: the episode is still open (private parts, to stop
    # the background threads and release the buffer without the flush close() would do)
    mem._ingestion.close()
    mem._writer.close()
    mem._runner.close()
    mem._buffer.close()
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path, embedder=embedder) as again:
        again.add_message(user_id, session, "user", "make it shorter",
                          ts=T0 + timedelta(minutes=2))
        again.flush()
        [episode] = again.episodes(user_id)
        assert episode.raw_span == (1, 3)
        assert episode.goal == "draft the quarterly report"


def test_each_episode_is_stored_with_the_vector_of_its_own_text(memory, driver, embedder,
                                                                 user_id):
    """The writer embeds a batch sorted by length (like lengths in one model call): every
    vector still goes back to its own episode."""
    sessions = []
    for i, words in enumerate([40, 2, 25, 1, 60, 8, 3, 33]):  # lengths out of order
        session = f"{user_id}-s{i}"
        sessions.append(session)
        text = f"topic {i}: " + " ".join(f"word{i}x{j}" for j in range(words))
        memory.add_messages(turns(user_id, session, T0 + timedelta(days=i), text))
    memory.flush()  # one batch
    episodes = memory.episodes(user_id)
    assert len(episodes) == len(sessions)
    records, _, _ = driver.execute_query(
        "MATCH (e:Episode {user_id: $u}) RETURN e.event_id AS id, e.embedding AS vector",
        u=user_id)
    stored = {r["id"]: r["vector"] for r in records}
    expected = embedder.embed([episode.text for episode in episodes])
    for episode in episodes:  # its own text's vector is the nearest, not a neighbour's
        cosines = [sum(a * b for a, b in zip(stored[episode.event_id], vector, strict=True))
                   for vector in expected]
        assert episodes[cosines.index(max(cosines))] is episode and max(cosines) > 0.99
