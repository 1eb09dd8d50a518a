"""English chat as people type it to an assistant (issue 29): lower case, no apostrophes,
names after a relation, asks without a question mark, things that change. Each table
holds what must be read and what must not — pure, no Neo4j."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem._models import Action, Episode
from graphmem.extract import RuleExtractor
from graphmem.extract.candidate import ENGAGED, HOME_MOVED, JOB_END
from graphmem.facts.normalize import AliasTable
from graphmem.facts.predicates import PREDICATES, canonical_predicate

TS = datetime(2025, 1, 12, 16, 30, tzinfo=UTC)


def episode(*texts: str, event_id: str = "e", minutes: int = 0) -> Episode:
    start = TS + timedelta(minutes=minutes)
    actions = tuple(Action(role="user", content=t, ts=start + timedelta(minutes=3 * i),
                           msg_id=i + 1) for i, t in enumerate(texts))
    return Episode(event_id=event_id, user_id="u", session_id=event_id, start_time=start,
                   end_time=actions[-1].ts, participants=("u",), goal=texts[0],
                   actions=actions, result="", raw_span=(1, len(texts)))


def kept(found) -> set[tuple]:
    return {(c.entity, c.predicate, c.value, c.negated) for c in found
            if c.predicate in PREDICATES and c.confidence >= 0.7}


def chat(*texts: str) -> set[tuple]:
    """Facts of one episode, as consolidation keeps them (a fresh extractor: no names
    remembered from another test)."""
    return kept(RuleExtractor().extract(episode(*texts)))


def readings(*texts: str) -> set[tuple]:
    """Every candidate, generic readings and low confidence included."""
    return {(c.entity, c.predicate, c.value, c.negated)
            for c in RuleExtractor().extract(episode(*texts))}


def about_someone(found: set[tuple]) -> set[tuple]:
    return {f for f in found if f[1] != "has_relation"}


# -- spelling ----------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "fact"), [
    ("i dont eat pork", ("user", "dietary_restriction", "pork", False)),
    ("we dont eat red meat anymore", ("user", "dietary_restriction", "red meat", False)),
    ("honestly i cant eat shellfish", ("user", "dietary_restriction", "shellfish", False)),
])
def test_contractions_typed_without_apostrophes_are_read(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("texts", [
    ("shes allergic to cats", "my sister is great"),  # she: nobody named yet
    ("hes allergic to penicillin", "my dad came over"),
    ("theyre allergic to nuts",),
])
def test_a_bare_shes_or_theyre_is_not_the_user(texts):
    assert about_someone(chat(*texts)) == set()


@pytest.mark.parametrize("text", [
    'kayla was like "dad this is why we cant have nice things at all"',
    'my boss said "you should really take the manager job next year"',
    'can you tidy this: "I have worked at Acme for ten years and I love hiking"',
])
def test_long_quotes_are_someone_elses_words(text):
    assert {f for f in readings(text) if f[0] == "user" and f[1] != "has_relation"} == set()


@pytest.mark.parametrize("text", [
    "in google sheets how do i look up a sku",
    "how long do i boil a gammon joint",
    "whats the difference between a roth and a traditional ira",
    "who do i call about a broken water main",
])
def test_chat_asks_without_a_question_mark_give_no_fact(text):
    assert about_someone(readings(text)) == set()


# -- people and their names ----------------------------------------------------------------


@pytest.mark.parametrize(("text", "fact"), [
    ("my daughter kayla is 15 and loves volleyball", ("daughter", "name", "Kayla", False)),
    ("our cat pickle (9, ginger) hates the vet", ("cat", "name", "Pickle", False)),
    ("my buddy dale wants to go fishing", ("buddy", "name", "Dale", False)),
    ("my son jake plays hockey", ("son", "name", "Jake", False)),
    ("our dog waffles (3, lab mix) loves the beach", ("dog", "name", "Waffles", False)),
    ("my sister emily, she lives in leeds", ("sister", "name", "Emily", False)),
    ("my coworker jae is vegan", ("coworker", "name", "Jae", False)),
])
def test_a_name_typed_in_lower_case_after_a_relation_or_pet_names_them(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", [
    "my friend group is a mess",
    "my dad passed last year",
    "my mom literally cried when she heard",
    "my friend circle is small",
])
def test_a_word_after_a_relation_that_names_nobody_is_no_name(text):
    assert not {f for f in chat(text) if f[1] == "name"}


@pytest.mark.parametrize(("text", "facts"), [
    ("sam (my partner) is a chef",
     {("partner", "name", "Sam", False), ("partner", "works_as", "chef", False)}),
    ("mum (judith) loves gardening",
     {("mum", "name", "Judith", False), ("mum", "likes", "gardening", False)}),
    ("my brother (tom) lives in perth",
     {("brother", "name", "Tom", False), ("brother", "lives_in", "Perth", False)}),
])
def test_a_name_and_a_relation_in_brackets_name_the_relative_who_owns_the_clause(text, facts):
    got = chat(text)
    assert facts <= got
    assert {f for f in got if f[0] == "user"} <= {("user", "has_relation", r, False)
                                                  for r in ("partner", "mum", "brother")}


@pytest.mark.parametrize(("text", "fact"), [
    ("my friend Tom (a dentist) recommended it", ("friend", "works_as", "dentist", False)),
    ("my flatmate ollie (electrician apprentice, eats literally anything) is excited",
     ("flatmate", "works_as", "electrician apprentice", False)),
    ("I promised my daughter Susan, who is a pharmacist and a great worrier, to be careful",
     ("daughter", "works_as", "pharmacist", False)),
    ("my sister Jo, who's a nurse, said it was fine", ("sister", "works_as", "nurse", False)),
    ("my friend who's a nurse said it's fine", ("friend", "works_as", "nurse", False)),
    ("my neighbour who is a plumber fixed it", ("neighbour", "works_as", "plumber", False)),
])
def test_a_job_in_an_aside_or_a_who_clause_is_the_persons_named_before(text, fact):
    got = chat(text)
    assert fact in got
    assert not {f for f in got if f[0] == "user" and f[1] == "works_as"}


@pytest.mark.parametrize("text", ["my boss (a total nightmare) yelled", "who's a good boy",
                                  "I (a nurse) work nights"])
def test_an_aside_that_is_no_job_gives_none(text):
    assert not {f for f in chat(text) if f[1] == "works_as" and f[0] != "user"}


@pytest.mark.parametrize(("text", "fact"), [
    ("WE GOT A CAT. adopted her from the rspca yesterday. orange tabby, 2 years old, named "
     "her pappu (its a silly nickname lol).", ("cat", "name", "Pappu", False)),
    ("we have a labrador named max", ("labrador", "name", "Max", False)),
    ("adopted a puppy, called him biscuit", ("puppy", "name", "Biscuit", False)),
    ("we got a kitten and named it Luna", ("kitten", "name", "Luna", False)),
])
def test_a_pet_named_in_lower_case_or_after_it_was_got(text, fact):
    assert fact in readings(text)


def test_a_name_given_to_a_new_pet_is_not_the_earlier_ones():
    got = readings("I have a dog. we got a kitten and named it Luna")
    assert ("kitten", "name", "Luna", False) in got
    assert ("dog", "name", "Luna", False) not in got


def test_someone_elses_pet_lends_its_name_to_no_pet_of_the_users():
    assert not {f for f in readings("lola hates cats and greg has a cat named smokey")
                if f[1] == "name"}


@pytest.mark.parametrize(("text", "value"), [
    ("Instead I have signed up for a beginners' watercolour class on Wednesday afternoons",
     "watercolour"),
    ("i've taken up climbing", "climbing"), ("i took up golf last year", "golf"),
    ("took up fishing instead with kayleighs dad ron", "fishing"),
    ("started a pottery course", "pottery"),
    ("I'm so excited to tell you I started a weekend yoga class", "yoga"),
])
def test_a_pastime_taken_up_is_liked(text, value):
    assert ("user", "likes", value, False) in readings(text)


@pytest.mark.parametrize("text", [
    "sql question. i have a table of invoices and i need the running total per client",
    "pandas q: i have a dataframe of readings, want the weekly mean",
    "excel formula. i have a column of dates and need the weekday",
])
def test_a_technical_task_is_no_fact_of_the_users_life(text):
    assert not {f for f in readings(text) if f[0] == "user"}


def test_a_technical_task_still_says_what_the_rules_read():
    assert ("user", "works_at", "Deloitte", False) in readings(
        "python question. i work at Deloitte and need to parse a log file")


@pytest.mark.parametrize(("text", "fact"), [
    ("my daughter's allergic tae peanuts", ("daughter", "allergic_to", "peanuts", False)),
    ("i cannae eat gluten", ("user", "dietary_restriction", "gluten", False)),
    ("been goin tae the gym wi my pal every tuesday noo", ("user", "likes", "gym", False)),
])
def test_scots_and_dropped_g_spellings_are_read_as_english(text, fact):
    assert fact in readings(text)
    assert not {f for f in readings(text) if f[2] in {"tae", "wi", "goin", "noo"}}


@pytest.mark.parametrize(("text", "fact"), [
    ("me ma mary's in a home in derry now, shes diabetic", ("mum", "has_condition", "diabetes",
                                                           False)),
    ("aoife (other half) is a teacher", ("partner", "works_as", "teacher", False)),
    ("ma wife's got bad arthritis", ("user", "has_relation", "wife", False)),
    ("our mam's allergic to penicillin", ("mum", "allergic_to", "penicillin", False)),
    ("on her own since da passed", ("user", "has_relation", "dad", True)),
])
def test_irish_scots_and_northern_family_words_are_the_family(text, fact):
    assert fact in readings(text)


def test_a_verb_after_a_relative_is_no_name():
    assert not {f for f in readings("mam rang, shes got type 2 diabetes") if f[1] == "name"}


@pytest.mark.parametrize(("text", "fact"), [
    ("started running again, 3 times a week", ("user", "likes", "running", False)),
    ("we started bouldering together at a gym near work", ("user", "likes", "bouldering", False)),
    ("I've started guitar lessons on Saturdays", ("user", "likes", "guitar", False)),
    ("started pottery wheel classes at a studio in town", ("user", "likes", "pottery", False)),
    ("ive got really into swimming since the summer", ("user", "likes", "swimming", False)),
    ("been going climbing at the wall 3x a week", ("user", "likes", "climbing", False)),
    ("my neighbour dragged me to badminton and its fun", ("user", "likes", "badminton", False)),
    ("my sister talked me into pilates, tuesdays", ("user", "likes", "pilates", False)),
    ("my son started swimming lessons", ("son", "likes", "swimming", False)),
])
def test_a_pastime_begun_is_liked(text, fact):
    assert fact in readings(text)


@pytest.mark.parametrize("text", ["i started running the numbers on the mortgage",
                                  "i want to start running", "thinking i might start yoga",
                                  "before i started running i was 90kg",
                                  "i started the car and drove off"])
def test_a_pastime_not_begun_is_not_liked(text):
    assert not {f for f in readings(text) if f[1] == "likes" and not f[3]}


def test_going_out_for_a_pastime_as_a_habit_is_no_plan():
    assert not {f for f in readings("been going bouldering at the hive 3x a week")
                if f[1] == "plans_to"}


@pytest.mark.parametrize(("text", "fact"), [
    ("also i dropped yoga, no time", ("user", "likes", "yoga", True)),
    ("I've decided to stop tennis for good", ("user", "likes", "tennis", True)),
    ("i've decided not to go back to climbing", ("user", "likes", "climbing", True)),
    ("i quit yoga last month, too expensive", ("user", "likes", "yoga", True)),
    ("gave up running after my knee went", ("user", "likes", "running", True)),
    ("finally packed in the pottery class", ("user", "likes", "pottery", True)),
    ("stopped going to spin class", ("user", "likes", "spin", True)),
    ("i don't do crossfit anymore", ("user", "likes", "crossfit", True)),
    ("dropped out of the choir in march", ("user", "likes", "choir", True)),
    ("im done with bouldering tbh", ("user", "likes", "bouldering", True)),
    ("well i had to give up pickleball.", ("user", "likes", "pickleball", True)),
    ("my wife quit pilates", ("wife", "likes", "pilates", True)),
    ("i quit drinking last year", ("user", "dietary_restriction", "alcohol", False)),
])
def test_a_pastime_given_up_ends_the_like(text, fact):
    """The like ends: "sad news i packed in pottery" says nothing against pottery, so
    the version reads "no longer does pottery", not "does not like"."""
    assert fact in readings(text)


@pytest.mark.parametrize(("text", "sentence"), [
    ("sad news i packed in pottery this week :(", "user no longer does pottery"),
    ("I don't even miss the Emu Export", "user has given up Emu Export"),
])
def test_what_was_given_up_reads_as_given_up_not_disliked(text, sentence):
    said = {c.sentence for c in RuleExtractor().extract(episode(text)) if c.predicate == "likes"}
    assert said == {sentence}


@pytest.mark.parametrize(("text", "fact"), [
    ("also officially done with keto, it lasted about six weeks", ("user", "diet", "keto", True)),
    ("i quit keto last week", ("user", "diet", "keto", True)),
    ("gave up on being vegetarian lol", ("user", "diet", "vegetarian", True)),
    ("im off keto now", ("user", "diet", "keto", True)),
    ("my wife gave up being vegan", ("wife", "diet", "vegan", True)),
])
def test_a_diet_ended_is_no_longer_followed(text, fact):
    found = readings(text)
    assert fact in found
    assert not {f for f in found if f[1] == "works_at"}  # "quit keto" is no job left


@pytest.mark.parametrize("text", ["kelsey quit keto", "thinking of quitting keto",
                                  "im off to the vegan place"])
def test_a_diet_ended_by_someone_else_or_not_yet_is_not_the_users(text):
    assert not {f for f in readings(text) if f[1] == "diet"}


def test_what_someone_has_none_of_is_negated():
    assert ("user", "have", "car", True) in readings("honestly i have no car so the bus it is")
    assert ("user", "have", "car", False) in readings("i have a car")
    assert not {f for f in readings("we've got a no nuts in the house rule") if f[3]}


@pytest.mark.parametrize("text", ["i get along with literally everyone at work",
                                  "i work with everybody"])
def test_a_value_naming_nobody_in_particular_says_nothing(text):
    assert not {f for f in readings(text) if f[2].split()[-1] in {"everyone", "everybody"}}


@pytest.mark.parametrize("text", ["should i quit yoga?", "stopped running the numbers",
                                  "if i gave up running i'd go mad", "quit smoking finally",
                                  "honestly thinking im quitting rowing club",
                                  "i think im giving up ukulele. fingertips hurt",
                                  "manaia quit netball, wants to do waka ama now"])
def test_quitting_is_not_always_a_pastime_ended(text):
    assert not {f for f in readings(text) if f[1] in ("likes", "works_at")}


@pytest.mark.parametrize("text", ["I took up the offer", "it took up too much space",
                                  "booked a cooking class for her birthday",
                                  "Next month I'm starting a pottery class, so excited"])
def test_what_is_taken_up_or_booked_is_not_always_a_pastime(text):
    assert not {f for f in readings(text) if f[1] == "likes"}


@pytest.mark.parametrize(("text", "fact"), [
    ("my mum got taken in to hospital tonight, shes got copd and a bad flare up",
     ("mum", "has_condition", "copd", False)),
    ("my dad has afib", ("dad", "has_condition", "afib", False)),
])
def test_more_conditions_by_name(text, fact):
    assert fact in readings(text)


@pytest.mark.parametrize("text", ["we got a dog and named him after my grandad",
                                  "I have a cat. I call her the boss"])
def test_what_follows_named_is_not_always_a_name(text):
    assert not {f for f in readings(text) if f[1] == "name"}


@pytest.mark.parametrize(("text", "fact"), [
    ("mom loves gardening", ("mom", "likes", "gardening", False)),
    ("dad is a plumber", ("dad", "works_as", "plumber", False)),
])
def test_mom_or_dad_said_bare_is_the_users(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", ["she is a mum of two", "the dad jokes never stop",
                                  "a mom at school told me about it"])
def test_someone_elses_mom_or_dad_is_no_relative(text):
    assert chat(text) == set()


def test_names_given_carry_to_the_users_later_episodes():
    rules = RuleExtractor()
    first, later = rules.extract_many([
        episode("my daughter kayla is 15", event_id="a"),
        episode("kayla's still vegetarian, just eats eggs and cheese", event_id="b",
                minutes=60 * 24)])
    assert ("daughter", "name", "Kayla", False) in kept(first)
    assert ("daughter", "diet", "vegetarian", False) in kept(later)
    assert not {f for f in kept(later) if f[0] == "user" and f[1] == "diet"}
    told = RuleExtractor()
    told.remember_names("u", {"renee": "girlfriend"})  # from the stored alias table
    assert ("girlfriend", "diet", "vegan", False) in kept(told.extract(episode(
        "renee is vegan now")))


def test_the_alias_table_shows_a_named_relative_by_the_name_and_lists_the_names():
    table = AliasTable("u1")
    daughter = table.resolve("daughter", "event")
    assert daughter.name == "daughter"
    table.give_name(daughter.key, "Kayla")
    assert table.names[daughter.key] == "Kayla"
    table.give_name(table.resolve("dog", "event").key, "Biscuit")
    assert table.person_names() == {"kayla": "daughter", "biscuit": "dog"}
    assert table.resolve("kayla").entity_id == daughter.entity_id


# -- work and home, typed in lower case ------------------------------------------------------


@pytest.mark.parametrize(("texts", "facts"), [
    (["offer accepted! sous chef at alma cocina"],
     {("user", "works_as", "sous chef", False), ("user", "works_at", "alma cocina", False)}),
    (["i work part time at michaels"], {("user", "works_at", "michaels", False)}),
    (["got hired at flipkart"], {("user", "works_at", "flipkart", False)}),
    (["started at ridgeline on monday"], {("user", "works_at", "ridgeline", False)}),
    (["finally left infosys after 4 years"], {("user", "works_at", "infosys", True)}),
    (["took the studio marlo job"], {("user", "works_at", "studio marlo", False)}),
    # the job got, then what it is: "got the museum job!!! visitor experience assistant"
    (["got the museum job!!! visitor experience assistant, start 16 june"],
     {("user", "works_as", "visitor experience assistant", False)}),
])
def test_an_employer_typed_in_lower_case_after_words_that_say_so(texts, facts):
    assert facts <= chat(*texts)


@pytest.mark.parametrize(("texts", "facts"), [
    (["NORTHWIND OFFERED ME THE JOB. junior analyst, start date 4 august"],
     {("user", "works_at", "northwind", False), ("user", "works_as", "junior analyst", False)}),
    (["they offered me the role at Harbor Health!!"],
     {("user", "works_at", "Harbor Health", False)}),
    (["I got hired part-time at the Elmwood branch library, mornings"],
     {("user", "works_at", "Elmwood branch library", False)}),
    (["first 3 days at brightwater done, so tired"],
     {("user", "works_at", "brightwater", False)}),
    (["my wife Jo got the job!! she just accepted a head nurse role at the riverside clinic"],
     {("wife", "works_as", "head nurse", False), ("wife", "works_at", "riverside clinic", False)}),
    (["also hired sunita as junior accountant, she started monday"],
     {("Sunita", "works_as", "junior accountant", False)}),
    (["my friend Omar is great. omar earns more, he's a software dev at a bank"],
     {("friend", "works_as", "software dev", False)}),
])
def test_a_new_job_said_as_what_happened(texts, facts):
    """The job event, said the way people type it: offered, hired, the first days at a
    place, a role accepted, someone the user took on."""
    assert facts <= chat(*texts)


@pytest.mark.parametrize("text", [
    "if they offered me the job i'd take it", "my sister offered me a room",
    "hired him as a consultant", "i started at the gym last week",
])
def test_no_job_from_an_offer_that_is_not_one(text):
    assert not {f for f in chat(text) if f[1] in {"works_at", "works_as"}}


@pytest.mark.parametrize(("text", "firm"), [
    ("i own hill country lawn & landscape in new braunfels", "hill country lawn & landscape"),
    ("i own la palma taqueria on the west side", "la palma taqueria"),
    ("been with taff valley heating 9 years now, gas safe registered", "taff valley heating"),
])
def test_a_firm_owned_or_worked_with_for_years_is_the_employer(text, firm):
    assert ("user", "works_at", firm, False) in chat(text)


@pytest.mark.parametrize("text", ["been with sam 3 years now", "own goal lol",
                                  "i own a house in leeds", "been with the council 20 years",
                                  "give me some dinners that work for both of us mexican food",
                                  "whatever works for everyone in the family"])
def test_a_partner_a_house_or_a_phrase_is_no_firm(text):
    assert not {f for f in chat(text) if f[1] == "works_at"}


@pytest.mark.parametrize(("text", "fact"), [
    ("we close on a house in canal winchester june 13", ("user", "lives_in", "Canal Winchester",
                                                         False)),
    ("my mom lives alone in zanesville", ("mom", "lives_in", "Zanesville", False)),
    ("we moved to moncton in april", ("user", "lives_in", "Moncton", False)),
    ("bought a condo in bedford", ("user", "lives_in", "Bedford", False)),
    ("we're renting a flat in leith now", ("user", "lives_in", "Leith", False)),
])
def test_a_home_typed_in_lower_case_after_words_that_say_so(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize(("text", "place"), [
    ("our offer on a house in knowle got accepted on friday", "Knowle"),
    ("Two big updates! First, our offer on a condo in Dublin got ACCEPTED.", "Dublin"),
    ("OFFER ACCEPTED!! 3 bed in papakura, big section for the dog.", "Papakura"),
    ("IM IN!! got a 1 bed in salthill, 1350 a month", "Salthill"),
    ("so im getting my own 1 bedroom in leslieville!!", "Leslieville"),
    ("we rent a semi in east york. hes usually slow to reply", "East York"),
    # moved into, the place said before the home or after "into"
    ("moved into the ancoats flat last saturday (14 june)", "Ancoats"),
    ("moved in to leslieville!! and i adopted a cat", "Leslieville"),
    ("Moved into the Brixton flat today, boxes everywhere", "Brixton"),
    ("we're officially in the catford flat", "Catford"),
    ("me and daniel are officially in the catford flat since saturday", "Catford"),
    # found, took, signed for, won: a home and where it is
    ("panic weekend but we found a place in Roundhay, 2 bed flat, £1,095 pcm", "Roundhay"),
    ("we found a place in Brooklyn and moved yesterday", "Brooklyn"),
    ("I took 1BHK in HSR Layout, rent 22k, shifting on 8 June", "HSR Layout"),
    ("signed a lease!!! studio in leslieville near queen and jones, moving july 1",
     "Leslieville"),
    ("offer accepted. 3br in el cerrito, near the plaza bart", "El Cerrito"),
    ("WE WON THE AUCTION. a 3 bed weatherboard in coburg, big backyard", "Coburg"),
])
def test_a_home_taken_is_where_the_speaker_lives(text, place):
    assert ("user", "lives_in", place, False) in chat(text)


@pytest.mark.parametrize("text", [
    "putting an offer on a 3 bed semi in edgeley in stockport",  # not accepted (yet)
    "we got a table in the garden", "I got a place in the final",
    "we moved into a bigger office", "moved into the spare room while the kids visit",
    "moved in to the new house",  # (where, unsaid)
    "found a great place in soho for her birthday dinner",  # (no home talked of)
])
def test_an_offer_not_accepted_or_a_thing_got_is_no_home(text):
    assert not {f for f in chat(text) if f[1] == "lives_in"}


@pytest.mark.parametrize(("text", "moved"), [
    ("I took 1BHK in HSR Layout, rent 22k, shifting on 8 June", True),
    ("we found a place in Brooklyn and moved yesterday", True),
    ("signed a lease!!! studio in leslieville, moving july 1", True),
    ("we live in Leeds, I need a 7 day moving average in postgres", False),
    ("I live in Leeds and we moved the meeting to friday", False),
])
def test_a_home_said_with_a_move_is_marked_for_consolidation(text, moved):
    [home] = [c for c in RuleExtractor().extract(episode(text)) if c.predicate == "lives_in"]
    assert (home.value_kind == HOME_MOVED) is moved


@pytest.mark.parametrize(("text", "fact"), [
    ("we grew up in tucson. funny but sweet", ("user", "is_from", "Tucson", False)),
    ("i was born in glasgow but left at 9", ("user", "is_from", "Glasgow", False)),
    ("born and raised in leeds, moved south at 20", ("user", "is_from", "Leeds", False)),
    ("my dad grew up in merthyr", ("dad", "is_from", "Merthyr", False)),
])
def test_where_one_grew_up_typed_in_lower_case(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", ["i grew up in poverty", "she was born in march",
                                  "raised in foster care", "grew up in the countryside"])
def test_growing_up_in_a_state_or_a_month_is_no_origin(text):
    assert not {f for f in chat(text) if f[1] == "is_from"}


@pytest.mark.parametrize("text", ["we stayed in a cabin in gatlinburg", "left home at 18",
                                  "i'm in a meeting", "my mom is in hospital again"])
def test_a_stay_or_a_state_is_no_home(text):
    assert not {f for f in chat(text) if f[1] == "lives_in"}


# -- tastes that change, and what is no taste ---------------------------------------------


@pytest.mark.parametrize(("text", "facts"), [
    ("switched from coffee to green tea",
     {("user", "likes", "green tea", False), ("user", "likes", "coffee", True)}),
    ("athletic run wild is my thing now", {("user", "likes", "athletic run wild", False)}),
    ("true crime is my comfort genre", {("user", "likes", "true crime", False)}),
    ("sticking to kombucha for now", {("user", "likes", "kombucha", False)}),
    ("not going back to wine honestly", {("user", "likes", "wine", True)}),
    ("dont even miss modelo", {("user", "likes", "modelo", True)}),
])
def test_a_changed_preference_says_the_new_taste_and_ends_the_old(text, facts):
    assert facts <= chat(text)


@pytest.mark.parametrize("text", ["my mom is going to love the scarf",
                                  "my wife will hate the pendant", "my sister'll love the candles",
                                  "i'm going to love this job",
                                  "you'd love it", "mom is going to hate that"])
def test_a_guess_at_a_feeling_is_no_taste_and_no_plan(text):
    assert not {f for f in chat(text) if f[1] in {"likes", "plans_to"}}


# -- pets ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("texts", "facts"), [
    (["biscuit is a cockapoo, 3"],
     {("user", "has_pet", "cockapoo", False), ("cockapoo", "name", "Biscuit", False)}),
    (["we got a dog last week", "her name is chile"],
     {("user", "has_pet", "dog", False), ("dog", "name", "Chile", False)}),
    (["we adopted a cat", "his name is tinker"], {("cat", "name", "Tinker", False)}),
])
def test_a_pet_is_named_by_what_follows_it(texts, facts):
    assert facts <= chat(*texts)


# -- generic readings ------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["went to bed at 2", "took your advice", "im on £23k",
                                  "i have about 6 weeks"])
def test_generic_readings_need_a_value_that_names_a_thing(text):
    assert {f for f in readings(text) if f[0] == "user"} == set()


# -- who "she" and "he" are -------------------------------------------------------------------


@pytest.mark.parametrize(("texts", "fact"), [
    (["i play pickleball with my friend marlene, love it",
      "also my cat tinker (orange tabby, 12) has been bringing up hairballs, is that normal at "
      "his age", "marlene has a sleeve thing i'll ask her where she got it",
      "he hates the brush already lol"], ("cat", "likes", "brush", True)),
    (["my friend jo came over, she's vegan", "my dog rex is 3, he loves tennis balls"],
     ("dog", "likes", "tennis balls", False)),
    (["my coworker sam is great, he's a chef", "my sister said he is allergic to nuts"],
     ("coworker", "allergic_to", "nuts", False)),
])
def test_she_or_he_is_the_latest_one_known_to_be_of_that_gender(texts, fact):
    got = chat(*texts)
    assert fact in got
    assert not {f for f in got if f[1:] == fact[1:] and f[0] != fact[0]}


@pytest.mark.parametrize("texts", [
    ("my friend jo came over, i'll ask her", "he hates olives"),  # no "he" known
    ("my mom called", "he loves fishing"),
])
def test_she_or_he_of_the_other_gender_than_anyone_known_is_nobody(texts):
    assert {f for f in chat(*texts) if f[1] not in {"has_relation", "name"}} == set()


def test_a_second_name_given_to_a_relation_is_someone_else():
    got = readings("my friend marlene plays pickleball with me",
                   "my friend donna has been diagnosed with breast cancer. shes starting chemo "
                   "next week")
    assert ("friend", "name", "Marlene", False) in got
    assert ("friend", "name", "Donna", False) not in got
    assert ("Donna", "start", "chemo", False) in got
    assert not {f for f in got if f[0] == "friend" and "chemo" in f[2]}


def test_a_person_shown_by_a_name_takes_no_second_name():
    table = AliasTable("u1")
    friend = table.resolve("friend", "event")
    named = table.name_of(friend, "Marlene")
    assert named is not None and named[0].name == "Marlene"
    assert table.name_of(table.resolve("friend", "event"), "Donna") is None
    assert table.name_of(table.resolve("friend", "event"), "marlene") is not None
    user = table.resolve("user", "user")
    assert table.name_of(user, "Bev") is not None  # the user's own name


# -- what a clause states ----------------------------------------------------------------------


@pytest.mark.parametrize("texts", [
    ("my dad fell", "nothing broken but the doctors are saying he shouldnt go home without "
     "more support"),
    ("my mom has diabetes", "shes kinda freaking out bc she thinks she can never eat her own "
     "food again"),
    ("my partner sam is a chef", "lol sam literally asked if he can make pickle a jus."),
    ("draft a short email to a client saying im moving to an in house role so i wont be taking "
     "new work, and can recommend a designer",),
    ("i have to give hallett notice, can you write me a resignation letter",),
    ("priya's baby shower is saturday and i found out its a GIRL!!",),
    ("fixed mon-wed, plus super, and they were really nice about it.",),
    ("ok so quick one im on break.",),
    ("i get most groceries at the sobeys on portland st",),
    ("we always have too much parsley and coriander",),
])
def test_advice_questions_others_thoughts_requests_and_amounts_give_no_generic_reading(texts):
    assert {f for f in readings(*texts) if f[1] not in PREDICATES} == set()


@pytest.mark.parametrize(("texts", "reading"), [
    (["I have to take a break from pottery"], ("user", "take", "break from pottery", False)),
    (["we're in the condo!!"], ("user", "is_in", "condo", False)),
    (["i want to open a pottery studio"], ("user", "want_open", "pottery studio", False)),
    (["i told my boss i booked the flights"], ("user", "book", "flights", False)),
    (["We roasted marshmallows around the campfire."], ("user", "roasted", "marshmallows",
                                                        False)),
    (["I'm so excited to tell you I started a new blog"],
     ("user", "start", "new blog", False)),
    (["I really appreciate your support, It means a lot to me."],
     ("user", "appreciate", "support", False)),
    (["I've been into dancing since I was a kid"], ("user", "is_into", "dancing", False)),
    (["Keep going and we'll make a difference!"], ("user", "make", "difference", False)),
    (["I'm putting together an LGBTQ art show next month"],
     ("user", "put_together", "LGBTQ art show", False)),
])
def test_what_the_speaker_states_is_still_read_generically(texts, reading):
    assert reading in readings(*texts)


@pytest.mark.parametrize(("texts", "fact", "unwanted"), [
    (["my girlfriend renee is great", "she HATES roses says theyre cliche lol"],
     ("girlfriend", "likes", "roses", True), "roses says"),
    (["i have a peanut allergy"], ("user", "allergic_to", "peanut", False), None),
    (["steeped tea with milk, no sugar, thats my order now"],
     ("user", "likes", "steeped tea with milk", False), "sugar"),
    (["oat flat white - that's my go-to"], ("user", "likes", "oat flat white", False), None),
    (["my mom is diabetic so no sugar"], ("mom", "dietary_restriction", "sugar", False), None),
])
def test_values_end_where_the_next_clause_starts_and_an_order_is_a_taste(texts, fact, unwanted):
    got = chat(*texts)
    assert fact in got
    assert not {f for f in got if f[2] == unwanted}


@pytest.mark.parametrize("text", ["didnt have a single allergy issue, that phrase worked",
                                  "never had any allergy problems", "honestly we already love one",
                                  "i'm going up 4 times a week"])
def test_no_allergen_no_taste_no_plan_is_named(text):
    assert {f for f in chat(text) if f[1] in {"allergic_to", "likes", "plans_to"}} == set()


def test_liking_the_assistants_words_is_no_taste():
    def said(*turns: tuple[str, str]) -> set[tuple]:
        actions = tuple(Action(role=role, content=text, ts=TS + timedelta(minutes=i),
                               msg_id=i + 1) for i, (role, text) in enumerate(turns))
        return {(c.entity, canonical_predicate(c.predicate), c.value, c.negated)
                for c in RuleExtractor().extract(Episode(
                    event_id="e", user_id="u", session_id="s", start_time=TS, end_time=TS,
                    participants=("u",), goal="plan", actions=actions, result="",
                    raw_span=(1, 2)))}  # generic readings too: "like" is stored as likes

    reply = ("assistant", "Here is a plan with three milestones and a budget table.")
    assert not {f for f in said(("user", "plan my year"), reply,
                                ("user", "ok i like the milestones")) if f[1] == "likes"}
    assert ("user", "likes", "beatles", False) in said(
        ("user", "plan my year"), reply, ("user", "i like the beatles"))


# -- confidence ------------------------------------------------------------------------------


def test_a_candidate_is_never_surer_than_its_family_was_measured():
    from graphmem.extract.calibration import GENERIC, MEASURED, ceiling

    found = RuleExtractor().extract(episode(
        "I can't eat shellfish", "my party is next Wednesday, budget $300",
        "I mostly code in VS Code", "we explored nature last week"))
    assert found and all(c.confidence <= ceiling(c.predicate) for c in found)
    assert {(c.predicate, c.confidence) for c in found} >= {
        ("dietary_restriction", MEASURED["dietary_restriction"]), ("date", MEASURED["date"])}
    assert all(0.7 <= p <= 1 for p in MEASURED.values()) and 0.7 <= GENERIC <= 1
    assert not set(MEASURED) - set(PREDICATES)


def test_a_chinese_candidate_is_never_surer_than_its_family_was_measured_in_chinese():
    """The Chinese rules claimed 0.97 for a job or an allergy read from chats where they are
    right about 5 times in 6 (the chat sets' hand labels)."""
    from graphmem.extract.calibration import MEASURED_ZH, ceiling

    found = RuleExtractor().extract(episode(
        "我是会计 在招商银行上班", "我老婆对花生过敏", "下个月打算去成都玩"))
    assert found and all(c.confidence <= ceiling(c.predicate, chinese=True) for c in found)
    assert {(c.entity, c.predicate, c.value, c.confidence) for c in found} >= {
        ("老婆", "allergic_to", "花生", MEASURED_ZH["allergic_to"]),
        ("user", "plans_to", "去成都玩", MEASURED_ZH["plans_to"])}
    assert all(0.7 <= p <= 1 for p in MEASURED_ZH.values())
    assert not set(MEASURED_ZH) - set(PREDICATES)
    assert ceiling("likes") != ceiling("likes", chinese=True)  # each language its own


# -- things end ------------------------------------------------------------------------------


@pytest.mark.parametrize(("texts", "facts"), [
    (["we were gonna do myrtle beach in july but renee cant get the week off so we're doing "
      "gatlinburg labor day weekend instead"],
     {("user", "plans_to", "do myrtle beach", True),
      ("user", "plans_to", "gatlinburg labor day weekend", False)}),
    (["kids are gutted so we're doing camping in cornwall instead, 16th-22nd august"],
     {("user", "plans_to", "camping in cornwall", False)}),
    (["and we've replaced japan (for now) with a long weekend in leura, blue mountains"],
     {("user", "plans_to", "japan", True), ("user", "plans_to", "long weekend in leura", False)}),
    (["ok so tenerife is officially cancelled, we lost the deposit"],
     {("user", "plans_to", "tenerife", True)}),
    (["the wedding's been called off"], {("user", "plans_to", "wedding", True)}),
    (["we cancelled japan."], {("user", "plans_to", "japan", True)}),
])
def test_a_plan_called_off_or_replaced_ends_and_the_new_one_starts(texts, facts):
    assert facts <= chat(*texts)


@pytest.mark.parametrize("text", ["my flight got cancelled", "class was cancelled today",
                                  "we're doing it instead", "the meeting's been called off"])
def test_what_is_cancelled_but_no_plan_ends_none(text):
    assert not {f for f in chat(text) if f[1] == "plans_to"}


@pytest.mark.parametrize(("texts", "rel"), [
    (["my boyfriend nikhil is in boston", "nikhil and i ended things on saturday."], "boyfriend"),
    (["my girlfriend and i broke up last month"], "girlfriend"),
    (["i broke up with my boyfriend"], "boyfriend"),
    (["my husband is a welder", "we split up in may"], "husband"),
    (["my ex-wife and i got divorced in 2019"], "wife"),
])
def test_a_relationship_that_ended_is_no_longer_held(texts, rel):
    got = chat(*texts)
    assert ("user", "has_relation", rel, True) in got
    if len(texts) == 1:
        assert ("user", "has_relation", rel, False) not in got


@pytest.mark.parametrize("texts", [
    ("my sister and her husband split up",),
    ("my husband is great", "we broke up the fight between the dogs"),
    ("we split up the bill",),
])
def test_someone_elses_breakup_or_a_split_bill_ends_nothing(texts):
    assert not {f for f in chat(*texts) if f[1] == "has_relation" and f[3]}



def engagements(*texts: str) -> set[str]:
    return {c.value for c in RuleExtractor().extract(episode(*texts)) if c.value_kind == ENGAGED}


@pytest.mark.parametrize(("text", "word"), [
    ("big news, we got engaged on saturday!!", "engaged"),
    ("she cried, I cried. so now we're engaged lol", "engaged"),
    ("I'm officially engaged!!!", "engaged"),
    ("i proposed to priya on the beach and she said yes", "fiancée"),
    ("HE PROPOSED at the top of the eiffel tower, down on one knee, and I said yes", "engaged"),
    ("did it. asked tom at dinner with the ring in my pocket, he said yes!!", "fiancé"),
])
def test_the_users_own_engagement_is_read(text, word):
    assert engagements(text) == {word}


@pytest.mark.parametrize("text", [
    "my sister got engaged to owen, he proposed in the rain",
    "my brother callum is engaged to aimee now, wedding in bali",
    "the landlord agreed to 50/50 on the repairs, she said yes lol",
    "they offered me the job and i said yes on the phone",
    "the kids were so engaged in the lesson today",
])
def test_someone_elses_engagement_or_another_yes_is_no_engagement(text):
    assert not engagements(text)


# -- hobbies, dislikes, the user's own name --------------------------------------------------


@pytest.mark.parametrize(("texts", "fact"), [
    (["i play pickleball tuesday and thursday mornings at the sportsplex with my friend "
      "marlene, love it"], ("user", "likes", "pickleball", False)),
    (["also started playing sunday soccer in humboldt park with dev, coed rec league"],
     ("user", "likes", "soccer", False)),
    (["the guys from work got me into their tuesday night bowling league"],
     ("user", "likes", "bowling league", False)),
    (["i went to the badminton drop-in last thursday and it was SO fun"],
     ("user", "likes", "badminton", False)),
    (["i joined a running club"], ("user", "likes", "running", False)),
    (["I started playing acoustic guitar about five years ago"],
     ("user", "likes", "acoustic guitar", False)),
    (["my daughter plays volleyball"], ("daughter", "likes", "volleyball", False)),
    # a pastime as a habit, by how often it is done
    (["started doing the cooks river parkrun on saturdays, its a 10 min walk"],
     ("user", "likes", "cooks river parkrun", False)),
    (["been doing yoga at a studio on queen east instead, 3x a week"],
     ("user", "likes", "yoga", False)),
    (["my husband has been doing pilates twice a week, and i go running"],
     ("husband", "likes", "pilates", False)),
    (["also joined a filipino choir at st chad's"], ("user", "likes", "filipino choir", False)),
])
def test_what_someone_does_for_fun_is_a_taste_of_theirs(texts, fact):
    got = chat(*texts)
    assert fact in got
    assert not {f for f in got if f[1:] == fact[1:] and f[0] != fact[0]}  # not the friend's


@pytest.mark.parametrize("text", ["i play it safe", "i played with the kids all day",
                                  "Playing and singing let me express myself - love it!",
                                  "i'm playing catch-up at work",
                                  "i've been doing overtime every weekend and i hate it",
                                  "started doing my taxes every evening lol",
                                  "i've been taking the bus every morning"])
def test_playing_along_or_working_overtime_is_no_hobby(text):
    assert not {f for f in chat(text) if f[1] == "likes" and not f[3]}


@pytest.mark.parametrize(("text", "fact"), [
    ("and no coriander in anything pls, tastes like soap to me",
     ("user", "dietary_restriction", "coriander", False)),
    ("no onions in it", ("user", "dietary_restriction", "onions", False)),
    ("oh and nothing spicy please i cant handle any heat at all",
     ("user", "dietary_restriction", "spicy", False)),
])
def test_a_food_kept_out_of_everything_is_a_restriction(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", ["no rush at all", "no worries at all", "nothing fancy please"])
def test_no_rush_and_no_worries_keep_nothing_out(text):
    assert chat(text) == set()


@pytest.mark.parametrize(("texts", "name"), [
    (["yeah go. im tomas btw."], "Tomas"),
    (["im bev macisaac, 66, retired from canada post"], "Bev Macisaac"),
    (["i want a refund or a date", "sign it rosie hughes"], "Rosie Hughes"),
])
def test_the_users_name_typed_in_lower_case(texts, name):
    assert ("user", "name", name, False) in chat(*texts)


@pytest.mark.parametrize("text", ["im gutted", "im prediabetic now", "im knackered, 38",
                                  "I'm keto, so keep the carbs low", "im back btw",
                                  "sign it from the whole team"])
def test_a_state_or_a_diet_is_no_name(text):
    assert not {f for f in chat(text) if f[1] == "name"}


@pytest.mark.parametrize(("texts", "fact"), [
    (["my girlfriend renee is great", "renee is TERRIFIED of heights so no skybridge"],
     ("girlfriend", "likes", "heights", True)),
    (["i'm scared of flying"], ("user", "likes", "flying", True)),
    (["its just black coffee in the morning and la croix now"],
     ("user", "likes", "black coffee in the morning", False)),
    (["im on sparkling water w lime now"], ("user", "likes", "sparkling water w lime", False)),
    (["we're sticking to kombucha"], ("user", "likes", "kombucha", False)),
])
def test_fear_is_a_dislike_and_what_is_had_now_a_taste(texts, fact):
    assert fact in chat(*texts)


@pytest.mark.parametrize("text", ["its just me now", "I'm on keto right now, under 20g a day",
                                  "she was scared of the dog"])
def test_no_taste_in_company_a_diet_or_someone_unnamed(text):
    assert not {f for f in chat(text) if f[1] == "likes"}


def test_back_from_a_trip_planned_before_ends_that_plan():
    rules = RuleExtractor()
    planned, back, elsewhere, shift = rules.extract_many([
        episode("kids are gutted so we're doing camping in cornwall instead", event_id="a"),
        episode("back from cornwall!! best week ever honestly", event_id="b", minutes=9000),
        episode("back from cdmx!!! alyssa cried at casa azul", event_id="c", minutes=9100),
        episode("just got home from shift and the dog ate the trash", event_id="d",
                minutes=9200)])
    assert ("user", "plans_to", "camping in cornwall", False) in kept(planned)
    assert ("user", "plans_to", "camping in cornwall", True) in kept(back)
    assert not {f for f in kept(elsewhere) | kept(shift) if f[1] == "plans_to"}


@pytest.mark.parametrize(("text", "fact"), [
    ("also maisie has a peanut allergy (epipen, the works)", ("Maisie", "allergic_to", "peanut",
                                                              False)),
    ("priya is vegetarian, and now pregnant", ("Priya", "diet", "vegetarian", False)),
    ("tasha is the other receptionist", ("Tasha", "works_as", "other receptionist", False)),
])
def test_a_name_typed_in_lower_case_opening_a_clause_is_someone(text, fact):
    got = chat(text)
    assert fact in got
    assert not {f for f in got if f[0] == "user"}


@pytest.mark.parametrize("text", ["cellvera is a biotech startup", "tmrw is my birthday",
                                  "sobeys has the best bread", "honestly is fine"])
def test_a_firm_a_shop_or_chat_shorthand_opening_a_clause_is_nobody(text):
    opening = text.split()[0]  # (a birthday said for tmrw is a date, of no one named tmrw)
    assert not {f for f in chat(text) if f[1] not in {"has_relation", "date"}}
    assert not {f for f in chat(text) if f[0].lower() == opening}


# -- dates that were said ----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "fact"), [
    ("jen's hen do is booked!! bath, saturday 18th october, spa + dinner",
     ("dinner", "date", "2025-10-18", False)),
    ("my interview is on tuesday 6th may", ("interview", "date", "2025-05-06", False)),
    ("my interview is on the 18th of october", ("interview", "date", "2025-10-18", False)),
    ("Our 10th anniversary is on Feb 14, 2027", ("anniversary", "date", "2027-02-14", False)),
    ("my party is next Wednesday", ("party", "date", "2025-01-15", False)),
])
def test_a_date_is_the_one_said_weekday_and_day_of_month_together(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", ["ava's 9th birthday is saturday the 12th",
                                  "doing a party saturday 26th"])
