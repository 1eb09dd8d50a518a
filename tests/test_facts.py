"""Semantic memory in the real Neo4j: facts, version chains, provenance, expiry."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem import InvalidInputError

T0 = datetime(2025, 1, 12, 16, 30, 2, tzinfo=UTC)
BIRTHDAY = {
    "zh": [("user", "帮我规划下周三的生日聚会，女朋友喜欢玫瑰，预算500以内。"),
           ("assistant", "需要地点还是在家？大概多少人？"),
           ("user", "在家就行，大概8个人，她不吃香菜。"),
           ("assistant", "好的，我按玫瑰主题、8人、禁香菜、预算500来规划。")],
    "en": [("user", "Can you help me plan a birthday party next Wednesday? My girlfriend likes "
                    "roses, budget under $500."),
           ("assistant", "At home or at a venue? How many people?"),
           ("user", "At home, about 8 people. She doesn't eat coriander."),
           ("assistant", "OK, a rose theme for 8, no coriander, under $500.")],
}
EXPECTED = {
    "zh": {("女朋友", "likes", "玫瑰"), ("女朋友", "dietary_restriction", "香菜"),
           ("聚会", "budget", "500以内"), ("聚会", "date", "2025-01-15")},
    "en": {("girlfriend", "likes", "roses"), ("girlfriend", "dietary_restriction", "coriander"),
           ("party", "budget", "under $500"), ("party", "date", "2025-01-15")},
}


def say(memory, user_id, session, text, at, role="user"):
    memory.add_message(user_id, f"{user_id}-{session}", role, text, ts=at)


def converse(memory, user_id, lang):
    for i, (role, text) in enumerate(BIRTHDAY[lang]):
        say(memory, user_id, "party", text, T0 + timedelta(seconds=60 * i), role)
    memory.flush()
    return memory.consolidate(user_id, now=T0 + timedelta(hours=1))


def fact_table(memory, user_id, **kwargs):
    return {(f.entity, f.predicate, f.value) for f in memory.facts(user_id, **kwargs)}


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_birthday_conversation_gives_the_four_facts_derived_from_its_episode(
    memory, driver, user_id, lang
):
    converse(memory, user_id, lang)
    assert EXPECTED[lang] <= fact_table(memory, user_id)
    [episode] = memory.episodes(user_id)
    facts = [f for f in memory.facts(user_id)
             if (f.entity, f.predicate, f.value) in EXPECTED[lang]]
    assert all(f.source_episodes == (episode.event_id,) for f in facts)
    records, _, _ = driver.execute_query(
        "MATCH (f:Fact {user_id: $u})-[:DERIVED_FROM]->(e:Episode) RETURN f.fact_id AS f, "
        "e.event_id AS e, e.semantics_refs AS refs", u=user_id)
    assert {r["e"] for r in records} == {episode.event_id}
    assert {f.fact_id for f in facts} <= set(records[0]["refs"])
    [budget] = [f for f in facts if f.predicate == "budget"]
    assert budget.valid_until is not None and budget.valid_until - T0 <= timedelta(days=31)
    [date] = [f for f in facts if f.predicate == "date"]
    assert date.valid_until == datetime(2025, 1, 16, tzinfo=UTC)


@pytest.mark.parametrize(("before", "after", "entity"), [
    ("我不喜欢用微信沟通", "加我微信把文档发过来", "微信沟通"),
    ("I don't like using WeChat", "Add me on WeChat and send the doc over", "wechat"),
])
def test_wechat_story_supersedes_with_history(memory, driver, user_id, before, after, entity):
    say(memory, user_id, "w1", before, T0)
    say(memory, user_id, "w2", after, T0 + timedelta(days=7))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=7, hours=1))
    [current] = memory.facts(user_id, entity=entity)
    assert (current.predicate, current.negated, current.status) == ("uses_channel", False,
                                                                     "current")
    history = memory.history(current.fact_id, user_id)
    assert [(v.fact.status, v.fact.negated) for v in history] == [("current", False),
                                                                 ("superseded", True)]
    assert history[0].fact.supersedes == history[1].fact.fact_id
    assert [v.episodes[0].session_id for v in history] == [f"{user_id}-w2", f"{user_id}-w1"]
    assert memory.raw(user_id, history[1].episodes[0].session_id,
                      history[1].episodes[0].raw_span)[
        0].content == before
    records, _, _ = driver.execute_query(  # the typed edge exists for the current version only
        "MATCH (:Entity {user_id: $u})-[r:USES_CHANNEL]->(v) RETURN r.fact_id AS f, r.negated AS n",
        u=user_id)
    assert [(r["f"], r["n"]) for r in records] == [(current.fact_id, False)]


def test_budget_update_supersedes_and_likes_accumulate(memory, user_id):
    say(memory, user_id, "b1", "我预算500以内", T0)
    say(memory, user_id, "b2", "预算提到800", T0 + timedelta(weeks=3))
    say(memory, user_id, "l1", "I like roses", T0 + timedelta(weeks=3, days=1))
    say(memory, user_id, "l2", "I also like tulips", T0 + timedelta(weeks=3, days=2))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(weeks=3, days=3))
    assert fact_table(memory, user_id, predicate="budget") == {("user", "budget", "800")}
    everything = memory.facts(user_id, predicate="预算", include_superseded=True)
    assert {(f.value, f.status) for f in everything} == {("800", "current"),
                                                        ("500以内", "superseded")}
    assert fact_table(memory, user_id, predicate="喜好") == {("user", "likes", "roses"),
                                                            ("user", "likes", "tulips")}


def test_running_the_same_input_twice_creates_nothing_new(memory, driver, user_id):
    converse(memory, user_id, "zh")
    count = "MATCH (f:Fact {user_id: $u}) RETURN count(f) AS n, sum(f.confidence) AS c"
    before = driver.execute_query(count, u=user_id).records[0]
    for i, (role, text) in enumerate(BIRTHDAY["zh"]):
        say(memory, user_id, "party", text, T0 + timedelta(seconds=60 * i), role)
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(hours=2))
    assert driver.execute_query(count, u=user_id).records[0] == before


def test_repeated_evidence_in_other_episodes_raises_confidence(memory, user_id):
    for day in range(3):
        say(memory, user_id, f"d{day}", "I like jazz", T0 + timedelta(days=day))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=3))
    [jazz] = memory.facts(user_id, entity="jazz")
    assert jazz.confidence > 0.9 and len(jazz.source_episodes) == 3
    assert jazz.last_verified == T0 + timedelta(days=2)


def test_a_fact_said_many_times_answers_with_its_latest_sources(memory, user_id):
    """A question's fact hit carries the 8 latest episodes that said it (a preference
    restated daily has thousands); facts() keeps them all."""
    for day in range(11):
        say(memory, user_id, f"d{day}", "I like jazz", T0 + timedelta(days=day))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=11))
    [jazz] = memory.facts(user_id, entity="jazz")
    assert len(jazz.source_episodes) == 11
    ctx = memory.query_memory("what music do I like?", user_id, now=T0 + timedelta(days=12))
    [hit] = [f for f in ctx.facts if f.value == "jazz"]
    latest = {f"{user_id}-d{day}" for day in range(3, 11)}
    assert len(hit.source_episodes) == 8 and set(hit.session_ids) == latest


def test_online_path_stores_explicit_preferences_before_any_flush(memory, user_id):
    say(memory, user_id, "o", "我对花生过敏", T0)
    assert fact_table(memory, user_id) == {("user", "allergic_to", "花生")}


def test_a_burst_of_online_facts_is_written_in_a_few_transactions(memory, user_id):
    """Online facts waiting together are decided and written together — in order, so a
    later message supersedes an earlier one — each user's to that user only."""
    other = user_id + "-b"
    statements: list[str] = []
    memory._runner.tracer = lambda line: statements.append(line.split(" ")[0])
    try:
        with memory._consolidator._lock:  # the online thread waits: the burst queues up
            memory.add_messages(
                [{"user_id": who, "session_id": f"{who}-s{i}", "role": "user",
                  "content": text, "ts": T0 + timedelta(minutes=i)}
                 for i, (who, text) in enumerate([
                     (user_id, "I'm allergic to peanuts"), (other, "我对花生过敏"),
                     (user_id, "my budget is $300"), (other, "I like jazz"),
                     (user_id, "my budget is now $450"), (other, "我不吃香菜")])])
        memory._online.drain()
    finally:
        memory._runner.tracer = None
    assert fact_table(memory, user_id) == {("user", "allergic_to", "peanuts"),
                                           ("user", "budget", "$450")}
    assert ("user", "allergic_to", "花生") in fact_table(memory, other)
    assert not {f for f in fact_table(memory, other) if "$" in f[2] or f[2] == "peanuts"}
    assert 1 <= statements.count("consolidate/distill") <= 2  # not one per message


