"""Offline fact extraction, entity normalization and conflict decisions — pure, no Neo4j."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem._models import Action, Episode
from graphmem.conflict import (
    Create,
    CurrentVersion,
    Historic,
    NewVersion,
    Reverify,
    Supersede,
    decide,
)
from graphmem.extract import Candidate, RuleExtractor
from graphmem.normalize import AliasTable, lexicon_key
from graphmem.predicates import canonical_predicate, relationship_type, safe_predicate

TS = datetime(2025, 1, 12, 16, 30, tzinfo=UTC)  # a Sunday
X = RuleExtractor()


def facts_of(*texts: str, goal: str = "") -> set[tuple]:
    actions = tuple(Action(role="user", content=t, ts=TS) for t in texts)
    episode = Episode(event_id="e", user_id="u", session_id="s", start_time=TS, end_time=TS,
                      participants=("u",), goal=goal or texts[0], actions=actions, result="",
                      raw_span=(1, len(texts)))
    return {(c.entity, c.predicate, c.value, c.negated) for c in X.extract(episode)}


def test_the_articles_birthday_conversation_gives_its_four_facts():
    got = facts_of("帮我规划下周三的生日聚会，女朋友喜欢玫瑰，预算500以内。",
                   "在家就行，大概8个人，她不吃香菜。", goal="规划下周三的生日聚会")
    assert {("女朋友", "likes", "玫瑰", False), ("女朋友", "dietary_restriction", "香菜", False),
            ("聚会", "budget", "500以内", False), ("聚会", "date", "2025-01-15", False)} <= got


def test_the_same_conversation_in_english_gives_the_same_four_facts():
    got = facts_of("Can you help me plan a birthday party next Wednesday? My girlfriend likes "
                   "roses, budget under $500.", "At home, about 8 people. She doesn't eat "
                   "coriander.", goal="plan a birthday party next Wednesday")
    assert {("girlfriend", "likes", "roses", False),
            ("girlfriend", "dietary_restriction", "coriander", False),
            ("party", "budget", "under $500", False), ("party", "date", "2025-01-15", False),
            } <= got


@pytest.mark.parametrize(("text", "fact"), [
    ("我不喜欢用微信沟通", ("user", "uses_channel", "微信", True)),
    ("加我微信把文档发过来", ("user", "uses_channel", "微信", False)),
    ("I don't like using WeChat", ("user", "uses_channel", "wechat", True)),
    ("Add me on WeChat and send the doc", ("user", "uses_channel", "wechat", False)),
    ("用Slack联系我", ("user", "uses_channel", "Slack", False)),
    ("我预算五百以内", ("user", "budget", "500以内", False)),
    ("预算提到800", ("user", "budget", "800", False)),
    ("keep it under $500", ("user", "budget", "under $500", False)),
    ("I like roses", ("user", "likes", "roses", False)),
    ("I hate olives", ("user", "likes", "olives", True)),
    ("我讨厌香菜", ("user", "likes", "香菜", True)),
    ("我对花生过敏", ("user", "allergic_to", "花生", False)),
    ("I'm allergic to peanuts", ("user", "allergic_to", "peanuts", False)),
    ("I'm not allergic to peanuts anymore", ("user", "allergic_to", "peanuts", True)),
    ("I can't eat shellfish", ("user", "dietary_restriction", "shellfish", False)),
    ("我现在可以吃香菜了", ("user", "dietary_restriction", "香菜", True)),
    ("我住在上海", ("user", "lives_in", "上海", False)),
    ("I live in New York", ("user", "lives_in", "New York", False)),
    ("I work at Acme Corp", ("user", "works_at", "Acme Corp", False)),
    ("I'm a software engineer", ("user", "works_as", "software engineer", False)),
    ("我准备跳槽", ("user", "plans_to", "跳槽", False)),
    ("I'm moving to Berlin", ("user", "plans_to", "move to Berlin", False)),
    ("my sister loves jazz", ("sister", "likes", "jazz", False)),
    ("我的经理对芒果过敏", ("经理", "allergic_to", "芒果", False)),
    ("项目本月底上线", ("项目", "deadline", "2025-01-31", False)),
])
def test_rules_in_both_languages(text, fact):
    assert fact in facts_of(text)


@pytest.mark.parametrize(
    "text", ["do you like roses?", "你喜欢玫瑰吗？", "好的", "what's the budget?", "她不吃香菜"])
def test_no_fact_from_questions_fillers_or_unresolved_pronouns(text):
    assert {f for f in facts_of(text) if f[1] != "has_relation"} == set()


def test_hedged_statements_fall_below_min_confidence():
    [candidate] = X.extract_text("maybe I like jazz", TS)
    assert candidate.confidence < 0.7


@pytest.mark.parametrize(("surfaces", "key"), [
    (["微信", "微信沟通", "WeChat", "wechat"], "wechat"),
    (["女朋友", "我女朋友", "girlfriend", "my girlfriend"], "girlfriend"),
    (["roses", "rose", "玫瑰"], "rose"),
])
def test_lexicon_merges_surface_forms(surfaces, key):
    assert {lexicon_key(s) for s in surfaces} == {key}


def test_alias_table_merges_close_names_and_flags_the_grey_band():
    table = AliasTable("u1", merge_score=92, review_score=80)
    first = table.resolve("Project Apollo")
    assert table.resolve("project apollo").entity_id == first.entity_id
    grey = table.resolve("the apollo proj")
    assert grey.entity_id != first.entity_id and grey.is_new
    assert grey.maybe_same_as is not None and grey.maybe_same_as[0] == first.entity_id
    assert table.resolve("Zeus").maybe_same_as is None


def test_amounts_never_fuzzy_merge():
    table = AliasTable("u1")
    a = table.resolve("under $500", "amount", fuzzy=False)
    assert table.resolve("under $800", "amount", fuzzy=False).entity_id != a.entity_id


def test_predicate_vocabulary_and_safe_names():
    assert {canonical_predicate(w) for w in ("喜好", "喜欢", "likes", "Like")} == {"likes"}
    assert canonical_predicate("Favourite Colour!") == "favourite_colour"
    assert safe_predicate("`) DETACH DELETE n //") == "detach_delete_n"
    assert relationship_type("likes") == "LIKES"
    with pytest.raises(ValueError):
        relationship_type("likes]->() DELETE x")


def version(value: str, negated: bool = False, at: datetime = TS, ep: str = "e2") -> NewVersion:
    return NewVersion("f-" + value + ep, "u", "ent-user", "user", "budget", "v-" + value, value,
                      negated, 0.85, at, None, ep, "s")


def current(value: str, negated: bool = False, at: datetime = TS - timedelta(days=21),
            episodes: tuple[str, ...] = ("e1",)) -> CurrentVersion:
    return CurrentVersion("old", "v-" + value, negated, 0.85, at, at, episodes)


def test_conflict_decisions():
    assert isinstance(decide(version("500"), None), Create)
    assert isinstance(decide(version("800"), current("500")), Supersede)
    assert isinstance(decide(version("500", negated=True), current("500")), Supersede)
    again = decide(version("500"), current("500"))
    assert isinstance(again, Reverify) and again.confidence > 0.85
    assert decide(version("500", ep="e1"), current("500")) is None  # same episode: idempotent
    late = version("300", at=TS - timedelta(days=30))
    assert isinstance(decide(late, current("500")), Historic)


@pytest.mark.parametrize("text", ["I saw things like painting and pottery",
                                  "I'd like to go home", "it looks like rain", "I like it",
                                  "Caroline: I love that for you"])
def test_like_as_preposition_or_with_a_pronoun_is_no_preference(text):
    assert not {f for f in facts_of(text) if f[1] == "likes"}


def test_transcript_speakers_own_their_first_person_and_generic_readings_are_dated():
    ts = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    found = X.extract_text("Caroline: I went to a LGBTQ support group yesterday.", ts)
    assert [(c.entity, c.predicate, c.value) for c in found] == [
        ("Caroline", "go_to", "LGBTQ support group")]
    assert found[0].sentence == "Caroline went to a LGBTQ support group yesterday (7 May 2023)"
    assert found[0].confidence >= 0.7
    [rule] = X.extract_text("Melanie: I'm allergic to cats", ts)
    assert (rule.entity, rule.predicate, rule.value) == ("Melanie", "allergic_to", "cats")


def test_generic_readings_skip_vague_subjects_and_values():
    assert X.extract_text("Brave has a lot of significance", TS) == []
    assert X.extract_text("I think that is who I am", TS) == []
    assert RuleExtractor(generic=False).extract_text("I went to Lisbon", TS) == []


def readings(text: str) -> dict[tuple[str, str, str], Candidate]:
    ts = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    return {(c.entity, c.predicate, c.value): c for c in X.extract_text(text, ts)}


def test_generic_sentences_keep_the_speakers_words_in_the_third_person():
    found = readings("Melanie: I love camping trips with my fam, I don't like hiking though.")
    assert found[("Melanie", "love", "camping trips")].sentence == (
        "Melanie loves camping trips with their fam (8 May 2023)")
    assert found[("Melanie", "likes", "hiking")].negated  # "don't like" is a dislike


def test_conjoined_verbs_share_the_subject_of_the_sentence():
    found = readings("Melanie: We explored nature, roasted marshmallows around the campfire and "
                     "even went on a hike.")
    hike = found[("Melanie", "go_on", "hike")]
    assert hike.sentence == "Melanie went on a hike (8 May 2023)"
    explore = next(c for k, c in found.items() if k[1] == "explore")
    assert explore.sentence.startswith("Melanie explored nature, roasted marshmallows")
    assert " and " not in explore.sentence.removeprefix("Melanie explored")[-12:]


def test_adjective_and_verb_complements_and_chat_ellipsis_are_read():
    assert ("Gina", "is_passionate_about", "dance fashion") in readings(
        "Gina: I'm passionate about dance and fashion.")
    assert ("Jon", "want_savor", "all good vibes") in readings(
        "Jon: I want to savor all the good vibes.")
    still = readings("Jon: Still working on opening a dance studio.")
    assert [k for k in still] == [("Jon", "work_on", "dance studio")]
    assert readings("Take care of yourself!") == {}
    assert readings("Jon: I'm proud of it") == {}  # no thing to remember


def test_a_clause_a_specific_rule_read_is_not_read_again_generically():
    found = readings("Melanie: I'm allergic to cats and we adopted a dog last week.")
    assert ("Melanie", "allergic_to", "cats") in found
    assert not [k for k in found if k[1] in {"is_allergic_to", "is"}]


def test_generic_sentences_drop_lead_ins_but_keep_their_dates():
    found = readings("Maria: Yesterday, I took up some community work with my friends.")
    [work] = found.values()
    assert work.sentence == "Maria took up some community work with their friends (7 May 2023)"
    [passion] = readings("John: I've always been passionate about veterans.").values()
    assert passion.sentence.startswith("John has always been passionate about veterans")