def test_a_weekday_that_is_not_the_day_of_month_said_gives_no_date(text):
    assert not {f for f in chat(text) if f[1] == "date"}


# -- things end: a plan or a one-off for a time said is over once that time is past -------


def _ends(text: str) -> dict[str, datetime | None]:
    """Each reading's value → until when it holds (TS is Sunday 12 January 2025)."""
    return {c.value: c.valid_until for c in RuleExtractor().extract(episode(text))}


@pytest.mark.parametrize(("text", "value", "until"), [
    ("im going to run the lake harriet half marathon on march 9", "lake harriet",
     datetime(2025, 3, 10, tzinfo=UTC)),                      # a one-off read generically
    ("we're going camping at split rock next week", "camping at split rock",
     datetime(2025, 1, 20, tzinfo=UTC)),                      # a plan for next week
    ("I'm starting a pottery class next week", "pottery class",
     datetime(2025, 1, 20, tzinfo=UTC)),
])
def test_a_plan_or_one_off_ahead_holds_until_its_time(text, value, until):
    ends = _ends(text)
    assert value in ends, ends
    assert ends[value] == until


@pytest.mark.parametrize(("text", "value"), [
    ("im starting chemo next week", "chemo"),                   # a state begins then
    ("I switched to day shift starting feb 3", "day shift"),    # so does this
    ("I work saturdays at the bookshop", "saturdays"),          # every week, no one day
    ("I'm going to learn python", "learn python"),              # no time said
])
def test_what_begins_recurs_or_has_no_time_does_not_end(text, value):
    ends = _ends(text)
    assert value in ends, ends
    assert ends[value] is None


