"""English places typed in lower case whose names a dictionary also lists ("vancouver",
"perth"), and where someone lives said by the place they come to visit from."""

from __future__ import annotations

import pytest
from test_extract_chat import chat, readings

from graphmem.extract.en.lexicon import is_place_name
from graphmem.extract.en.shapes import is_place


@pytest.mark.parametrize("word", ["vancouver", "perth", "London", "denver", "chennai"])
def test_a_city_a_dictionary_lists_is_a_place(word):
    assert is_place_name(word) and is_place(word.lower())


@pytest.mark.parametrize("word", ["reading", "nice", "orange", "bed", "hospital", "work",
                                  "school", "george"])
def test_a_word_far_more_often_meant_otherwise_is_no_place(word):
    assert not is_place_name(word)


@pytest.mark.parametrize(("text", "fact"), [
    ("my sister alyssa is pregnant!!! she's in vancouver tho so i'm def flying out",
     ("sister", "lives_in", "Vancouver", False)),
    ("my sister carol (shes in ottawa so its mostly on me) agrees its time",
     ("sister", "lives_in", "Ottawa", False)),
    ("my mom lives in denver", ("mom", "lives_in", "Denver", False)),
    ("we moved to perth last year", ("user", "lives_in", "Perth", False)),
    ("my wife is from chennai", ("wife", "is_from", "Chennai", False)),
])
def test_a_home_or_origin_in_lower_case_that_a_dictionary_lists(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", [
    "my brother is in bed with the flu",
    "she's in hospital again",
    "he's in london for work this week",
    "need somewhere to live in plymouth for 8 weeks, cheap",
    "my mum is from work, she says hi",
])
def test_a_stay_a_visit_or_a_common_word_is_no_home(text):
    assert not {f for f in chat(text) if f[1] in {"lives_in", "is_from"}}


@pytest.mark.parametrize(("text", "fact"), [
    ("my sister niamh is coming over from london for paddys day",
     ("sister", "lives_in", "London", False)),
    ("my mother in law lakshmi is flying in from chennai on march 3",
     ("mother-in-law", "lives_in", "Chennai", False)),
    ("Susan is driving down from Ottawa with the children for Easter",
     ("Susan", "lives_in", "Ottawa", False)),
    ("my mum aroha is coming up from rotorua to stay for 2 weeks",
     ("mum", "lives_in", "Rotorua", False)),
])
def test_someone_visiting_from_a_place_lives_there(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", [
    "we're flying in from london on friday",          # the user's own trip
    "our son kyle is moving back from calgary!!",     # the home left
    "my dad came back from spain yesterday",          # a trip over
    "my mum is coming from work late tonight",        # no place
])
def test_a_trip_a_home_left_or_no_place_is_no_home(text):
    assert not {f for f in chat(text) if f[1] == "lives_in"}


def test_it_in_a_taste_is_the_last_thing_liked_not_the_last_place():
    found = readings("my sister niamh is coming over from london. what should we do in dublin "
                     "thats not crowded touristy stuff, i hate that")
    assert not {f for f in found if f[1] == "likes" and f[2] == "London"}
    assert ("user", "likes", "seafood", False) in chat(
        "my girlfriend hates seafood but I love it")
