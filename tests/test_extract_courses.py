"""Courses of anyone said by their year or field ("shes in her 3rd year of vet school",
"priya does pharmacy", 今年高三, 九月上小学)."""

from __future__ import annotations

import pytest
from test_extract_chat import chat


@pytest.mark.parametrize(("text", "fact"), [
    ("my sister carys is in her 3rd year of vet school in bristol",
     ("sister", "studies", "vet school in bristol", False)),
    ("my younger brother femi is in final year medicine at university of ibadan",
     ("brother", "studies", "medicine at university of ibadan", False)),
    ("my daughter tasha (she's at NAU doing nursing) laughed at me",
     ("daughter", "studies", "nursing at NAU", False)),
    ("my sister priya does pharmacy", ("sister", "studies", "pharmacy", False)),
    ("I'm in my final year of law at Leeds", ("user", "studies", "law at Leeds", False)),
])
def test_a_course_said_by_its_year_or_field_is_studied(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", ["my wife does yoga on mondays", "she does the dishes",
                                  "my son does his homework after tea"])
def test_doing_what_is_no_field_is_no_course(text):
    assert not {f for f in chat(text) if f[1] == "studies"}


@pytest.mark.parametrize(("text", "fact"), [
    ("我女儿罗欣怡今年高三 一诊考了548", ("女儿", "studies", "高三", False)),
    ("我儿子豆包今年九月上小学", ("儿子", "studies", "小学", False)),
    ("我妹妹在读高三", ("妹妹", "studies", "高三", False)),
    ("我外孙乐乐今年四年级在上海上学", ("外孙", "studies", "四年级", False)),
    ("我女儿小雨8岁读二年级", ("女儿", "studies", "二年级", False)),
    ("我现在大三下 软件工程的", ("user", "studies", "大三", False)),
])
def test_a_school_year_is_studied(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", ["我们是高中同学", "我高中的时候很胖", "他小学就会游泳",
                                  "我妈初一十五吃素 信佛的", "想写一段给学生的寄语 高二升高三",
                                  "三年级还没学这个"])
def test_a_school_past_a_lunar_date_or_a_class_taught_is_no_year(text):
    assert not {f for f in chat(text) if f[1] == "studies"}


@pytest.mark.parametrize(("text", "fact"), [
    ("我女儿罗欣怡考上重庆医科大学了", ("女儿", "studies", "重庆医科大学", False)),
    ("我儿子被大连理工录取了", ("儿子", "studies", "大连理工", False)),
    ("我妹考上岳阳一中了", ("妹妹", "studies", "岳阳一中", False)),
    ("我弟这礼拜去兰州理工报到 机械设计制造及其自动化", ("弟弟", "studies", "兰州理工", False)),
    ("我弟录取了 南昌大学计算机科学与技术！！我妈说要给他买电脑",
     ("弟弟", "studies", "南昌大学计算机科学与技术", False)),
])
def test_a_place_at_a_school_won_is_studied_there(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", ["考上公务员了", "他考上驾照了", "铁一中录取通知书到了！！",
                                  "我明天去公司报到"])
def test_an_exam_passed_is_no_school(text):
    assert not {f for f in chat(text) if f[1] == "studies"}