@pytest.mark.parametrize(("text", "fact"), [
    ("my late husband Ray built this deck", ("user", "has_relation", "late husband", False)),
    ("My late mum was a seamstress", ("user", "has_relation", "late mum", False)),
    ("my grandad passed away in march", ("user", "has_relation", "late grandad", False)),
    ("my wife died three years ago", ("user", "has_relation", "wife", True)),
    ("my brother passed last spring", ("user", "has_relation", "brother", True)),
])
def test_a_relative_who_died_is_the_users_late_one_not_a_current_relation(text, fact):
    found = chat(text)
    assert fact in found
    assert not {f for f in found if f[1] == "has_relation" and not f[3] and f[2] in {
        "husband", "mum", "grandad", "wife", "brother"}}


@pytest.mark.parametrize("text", ["my mom passed her driving test",
                                  "my dog passed his obedience class"])
def test_passing_a_test_is_no_death(text):
    assert not {f for f in chat(text) if f[3]}


@pytest.mark.parametrize(("text", "value"), [
    ("we quit the co-op last month", "co-op"),
    ("i sold my e-bike", "e-bike"),
])
def test_a_hyphenated_word_is_one_value(text, value):
    assert value in {r[2] for r in readings(text)}


def test_a_day_just_past_said_without_a_year_is_no_date_next_year():
    assert not {f for f in chat("my surgery was on jan 9th, all went fine") if f[1] == "date"}
    assert ("exam", "date", "2025-01-20", False) in chat("my exam is on jan 20th")
    assert ("wedding", "date", "2026-01-03", False) in chat(
        "the wedding is on jan 3rd 2026, can you help")