def test_online_queue_hands_waiting_items_over_together():
    import threading

    from graphmem.ingest.background import BackgroundQueue

    gate, calls = threading.Event(), []
    queue = BackgroundQueue(lambda items: (gate.wait(5), calls.append(list(items))),
                            name="t", batch=4)
    for i in range(9):
        queue.submit(i)
    gate.set()
    queue.drain()
    queue.close()
    assert [i for call in calls for i in call] == list(range(9))  # in order, none lost
    assert all(len(call) <= 4 for call in calls) and len(calls) <= 4


def test_a_reader_waits_for_its_own_users_items_only_and_they_go_first():
    """query_memory waited for every user's online facts queued before it (reads queued
    behind the write backlog): it waits for its user's, and those are read first."""
    import threading

    from graphmem.ingest.background import BackgroundQueue

    gate, calls = threading.Event(), []
    started = threading.Event()

    def handle(items):
        started.set()
        gate.wait(5)
        calls.append(list(items))

    queue = BackgroundQueue(handle, name="t", batch=4)
    for i in range(40):
        queue.submit(("other", i), key="other")
    started.wait(5)  # the thread holds the first batch
    queue.submit(("mine", 0), key="mine")
    waited = []
    reader = threading.Thread(target=lambda: waited.append(queue.drain(10, key="mine")))
    reader.start()
    while not queue._awaited:  # the reader is waiting
        threading.Event().wait(0.01)
    gate.set()
    reader.join(10)
    assert waited == [True]
    order = [item for call in calls for item in call]
    assert order.index(("mine", 0)) <= 4  # right after the batch in hand
    queue.drain()
    queue.close()
    order = [item for call in calls for item in call]
    assert [i for key, i in order if key == "other"] == list(range(40))  # still in order


