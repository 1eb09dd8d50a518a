"""English health conditions (issue 29: key facts of chat histories): who has what, said as
people type it — pure, no Neo4j."""

from __future__ import annotations

import pytest
from test_extract_chat import chat


@pytest.mark.parametrize(("text", "fact"), [
    ("my dad has gout so no red meat", ("dad", "has_condition", "gout", False)),
    ("I was diagnosed with asthma last year", ("user", "has_condition", "asthma", False)),
    ("my mum is diabetic", ("mum", "has_condition", "diabetes", False)),
    ("my husband ron has type 2 diabetes since 2019", ("husband", "has_condition",
                                                       "type 2 diabetes", False)),
    ("doctor says i am prediabetic", ("user", "has_condition", "prediabetes", False)),
    ("ugh my hay fever is killing me this week", ("user", "has_condition", "hay fever", False)),
    ("i dont have diabetes, just watching sugar", ("user", "has_condition", "diabetes", True)),
    ("my son is autistic and loves trains", ("son", "has_condition", "autism", False)),
])
def test_a_condition_is_stored_on_whoever_has_it(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", [
    "do you know if gout medication is safe with ibuprofen",
    "my asthma meds ran out, where can i get more",  # the medicine, no new condition said
    "can you write a blog post about living with diabetes",
    "maybe I have asthma? I cough a lot at night",
])
def test_a_condition_talked_about_is_not_one_someone_has(text):
    assert not {f for f in chat(text) if f[1] == "has_condition"}


def test_he_after_the_parents_is_not_them():
    found = chat("im cooking for him at my parents in perth, but hes got gout and loves food")
    assert not {f for f in found if f[0] == "parents"}