def test_a_late_relative_is_a_person_of_their_own_who_takes_a_name():
    table = AliasTable("u1")
    wife = table.resolve("wife", "event")
    late = table.resolve("late wife", "event")
    assert late.key != wife.key and table.kinds[late.key] == "person"
    assert table.resolve("late dad", "event").key == table.resolve("late father", "event").key
    named = table.name_of(late, "Marlene")
    assert named is not None and named[0].name == "Marlene"
    snack = table.resolve("late night snack")
    assert table.kinds[snack.key] == "thing"  # "late" before what is no relative: no one


def test_a_name_then_a_bare_relation_in_brackets_owns_the_clause():
    found = chat("tom (husband) is vegetarian so dinners need to work for him")
    assert ("husband", "diet", "vegetarian", False) in found
    assert ("user", "diet", "vegetarian", False) not in found


@pytest.mark.parametrize(("text", "fact"), [
    ("no peanuts in the house, my daughter's allergic", ("daughter", "allergic_to", "peanuts")),
    ("no shellfish at all please, my husband is allergic", ("husband", "allergic_to", "shellfish")),
])
def test_a_food_kept_out_for_someones_allergy_is_their_allergen_not_the_users_diet(text, fact):
    found = chat(text)
    assert (*fact, False) in found
    assert not {f for f in found if f[0] == "user" and f[1] == "dietary_restriction"}