def test_facts_expire_after_their_validity(memory, user_id):
    say(memory, user_id, "x", "my budget is $300", T0)
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=1))
    assert fact_table(memory, user_id, predicate="budget") == {("user", "budget", "$300")}
    report = memory.consolidate(user_id, now=T0 + timedelta(days=45))
    assert report.expired >= 1
    assert memory.facts(user_id, predicate="budget") == []
    [expired] = memory.facts(user_id, predicate="budget", include_superseded=True)
    assert expired.status == "expired"


def test_low_confidence_candidates_are_not_stored(memory, user_id):
    say(memory, user_id, "h", "maybe I like jazz", T0)
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(hours=1))
    assert memory.facts(user_id) == []


def test_history_of_an_unknown_fact_is_a_clear_error(memory, user_id):
    with pytest.raises(InvalidInputError, match="no fact"):
        memory.history("fact_does_not_exist", user_id)


def test_consolidating_one_user_expires_only_that_users_facts(memory, user_id):
    other = user_id + "-other"
    for who in (user_id, other):
        memory.add_message(who, f"{who}-x", "user", "my budget is $300", ts=T0)
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=45))
    assert memory.facts(user_id, predicate="budget") == []
    assert [f.value for f in memory.facts(other, predicate="budget")] == ["$300"]


def test_ambiguous_entities_are_recorded_for_review_not_merged(memory, driver, user_id):
    say(memory, user_id, "j1", "I work at Initech", T0)  # WRatio(initech, initech labs) = 90:
    say(memory, user_id, "j2", "I work at Initech Labs", T0 + timedelta(days=1))  # grey band
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=2))
    records, _, _ = driver.execute_query(
        "MATCH (a:Entity {user_id: $u})-[r:MAYBE_SAME_AS]->(b:Entity) "
        "RETURN a.name AS a, b.name AS b, r.score AS score", u=user_id)
    assert [(r["a"], r["b"]) for r in records] == [("Initech Labs", "Initech")]
    assert 80 <= records[0]["score"] < 92
    history = memory.facts(user_id, predicate="works_at", include_superseded=True)
    assert {f.value for f in history} == {"Initech", "Initech Labs"}  # two entities, not one


def test_retention_deletes_only_versions_retired_long_enough(neo4j_uri, embedder, tmp_path,
                                                               user_id):
    from graphmem import Memory

    with Memory.connect(neo4j_uri, buffer_dir=tmp_path, embedder=embedder,
                        retention_days=30) as mem:
        mem.add_message(user_id, f"{user_id}-a", "user", "我预算500以内", ts=T0)
        mem.add_message(user_id, f"{user_id}-b", "user", "预算提到800", ts=T0 + timedelta(days=3))
        mem.flush()
        mem.consolidate(user_id, now=T0 + timedelta(days=4))
        assert len(mem.facts(user_id, predicate="budget", include_superseded=True)) == 2
        report = mem.consolidate(user_id, now=T0 + timedelta(days=20))
        assert report.deleted == 0  # superseded 17 days ago: kept
        [current] = mem.facts(user_id, predicate="budget")
        report = mem.consolidate(user_id, now=T0 + timedelta(days=34))
        assert report.deleted == 1  # the 500 version, superseded 31 days ago
        assert [v.fact.value for v in mem.history(current.fact_id, user_id)] == ["800"]


