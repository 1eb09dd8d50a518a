"""Who a clause is about when the chat names other people (issue 29): a person said but not
known, someone else's relative, a name's possessive, an aside in brackets. What they say
must not become the user's — pure, no Neo4j."""

from __future__ import annotations

import pytest
from test_extract_chat import chat


# Subjectless clauses after an unknown "she" / "they" go on about them, never the user.
@pytest.mark.parametrize("text", [
    "she's 68, type 2 diabetic, loves gardens and anything arty, not a fan of spicy food.",
    "shes called niamh, studies law at glasgow uni, from belfast originally, vegan, loves "
    "sally rooney",
    "can you plan 2 days for my mates parents, theyre coming up from leicester, both "
    "vegetarian, no car",
    "he's from lyon, runs a small bakery, allergic to peanuts",
])
def test_what_follows_an_unknown_person_is_not_the_users(text):
    assert not {f for f in chat(text) if f[0] == "user" and f[1] != "has_relation"}


@pytest.mark.parametrize("text", [
    "easter egg hunt ideas for kids where one kid is allergic to eggs lol",
    "need a cake recipe because a friend is allergic to nuts",
    "menu ideas for a bbq since some guests are vegetarian",
])
def test_someone_unnamed_after_a_subordinator_is_not_the_user(text):
    assert not {f for f in chat(text) if f[0] == "user"}


@pytest.mark.parametrize(("texts", "fact"), [
    (["my girl Hui Min allergic to prawn, last time eat hae bee hiam"],
     ("Hui Min", "allergic_to", "prawn", False)),
    (["my boy kauri is in the team so no pressure lol", "kauri cant have peanuts"],
     ("Kauri", "dietary_restriction", "peanuts", False)),
])
def test_my_girl_or_my_boy_with_a_name_is_that_person_not_the_user(texts, fact):
    found = chat(*texts)
    assert fact in found and not {f for f in found if f[0] == "user" and f[1] == fact[1]}


def test_what_the_user_says_before_a_subordinator_stays_the_users():
    assert ("user", "likes", "frisbee", True) in chat(
        "also had to quit frisbee bc the tutoring is wed evenings")


def test_a_thing_as_subject_does_not_silence_the_user():
    assert ("user", "uses_channel", "signal", False) in chat(
        "My WhatsApp is dead, reach me on Signal")


def test_she_after_a_names_possessive_is_that_person():
    found = chat("my wife kavya is great with the kids.",
                 "kavya's clinic is in indiranagar (she is a dentist at smile studio there).")
    assert ("wife", "works_as", "dentist", False) in found
    assert not {f for f in found if f[0] == "user" and f[1] == "works_as"}


@pytest.mark.parametrize(("text", "who"), [
    ("my friend Barb's husband Don had a stroke. He's vegetarian and hates hospitals.", "Don"),
    ("my sister's boyfriend Marco is vegan, he loves jazz", "Marco"),
])
def test_someone_elses_relative_is_neither_the_user_nor_their_relative(text, who):
    found = chat(text)
    said = {f for f in found if f[1] in ("diet", "likes")}
    assert said and all(f[0] == who for f in said), found


@pytest.mark.parametrize("texts", [
    ("my girlfriend kayleigh is lovely", "going fishing sunday with kayleighs dad ron"),
    ("my wife Carol is great", "carols dad is in hospital again, he's diabetic"),
    ("kayleighs mum is allergic to nuts",),  # a name no dictionary lists, known or not
])
def test_a_possessive_typed_without_its_apostrophe_is_someone_elses_relative(texts):
    """"kayleighs dad" is Kayleigh's father: not a dad of the user's, nor what he has."""
    found = chat(*texts)
    assert not {f for f in found if f[1] == "has_relation" and f[2] in {"dad", "mum"}}
    assert not {f for f in found if f[0] in {"dad", "mum", "user"} and f[1] in {
        "allergic_to", "has_condition", "diet"}}


def test_someone_elses_unnamed_relative_is_nobody_known():
    found = chat("my wife's mom is visiting, she loves gardens and hates spicy food")
    assert not {f for f in found if f[1] == "likes"}


@pytest.mark.parametrize(("text", "fact"), [
    ("me, jess and oliver (5, turning 6 in august, dinosaur obsessed, loves trains).",
     ("Oliver", "likes", "trains", False)),
    ("my mum (68, diabetic, not a fan of spicy food) is coming to stay",
     ("mum", "likes", "spicy food", True)),
    ("sam (my partner) is a chef and is offended on the cat's behalf lol",
     ("partner", "works_as", "chef", False)),
])
def test_an_aside_in_brackets_is_about_the_person_before_it(text, fact):
    found = chat(text)
    assert fact in found
    assert not {f for f in found if f[0] == "user" and f[1] in ("likes", "works_as")}


def test_an_aside_after_the_users_own_words_stays_the_users():
    found = chat("I'm vegetarian (10 yrs) and I love curry")
    assert {("user", "diet", "vegetarian", False), ("user", "likes", "curry", False)} <= found


@pytest.mark.parametrize("text", [
    "my mother in law lakshmi is flying in. she's strict vegetarian and she loves rice",
    "my mother-in-law lakshmi is flying in. she's strict vegetarian and she loves rice",
])
def test_an_in_law_typed_without_hyphens_is_not_the_mother(text):
    found = chat(text)
    assert ("mother-in-law", "likes", "rice", False) in found
    assert not {f for f in found if f[0] == "mother" or f[2] == "mother"}