def test_she_after_two_people_met_together_one_of_unknown_gender_is_nobody():
    found = chat("mum is coming to stay with us, ravi is taking leave to be with dad so she "
                 "can rest. she's 68, type 2 diabetic, loves gardens")
    assert not {f for f in found if f[1] in {"has_condition", "likes"}}


@pytest.mark.parametrize("text", ["first week working for meself done",
                                  "im self employed so no pension just what ive saved"])
def test_working_for_oneself_is_being_self_employed(text):
    found = chat(text)
    assert ("user", "works_as", "self-employed", False) in found
    assert not {f for f in found if f[1] == "works_at"}


@pytest.mark.parametrize("text", ["I do enjoy myself at the club", "i cant stand the stuff",
                                  "thinking if i should go self employed"])
def test_a_pronoun_or_a_stand_in_word_is_no_value(text):
    assert not {f for f in chat(text) if f[1] in {"likes", "works_as", "works_at"}}


@pytest.mark.parametrize(("text", "left"), [
    ("quit nero yesterday (3 may) 😅 i cant do 6am shifts n revise", "nero"),
    ("took the paynest offer. joining 16 june. resigned at routely yesterday", "routely"),
    ("GOT THE JOB!!! handed my notice in at h&c today, start date is monday 9th june", "h & c"),
    ("did my last shift at kembers on the 12th, they gave me a card", "kembers"),
    ("need to resign from northway freight, i have 4 weeks notice in my contract",
     "northway freight"),
    ("can you help me write a resignation letter, 2 weeks notice, last day may 9", "job"),
    ("big decision. last day july 31, going freelance ux from aug 1", "job"),
])
def test_a_job_left_is_read_as_the_end_of_one(text, left):
    ended = {c.value for c in RuleExtractor().extract(episode(text))
             if c.value_kind == JOB_END and c.negated and c.entity == "user"}
    assert ended == {left}