def episode_apart(memory, user_id, texts, start=T0):
    """Each text in its own session, a day apart; then consolidate."""
    for i, text in enumerate(texts):
        say(memory, user_id, f"s{i}", text, start + timedelta(days=i))
    memory.flush()
    memory.consolidate(user_id, now=start + timedelta(days=len(texts)))


@pytest.mark.parametrize(("intro", "name", "fact"), [
    (["I'm Dana, by the way.", "I work as a nurse at St. Mary's hospital."], "Dana",
     ("user", "works_as", "nurse")),
    (["我叫李明，在杭州一家互联网公司做产品经理。"], "李明", ("user", "works_as", "产品经理")),
])
def test_a_users_name_finds_the_users_facts(memory, user_id, intro, name, fact):
    for i, text in enumerate(intro):
        say(memory, user_id, "intro", text, T0 + timedelta(minutes=3 * i))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(hours=1))
    by_name = fact_table(memory, user_id, entity=name)
    assert ("user", "name", name) in by_name and fact in by_name
    assert by_name == fact_table(memory, user_id, entity="user")


def test_a_relatives_name_and_facts_stay_with_the_relative(memory, user_id):
    episode_apart(memory, user_id, ["My sister Emma is in med school at Johns Hopkins.",
                                    "Emma is vegan, so no cheese at the party."])
    sister = fact_table(memory, user_id, entity="Emma")  # shown by her name
    assert {("Emma", "name", "Emma"), ("Emma", "diet", "vegan"),
            ("Emma", "studies", "med school at Johns Hopkins")} <= sister
    assert sister <= fact_table(memory, user_id, entity="sister")
    assert not fact_table(memory, user_id, predicate="diet") - sister  # not the user's diet


def test_a_mothers_facts_are_hers_never_the_users(memory, user_id):
    say(memory, user_id, "gift", "我妈妈下个月过生日，她喜欢兰花，但是对花粉过敏", T0)
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(hours=1))
    assert {("妈妈", "likes", "兰花"), ("妈妈", "allergic_to", "花粉")} <= fact_table(
        memory, user_id, entity="mom")
    users_own = {f for f in fact_table(memory, user_id) if f[0] == "user"}
    assert users_own == {("user", "has_relation", "妈妈")}


def test_a_job_change_supersedes_with_history(memory, user_id):
    episode_apart(memory, user_id, [
        "I work as a nurse at St. Mary's.",
        "quick update - I switched jobs, I'm now an ICU nurse at Mass General"])
    assert fact_table(memory, user_id, predicate="works_as") == {("user", "works_as",
                                                                 "ICU nurse")}
    assert fact_table(memory, user_id, predicate="works_at") == {("user", "works_at",
                                                                 "Mass General")}
    [job] = memory.facts(user_id, predicate="works_as")
    history = memory.history(job.fact_id, user_id)
    assert [(v.fact.value, v.fact.status) for v in history] == [("ICU nurse", "current"),
                                                               ("nurse", "superseded")]


@pytest.mark.parametrize(("plan", "drop", "value"), [
    ("I'm going to run a half marathon this spring.",
     "yeah... I gave up on the half marathon, my knee hurts", "run a half marathon"),
    ("We were going to do a road trip to Yellowstone in July.",
     "we cancelled the Yellowstone trip, too expensive", "do a road trip to Yellowstone"),
    ("我打算明年考研，目标是浙大", "算了，考研我放弃了，还是先找工作吧", "考研"),
])
def test_a_plan_dropped_in_a_later_episode_ends_that_plan(memory, user_id, plan, drop, value):
    episode_apart(memory, user_id, [plan, drop])
    [current] = memory.facts(user_id, predicate="plans_to")  # the drop, in its own words
    assert current.negated and current.value in value
    history = memory.history(current.fact_id, user_id)
    assert [(v.fact.negated, v.fact.status) for v in history] == [(True, "current"),
                                                                 (False, "superseded")]
    assert history[1].fact.value == value


@pytest.mark.parametrize(("plan", "state", "value", "predicate"), [
    ("我们准备下个月搬家到宝安坪洲", "现在住在坪洲 离地铁近 挺方便的", "坪洲", "lives_in"),
    ("I'm planning to move to Denver in the spring.", "Settled in now, I live in Denver.",
     "Denver", "lives_in"),
])
def test_a_plan_fulfilled_by_a_later_state_ends(memory, user_id, plan, state, value,
                                                predicate):
    episode_apart(memory, user_id, [plan, state])
    [home] = memory.facts(user_id, predicate=predicate)
    assert home.value == value and not home.negated
    [ended] = memory.facts(user_id, predicate="plans_to")
    assert ended.negated and value in ended.value  # "no longer plans to …"
    history = memory.history(ended.fact_id, user_id)
    assert [(v.fact.negated, v.fact.status) for v in history] == [(True, "current"),
                                                                 (False, "superseded")]