@pytest.mark.parametrize(("text", "place"), [
    ("first week at the new job done. settled in a 1bhk in kondapur, balcony netting up",
     "Kondapur"),
    ("now we rent apartment in schiedam centrum, 3 rooms", "Schiedam Centrum"),
])
def test_where_someone_settled_or_rents_is_where_they_live(text, place):
    assert ("user", "lives_in", place, False) in chat(text)


# A name set apart (a comma, a full stop, a bracket) right before she / he is who the
# pronoun is, in lower case and with no relation said; a place, a thing or a word of the
# sentence's grammar there is nobody.
@pytest.mark.parametrize(("texts", "fact"), [
    (("so i met somebody. dana, shes a 4th grade teacher, met her at the game",),
     ("Dana", "works_as", "4th grade teacher", False)),
    (("met someone at the wall, her name is noor, shes a physio",),
     ("Noor", "works_as", "physio", False)),
    (("a guy from the hiking group asked me to dinner. greg. he's a retired firefighter",),
     ("Greg", "works_as", "firefighter (retired)", False)),
    (("callum, ma boy, 31, he's an electrician in paisley",),
     ("Callum", "works_as", "electrician", False)),
    (("femi from work (she's a senior staff nurse) got me running",),
     ("Femi", "works_as", "senior staff nurse", False)),
    (("its me and daniel's anniversary. me and daniel, he's a paramedic so rotas are hard",),
     ("Daniel", "works_as", "paramedic", False)),
    (("my grandson oscar, he turns 7 in march, he's allergic to peanuts",),
     ("grandson", "allergic_to", "peanuts", False)),
    (("dropped the car at the garage, Marek (he's a mechanic there) says it's the clutch",),
     ("Marek", "works_as", "mechanic", False)),
])
def test_a_name_set_apart_before_she_or_he_is_who_it_is(texts, fact):
    found = chat(*texts)
    assert fact in found
    assert not {f for f in found if f[0] == "user" and f[1] in {"works_as", "allergic_to"}}


@pytest.mark.parametrize("text", [
    "we went to Paris, she loved it, she's a nurse",
    "i love pizza, she's a chef though",
    "i pay for her insulin and meds (she's diabetic)",
    "the physio gave him exercises, he's a nurse",
    "ugh, he's a nurse",
    "due in august, first grandwean. she's a teacher",
])
def test_a_place_a_thing_or_a_word_before_she_or_he_names_nobody(text):
    assert not {f for f in chat(text) if f[1] in {"works_as", "has_condition"}}


def test_a_name_just_before_she_or_he_does_not_take_the_person_named_in_the_sentence():
    found = chat("my brother karthik finally left infosys, he got hired at flipkart")
    assert ("brother", "works_at", "flipkart", False) in found
    assert not {f for f in found if f[0].lower() == "infosys"}


@pytest.mark.parametrize("text", ["my husband is a very good cook",
                                  "my wife is a terrible driver"])
def test_a_judgement_of_how_someone_does_a_thing_is_no_job(text):
    assert not {f for f in chat(text) if f[1] == "works_as"}


@pytest.mark.parametrize(("text", "fact"), [
    ("my manager is called shona, shes class", ("manager", "name", "Shona", False)),
    ("my sister's name is emma and she's a nurse", ("sister", "works_as", "nurse", False)),
    ("my sister's name is emma and she's a nurse", ("sister", "name", "Emma", False)),
    ("my dog is called biscuit", ("dog", "name", "Biscuit", False)),
    ("our cat's name is luna", ("cat", "name", "Luna", False)),
])
def test_a_name_given_in_so_many_words_names_the_relative_or_pet(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", ["my boss is called in sick", "my dad's name is on the lease"])
def test_called_or_name_is_before_a_word_of_grammar_names_nobody(text):
    assert not {f for f in chat(text) if f[1] == "name"}


def test_a_job_someone_has_held_for_years_is_their_job():
    found = chat("my wife linda is retiring end of june, shes been the secretary at prince "
                 "of wales elementary for 27 yrs")
    assert ("wife", "works_as", "secretary", False) in found
    assert ("wife", "works_at", "prince of wales elementary", False) in found


@pytest.mark.parametrize("text", [
    "we adopted a cat!!! ginger boy, 2 years old, from RSPCA Leeds, named him Biscuit.",
    "got a pup, 10 weeks, from a rescue in leeds",
])
def test_where_a_pet_came_from_is_nobodys_origin(text):
    assert not {f for f in chat(text) if f[1] == "is_from"}


def test_a_name_opening_a_clause_with_what_they_told_is_not_the_person_before():
    found = chat("my mom Barb is home now, also Priya told me shes moving to Denver")
    assert ("mom", "plans_to", "move to Denver", False) not in found


def test_a_name_opening_a_clause_with_what_they_got_owns_it():
    found = chat("i work at kestrel now, Meera got a job at St James's Hospital")
    assert ("Meera", "works_at", "St James's Hospital", False) in found
    assert ("user", "works_at", "St James's Hospital", False) not in found


def test_they_after_several_people_named_in_the_sentence_is_none_of_them():
    found = chat("my brother Tommy got engaged to Kayla and my boyfriend Marcus is already "
                 "planning his suit lol, they just bought a house in Bay View")
    assert not {f for f in found if f[1] == "lives_in"}


def test_they_after_one_partner_named_in_the_sentence_is_that_partner():
    found = chat("my partner Sam and the kids love it here, they live in Leeds now")
    assert ("partner", "lives_in", "Leeds", False) in found
