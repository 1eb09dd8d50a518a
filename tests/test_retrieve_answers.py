"""What a long message shows of itself, and which lines a question finds, when the answer
repeats few of the question's words: the kind of answer asked for (an amount, a name set
apart) and the topic a question names by a general word ("sports", "忌口")."""

from __future__ import annotations

import pytest

from graphmem.retrieve.passages import Line, lexical_scores, trim
from graphmem.text import topics
from graphmem.text.tokens import count_tokens
from graphmem.text.words import content_words

RECIPE = ("Here is a brisket plan for Saturday.\n"
          "1. Trim the brisket and season it the night before.\n"
          "2. Light the smoker early and let it settle.\n"
          "3. Keep the brisket at 250°F until the bark sets.\n"
          "4. Wrap it and rest it before slicing.")


def test_a_question_for_an_amount_keeps_the_sentence_that_holds_one():
    """Two sentences share the question's one word ("brisket"); the one with the amount
    answers "what temp"."""
    for query in ("what temp did u say to keep the brisket at",
                  "how hot did you say the brisket should be"):
        shown = trim(RECIPE, query, 16)
        assert "250°F" in shown and count_tokens(shown) <= 16
    # asked for neither an amount nor a name: the amount has no claim
    assert "250°F" not in trim(RECIPE, "who trims the brisket", 16)


def test_a_question_for_a_name_keeps_the_sentence_that_sets_one_apart():
    reply = ("周末带娃去青岛可以这样安排。\n"
             "第一天去海边走走，晚上吃海鲜。\n"
             "第二天去**极地海洋公园**，有白鲸表演，娃肯定喜欢。\n"
             "第三天去八大关骑车，白天人少。")
    shown = trim(reply, "你给排的行程里 第二天那个地方叫啥", 24)
    assert "极地海洋公园" in shown


@pytest.mark.parametrize(("query", "topic", "word"), [
    ("what sports have I done this year", "pastime", "sport"),
    ("which hobbies did i drop", "pastime", "hobbi"),
    ("今年都耍过撒爱好", "pastime", "爱好"),
    ("list everyone's food restrictions in the family", "health", "restr"),
    ("家里谁有忌口", "health", "忌口"),
    ("where do I live now", None, None),
])
def test_a_question_names_a_topic_by_a_general_word(query, topic, word):
    named = topics.asked(frozenset(content_words(query)))
    assert named == ({topic: word} if topic else {})


@pytest.mark.parametrize(("text", "topic", "says"), [
    ("Gaurav dragged me to badminton instead", "pastime", True),
    ("我以前跳广场舞", "pastime", True),
    ("他芒果过敏 一吃就肿", "health", True),
    ("my mum got diagnosed with type 2 diabetes", "health", True),
    ("the weather was lovely all week", "health", False),
    ("明天去超市买菜", "pastime", False),
])
def test_a_message_says_a_thing_of_a_topic(text, topic, says):
    assert topics.said(text, topic) is says


def test_a_line_that_says_a_thing_of_the_topic_asked_counts_as_sharing_its_word():
    def line(i: int, text: str) -> Line:
        from datetime import UTC, datetime
        return Line("e1", "s1", i, "user", text, datetime(2025, 5, i, tzinfo=UTC))

    lines = [line(1, "Gaurav dragged me to badminton instead, wednesdays at the centre"),
             line(2, "the new flat has a lovely view of the park")]
    scores = lexical_scores(lines, "what sports have I done this year")
    assert scores[lines[0].key] > 0 and scores[lines[1].key] == 0
    long = ("Passed the exam yesterday, got 71 percent which is above the pass mark. "
            "Also I stopped cricket for good because of my knee. "
            "Gaurav dragged me to badminton instead and I enjoyed it. "
            "Need a racket under sixty pounds, beginner to intermediate please.")
    shown = trim(long, "what sports have I done this year", 40)
    assert "badminton" in shown and "cricket" in shown and "exam" not in shown


def test_a_fact_of_the_topic_asked_is_shown_before_one_that_only_shares_a_predicate():
    """"What hobbies have I had": a pastime the user likes (象棋) ranks above another like
    that is closer in words but no pastime (a tea); both are likes."""
    from datetime import UTC, datetime

    from graphmem import RetrievalConfig
    from graphmem.retrieve.facts import FactRetriever
    from graphmem.retrieve.question import Question

    now = datetime(2025, 10, 1, tzinfo=UTC)

    def row(fact_id: str, value: str, similarity: float) -> dict:
        fact = {"fact_id": fact_id, "entity": "user", "predicate": "likes", "value": value,
                "negated": False, "confidence": 0.9, "last_verified": now, "status": "current",
                "valid_from": datetime(2025, 3, 1, tzinfo=UTC), "valid_until": None,
                "sentence": f"用户喜欢{value}"}
        return {"fact": fact, "similarity": similarity, "episodes": []}

    q = Question("额今年都耍过撒爱好", [0.0], "u1", "semantic", None, now, 5, 5)
    hits = FactRetriever(RetrievalConfig()).hits(
        [row("tea", "点茯茶", 0.80), row("chess", "象棋", 0.76)], q)
    assert [h.fact_id for h in hits] == ["chess", "tea"]


def test_small_talk_left_out_keeps_the_lines_of_a_list():
    """A reply's pleasantry left out, its list stays a list: trim cuts between its lines
    (joined, a Chinese list without 。 was one long sentence, shown from its start)."""
    from graphmem.retrieve.passages import sentences, without_small_talk

    reply = ("哈哈，太好了！\n**一、消肿**\n"
             "- 抬高腿：躺着的时候在小腿下面垫个枕头，让膝盖高过心脏，消肿快\n"
             "- 止疼药按医生开的吃，别硬扛\n- 冰敷：每次冰敷15分钟，一天4到6次\n"
             "- 具体能不能下地要听主刀医生的，缝合的要拄拐几周")
    said = without_small_talk(reply, "冰敷一回敷多久")
    assert "太好了" not in said and said.count("\n") == 4
    assert len(sentences(said)) == 5
    english = "Wow, sounds great! Here's the plan:\n- Day 1: Keswick\n- Day 2: Catbells"
    assert without_small_talk(english, "which walk") == (
        "Here's the plan:\n- Day 1: Keswick\n- Day 2: Catbells")


def test_a_question_that_names_a_topic_searches_the_words_of_it_too():
    from graphmem.retrieve.lucene import MAX_TOPIC_CLAUSES, TOPIC_BOOST, lucene_terms

    terms = lucene_terms("what sports have I done this year", with_topics=True)
    by_word = {t["word"]: t for t in terms}
    assert by_word["sports"]["term"] == "sports"  # the question's own words first, as before
    assert by_word["badminton"]["term"] == f"badminton^{TOPIC_BOOST}"
    assert not by_word["badminton"]["weak"] and "羽毛球" not in by_word  # its language only
    chinese = lucene_terms("今年都耍过撒爱好", chinese_phrases=True, with_topics=True)
    topic = [t for t in chinese if t["term"].endswith(f"^{TOPIC_BOOST}")]
    assert any(t["word"] == "羽毛球" for t in topic)
    assert sum(max(1, len(t["word"]) - 1) for t in topic) <= MAX_TOPIC_CLAUSES
    assert lucene_terms("where do I live now", with_topics=True) == lucene_terms(
        "where do I live now")