@pytest.mark.parametrize(("first", "later", "partner"), [
    ("My boyfriend Sam is a chef.", "ugh he dumped me last night, still processing",
     "boyfriend"),
    ("我女朋友在南山医院当护士", "唉 我们分手了 她提的", "女朋友"),
])
def test_a_break_up_that_names_no_one_ends_the_partner_the_user_has(memory, user_id, first,
                                                                       later, partner):
    for day, text in enumerate([first, later]):  # consolidated apart: no context shared
        say(memory, user_id, f"s{day}", text, T0 + timedelta(days=day))
        memory.flush()
        memory.consolidate(user_id, now=T0 + timedelta(days=day, hours=1))
    relations = {(f.value, f.negated) for f in memory.facts(user_id, predicate="has_relation")}
    assert (partner, True) in relations and (partner, False) not in relations


@pytest.mark.parametrize("break_up", ["我跟陈浩分手了 心情很差", "6月19号晚上我和陈浩分了"])
def test_a_break_up_naming_someone_not_yet_known_ends_the_partner_the_user_has(
        memory, user_id, break_up):
    episode_apart(memory, user_id, ["男朋友在西安读书 陈浩 异地好累", break_up])
    relations = {(f.value, f.negated) for f in memory.facts(user_id, predicate="has_relation")}
    assert relations == {("男朋友", True)}  # and no stray name or relation of 陈浩
    assert not memory.facts(user_id, predicate="name")


@pytest.mark.parametrize(("first", "later", "ended"), [
    ("我三月份报了老年大学书法班 礼拜二上课", "书法班我也不去了", ("studies", "老年大学书法")),
    ("I love playing badminton.", "I quit badminton last month",
     ("likes", "playing badminton")),
])
def test_a_class_or_pastime_given_up_by_a_shorter_name_ends_the_one_stored(
        memory, user_id, first, later, ended):
    episode_apart(memory, user_id, [first, later])
    predicate, value = ended
    said = memory.facts(user_id, predicate=predicate, include_superseded=True)
    assert (value, False) in {(f.value, f.negated) for f in said}  # stored, then ended
    assert (value, False) not in {(f.value, f.negated)
                                  for f in memory.facts(user_id, predicate=predicate)}


@pytest.mark.parametrize("apart", [False, True])
@pytest.mark.parametrize(("first", "later", "now"), [
    ("我在贵医附院心内科当护士", "调科批了 我调到急诊科了", "贵医附院急诊科"),
    ("我自己在成都地铁上班 做行车调度", "我从行车调度调到培训中心了 当讲师", "成都地铁培训中心"),
])
def test_a_transfer_to_a_department_keeps_the_employer(memory, user_id, first, later, now,
                                                       apart):
    if apart:  # consolidated one at a time: the employer is read from the store
        for day, text in enumerate([first, later]):
            say(memory, user_id, f"s{day}", text, T0 + timedelta(days=day))
            memory.flush()
            memory.consolidate(user_id, now=T0 + timedelta(days=day, hours=1))
    else:  # in one batch: the employer said earlier in it
        episode_apart(memory, user_id, [first, later])
    assert [f.value for f in memory.facts(user_id, predicate="works_at")] == [now]


@pytest.mark.parametrize(("first", "move", "mate"), [
    ("I live in Leeds with my flatmate Josh", "we moved into a flat in Ancoats last week",
     "roommate"),
    ("我跟室友阿静在云岩区合租", "搬完家了 累死 花果园这边", "室友"),
    ("sharing 2BHK with my roommate Vinay", "I took 1BHK in HSR Layout, shifting on 8 June",
     "roommate"),
])
def test_a_move_leaves_the_flatmates_behind(memory, user_id, first, move, mate):
    episode_apart(memory, user_id, [first, move])
    relations = {(f.value, f.negated) for f in memory.facts(user_id, predicate="has_relation")}
    assert relations == {(mate, True)}
    # said in one breath with the home, the flatmate stays
    episode_apart(memory, user_id + "-2", ["I live in Leeds with my flatmate Josh and we "
                                           "moved here last year"])
    assert {(f.value, f.negated) for f in memory.facts(
        user_id + "-2", predicate="has_relation")} == {("flatmate", False)}


