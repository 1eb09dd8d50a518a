"""The long-history benchmarks (LongMemEval and the chat sets): loading both formats,
scoring in English and Chinese, the baselines, and a small run on the real Neo4j."""

from __future__ import annotations

import gzip
import json
import uuid
from pathlib import Path

import numpy as np
import pytest
from graphmem_bench.histories.baselines import TurnIndex, words
from graphmem_bench.histories.data import load_chat_set, load_longmemeval, parse_lme_date
from graphmem_bench.histories.facts import (
    evaluate,
    label_key,
    matches,
    salient,
    says,
    still_says,
)
from graphmem_bench.histories.run import run_histories
from graphmem_bench.histories.score import (
    answer_score,
    evidence_score,
    keys_in_context,
    stated_answer_score,
)

REPO = Path(__file__).resolve().parent.parent
CHAT = REPO / "benchmarks" / "data" / "chat"

TINY = {"name": "tiny", "language": "en", "users": [{
    "user_id": "u1", "persona": "",
    "sessions": [
        {"session_id": "s01", "date": "2025-03-01T10:00:00+00:00", "personal": True, "turns": [
            {"role": "user", "content": "my sister Mia just adopted a beagle called Pickle",
             "has_answer": True},
            {"role": "assistant", "content": "Congrats to Mia! Beagles love long walks."}]},
        {"session_id": "s02", "date": "2025-03-09T10:00:00+00:00", "personal": False, "turns": [
            {"role": "user", "content": "how do I sort a list in python"},
            {"role": "assistant", "content": "Use sorted(items) or items.sort()."}]}],
    "questions": [{"question_id": "q1", "question_type": "single-session-user",
                   "question": "what is the name of my sister's dog?",
                   "question_date": "2025-04-01T10:00:00+00:00", "answer": "Pickle",
                   "answer_keys": ["Pickle"], "evidence": [{"session_id": "s01", "turn": 0}]}],
    "key_facts": [{"owner": "user", "owner_relation": "self", "attribute": "relation",
                   "value": "sister: Mia", "status": "current"}]}]}


