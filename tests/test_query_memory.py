"""query_memory end to end on the real Neo4j and models."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem import InvalidInputError, RetrievalConfig

T0 = datetime(2025, 1, 12, 16, 30, 2, tzinfo=UTC)


def say(memory, user_id, session, role, text, at):
    memory.add_message(user_id, f"{user_id}-{session}", role, text, ts=at)


@pytest.fixture
def history(memory, user_id):
    party = ["帮我规划下周三的生日聚会，女朋友喜欢玫瑰，预算500以内。",
             "需要地点还是在家？大概多少人？",
             "在家就行，大概8个人，她不吃香菜。",
             "好的，我按玫瑰主题、8人、禁香菜、预算500来规划。"]
    for i, text in enumerate(party):
        say(memory, user_id, "party", "user" if i % 2 == 0 else "assistant", text,
            T0 + timedelta(minutes=i))
    say(memory, user_id, "flight", "user", "帮我看看去上海的机票", T0 + timedelta(days=1))
    say(memory, user_id, "flight", "assistant", "找到三班上午的航班，最便宜的800元",
        T0 + timedelta(days=1, minutes=1))
    day = T0 + timedelta(days=1)
    say(memory, user_id, "budget1", "user", "my budget is $300", day + timedelta(hours=2))
    say(memory, user_id, "budget2", "user", "my budget is now $450", day + timedelta(hours=5))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=1, hours=6))
    return memory


def test_girlfriends_flower_comes_first(history, user_id):
    ctx = history.query_memory("上次我女朋友喜欢的花是什么来着", user_id,
                               now=T0 + timedelta(days=2))
    assert (ctx.facts[0].entity, ctx.facts[0].value) == ("女朋友", "玫瑰")
    assert ctx.text.index("玫瑰") < ctx.text.index("[相关对话]")
    first = ctx.facts[0]
    assert first.session_ids == (f"{user_id}-party",) and first.raw_spans == ((1, 4),)


def test_yesterday_returns_only_yesterdays_episodes(history, user_id):
    ctx = history.query_memory("昨天我们聊了什么", user_id, now=T0 + timedelta(days=2, hours=1))
    assert ctx.route == "episodic"
    assert ctx.window.since == datetime(2025, 1, 13, tzinfo=UTC)
    assert ctx.episodes and all(
        datetime(2025, 1, 13, tzinfo=UTC) <= e.start_time < datetime(2025, 1, 14, tzinfo=UTC)
        for e in ctx.episodes)
    assert {e.session_id for e in ctx.episodes} >= {f"{user_id}-flight"}
    assert ctx.facts == ()


def test_budget_after_an_update_is_the_new_one(history, user_id):
    ctx = history.query_memory("what's my budget", user_id, now=T0 + timedelta(days=2))
    budgets = [f for f in ctx.facts if f.predicate == "budget" and f.entity == "user"]
    assert [f.value for f in budgets] == ["$450"]
    assert "$450" in ctx.text
    # the message that said the old budget may be shown, marked as outdated
    assert "$300" not in ctx.text or "my budget is $300 [outdated]" in ctx.text
    old = history.query_memory("what's my budget", user_id, now=T0 + timedelta(days=2),
                               filters={"include_superseded": True})
    assert {"$450", "$300"} <= {f.value for f in old.facts}


def test_defaults_on_a_twenty_episode_history(memory, user_id):
    for day in range(20):
        say(memory, user_id, f"d{day}", "user", f"Day {day}: help me plan the launch checklist "
            f"item {day}, I like short lists", T0 + timedelta(days=day))
        say(memory, user_id, f"d{day}", "assistant", f"Here is checklist item {day}.",
            T0 + timedelta(days=day, minutes=1))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=21))
    ctx = memory.query_memory("what did we plan for the launch?", user_id,
                              now=T0 + timedelta(days=21))
    assert 1 <= len(ctx.episodes) <= 3 and len(ctx.facts) <= 5
    assert ctx.tokens <= ctx.token_budget == int(8192 * 0.2)
    assert all(e.raw_span == (1, 2) and e.session_id.startswith(user_id) for e in ctx.episodes)
    for hit in ctx.episodes:  # each shown in the user's own words, under its date
        assert "launch checklist" in hit.summary and hit.summary in ctx.text
        assert f"[{hit.start_time.day} {hit.start_time:%B %Y}]" in ctx.text


def test_a_tight_budget_is_respected(history, user_id):
    ctx = history.query_memory("上次我女朋友喜欢的花是什么来着", user_id,
                               now=T0 + timedelta(days=2), token_budget=40)
    assert ctx.tokens <= 40 and ctx.facts[0].value == "玫瑰"


def test_other_users_memory_never_leaks(history, neo4j_uri, embedder, tmp_path, user_id):
    ctx = history.query_memory("上次我女朋友喜欢的花是什么来着", user_id + "-stranger",
                               now=T0 + timedelta(days=2))
    assert ctx.facts == () and ctx.episodes == ()


def test_bad_queries_are_rejected(memory, user_id):
    with pytest.raises(InvalidInputError):
        memory.query_memory("  ", user_id)
    with pytest.raises(InvalidInputError):
        memory.query_memory("x", user_id, token_budget=0)
    with pytest.raises(InvalidInputError, match="now must be timezone-aware"):
        memory.query_memory("x", user_id, now=datetime(2025, 1, 1))


def test_a_past_now_sees_the_versions_that_were_true_then(memory, user_id):
    say(memory, user_id, "w1", "user", "I don't like using WeChat", T0)
    say(memory, user_id, "w2", "user", "Add me on WeChat and send the doc", T0 + timedelta(days=7))
    say(memory, user_id, "b", "user", "my budget is $300", T0)
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=45))  # the budget has expired by now

    def channel(at):
        ctx = memory.query_memory("how should I contact you?", user_id, now=at)
        return [(f.negated, f.reference_only) for f in ctx.facts if f.predicate == "uses_channel"]

    assert channel(T0 + timedelta(days=3)) == [(True, False)]    # then: not WeChat
    assert channel(T0 + timedelta(days=9)) == [(False, False)]   # now: WeChat
    then = memory.query_memory("what's my budget", user_id, now=T0 + timedelta(days=5))
    assert [f.value for f in then.facts if f.predicate == "budget"] == ["$300"]
    later = memory.query_memory("what's my budget", user_id, now=T0 + timedelta(days=45))
    assert [f.value for f in later.facts if f.predicate == "budget"] == []


def test_facts_sharing_only_a_name_with_the_question_are_left_out(memory, user_id):
    lines = ["Caroline: I adopted a puppy named Max from the shelter.",
             "Caroline: I went to Paris with my sister last week.",
             "Caroline: I joined a pottery class at the community center."]
    for i, text in enumerate(lines):
        say(memory, user_id, f"c{i}", "user", text, T0 + timedelta(days=i))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=3))
    ctx = memory.query_memory("What is the name of Caroline's puppy?", user_id,
                              now=T0 + timedelta(days=3))
    assert "a puppy named Max" in ctx.text  # the message that answers
    assert not {"Paris", "pottery class", "sister"} & {f.value for f in ctx.facts}
    unrelated = memory.query_memory("What did Caroline think of the movie?", user_id,
                                    now=T0 + timedelta(days=3))
    assert not {"Paris", "pottery class"} & {f.value for f in unrelated.facts}


def test_passages_show_the_words_that_answer_with_resolved_dates(memory, user_id):
    said = T0 + timedelta(days=3)
    say(memory, user_id, "p1", "user", "Quick update - I switched jobs, I'm now an ICU nurse at "
        "Mass General. Started yesterday and the night shifts are brutal.", said)
    say(memory, user_id, "p1", "assistant", "Congrats on the new role! How is the team?",
        said + timedelta(minutes=1))
    say(memory, user_id, "p2", "user", "Can you suggest a recipe with lentils?",
        said + timedelta(days=2))
    memory.flush()
    memory.consolidate(user_id, now=said + timedelta(days=3))
    # the keyword and fact channels alone: the nearest messages and episodes fill spare
    # room with what is nearest, whatever it says
    ctx = memory.query_memory("Where do I work now?", user_id, now=said + timedelta(days=3),
                              token_budget=120,
                              retrieval=RetrievalConfig(vector_messages=0, few_keywords=0))
    assert "ICU nurse at Mass General" in ctx.text  # the answer, not a 50-character card
    assert "yesterday [14 January 2025]" in ctx.text
    assert "lentils" not in ctx.text
    assert ctx.tokens <= 120


def test_a_time_only_question_keeps_to_its_window_and_an_event_question_does_not(
    history, user_id
):
    # the birthday party was planned on 12 January; "yesterday" is the 13th
    ctx = history.query_memory("what did we plan for the birthday party yesterday?", user_id,
                               now=T0 + timedelta(days=2, hours=1))
    assert "生日聚会" in ctx.text or "玫瑰" in ctx.text  # told before the window, still found


def test_a_speakers_name_in_the_question_does_not_bring_every_short_message(memory, user_id):
    """Keyword search weighs the words of the user's speakers' names (kept on the User)
    a tenth: "John! John, John!" does not outrank the message that answers."""
    from graphmem.retrieve.lucene import lucene_terms
    from graphmem.store.episodes import window
    from graphmem.store.search import keyword_messages

    say(memory, user_id, "s1", "user", "Maria: John! John, John!", T0)
    say(memory, user_id, "s1", "user", "John: Sounds good.", T0 + timedelta(minutes=1))
    say(memory, user_id, "s2", "user", "Maria: Rome was the first stop on our long trip, and "
        "we spent a whole week there walking around, eating far too much pasta and seeing "
        "old churches.", T0 + timedelta(days=3))
    memory.flush()
    speakers = memory._runner.read("store/list_users_without_speakers", limit=10_000)
    assert user_id not in {r["user_id"] for r in speakers}  # written with the episodes
    everything = window(user_id, None, None)
    rows = keyword_messages(memory._runner, lucene_terms("Did John go to Rome?"), 1, user_id,
                            everything["since"], everything["until"], windowed=False)
    assert rows[0]["message"]["content"].startswith("Maria: Rome was the first stop")


@pytest.mark.parametrize("read_at_once", [True, False])
def test_a_weak_word_alone_makes_no_keyword_hit(memory, user_id, read_at_once, monkeypatch):
    """Words nearly every chat message has (enjoy, like, kind, time) are optional when the
    question has other words: "Enjoy!" is no answer to "What outdoor activities do I
    enjoy?" — on both ways of reading the channels (the keyword channel: the nearest
    messages and episodes, off here, bring what is near in meaning whatever its words —
    e5 puts "Enjoy!" nearer the question than the surfing)."""
    from graphmem.retrieve import channels

    if not read_at_once:
        monkeypatch.setattr(channels, "_read_at_once", lambda runner, q, config:
                            channels._read_one_by_one(runner, q, config))
    for i, text in enumerate(["Enjoy!", "Enjoy the trip, enjoy it all!", "enjoy enjoy",
                              "My favourite outdoor thing is surfing at dawn.",
                              "Enjoy your weekend, and the time off!"]):
        say(memory, user_id, f"s{i}", "user", text, T0 + timedelta(days=i))
    memory.flush()
    keywords = RetrievalConfig(vector_messages=0, few_keywords=0)
    ctx = memory.query_memory("What outdoor activities do I enjoy?", user_id,
                              now=T0 + timedelta(days=9), retrieval=keywords)
    assert "surfing" in ctx.text
    assert "Enjoy" not in ctx.text  # none of them is a hit, nor shown
    alone = memory.query_memory("What do I enjoy?", user_id, now=T0 + timedelta(days=9),
                                retrieval=keywords)
    assert "Enjoy" in alone.text  # a weak word alone is searched as usual


def test_speakers_are_backfilled_for_users_written_before(memory, user_id, driver):
    from graphmem.store.migrate import backfill_speakers

    say(memory, user_id, "s", "user", "Ana Lima: I moved to Porto.", T0)
    say(memory, user_id, "s", "assistant", "Nice!", T0 + timedelta(minutes=1))
    memory.flush()
    driver.execute_query("MATCH (u:User {user_id: $u}) REMOVE u.speakers", u=user_id)
    assert backfill_speakers(memory._runner) >= 1
    records, _, _ = driver.execute_query(
        "MATCH (u:User {user_id: $u}) RETURN u.speakers AS s", u=user_id)
    assert records[0]["s"] == ["ana", "lima"]


PATH_QUESTIONS = ["上次我女朋友喜欢的花是什么来着", "昨天我们聊了什么", "what's my budget",
                  "what did we plan for the birthday party yesterday?", "去上海的机票多少钱",
                  "how many people are coming?"]


def test_a_question_is_one_statement_where_the_index_filters(history, neo4j_uri, embedder,
                                                             tmp_path, user_id):
    """On Neo4j 2026.x every channel of a question is read by one statement (a second only
    to widen a time window Lucene had more candidates for); 5.26 reads them one by one."""
    from graphmem import Memory

    statements: list[str] = []
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "reader", embedder=embedder,
                        tracer=lambda line: statements.append(line.rsplit(" ", 2)[0])) as mem:
        server = mem._runner.server()
        at_once = server.filters("episode_embedding") and server.filters("fact_embedding")
        for question in PATH_QUESTIONS:
            statements.clear()
            ctx = mem.query_memory(question, user_id, now=T0 + timedelta(days=2, hours=1))
            assert ctx.text
            if at_once:
                assert statements[0] == "retrieve/recall_question"
                assert statements[1:] in ([], ["retrieve/search_messages_fulltext"])
            else:
                assert "retrieve/recall_question" not in statements and len(statements) >= 3


@pytest.mark.parametrize("budget", [None, 60, 400])
def test_reading_at_once_and_one_by_one_give_the_same_context(history, user_id, budget,
                                                             monkeypatch):
    from graphmem.retrieve import channels

    server = history._runner.server()
    if not (server.filters("episode_embedding") and server.filters("fact_embedding")):
        pytest.skip("this server reads channels one by one only (no in-index filtering)")

    def contexts():
        return [history.query_memory(q, user_id, now=T0 + timedelta(days=2, hours=1),
                                     token_budget=budget, top_k_episodes=6)
                for q in PATH_QUESTIONS]

    usual = contexts()
    monkeypatch.setattr(channels, "_read_at_once", lambda runner, q, config:
                        channels._read_one_by_one(runner, q, config))
    one_by_one = contexts()
    assert [c.text for c in usual] == [c.text for c in one_by_one]
    assert [c.facts for c in usual] == [c.facts for c in one_by_one]
    assert [c.episodes for c in usual] == [c.episodes for c in one_by_one]
    assert any(c.facts for c in usual) and any(c.episodes for c in usual)


FIRST_QUESTIONS = """
import sys
from datetime import UTC, datetime
from graphmem import Memory
from graphmem.text import language as nlp