@pytest.mark.parametrize("text", [
    "thinking about leaving hallett honestly. 7 years there", "also i quit pottery lol",
    "rosie last day today, cry cry all of us", "On our last day we swam at the lagoon",
    "Last week, my grandma passed away.", "now i need to give notice on my room",
    "leaving chicago friday morning, we like hiking", "should i quit my job?",
])
def test_no_job_is_left_by_a_thought_a_pastime_or_someone_elses_last_day(text):
    assert not [c for c in RuleExtractor().extract(episode(text)) if c.value_kind == JOB_END]


@pytest.mark.parametrize(("texts", "said"), [
    (["wife carol says i need a hobby before i drive her nuts."],
     {("user", "has_relation", "wife", False), ("wife", "name", "Carol", False)}),
    (["Wife Meera is a pharmacist at Boots"],
     {("wife", "name", "Meera", False), ("wife", "works_as", "pharmacist", False)}),
    (["hubby and I are off to rome"], {("user", "has_relation", "husband", False)}),
])
def test_a_spouse_opening_a_clause_without_my_is_the_speakers(texts, said):
    assert said <= readings(*texts)


def test_a_spouse_after_a_line_break_is_still_whose_the_line_before_says():
    found = readings("My son David lives in Calgary with his\nwife Priya and my granddaughter "
                     "Chloe, who is three.")
    assert ("user", "has_relation", "wife", False) not in found


def test_gf_for_gluten_free_opening_a_clause_is_no_girlfriend():
    found = readings("jess cant have gluten so the cake has to be GF. GF or she wont get a slice")
    assert not {f for f in found if f[1] == "has_relation"}


def test_a_name_learned_so_owns_its_possessive_typed_without_apostrophe():
    found = readings("wife carol says i need a hobby.",
                     "her mom jenny had one from carols dad and ava always asks about it")
    assert ("user", "has_relation", "dad", False) not in found


def test_a_supervisor_is_not_the_manager():
    # "my manager bec" at the cafe and "my supervisor dr kate lindqvist" at the university
    # were one entity, so Bec became the supervisor's name
    table = AliasTable("u1")
    assert table.resolve("manager", "event").key == table.resolve("boss", "event").key
    assert table.resolve("supervisor", "event").key != table.resolve("manager", "event").key