def test_both_formats_load_into_histories(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    [history] = load_chat_set(path)
    assert [s.session_id for s in history.sessions] == ["s01", "s02"]
    assert history.questions[0].keys == ("Pickle",) and history.key_facts
    lme = {"question_id": "x1", "question_type": "multi-session", "question": "q?",
           "answer": 3, "question_date": "2023/05/30 (Tue) 23:40",
           "haystack_session_ids": ["b", "a"],
           "haystack_dates": ["2023/05/02 (Tue) 10:00", "2023/05/01 (Mon) 09:00"],
           "haystack_sessions": [[{"role": "user", "content": "two", "has_answer": True}],
                                 [{"role": "user", "content": "one"}]]}
    gz = tmp_path / "lme.jsonl.gz"
    with gzip.open(gz, "wt", encoding="utf-8") as out:
        out.write(json.dumps(lme) + "\n")
    [one] = load_longmemeval(gz)
    assert [s.session_id for s in one.sessions] == ["a", "b"]  # in time order
    assert one.questions[0].evidence == (("b", 0),) and one.questions[0].answer == "3"
    assert parse_lme_date("2023/05/30 (Tue) 23:40").isoformat() == "2023-05-30T23:40:00+00:00"


def test_answer_keys_and_evidence_score_chinese_and_english():
    assert keys_in_context(["**周雨**", "3800"], "[2025年5月1日] User: 周雨 房租3800") == 1.0
    assert keys_in_context(["Mount Carmel East"], "works at mount carmel  east") == 1.0
    assert keys_in_context(["Pickle", "beagle"], "a beagle") == 0.5
    assert answer_score("a beagle named Pickle", (), "Pickle the beagle, named so") == 1.0
    assert evidence_score(["我妈对虾过敏，海鲜基本不碰"], "User: 我妈对虾过敏，海鲜基本不碰") == 1.0
    assert evidence_score(["我妈对虾过敏，海鲜基本不碰"], "User: 我爸不吃辣") == 0.0
    assert evidence_score([], "x") is None


def test_a_computed_answer_is_not_scored_as_stated():
    evidence = ["I splurged on a pair of boots for $800", "similar boots at a budget store for $50"]
    # "$750" is in no turn: a context holds it only by chance (neither 0 nor 1)
    assert answer_score("$750", (), "paid $750 for a sofa") == 1.0
    assert stated_answer_score("$750", (), evidence, "paid $750 for a sofa") is None
    assert stated_answer_score("4", (), ["I cooked Ethiopian"], "4 cups of rice") is None
    # an answer the turns state is scored on the words they hold
    said = ["I've been loving The New Yorker, which I subscribed to in early February"]
    assert stated_answer_score("The New Yorker", (), said, "User: the new yorker") == 1.0
    assert stated_answer_score("The New Yorker", (), said, "User: a magazine") == 0.0
    assert stated_answer_score("", ("周雨",), [], "周雨") == 1.0  # keys: verbatim in evidence


def test_bm25_splits_chinese_into_words_and_dense_ranks_by_cosine(tmp_path):
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    [history] = load_chat_set(path)
    assert "周末" in words("我们周末去杭州") and "the" not in words("the beagle")
    vectors = np.eye(4, dtype=np.float32)
    index = TurnIndex(history, vectors)
    assert index.bm25("beagle")[0] in (0, 1)
    assert index.dense(np.array([0, 0, 1, 0], dtype=np.float32))[0] == 2
    got = index.retrieve("hybrid", "beagle", np.eye(4, dtype=np.float32)[0], 12)
    assert got.text.startswith("[1 March 2025] User: my sister Mia")


def test_key_facts_match_who_they_belong_to():
    key = {"owner": "Mia", "owner_relation": "sister", "attribute": "pet",
           "value": "beagle Pickle", "status": "current"}
    assert matches({"entity": "sister", "predicate": "has_pet", "value": "beagle"}, key)
    assert not matches({"entity": "user", "predicate": "has_pet", "value": "beagle"}, key)
    assert not matches({"entity": "sister", "predicate": "likes", "value": "beagle"}, key)
    # an owner written as relation and name ("弟弟林佳明", "Gary Lindqvist") is found by the name
    brother = {"owner": "弟弟林佳明", "owner_relation": "", "attribute": "job",
               "value": "在深圳做外贸", "status": "current"}
    assert matches({"entity": "林佳明", "predicate": "works_as", "value": "外贸"}, brother)
    assert not matches({"entity": "林悦", "predicate": "works_as", "value": "外贸"}, brother)
    colleague = {"owner": "Gary Lindqvist", "attribute": "job", "value": "physics teacher"}
    assert matches({"entity": "Gary", "predicate": "works_as", "value": "physics teacher"},
                   colleague)
    assert not matches({"entity": "Lin", "predicate": "works_as", "value": "physics teacher"},
                       colleague)
    # a job said by the place it is done: "runs a hardware shop", 在超市上班
    shop = {"owner": "mother", "owner_relation": "mother", "attribute": "job",
            "value": "在湖州开茶叶店 卖安吉白茶"}
    assert matches({"entity": "妈妈", "predicate": "works_at", "value": "茶叶店"}, shop)
    assert not matches({"entity": "妈妈", "predicate": "likes", "value": "茶叶"}, shop)
    # a relation the key words another way: a roommate, a grandson, a fiancée, 女儿
    for entity, relation in (("室友", "roommate"), ("flatmate", "housemate"), ("外孙", "grandson"),
                             ("fiance", "fiancée"), ("女儿", "女儿"), ("daughter", "女儿")):
        key = {"owner": "Ana", "owner_relation": relation, "attribute": "job",
               "value": "老师 teacher"}
        assert matches({"entity": entity, "predicate": "works_as", "value": "老师 teacher"}, key)
        assert not matches({"entity": "user", "predicate": "works_as", "value": "teacher"}, key)


def test_salient_words_fold_accents_and_say_mother_for_mum():
    assert salient("Tomás Reyes") == salient("tomas reyes")
    assert salient("my mum Carol") == salient("mother: Carol") == {"mother", "carol"}
    assert salient("peanuts") == salient("peanut allergy") - {"allergy"}
    assert salient("my buddy") == salient("friend") and salient("granddaughter") == salient(
        "grandchildren")
    assert salient("妈妈喜欢兰花") >= {"妈妈", "兰花"}


@pytest.mark.parametrize(("fact", "key", "said"), [
    ({"predicate": "likes", "value": "coffee", "negated": False}, {"attribute": "likes"}, True),
    ({"predicate": "likes", "value": "coffee", "negated": True}, {"attribute": "likes"}, False),
    ({"predicate": "likes", "value": "coffee", "negated": True}, {"attribute": "dislikes"}, True),
    ({"predicate": "likes", "value": "coffee", "negated": False}, {"attribute": "dislikes"},
     False),
    ({"predicate": "dietary_restriction", "value": "coffee", "negated": False},
     {"attribute": "dislikes"}, True),
])
def test_a_key_fact_is_said_with_its_polarity(fact, key, said):
    key = {"owner": "user", "owner_relation": "self", "value": "Tim Hortons coffee"} | key
    assert says({"entity": "user"} | fact, key) is said


def test_an_ended_key_fact_is_still_said_only_by_its_own_value_in_the_positive():
    key = {"owner": "user", "owner_relation": "self", "attribute": "employer",
           "value": "Brightsmile Dental, Bedminster", "status": "ended",
           "replaced_by": "Clifton Family Dental"}
    old = {"entity": "user", "predicate": "works_at", "value": "Brightsmile Dental"}
    assert still_says(old, key)
    assert not still_says(old | {"negated": True}, key)  # "left Brightsmile": ended
    assert not still_says(old | {"value": "clifton family dental"}, key)  # the new job


@pytest.mark.neo4j
def test_a_small_chat_set_run_scores_every_system(neo4j_uri, embedder, tmp_path):
    from graphmem import Memory

    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    histories = load_chat_set(path)
    tag = f"t{uuid.uuid4().hex[:6]}"
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "buffer", embedder=embedder) as mem:
        report = run_histories(mem, histories, "tiny", tag, budgets=["128"],
                               cache_dir=tmp_path / "cache")
        again = run_histories(mem, histories, "tiny", tag, budgets=["128"])
        facts = {h.history_id: mem.facts(f"{tag}-{h.history_id}") for h in histories}
    assert report.timings.ingested == 1 and again.timings.ingested == 0  # stores reused
    table = report.table("128")
    assert set(table["overall"]) == {"graphmem", "bm25", "dense", "hybrid"}
    assert table["overall"]["graphmem"] == 100.0  # "Pickle" is in the context
    assert (tmp_path / "cache").is_dir()
    assert "single-session-user" in report.to_markdown()
    facts_report = evaluate(histories, facts, {}, "tiny")
    assert facts_report.users[0].key_current == 1
    assert facts_report.totals().labelled == 0 and facts_report.unlabelled