@pytest.mark.parametrize(("texts", "now"), [
    (["我女儿罗欣怡今年高三 一诊考了548", "我女儿罗欣怡考上重庆医科大学了"], "重庆医科大学"),
    (["我儿子浩然今年六年级", "我儿子浩然九月就上初一了"], "初一"),
])
def test_a_school_year_ends_the_one_before(memory, user_id, texts, now):
    episode_apart(memory, user_id, texts)
    years = {(f.value, f.negated) for f in memory.facts(user_id, predicate="studies")}
    assert (now, False) in years and not {v for v, negated in years if not negated and v != now}


@pytest.mark.parametrize(("intro", "later", "fact"), [
    ("我女儿小名糯米大名周一一 去年9月3号出生的",
     "今天糯米吃了小半个蛋黄 过了半小时脸上全是红疹子 去了儿院 医生说是鸡蛋过敏",
     ("糯米", "allergic_to", "鸡蛋")),
    ("My daughter Kayla just turned six.", "kayla is allergic to peanuts, found out today",
     ("Kayla", "allergic_to", "peanuts")),
])
def test_a_name_given_sessions_ago_owns_what_the_online_path_reads(memory, user_id, intro,
                                                                   later, fact):
    """The online path reads a new message with the names consolidation knows: the
    daughter's allergy said sessions later is not stored as the user's."""
    for day, text in enumerate([intro, later]):  # consolidated apart: the name is known
        say(memory, user_id, f"s{day}", text, T0 + timedelta(days=day))
        memory.flush()
        memory.consolidate(user_id, now=T0 + timedelta(days=day, hours=1))
    allergies = {(f.entity, f.predicate, f.value)
                 for f in memory.facts(user_id, predicate=fact[1])}
    assert fact in allergies and not {a for a in allergies if a[0] == "user"}


def test_an_online_fact_the_whole_episode_does_not_say_is_retracted(memory, user_id):
    """Nothing consolidated yet, the online path reads the daughter's allergy without her
    name and stores it as the user's; consolidation, reading the episode with the name,
    finds the daughter's — the user's is retracted, kept in history, and reported."""
    intro, later = ("我女儿小名糯米大名周一一 去年9月3号出生的",
                    "今天糯米吃了小半个蛋黄 过了半小时脸上全是红疹子 医生说是鸡蛋过敏")
    fact = ("糯米", "allergic_to", "鸡蛋")
    for day, text in enumerate([intro, later]):
        say(memory, user_id, f"s{day}", text, T0 + timedelta(days=day))
    memory.flush()
    online = [f for f in memory.facts(user_id, predicate=fact[1]) if f.entity == "user"]
    assert [f.value for f in online] == [fact[2]]  # what one message alone seemed to say
    report = memory.consolidate(user_id, now=T0 + timedelta(days=2))
    allergies = {(f.entity, f.predicate, f.value)
                 for f in memory.facts(user_id, predicate=fact[1])}
    assert allergies == {fact} and report.unconfirmed == 1
    [taken_back] = memory.history(online[0].fact_id, user_id)
    assert (taken_back.fact.status, taken_back.fact.change) == ("retracted", "unconfirmed")
    assert taken_back.episodes  # what it was read in stays traced


@pytest.mark.parametrize(("first", "left", "employer"), [
    ("i work at caffe nero on oxford rd like 12 hrs a week",
     "quit nero yesterday (3 may) 😅 i cant do 6am shifts n revise", "caffe nero"),  # fewer words
    ("I'm a supervisor at Brightfield Foods, nights.",
     "can you help me write a resignation letter, 2 weeks notice, last day may 9",
     "Brightfield Foods"),  # none named: the job they have
    ("我在利群超市当收银员", "我把利群那边辞了 过来店里帮忙", "利群超市"),
    ("我现在在京东做产品经理", "离职提了！！最后一天是3月14号 领导挽留了两次", "京东"),
])
def test_a_job_left_ends_the_employer_it_names_or_the_one_the_user_has(
        memory, user_id, first, left, employer):
    for i, text in enumerate([first, left]):  # the job held for months, then left
        say(memory, user_id, f"s{i}", text, T0 + timedelta(days=90 * i))
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=91))
    said = {(f.value, f.negated) for f in memory.facts(user_id, predicate="works_at")}
    assert said == {(employer, True)}  # ended, and no fact of "nero" or "工作" beside it
    [ended] = memory.facts(user_id, predicate="works_at")
    history = memory.history(ended.fact_id, user_id)
    assert [(v.fact.negated, v.fact.status) for v in history] == [(True, "current"),
                                                                 (False, "superseded")]


