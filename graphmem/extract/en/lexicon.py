"""English words as a dictionary knows them: the word lists of spaCy's own English
lemmatizer (WordNet's nouns, verbs, adjectives and adverbs), loaded with the model.

Chat is typed in lower case, so a name is no longer told by its capital ("my daughter
kayla", "our cat pickle"): a word no dictionary lists is a name ("kayla", "nikhil"), a
word it lists may still be one ("dale", "pickle") when the sentence's shape says so.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from graphmem.text.language import english_nlp


@cache
def _tables() -> dict[str, frozenset[str]]:
    lookups = english_nlp().get_pipe("lemmatizer").lookups
    index, irregular = lookups.get_table("lemma_index"), lookups.get_table("lemma_exc")
    tables = {pos: frozenset(index[pos]) for pos in ("noun", "verb", "adj", "adv")}
    tables["forms"] = frozenset(form for pos in ("noun", "verb", "adj", "adv")
                                for form in irregular.get(pos, {}))  # "went", "children"
    tables["verb_forms"] = frozenset(irregular.get("verb", {}))  # "went", "took"
    return tables


def lemmas(low: str) -> set[str]:
    """The lemmas a regular ending may leave: "cried" → "cry", "loved" → "love"."""
    forms = {low}
    for ending, base in (("ies", "y"), ("ied", "y"), ("es", ""), ("s", ""), ("ed", ""),
                         ("ed", "e"), ("d", ""), ("ing", ""), ("ing", "e"), ("er", ""),
                         ("est", ""), ("ly", ""), ("ily", "y")):
        if low.endswith(ending) and len(low) > len(ending) + 1:
            forms.add(low[:-len(ending)] + base)
    return forms


def is_word(word: str) -> bool:
    """Is ``word`` (or the lemma a regular ending leaves) an English word?"""
    tables = _tables()
    return any(form in table for table in tables.values() for form in lemmas(word.lower()))


def is_verb(lemma: str) -> bool:
    """Is ``lemma`` an English verb — or a form of one spaCy left as it was ("roasted")?"""
    low = lemma.lower()
    return low in {"be", "have", "do"} or low in _tables()["verb_forms"] or any(
        form in _tables()["verb"] for form in lemmas(low))


def is_irregular_past(word: str) -> bool:
    """Is ``word`` an irregular form of a verb ("rang", "went", "took")?"""
    return word.lower() in _tables()["verb_forms"]


def is_noun(word: str) -> bool:
    """Is ``word`` (or its singular) a noun a dictionary lists ("bowling", "aquafit" not)?
    A word no dictionary lists may still be one: names of sports and games are coined."""
    return any(form in _tables()["noun"] for form in lemmas(word.lower())) or not is_word(word)


def is_adjective(word: str) -> bool:
    return word.lower() in _tables()["adj"]


def verbs() -> frozenset[str]:
    return _tables()["verb"]


@cache
def _place_names() -> frozenset[str]:
    text = Path(__file__).with_name("place_names.txt").read_text(encoding="utf-8")
    return frozenset(word for line in text.splitlines() if not line.startswith("#")
                     for word in line.split())


def is_place_name(phrase: str) -> bool:
    """Is ``phrase`` the name of a country, US state or large city that a dictionary lists
    as a word too ("vancouver", "perth", "leeds" — WordNet has them; see
    ``scripts/make_place_names.py``)?"""
    return phrase.lower() in _place_names()
