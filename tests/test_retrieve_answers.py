"""What a long message shows of itself, and which lines a question finds, when the answer
repeats few of the question's words: the kind of answer asked for (an amount, a name set
apart) and the topic a question names by a general word ("sports", "忌口")."""

from __future__ import annotations


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