@pytest.mark.parametrize("later", [
    "also i quit pottery lol", "i think im quitting, the hours are killing me",
    "我把刘阿姨辞了 昨天是她最后一天", "有点burnout 不想辞职那种", "下周就提离职",
    "rosie last day today, cry cry all of us",
])
def test_what_is_not_a_job_left_ends_no_job(memory, user_id, later):
    first = "我在京东做产品经理" if "辞" in later or "离职" in later else "I work at Caffe Nero."
    episode_apart(memory, user_id, [first, later])
    assert [(f.negated) for f in memory.facts(user_id, predicate="works_at")] == [False]


def test_a_resignation_after_a_new_job_leaves_the_new_job_current(memory, user_id):
    episode_apart(memory, user_id, [  # the offer taken, then the letter to the old principal
        "I work at Mount Maunganui College, maths.",
        "I GOT IT!! starting at Cashmere High in term 3, 21 July",
        "need a resignation letter to my principal Mrs Thompson, finishing end of term 2"],
        start=T0)
    said = {(f.value, f.negated) for f in memory.facts(user_id, predicate="works_at")}
    assert ("Cashmere High", False) in said and ("Cashmere High", True) not in said


def test_a_job_left_with_none_known_stores_nothing(memory, driver, user_id):
    episode_apart(memory, user_id, ["My sister is a nurse.", "handed my notice in at h&c today"])
    assert not memory.facts(user_id, predicate="works_at")
    records, _, _ = driver.execute_query(
        "MATCH (e:Entity {user_id: $u}) RETURN collect(toLower(e.name)) AS names", u=user_id)
    assert not {"h & c", "job"} & set(records[0]["names"])


@pytest.mark.parametrize(("first", "later", "dating", "engaged"), [
    ("My girlfriend Priya is a designer.", "SHE SAID YES!! so now we're engaged", "girlfriend",
     "fiancée"),
    ("my bf dev is a nurse", "HE PROPOSED last night, down on one knee, and I said yes",
     "boyfriend", "fiancé"),
    ("我男朋友在地铁当司机", "他昨天跟我求婚了 我当场就答应了", "男朋友", "未婚夫"),
    ("我女朋友在南山医院当护士", "我们上周末订婚了 两家人一起吃了饭", "女朋友", "未婚妻"),
])
def test_an_engagement_makes_the_boyfriend_or_girlfriend_a_fiance(memory, user_id, first, later,
                                                                  dating, engaged):
    episode_apart(memory, user_id, [first, later])
    relations = {(f.value, f.negated) for f in memory.facts(user_id, predicate="has_relation")}
    assert relations == {(dating, True), (engaged, False)}


def test_an_engagement_does_the_plan_to_propose(memory, user_id):
    episode_apart(memory, user_id, ["我打算七夕跟女朋友求婚 预算两万", "她答应了!!! 戒指差点掉了"])
    [plan] = memory.facts(user_id, predicate="plans_to")
    assert plan.negated and "求婚" in plan.value
    relations = {(f.value, f.negated) for f in memory.facts(user_id, predicate="has_relation")}
    assert relations == {("女朋友", True), ("未婚妻", False)}


def test_an_engagement_with_no_partner_known_stores_only_a_fiancee_it_names(memory, user_id):
    episode_apart(memory, user_id, ["My sister is a nurse.", "we got engaged last night!!",
                                    "i proposed to niamh at christmas and she said yes"])
    assert {(f.value, f.negated) for f in memory.facts(user_id, predicate="has_relation")} == {
        ("sister", False), ("fiancée", False)}


def test_a_break_up_with_no_partner_known_stores_nothing(memory, user_id):
    episode_apart(memory, user_id, ["My sister is a nurse.", "we broke up last night"])
    assert {(f.value, f.negated) for f in memory.facts(user_id, predicate="has_relation")} == {
        ("sister", False)}


def test_a_plan_and_its_goal_said_in_one_breath_stay_a_plan(memory, user_id):
    episode_apart(memory, user_id, ["I live in Austin and I'm planning to move to Denver.",
                                    "Also I love tulips."])
    [plan] = memory.facts(user_id, predicate="plans_to")
    assert not plan.negated and "Denver" in plan.value


def test_a_channel_refused_stays_beside_the_channel_in_use(memory, user_id):
    episode_apart(memory, user_id, ["Please reach me on Slack rather than email",
                                    "actually switch that to Signal"])
    channels = {(f.value, f.negated) for f in memory.facts(user_id, predicate="uses_channel")}
    assert channels == {("signal", False), ("email", True)}


