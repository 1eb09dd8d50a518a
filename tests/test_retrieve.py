"""Routing, ranking and compression — pure, no Neo4j."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import FactHit, InvalidInputError, RetrievalConfig
from graphmem.facts.predicates import predicates_in
from graphmem.retrieve.compress import Block, choose, fact_line, render
from graphmem.retrieve.passages import (
    Line,
    Passage,
    build_passages,
    fuse,
    lexical_scores,
    sentences,
    trim,
    without_small_talk,
)
from graphmem.retrieve.question import about_time_only
from graphmem.retrieve.rank import fact_score, is_reference_only
from graphmem.retrieve.recall import between_people, by_coverage
from graphmem.retrieve.router import route_query
from graphmem.retrieve.when import annotate
from graphmem.text.language import split_speaker
from graphmem.text.tokens import count_tokens
from graphmem.text.words import content_words

NOW = datetime(2025, 1, 19, 15, 0, tzinfo=UTC)  # a Sunday


@pytest.mark.parametrize(("query", "route"), [
    ("昨天我们聊了什么", "episodic"), ("what did we discuss last week?", "episodic"),
    ("三天前那次会议的结论", "episodic"), ("我一般喜欢什么口味", "semantic"),
    ("项目要求是什么", "semantic"), ("他对什么过敏", "semantic"),
    ("I usually prefer what?", "semantic"),
    ("what's my budget", "semantic"), ("my rule is?", "semantic"),
    ("上次我女朋友喜欢的花是什么来着", "both"), ("tell me about the offsite", "both"),
])
def test_routes(query, route):
    assert route_query(query, NOW)[0] == route


@pytest.mark.parametrize("query", [
    "最近又剧荒了 再给我推荐几部剧", "周末想在家做个水果冰沙 推荐几种搭配呗",
    "明天去爬山 帮我列个清单",
    "下週想去台北 幫我排個行程", "any ideas for dinner tonight?",
    "can you suggest something for my trip next week",
])
def test_a_request_for_help_is_not_a_question_about_its_time(query):
    """The time of a request is when the help is for: the user's tastes and health count,
    and no window narrows the memory to it."""
    for now in (NOW, NOW.replace(hour=0)):  # (a question dated at midnight too)
        assert route_query(query, now) == ("both", None)


@pytest.mark.parametrize("query", [
    "上周你推荐的那本书叫什么", "can you remind me what we discussed last week",
    "昨天你给我推荐的那首歌叫什么", "最近在看什么书",
])
def test_a_question_about_a_time_keeps_its_window(query):
    route, window = route_query(query, NOW)
    assert route == "episodic" and window is not None


def test_time_hints_resolve_to_concrete_windows():
    _, yesterday = route_query("昨天我们聊了什么", NOW)
    assert (yesterday.since, yesterday.until) == (datetime(2025, 1, 18, tzinfo=UTC),
                                                  datetime(2025, 1, 19, tzinfo=UTC))
    _, wednesday = route_query("上周三讨论的方案", NOW)
    assert wednesday.since == datetime(2025, 1, 8, tzinfo=UTC)
    _, days = route_query("what happened 3 days ago", NOW)
    assert days.since == datetime(2025, 1, 16, tzinfo=UTC)


def test_filters_override_and_are_validated():
    since = NOW - timedelta(days=10)
    route, window = route_query("anything", NOW, {"since": since, "route": "semantic"})
    assert route == "semantic" and window.since == since
    with pytest.raises(InvalidInputError, match="unknown filter"):
        route_query("x", NOW, {"sinse": since})
    with pytest.raises(InvalidInputError, match="route"):
        route_query("x", NOW, {"route": "everything"})


def test_fact_score_is_similarity_times_decay_times_recency_boost():
    assert fact_score(0.8, NOW - timedelta(days=3), NOW) == pytest.approx(
        0.8 * math.exp(-3 / 30) * 1.3)
    assert fact_score(0.8, NOW - timedelta(days=30), NOW) == pytest.approx(0.8 * math.exp(-1))
    fresh = fact_score(0.6, NOW - timedelta(days=1), NOW)
    stale = fact_score(0.7, NOW - timedelta(days=60), NOW)
    assert fresh > stale


def test_unverified_facts_become_reference_only():
    assert not is_reference_only(0.9, NOW - timedelta(days=2), NOW, 0.7)
    assert is_reference_only(0.9, NOW - timedelta(days=60), NOW, 0.7)


def test_rank_fusion_prefers_messages_both_channels_agree_on():
    a, b, c, d = (("s1", i) for i in range(4))
    fused = fuse([([a, b, c], 1.0), ([c, a, d], 1.0)])
    assert [key for key, _ in fused][:2] == [a, c]
    weighted = fuse([([a, b, c], 1.0), ([d], 5.0)])  # a heavier channel's first wins
    assert weighted[0][0] == d


def line(msg_id: int, content: str, session: str = "s1", day: int = 0, role: str = "user"
         ) -> Line:
    return Line(f"e-{session}", session, msg_id, role, content,
                NOW - timedelta(days=30 - day, minutes=-msg_id), f"m-{session}-{msg_id}")


def test_fusion_prefers_what_several_channels_agree_on_and_weighs_channels():
    fused = fuse([(["a", "b", "c"], 1.0), (["c", "a", "d"], 1.0)])
    assert [k for k, _ in fused][:2] == ["a", "c"]
    light = fuse([(["a"], 1.0), (["b"], 0.3)])
    assert [k for k, _ in light] == ["a", "b"] and light[1][1] < light[0][1]


def test_a_message_holding_the_questions_rarer_words_outranks_channel_agreement():
    """Two channels agreeing on a message that shares one common word of the question
    ("Denver") beat the one keyword hit holding its rare words — until coverage counts."""
    question = "Which Denver neighborhood are we renting a house in?"
    common = [line(i, f"User: Denver plan number {i}.", session=f"s{i}") for i in range(1, 4)]
    answer = line(9, "User: We're renting a house in Wash Park, Denver.", session="s9")
    lines = {li.key: li for li in [*common, answer]}
    keyword = [answer.key, *(li.key for li in common)]
    facts = [li.key for li in common]
    fused = fuse([(keyword, 1.0), (facts, 0.5)])
    assert fused[0][0] != answer.key  # rank fusion alone
    coverage = lexical_scores(list(lines.values()), question)
    assert coverage[answer.key] > 0.6 and coverage[common[0].key] < 0.1
    ranked = by_coverage(fused, coverage, weight=2.0)
    assert ranked[0][0] == answer.key
    assert [k for k, _ in by_coverage(fused, coverage, weight=0.0)] == [k for k, _ in fused]


def test_a_question_brings_its_reply_and_no_message_is_shown_twice():
    q = line(1, "Melanie: Love the necklace, any special meaning to it?")
    a = line(2, "Caroline: Thanks! It stands for love and faith.")
    other = line(7, "Caroline: I went to a pottery class.")
    lines = {li.key: li for li in (q, a, other)}
    passages = build_passages([(q.key, 0.9), (a.key, 0.8), (other.key, 0.5)], lines,
                              {q.key: a, other.key: line(8, "Melanie: Nice!")}, limit=5)
    assert [[li.msg_id for li in p.lines] for p in passages] == [[1, 2], [7]]
    assert build_passages([(other.key, 1.0)], lines, {}, limit=0) == []


def test_trim_keeps_the_sentence_that_matches_and_what_follows_it():
    text = ("Hey! Long week here. Last week someone wrote me a letter after reading my blog. "
            "Their words touched me. It was awesome. Anyway, how are the kids?")
    shown = trim(text, "How did Joanna feel when someone wrote her a letter?", 30)
    assert "someone wrote me a letter" in shown and "Their words touched me" in shown
    assert shown.startswith("…") and count_tokens(shown) <= 30
    assert trim("short and sweet", "anything", 10) == "short and sweet"


def test_trim_also_keeps_a_later_sentence_that_brings_another_word_of_the_question():
    reply = ("A 6-mile commute is perfect for an e-bike. What to look for:\n"
             "- Class: Class 1 is allowed on most bike paths; Class 3 is faster but restricted.\n"
             "- Motor: a torque sensor feels more natural and handles hills better.\n"
             "- Battery: 400-500 Wh gives plenty of range for 12 miles round trip.\n"
             "- Brakes: hydraulic disc brakes for wet weather.\n"
             "In your budget, my recommendation is the Aventon Pace 500.3, a Class 3 commuter.")
    shown = trim(reply, "Which e-bike model did you recommend?", 45)
    assert shown.startswith("A 6-mile commute is perfect for an e-bike.")
    assert "my recommendation is the Aventon Pace 500.3" in shown
    assert " … " in shown and count_tokens(shown) <= 45


def test_trim_shows_a_messages_opening_when_room_is_left():
    """A chat message usually opens with what it is about ("offer accepted!"), and the
    words of the question can sit in a later sentence."""
    text = ("Offer accepted, head of marketing at Pawplanet! The recruiter called on Tuesday "
            "morning while I was stuck in a very long meeting about the spring campaign. "
            "Now I have to tell my boss Linda. Can you draft a resignation email for me that "
            "is warm and short and thanks her for three great years?")
    shown = trim(text, "Who is my boss now?", 30)
    assert shown == ("Offer accepted, head of marketing at Pawplanet! … "
                     "Now I have to tell my boss Linda. …")


@pytest.mark.parametrize("text", [
    "给老人买血压计优先选上臂式手腕式受姿势影响大老人测出来容易不准再看屏幕大不大按键是不是一键操作",
    "先看预算再看屏幕大不大按键是不是一键操作欧姆龙那款三百左右老人用着最省心",
])
def test_a_long_chinese_sentence_is_cut_by_characters_not_lost(text):
    """Chinese has no spaces between words: a sentence longer than a line's room keeps
    its first characters (it was cut to nothing, a bare "…")."""
    for budget in (12, 20, 30):
        shown = trim(text, "血压计买哪款", budget)
        assert shown.endswith(" …") and count_tokens(shown) <= budget
        assert len(shown.replace("…", "").strip()) >= budget // 2
        assert text.replace(" ", "").startswith(shown.removesuffix(" …").replace(" ", ""))


def test_chinese_typed_with_spaces_for_stops_is_trimmed_by_its_pieces():
    """A run-on message paused with spaces: the piece that answers is kept, not only the
    opening characters."""
    text = ("新地方第一个礼拜跑完了 现在在楚运冷链 跑武汉到成都 冷链车拉冻品 一个月一万四包社保 "
            "比顺通强多了 老周冇跟我过来 他腰也不行了 回孝感老家开了个小卖部 现在跟我搭班的是小李 "
            "河南人25岁 伢蛮勤快就是开车有点毛躁 冷链车我以前冇开过 冷机温度这些要注意么事")
    shown = trim(text, "今年跟我搭班开车的前后有几个人 都叫么名字", 40)
    assert "现在跟我搭班的是小李" in shown and count_tokens(shown) <= 40


def test_a_line_with_no_room_for_a_word_is_not_shown():
    """No "Caroline: …" line made of a speaker and an ellipsis."""
    said = line(3, "Caroline: I adopted a puppy named Max.")
    reply = line(4, "Assistant: 恭喜你领养了小狗", role="assistant")
    passage = Passage(said.event_id, said.session_id, [said, reply], 1.0)
    _, blocks, text = choose("episodic", [], [passage], "what puppy?", 60, 3, chinese=False,
                             config=RetrievalConfig(line_tokens=1, lead_passages=0))
    assert blocks == [] and "Caroline" not in text and "Assistant" not in text
    _, blocks, text = choose("episodic", [], [passage], "what puppy?", 60, 3, chinese=False,
                             config=RetrievalConfig(line_tokens=4, lead_passages=0))
    assert "Assistant: 恭喜你 …" in text


def test_a_shown_sentence_keeps_its_decimals_abbreviations_and_quotes():
    text = ("Sure! Inflation was 5.8% last year, e.g. rent went up. Dr. Lee suggests 0.5 mg "
            "before bed. My pick is the \u201cAventon Pace 500.3.\u201d Anything else?")
    assert sentences(text) == [
        "Sure!", "Inflation was 5.8% last year, e.g. rent went up.",
        "Dr. Lee suggests 0.5 mg before bed.", "My pick is the \u201cAventon Pace 500.3.\u201d",
        "Anything else?"]
    assert "0.5 mg" in trim(text, "How much melatonin did Dr. Lee suggest?", 20)
    assert sentences("我很好。你呢？哈哈！！好的") == ["我很好。", "你呢？", "哈哈！！", "好的"]


@pytest.mark.parametrize(("text", "shown"), [
    ("Wow, Caroline! That sounds awesome. I signed up for a pottery class. What've you been "
     "up to?", "I signed up for a pottery class."),
    ("I signed up for a pottery class. Have you tried any workout classes?",
     "I signed up for a pottery class."),
    ("Yoga helps. Have you tried aerial yoga?", "Yoga helps. Have you tried aerial yoga?"),
    ("Thanks! Glad to hear. My sister Emma is vegan.", "My sister Emma is vegan."),
    ("哈哈，太好了！我下个月去杭州出差。", "我下个月去杭州出差。"),
    ("Thanks so much, Caroline!", "Thanks so much, Caroline!"),  # nothing else: kept whole
    ("I love pottery. It's so calming.", "I love pottery. It's so calming."),
])
def test_small_talk_is_left_out_of_a_line(text, shown):
    assert without_small_talk(text, "What does Caroline do for yoga?", {"Caroline"}) == shown


def test_a_users_questions_to_an_assistant_are_kept_when_the_message_fits():
    """Between people, "Have you tried…?" is small talk; a user asking an assistant says
    what they have in asking — kept when the message fits its room whole, left out when
    keeping it would cut the rest."""
    from graphmem.retrieve.compress import line_text

    text = ("I'm thinking of getting Max a new collar. Do you have any recommendations for a "
            "collar that would suit a Golden Retriever like Max?")
    line = Line("e", "s", 1, "user", text, datetime(2025, 1, 1, tzinfo=UTC))
    assert "Golden Retriever" in line_text(line, "What breed is my dog?", 200, set())
    assert "Golden Retriever" not in line_text(line, "What breed is my dog?", 12, set())
    transcript = Line("e", "s", 1, "user", "Caroline: " + text, datetime(2025, 1, 1, tzinfo=UTC))
    assert "Golden Retriever" not in line_text(transcript, "What breed is my dog?", 200,
                                               {"Caroline"})


@pytest.mark.parametrize(("text", "shown"), [
    ("I went to a support group yesterday.", "yesterday [7 May 2023]"),
    ("We went camping last week.", "last week [the week before 8 May 2023]"),
    ("Last Friday I painted.", "Last Friday [the Friday before 8 May 2023]"),
    ("two weeks ago we moved", "two weeks ago [two weeks before 8 May 2023]"),
    ("3 years ago I started", "3 years ago [2020]"),
    ("last month was hard", "last month [April 2023]"),
    ("我昨天去了医院", "昨天[2023年5月7日]"),
    ("上周五我们吃了火锅", "上周五[2023年5月5日]"),
    ("去年我去了日本", "去年[2022年]"),
])
def test_relative_times_are_resolved_against_the_message_date(text, shown):
    assert shown in annotate(text, datetime(2023, 5, 8, 13, 56, tzinfo=UTC))


def test_bare_weekdays_and_vague_words_are_left_alone():
    said = datetime(2023, 5, 8, tzinfo=UTC)
    for text in ("On Friday we go", "recently I moved", "last time we met", "may I ask"):
        assert annotate(text, said) == text


def test_render_puts_facts_first_and_conversations_in_time_order_by_day():
    late = line(5, "Caroline: I signed the adoption papers.", session="s2", day=3)
    early = [line(1, "Melanie: How was the group?"), line(2, "Caroline: Powerful."),
             line(9, "Caroline: I joined a pottery class.")]
    blocks = [Block(Passage(li.event_id, li.session_id, [li], 1.0), (li.content,))
              for li in (late, *early)]
    text = render(["Caroline has a sister (0.90)"], [], blocks, chinese=False)
    assert text.index("[Known facts]") < text.index("[Past conversations]")
    body = text.split("[Past conversations]\n")[1].splitlines()
    assert body == ["[20 December 2024]", "Melanie: How was the group?", "Caroline: Powerful.",
                    "…", "Caroline: I joined a pottery class.", "[23 December 2024]",
                    "Caroline: I signed the adoption papers."]
    zh = render(["女朋友喜欢玫瑰 (0.95)"], [], [], chinese=True)
    assert zh.startswith("[长期知识]")


def test_choose_keeps_the_budget_and_drops_facts_the_passages_already_show():
    said = line(3, "Caroline: I adopted a puppy named Max.")
    passage = Passage(said.event_id, said.session_id, [said], 1.0)
    fact = FactHit(fact_id="f1", entity="Caroline", predicate="adopt", value="puppy",
                   confidence=0.75, score=0.9, source_episodes=(said.event_id,),
                   session_ids=("s1",), source_messages=(said.message_id,),
                   sentence="Caroline adopted a puppy named Max")
    other = fact.model_copy(update={"fact_id": "f2", "source_messages": ("m-elsewhere",),
                                    "sentence": "Caroline lives in Boston",
                                    "predicate": "lives_in", "value": "Boston"})
    canonical = other.model_copy(update={"fact_id": "f3", "source_messages": (said.message_id,),
                                         "predicate": "likes", "sentence": "Caroline likes Max"})
    facts, blocks, text = choose("both", [fact, other, canonical], [passage], "what puppy?",
                                 200, 3, chinese=False)
    assert [b.passage for b in blocks] == [passage]
    # f1, a generic reading, is said in the shown message; f3 too, but a canonical fact
    # is the current version of what was said, and stays
    assert sorted(f.fact_id for f in facts) == ["f2", "f3"]
    assert "puppy named Max" in text and "Boston" in text
    for budget in (5, 20, 40, 200):
        _, _, text = choose("both", [fact, other], [passage], "what puppy?", budget, 3,
                            chinese=False)
        assert count_tokens(text) <= budget


def test_an_old_answer_to_what_is_asked_still_comes_first_labelled_reference_only():
    said = [line(i, f"Moved box number {i} today.") for i in range(1, 60)]
    passages = [Passage(li.event_id, li.session_id, [li], 1.0 - li.msg_id / 10) for li in said]
    job = FactHit(fact_id="f1", entity="user", predicate="works_at", value="Ledgerly",
                  confidence=0.8, score=0.2, reference_only=True, status="current",
                  sentence="the user works at Ledgerly", source_episodes=("e-s2",),
                  session_ids=("s2",))
    liked = job.model_copy(update={"fact_id": "f2", "predicate": "likes", "value": "tea",
                                   "sentence": "the user likes tea"})
    for query, shown in (("Where do I work now?", ["f1"]), ("What do I like?", [])):
        facts, _, text = choose("both", [job, liked], passages, query, 200, 60,
                                chinese=False)
        assert [f.fact_id for f in facts] == shown  # passages fill what facts leave
        assert ("[Reference only: old or uncertain]\n- the user works at Ledgerly" in text) == (
            shown == ["f1"])


def test_a_question_only_about_a_time_keeps_to_its_window():
    for query, only in (("昨天我们聊了什么", True), ("what did we discuss last week?", True),
                        ("When did Melanie go camping in June?", False),
                        ("三天前那次会议的结论", False)):
        _, window = route_query(query, NOW)
        assert about_time_only(query, window) is only, query


def test_filters_are_checked():
    with pytest.raises(InvalidInputError, match="earlier"):
        route_query("x", NOW, {"since": NOW, "until": NOW - timedelta(days=1)})
    with pytest.raises(InvalidInputError, match="datetime"):
        route_query("x", NOW, {"since": "yesterday"})
    with pytest.raises(InvalidInputError, match="timezone"):
        route_query("x", NOW, {"until": datetime(2025, 1, 1)})
    with pytest.raises(InvalidInputError, match="True or False"):
        route_query("x", NOW, {"include_superseded": "yes"})
    with pytest.raises(InvalidInputError, match="dict"):
        route_query("x", NOW, ["since"])


def test_content_words_meet_related_forms_and_leave_names_out():
    assert content_words("It reminds me of art", names=["Gina"]) & content_words(
        "What is Gina's bowl a reminder of?", names=["Gina"]) == {"remin"}
    assert "gina" not in content_words("Gina said hi to Jon", names=["Gina", "Jon"])
    assert "生日" in content_words("女朋友的生日是哪天")


def test_fact_lines_share_the_date_parentheses():
    assert fact_line("Melanie went camping (20 Oct 2023)", 0.75) == (
        "Melanie went camping (20 Oct 2023, 0.75)")
    assert fact_line("女朋友喜欢玫瑰", 0.9) == "女朋友喜欢玫瑰 (0.90)"
    text = render(["a (0.9)"], ["b (0.4)", "d (0.3)"], [], chinese=False)
    assert text.count("[Reference only: old or uncertain]") == 1
    assert text.index("a (0.9)") < text.index("[Reference only") < text.index("b (0.4)")


def test_transcript_speakers_are_split_from_labels():
    assert split_speaker("Caroline: I went") == ("Caroline", "I went")
    assert split_speaker("Mr. Smith: ok") == ("Mr. Smith", "ok")
    assert split_speaker("Update: I moved to Berlin") == (None, "Update: I moved to Berlin")
    assert split_speaker("I said: go") == (None, "I said: go")


@pytest.mark.parametrize(("question", "asked"), [
    ("What are the names of my sister and my boyfriend?", {"name"}),  # plural: still a name
    ("What is my name?", {"name"}),
    ("What are my allergies?", {"allergic_to"}),
    ("她喜欢什么花", {"likes"}),
    ("How was the concert?", set()),
])
def test_a_question_names_the_predicates_it_asks_about(question, asked):
    assert predicates_in(question) == asked


@pytest.mark.parametrize(("query", "asks"), [
    ("what was the veggie restaurant you suggested for lunch on the first day", True),
    ("that a/b test, how many users per group did you say i need", True),
    ("whats that memory trick you taught me for debits and credits", True),
    ("你之前给我推荐的那本书叫什么", True),
    ("你给我排的大理行程里 最后一天去的庵叫什么", True),
    ("how much tax did you calculate under the new regime", True),  # the verb's base form
    ("what did you estimate a heat pump would save us a year", True),
    ("有效应力那个公式你当时是怎么写的", True),
    ("where do I live now?", False),
    ("我之前好像跟你说过我爸退休前干啥的", False),  # the user told the assistant
    ("what did I tell you about my sister's wedding", False),
    # "you" as chat spells it, what was made for the user, traditional characters
    ("what was that stretch u showed me for my lower back", True),
    ("how much flour did ye say for the scones", True),
    ("the budget we worked out for the wedding, what was the total", True),
    ("that pasta recipe for the kids, how long did it bake", True),
    ("how do you say 'happy birthday' in Korean again", True),
    ("上回你帮我算的装修预算 总共多少", True),
    ("之前帮我写的那个请假条 开头怎么写的", True),
    ("你之前話嗰間餐廳叫咩名", True),
    ("那份健身计划里 周三练什么", True),
    ("宫保鸡丁英文咋写来着", True),
    # a request for something new asks for no past reply
    ("can you suggest a quick lunch for tomorrow", False),
    ("what would you recommend for a rainy afternoon", False),
    ("你给推荐几本书", False),
    ("你帮我排个周末的行程", False),
])
def test_a_question_about_what_the_assistant_said_is_told_apart(query, asks):
    from graphmem.retrieve.question import asks_assistant

    assert asks_assistant(query) is asks


def test_a_reply_the_question_asks_about_shows_more_of_itself():
    """"What did you suggest…": the line that answers is deep in a long plan the assistant
    wrote, past a sixth of the budget; asked about the user's words, the plan stays short."""
    steps = " ".join(f"Step {i}: walk to the {w} and look around for a while." for i, w in
                     enumerate(["harbour", "castle", "market", "museum", "gardens", "bridge",
                                "gallery", "old town", "park"], 1))
    plan = f"Here is a plan for the day. {steps} At noon: David Bann, meat-free cooking."
    said = line(1, "can you plan a day in edinburgh for my friend's parents")
    reply = line(2, plan, role="assistant")
    passage = Passage(said.event_id, said.session_id, [said, reply], 1.0)
    asked = "what was the veggie restaurant you suggested for them in edinburgh"
    _, _, text = choose("episodic", [], [passage], asked, 512, 3, chinese=False)
    assert "David Bann" in text
    _, _, text = choose("episodic", [], [passage], "what veggie restaurant did I pick in "
                        "edinburgh", 512, 3, chinese=False)
    assert "David Bann" not in text


def test_transcripts_of_people_talking_are_told_from_a_chat_with_an_assistant():
    people = [line(i, f"{who}: went to the lake on sunday")
              for i, who in enumerate(["Caroline", "Melanie", "Caroline"])]
    chat = [line(1, "I went to the lake on sunday"),
            line(2, "Sounds lovely! Here are three lakes: …", role="assistant"),
            line(3, "Mom: call me when you land")]  # one pasted line
    assert between_people(people)
    assert not between_people(chat)
    assert not between_people([])
    assert RetrievalConfig().people_message_weight < RetrievalConfig().message_weight

