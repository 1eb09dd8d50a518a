"""Chinese: who a clause is about when the chat names others in dialect kin words or in
Latin letters (issue 29) — pure, no Neo4j."""

from __future__ import annotations

import pytest
from test_extract_chat import chat


@pytest.mark.parametrize(("text", "fact"), [
    ("烦得很 我老汉在老家 痛风又犯了", ("爸爸", "has_condition", "痛风", False)),
    ("我老汉儿高血压", ("爸爸", "has_condition", "高血压", False)),
    ("我堂客不吃辣 我倒是无辣不欢", ("老婆", "dietary_restriction", "辣", False)),
])
def test_dialect_kin_words_are_the_relatives_they_name(text, fact):
    found = chat(text)
    assert fact in found
    assert not {f for f in found if f[0] == "user" and f[1] == fact[1] and f[2] == fact[2]}


@pytest.mark.parametrize(("text", "fact"), [
    ("Martin 是德国人 超级 direct", ("Martin", "is_from", "德国", False)),
    ("Leo 超爱吃面 但是对虾过敏 很严重那种", ("Leo", "allergic_to", "虾", False)),
])
def test_a_name_in_latin_letters_opening_a_chinese_clause_is_that_person(text, fact):
    found = chat(text)
    assert fact in found
    assert not {f for f in found if f[0] == "user" and f[1] in ("is_from", "allergic_to",
                                                                "likes")}


def test_a_thing_in_latin_letters_is_no_person():
    assert ("user", "uses_tool", "Photoshop", True) in chat(
        "修图我一直用Photoshop", "不过最近全换成Lightroom了，Photoshop已经不用了")


def test_a_nickname_after_a_relative_names_them_and_their_facts_follow():
    found = chat("我儿子豆包今年九月上小学", "豆包鸡蛋过敏 我们都得注意")
    assert ("儿子", "name", "豆包", False) in found
    assert ("儿子", "allergic_to", "鸡蛋", False) in found
    assert not {f for f in found if f[0] == "user" and f[1] == "allergic_to"}


@pytest.mark.parametrize("text", ["我女儿成绩一直不错", "我儿子学校又放假了"])
def test_what_a_relative_has_is_no_nickname(text):
    assert not {f for f in chat(text) if f[1] == "name"}


# Hokkien typed in Mandarin characters: 阮 is 我 in a message that says 阮牵手 / 阮后生 …
@pytest.mark.parametrize(("text", "fact"), [
    ("阮牵手阿珠膝盖痛，关节炎很多年了", ("老婆", "has_condition", "关节炎", False)),
    ("阮后生阿明在海通物流做仓库主管", ("儿子", "works_as", "仓库主管", False)),
    ("阮后生阿明在海通物流做仓库主管", ("儿子", "name", "阿明", False)),
])
def test_hokkien_kin_words_are_the_relatives_they_name(text, fact):
    found = chat(text)
    assert fact in found
    assert not {f for f in found if f[0] == "user" and f[1] == fact[1]}


def test_ruan_as_a_surname_names_no_relative():
    assert not {f for f in chat("阮老师是我们班主任 她人很好") if f[1] == "has_relation"}


@pytest.mark.parametrize(("text", "fact"), [
    ("上周带母亲去了记忆门诊，做了量表和核磁，医生说是轻度阿尔茨海默病",
     ("母亲", "has_condition", "轻度阿尔茨海默病", False)),
    ("陪我爸去医院检查 医生说是糖尿病", ("爸爸", "has_condition", "糖尿病", False)),
])
def test_a_diagnosis_after_taking_a_relative_to_be_seen_is_theirs(text, fact):
    found = chat(text)
    assert fact in found
    assert not {f for f in found if f[0] == "user" and f[1] == "has_condition"}


@pytest.mark.parametrize("text", [
    "我母亲最近老是忘事。我爱人说是老年痴呆的前兆，我不太懂",
    "我老公觉得是胃炎 让我去查查",
])
def test_what_someone_says_it_is_is_not_their_condition(text):
    assert not {f for f in chat(text) if f[1] == "has_condition"}