def test_a_fact_said_after_a_long_story_is_stored(memory, user_id):
    story = ("So today was one of those days where everything went sideways: the train was "
             "40 minutes late, I spilled coffee all over my notes, my phone died in the "
             "middle of a call with the landlord, and the printer at the office jammed "
             "right before my presentation. Anyway, the reason I'm writing: I'm allergic "
             "to penicillin, so please remember that.")
    assert story.index("penicillin") > 200
    say(memory, user_id, "long", story, T0)
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(hours=1))
    assert ("user", "allergic_to", "penicillin") in fact_table(memory, user_id)


def test_an_episode_neo4j_refuses_costs_only_itself(neo4j_uri, embedder, tmp_path, user_id,
                                                     monkeypatch):
    """Consolidation writes a chunk of episodes in one transaction; if Neo4j refuses it,
    the episodes go one by one: the refused one is reported and waits for the next run,
    the others are stored."""
    from graphmem import GraphmemError, Memory
    from graphmem.facts.consolidate import Consolidator

    mem = Memory.connect(neo4j_uri, buffer_dir=tmp_path / "b", embedder=embedder,
                         online_extraction=False)
    try:
        for day, flower in enumerate(("roses", "tulips", "lilies")):
            say(mem, user_id, f"s{day}", f"I like {flower}", T0 + timedelta(days=day))
        mem.flush()
        decide = Consolidator._decide_episodes

        def refuse_tulips(self, tx, items, *rest):
            if any(c.value == "tulips" for _, _, _, kept in items for c in kept):
                raise GraphmemError("refused by Neo4j")
            return decide(self, tx, items, *rest)

        monkeypatch.setattr(Consolidator, "_decide_episodes", refuse_tulips)
        report = mem.consolidate(user_id, now=T0 + timedelta(days=3))
        assert len(report.errors) == 1 and "refused" in report.errors[0]
        assert fact_table(mem, user_id) == {("user", "likes", "roses"),
                                            ("user", "likes", "lilies")}
        monkeypatch.setattr(Consolidator, "_decide_episodes", decide)
        assert not mem.consolidate(user_id, now=T0 + timedelta(days=3)).errors
        assert ("user", "likes", "tulips") in fact_table(mem, user_id)
    finally:
        mem.forget_user(user_id)
        mem.close()


def test_episodes_decided_in_one_transaction_end_as_when_decided_one_by_one(
        neo4j_uri, embedder, tmp_path, user_id, driver):
    """A consolidation chunk decides many episodes of a user in one transaction, each
    against the versions the ones before it left: the same chains, confidences and typed
    edges as consolidating after every episode."""
    from graphmem import Memory

    story = ["I like roses", "I like roses", "I work as a nurse at St. Mary's hospital.",
             "I like roses", "I switched jobs - I'm now an ICU nurse at Mass General.",
             "I plan to run a half marathon.", "I'm allergic to penicillin.",
             "I dropped the half marathon.", "I like roses"]
    mem = Memory.connect(neo4j_uri, buffer_dir=tmp_path / "b", embedder=embedder,
                         online_extraction=False)
    together, alone = user_id, user_id + "-alone"
    end = T0 + timedelta(days=len(story))
    try:
        for day, text in enumerate(story):
            at = T0 + timedelta(days=day)
            say(mem, together, f"s{day}", text, at)
            say(mem, alone, f"s{day}", text, at)
            mem.flush()
            mem.consolidate(alone, now=at + timedelta(hours=1))
        report = mem.consolidate(together, now=end)
        assert report.episodes == len(story) and not report.errors

        def state(user):
            facts, _, _ = driver.execute_query(
                "MATCH (f:Fact {user_id: $u}) OPTIONAL MATCH (f)-[:SUPERSEDES]->(old:Fact) "
                "RETURN f.entity AS e, f.predicate AS p, f.value AS v, f.negated AS n, "
                "f.status AS s, f.confidence AS c, f.last_verified AS lv, "
                "size(f.source_episodes) AS eps, old.value AS replaced", u=user)
            edges, _, _ = driver.execute_query(
                "MATCH (a:Entity {user_id: $u})-[r]->(b:Entity) WHERE r.fact_id IS NOT NULL "
                "RETURN type(r) AS t, a.name AS a, b.name AS b, r.confidence AS c", u=user)
            return (sorted(tuple(r.values()) for r in facts),
                    sorted(tuple(r.values()) for r in edges))

        facts, edges = state(together)
        assert (facts, edges) == state(alone)
        roses = [f for f in facts if f[2] == "roses"]
        assert len(roses) == 1 and roses[0][7] == 4  # one version, seen in four episodes
        assert {(f[2], f[4], f[8]) for f in facts if f[1] == "works_as"} >= {
            ("ICU nurse", "current", "nurse")}
    finally:
        mem.close()
