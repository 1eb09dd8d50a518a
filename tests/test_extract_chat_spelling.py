"""Chat spelling read as meant: a dropped g ("movin", "expectin"), and pastimes as chat
names them ("five a side")."""

from __future__ import annotations

import pytest
from test_extract_chat import chat, readings

from graphmem.extract.en.spelling import normalize, normalize_mapped


@pytest.mark.parametrize(("said", "meant"), [
    ("shona's expectin, due in august", "shona's expecting, due in august"),
    ("we're movin to lisburn", "we're moving to lisburn"),
    ("hes home n waggin", "he's home n wagging"),
    ("quit the ropin jackpots", "quit the roping jackpots"),
])
def test_a_dropped_g_is_put_back(said, meant):
    assert normalize(said) == meant
    text, where = normalize_mapped(said)
    assert text == meant and len(where) == len(text)


@pytest.mark.parametrize("said", ["justin and kevin came", "robin and colin", "Dustin came",
                                  "the cabin in the basin", "begin again"])
def test_names_and_words_ending_in_in_stay(said):
    assert normalize(said) == said
    assert normalize_mapped(said)[0] == said


def test_a_word_with_its_g_dropped_is_no_name():
    assert not {f for f in chat("shona's expectin, due in august. she's a primary teacher")
                if f[0] == "Expectin"}


@pytest.mark.parametrize(("text", "value"), [
    ("tuesdays are out anyway im playin five a side at the olympia", "five a side"),
    ("i play 5-a-side on wednesdays", "5-a-side"),
])
def test_five_a_side_is_a_pastime(text, value):
    assert ("user", "likes", value, False) in readings(text)


def test_roped_into_a_task_is_no_pastime():
    assert not {f for f in readings("shes roped me into writin the questions for the quiz")
                if f[1] == "likes"}
    assert ("user", "likes", "pilates", False) in readings("my sister roped me into pilates")

