"""What a long message shows of itself, and which lines a question finds, when the answer
repeats few of the question's words: the kind of answer asked for (an amount, a name set
apart) and the topic a question names by a general word ("sports", "忌口")."""

from __future__ import annotations

from graphmem.retrieve.passages import trim
from graphmem.text.tokens import count_tokens

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