with Memory.connect(sys.argv[1], buffer_dir=sys.argv[2]) as mem:
    assert nlp.warmed_up(timeout=120), "connect starts loading jieba's dictionary"
    assert nlp.jieba.cache_info().currsize == 1, "jieba is loaded"
    assert nlp.english_nlp.cache_info().currsize == 1, "so is spaCy's English model"
    before = set(sys.modules)
    for question in ["上次我们聊了什么", "What did we plan last week?"]:
        mem.query_memory(question, "nobody", now=datetime(2025, 1, 1, tzinfo=UTC))
    loaded = {name.split(".")[0] for name in set(sys.modules) - before}
    print(sorted(loaded & {"spacy", "jieba", "onnxruntime", "torch", "sentence_transformers",
                           "tokenizers", "cn2an", "thinc"}))
"""


def test_a_new_process_loads_no_model_on_its_first_questions(neo4j_uri, tmp_path):
    """connect() loads what questions need (the embedder; jieba's dictionary in a thread it
    starts, so that connect itself stays fast): the first question of a process, Chinese
    or English, imports no model library."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", FIRST_QUESTIONS, neo4j_uri,
                           str(tmp_path / "buffer")], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_a_fact_said_many_times_points_at_its_latest_messages(memory, user_id):
    """The fact channel points the passages at the messages the nearest facts were said in,
    each fact's latest first — a fact re-verified in many episodes gives its latest
    messages, the same on both ways of reading the channels."""
    from graphmem import RetrievalConfig
    from graphmem.retrieve import channels
    from graphmem.retrieve.question import Question

    for day in range(8):
        say(memory, user_id, f"s{day}", "user", f"I like roses, day {day}.",
            T0 + timedelta(days=day))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=9))
    question = "Which flowers do I like?"
    asked = Question(
        query=question, vector=memory.embedder.embed([question])[0], user_id=user_id,
        route="both", window=None, now=T0 + timedelta(days=9), top_k_episodes=4,
        top_k_facts=4)
    config = RetrievalConfig(fact_pointers=3)
    runner = memory._runner
    read = [channels.read_channels(runner, asked, config),
            channels._read_one_by_one(runner, asked, config)]
    for found in read:
        said = [row["message"]["content"] for row in found.pointed]
        assert said == ["I like roses, day 7.", "I like roses, day 6.", "I like roses, day 5."]