def test_the_facts_report_gives_the_precision_of_the_facts_a_user_can_ask_for():
    [history] = load_chat_set(CHAT / "en-dev.json")[:1]
    said = [("user", "likes", "jazz", 0.9, "correct"), ("user", "went", "home", 0.75, "garbage"),
            ("user", "allergic_to", "eggs", 0.95, "wrong_person")]
    facts = [{"entity": e, "predicate": p, "value": v, "negated": False, "confidence": c}
             for e, p, v, c, _ in said]
    labels = {label_key(history.history_id, f): lab
              for f, (*_, lab) in zip(facts, said, strict=True)}
    [user] = evaluate([history], {history.history_id: facts}, labels, "one").users
    assert (user.labelled, user.correct) == (3, 1)  # precision 1 / 3
    assert (user.sure_labelled, user.sure_correct) == (2, 1)  # at >= 0.85: 1 / 2
    assert user.wrong_person_confident == 1
    assert "| 0.33 | 0.50 (2) | 1 |" in evaluate(
        [history], {history.history_id: facts}, labels, "one").to_markdown()


@pytest.mark.parametrize("name", ["en-dev", "zh-dev"])
def test_the_chat_sets_hold_what_the_benchmark_needs(name):
    histories = load_chat_set(CHAT / f"{name}.json")
    assert len(histories) >= 6 and all(len(h.sessions) >= 25 for h in histories)
    questions = [q for h in histories for q in h.questions]
    assert len(questions) >= 60 and all(q.keys and q.evidence for q in questions)
    for h in histories:
        for q in h.questions:
            turns = [h.turn(s, i) for s, i in q.evidence]
            assert all(t is not None and t.has_answer for t in turns), q.question_id