def test_explain_query_shows_each_channel_and_what_the_context_shows(memory, user_id):
    """explain_query gives query_memory's context for the same arguments and how it was
    chosen: the keyword channel's messages best first, the fused ranking with each
    message's rank per channel, and which messages the context shows."""
    said = T0 + timedelta(days=3)
    say(memory, user_id, "m1", "user", "I play the clarinet in a small band on Fridays.", said)
    say(memory, user_id, "m2", "user", "Can you suggest a recipe with lentils?",
        said + timedelta(days=1))
    for i in range(12):  # many weak keyword hits, so that a tight budget leaves some out
        say(memory, user_id, f"w{i}", "user", f"The band {i} was loud last night, a band "
            "with a drummer who never stopped.", said + timedelta(days=2 + i))
    memory.flush()
    memory.consolidate(user_id, now=said + timedelta(days=20))
    args = dict(now=said + timedelta(days=20), token_budget=60)
    question = "Which instrument do I play in the band?"
    why = memory.explain_query(question, user_id, **args)
    assert why.context == memory.query_memory(question, user_id, **args)
    keyword = next(c for c in why.channels if c.name == "keyword")
    assert keyword.weight == 1.0 and keyword.messages[0].rank == 1
    assert keyword.messages[0].text.startswith("I play the clarinet")
    assert (keyword.messages[0].session_id, keyword.messages[0].msg_id) == (f"{user_id}-m1", 1)
    best = why.ranked[0]
    assert best.text.startswith("I play the clarinet") and best.ranks["keyword"] == 1
    assert best.shown and "clarinet" in why.context.text
    assert [m.score for m in why.ranked] == sorted((m.score for m in why.ranked), reverse=True)
    left_out = [m for m in why.ranked if not m.shown]
    assert left_out, "a 60-token budget cannot show every band message"
    assert all(m.text.split(",")[0] not in why.context.text for m in left_out)


def test_the_message_holding_the_questions_rare_words_comes_first(memory, user_id):
    """Several messages found for one common word of the question ("Denver"), some by two
    channels, do not push out the one message holding its rarer words."""
    day = T0 + timedelta(days=30)
    for i, text in enumerate([
            "I got the job at Ledgerly! We're moving to Denver since their office is there.",
            "We're moving to Denver in a few days. How will the altitude affect my running?",
            "Help me plan the move from Chicago to Denver, movers quoted us $4,200.",
            "We made it! We're renting a house in Wash Park and mostly unpacked. Any "
            "dog-friendly hikes near Denver for a beagle?",
            "Ha, we're Denver people now. I live in Denver and love it."]):
        say(memory, user_id, f"d{i}", "user", text, day + timedelta(days=7 * i))
    memory.flush()
    now = day + timedelta(days=60)
    memory.consolidate(user_id, now=now)
    question = "Which Denver neighborhood are we renting a house in?"
    why = memory.explain_query(question, user_id, now=now, token_budget=80)
    assert why.ranked[0].text.startswith("We made it! We're renting a house in Wash Park")
    assert why.ranked[0].coverage > max(m.coverage for m in why.ranked[1:])
    assert "Wash Park" in why.context.text


def test_a_request_for_help_shows_the_tastes_and_allergies_it_does_not_name(memory, user_id):
    """"周末想做个水果冰沙 推荐几种搭配" names no fruit: the mango allergy still answers it,
    and a recommendation of shows reaches the liking for thrillers."""
    said = T0
    for session, text in enumerate(["我芒果过敏 吃了嘴巴会肿", "我就爱看悬疑剧 甜剧看不下去",
                                    "帮我写个请假条 明天去医院复查"]):
        say(memory, user_id, f"s{session}", "user", text, said + timedelta(days=session))
    memory.flush()
    memory.consolidate(user_id, now=said + timedelta(days=5))
    now = said + timedelta(days=9)
    smoothie = memory.query_memory("周末想在家自己做个水果冰沙 推荐几种搭配呗", user_id, now=now,
                                   token_budget=128)
    assert ("allergic_to", "芒果") in {(f.predicate, f.value) for f in smoothie.facts}
    shows = memory.query_memory("最近又剧荒了 再给我推荐几部剧", user_id, now=now, token_budget=128)
    assert any(f.predicate == "likes" and "悬疑" in f.value for f in shows.facts)
