"""LoCoMo benchmark: pure scoring helpers, and one end-to-end run on a truncated sample."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest

from graphmem.bench.baselines import Bm25Baseline, FlatBaseline, cut_to_tokens, fill_to_tokens
from graphmem.bench.locomo import (
    CATEGORIES,
    IngestTimings,
    LocomoReport,
    QuestionScore,
    answer_in_context,
    context_spans,
    evidence_recall,
    extract_dia_ids,
    load_locomo,
    normalize_tokens,
    parse_session_datetime,
    run_locomo,
    span_members,
    summarize,
    user_id_for,
)
from graphmem.retrieve.lucene import escape_lucene, lucene_or_query
from graphmem.retrieve.tokens import count_tokens

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo" / "locomo10.json"

# -- parsing ---------------------------------------------------------------------------------


def test_session_datetimes_parse_as_utc():
    assert parse_session_datetime("1:56 pm on 8 May, 2023") == datetime(
        2023, 5, 8, 13, 56, tzinfo=UTC
    )
    assert parse_session_datetime("10:04 am on 19 June, 2023") == datetime(
        2023, 6, 19, 10, 4, tzinfo=UTC
    )
    assert parse_session_datetime("12:48 am on 1 February, 2023").hour == 0


@pytest.mark.parametrize(
    ("evidence", "expected"),
    [
        (["D1:3"], ("D1:3",)),
        (["D8:6; D9:17"], ("D8:6", "D9:17")),
        (["D:11:26"], ()),  # D\d+:\d+ does not match once the session number is missing
        (["D1:14", "D:11:26", "D20:21"], ("D1:14", "D20:21")),
        (["D9:1 D4:4 D4:6"], ("D9:1", "D4:4", "D4:6")),
        (["D1:18", "D", "D1:20"], ("D1:18", "D1:20")),
        (["D 2 : 7"], ("D2:7",)),  # spaces are removed before matching
        (["D30:05"], ("D30:5",)),  # canonical: no leading zeros, like the turns' dia_ids
        (["D1:3", "D1:3"], ("D1:3",)),
        ([], ()),
    ],
)
def test_evidence_extraction_survives_malformed_strings(evidence, expected):
    assert extract_dia_ids(evidence) == expected


def test_load_locomo_types_sessions_turns_and_questions(tmp_path):
    sample = {
        "sample_id": "s-1",
        "conversation": {
            "speaker_a": "Ann",
            "speaker_b": "Bob",
            "session_2_date_time": "10:04 am on 19 June, 2023",
            "session_2": [{"speaker": "Bob", "dia_id": "D2:1", "text": "Back again."}],
            "session_1_date_time": "1:56 pm on 8 May, 2023",
            "session_1": [
                {"speaker": "Ann", "dia_id": "D1:1", "text": "Look!",
                 "img_url": ["x"], "blip_caption": "a photo of a dog"},
                {"speaker": "Bob", "dia_id": "D1:2", "text": "Nice dog."},
            ],
            "session_3_date_time": "9:00 am on 20 June, 2023",  # no turns: skipped
        },
        "qa": [
            {"question": "When?", "answer": 2022, "evidence": ["D1:1; D2:1"], "category": 2},
            {"question": "Trick?", "adversarial_answer": "no", "evidence": [], "category": 5},
        ],
    }
    path = tmp_path / "mini.json"
    path.write_text(json.dumps([sample]), encoding="utf-8")
    [conv] = load_locomo(path)
    assert (conv.sample_id, conv.speaker_a, conv.speaker_b) == ("s-1", "Ann", "Bob")
    assert [s.number for s in conv.sessions] == [1, 2]
    assert conv.sessions[0].date_time == datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert conv.sessions[0].turns[0].text == "Look! [shares a photo: a photo of a dog]"
    assert conv.sessions[0].turns[1].text == "Nice dog."
    assert conv.turns == 3
    assert conv.qa[0].answer == "2022"
    assert conv.qa[0].evidence == ("D1:1", "D2:1")
    assert conv.qa[1].answer == "no" and conv.qa[1].category == 5


@pytest.mark.skipif(not LOCOMO.is_file(), reason="locomo10.json not available")
def test_the_real_dataset_loads_with_the_documented_counts():
    convs = load_locomo(LOCOMO)
    assert len(convs) == 10
    assert sum(c.turns for c in convs) == 5882
    turn_ids = [{t.dia_id for s in c.sessions for t in s.turns} for c in convs]
    asked = [q for c in convs for q in c.qa if q.category in CATEGORIES]
    assert len(asked) == 1540
    dangling = sum(
        1 for c, ids in zip(convs, turn_ids, strict=True) for q in c.qa
        if q.category in CATEGORIES for d in q.evidence if d not in ids
    )
    assert dangling <= 3  # a few evidence ids point at turns that do not exist


# -- scoring ---------------------------------------------------------------------------------


def test_answer_normalization_drops_case_punctuation_articles_and_stopwords():
    assert normalize_tokens("The Psychology, counseling certification!") == [
        "psychology", "counseling", "certification"
    ]
    assert normalize_tokens("a trip to the beach in L.A.") == ["trip", "beach", "la"]
    assert normalize_tokens("the an a") == []


def test_answer_in_context_is_the_share_of_answer_tokens_present():
    assert answer_in_context("7 May 2023", "Caroline: I went on 7 May, 2023!") == 1.0
    assert answer_in_context("Psychology, counseling certification", "psychology") == (
        pytest.approx(1 / 3)
    )
    assert answer_in_context("Sweden", "nothing relevant here") == 0.0
    assert answer_in_context("the", "anything") is None  # no scorable tokens
    assert answer_in_context("2022", "") == 0.0


def test_span_membership_and_evidence_recall():
    assert span_members("s1", (3, 5)) == {("s1", 3), ("s1", 4), ("s1", 5)}
    assert span_members("s1", (4, 4)) == {("s1", 4)}
    spans = span_members("s1", (3, 5)) | {("s2", 1)}
    assert evidence_recall([("s1", 9), ("s2", 1)], spans) == 1.0  # any evidence turn counts
    assert evidence_recall([("s1", 2)], spans) == 0.0
    assert evidence_recall([("s3", 4)], spans) == 0.0  # same msg_id, other session
    assert evidence_recall([], spans) is None


def test_context_spans_cover_episode_and_fact_raw_spans():
    context = SimpleNamespace(
        episodes=(SimpleNamespace(session_id="a", raw_span=(2, 3)),),
        facts=(
            SimpleNamespace(session_ids=("b", "c"), raw_spans=((5, 5), (1, 2))),
            SimpleNamespace(session_ids=(), raw_spans=()),
        ),
    )
    assert context_spans(context) == {
        ("a", 2), ("a", 3), ("b", 5), ("c", 1), ("c", 2)
    }
    assert context_spans(SimpleNamespace(text="")) == set()


def test_fill_stops_as_soon_as_the_target_is_reached():
    texts = ["one two three", "four five", "six", "seven eight nine ten", "eleven", "12 13"]
    whole = count_tokens("\n".join(texts))
    for target in range(1, whole + 3):
        taken = fill_to_tokens(texts, target)
        got = count_tokens("\n".join(taken))  # what the context will count
        assert taken == texts[: len(taken)]  # a prefix, best first
        if target <= whole:
            assert got >= target
        else:
            assert taken == texts  # cannot reach: everything
        # minimal: without its last item the context falls short
        assert count_tokens("\n".join(taken[:-1])) < target
    assert fill_to_tokens(texts, 0) == []
    assert fill_to_tokens([], 10) == []


def test_fill_uses_the_text_accessor():
    rows = [{"text": "alpha beta"}, {"text": "gamma"}]
    assert fill_to_tokens(rows, 1, lambda r: r["text"]) == rows[:1]


def test_lucene_query_is_an_escaped_or_of_content_words():
    assert lucene_or_query("When did Caroline go to the LGBTQ support group?") == (
        "caroline OR go OR lgbtq OR support OR group"
    )
    assert lucene_or_query("What is it?") == "what OR is OR it"  # only function words: keep
    assert lucene_or_query("?!") == ""
    assert escape_lucene('a+b (c) "d" e:f AND/OR*') == r'a\+b \(c\) \"d\" e\:f AND\/OR\*'


def test_report_renders_every_category_and_overall():
    scores = [
        QuestionScore(sample_id="x", index=i, category=c, system=s, recall=float(i % 2),
                      answer_in_context=0.5, tokens=100, target_tokens=100, messages=3,
                      latency_ms=10.0 * (i + 1))
        for i, c in enumerate([1, 2, 3, 4, 4]) for s in ("flat", "bm25")
    ]
    results = {
        s: {str(c): summarize([x for x in scores if x.system == s and x.category == c])
            for c in CATEGORIES} | {"overall": summarize([x for x in scores if x.system == s])}
        for s in ("flat", "bm25")
    }
    report = LocomoReport(
        data_path="d", run_tag="t", systems=["flat", "bm25"], samples=["x"], questions=5,
        target_tokens="fixed", ingest=IngestTimings(), results=results, scores=scores,
    )
    assert results["flat"]["overall"].questions == 5
    assert results["flat"]["overall"].evidence_recall_pct == pytest.approx(40.0)
    assert results["flat"]["4"].questions == 2
    md = report.to_markdown()
    for label in ("1 multi-hop", "2 temporal", "3 open-domain", "4 single-hop", "overall"):
        assert label in md
    assert "| category | n | flat | bm25 |" in md
    assert "scores" not in json.loads(report.to_json())
    assert len(json.loads(report.to_json(scores=True))["scores"]) == 10


# -- end to end on Neo4j ---------------------------------------------------------------------


def _truncated_sample(tmp_path: Path, sessions: int = 2, questions: int = 5) -> Path:
    raw = json.loads(LOCOMO.read_text(encoding="utf-8"))[0]
    conv = raw["conversation"]
    keep = {"speaker_a", "speaker_b"}
    for n in range(1, sessions + 1):
        keep |= {f"session_{n}", f"session_{n}_date_time"}
    raw["conversation"] = {k: v for k, v in conv.items() if k in keep}
    inside = re.compile(rf"D[1-{sessions}]:\d+$")
    chosen = [
        q for q in raw["qa"]
        if q["category"] in CATEGORIES and q["evidence"]
        and all(inside.match(e) for e in extract_dia_ids(q["evidence"]))
    ][:questions]
    # plus questions that are the exact text of an evidence turn: bm25 must find them
    turns = {t["dia_id"]: t for n in range(1, sessions + 1) for t in conv[f"session_{n}"]}
    for q in chosen[:3]:
        dia = extract_dia_ids(q["evidence"])[0]
        chosen.append({"question": turns[dia]["text"], "answer": q["answer"],
                       "evidence": [dia], "category": 4})
    raw["qa"] = chosen
    path = tmp_path / "locomo-truncated.json"
    path.write_text(json.dumps([raw]), encoding="utf-8")
    return path


@pytest.mark.neo4j
@pytest.mark.skipif(not LOCOMO.is_file(), reason="locomo10.json not available")
def test_truncated_sample_end_to_end(memory, tmp_path):
    path = _truncated_sample(tmp_path)
    [conv] = load_locomo(path)
    exact = 3
    has_graphmem = callable(getattr(memory, "query_memory", None))
    systems = ("graphmem", "flat", "bm25") if has_graphmem else ("flat", "bm25")
    progress: list[tuple[int, int]] = []
    report = run_locomo(memory, path, systems=systems,
                        on_progress=lambda d, t: progress.append((d, t)))

    assert report.questions == len(conv.qa)
    assert progress[-1] == (len(conv.qa), len(conv.qa))
    assert report.systems == list(systems)
    assert report.ingest.messages == conv.turns
    assert report.ingest.baseline_messages == conv.turns
    assert report.ingest.baseline_embedded == conv.turns  # fresh run tag: all embedded

    user_tokens = sum(count_tokens(f"{t.speaker}: {t.text}")
                      for s in conv.sessions for t in s.turns)
    for score in report.scores:
        assert score.error is None, score.error
        assert score.recall in (0.0, 1.0)  # every chosen question has evidence
        assert score.answer_in_context is None or 0.0 <= score.answer_in_context <= 1.0
        assert score.latency_ms > 0
        if score.system == "flat":
            # equal-token fill: never more than graphmem's (or the fixed) target, and
            # short of it only by the word that would not fit, unless the user's
            # messages run out first
            assert score.tokens <= score.target_tokens
            assert score.tokens >= min(score.target_tokens - 4, int(0.9 * user_tokens))
    for system in report.systems:
        for stats in report.results[system].values():
            assert 0.0 <= stats.evidence_recall_pct <= 100.0
            assert 0.0 <= stats.answer_in_context_pct <= 100.0
        assert report.results[system]["overall"].questions == len(conv.qa)
    if not has_graphmem:
        assert report.skipped_systems == {}
        assert all(s.target_tokens == 150 for s in report.scores)

    # the last questions are an evidence turn's exact text: bm25 (and flat) rank it first
    # whenever they are given any tokens at all (a turn saying "yesterday" routes graphmem
    # to an empty window, and the baselines then get graphmem's 0 tokens)
    n = len(conv.qa)
    for system in ("bm25", "flat"):
        found = [s for s in report.scores if s.system == system and s.index >= n - exact]
        assert len(found) == exact
        given = [s for s in found if s.target_tokens > 0]
        assert given, system
        assert all(s.recall == 1.0 for s in given), system

    md = report.to_markdown()
    assert "overall" in md and "bm25" in md

    # the baselines can be asked directly, too
    user_id = user_id_for(conv.sample_id, report.run_tag)
    turn = max(conv.sessions[1].turns, key=lambda t: len(t.text))
    bm25 = Bm25Baseline(memory.runner)
    line = f"{turn.speaker}: {turn.text}"
    got = bm25.retrieve(turn.text, user_id, count_tokens(line))
    assert got.text == line  # exactly the target: the best message, whole
    assert bm25.retrieve(turn.text, user_id, 1).text == ""  # no word fits in one token
    assert len(got.spans) == 1 and next(iter(got.spans))[0].endswith("-s2")
    flat = FlatBaseline(memory.runner, memory.embedder)
    got = flat.retrieve(turn.text, user_id, 200)
    assert got.tokens >= 200
    assert all(sid.startswith(user_id) for sid, _ in got.spans)
    assert flat.retrieve(turn.text, user_id, 0).text == ""


def test_the_baseline_context_is_cut_to_exactly_the_target():
    text = "one two three\nfour five six seven\neight"
    for target in range(0, count_tokens(text) + 2):
        cut = cut_to_tokens(text, target)
        assert count_tokens(cut) <= target and text.startswith(cut)
        longer = text[len(cut):].split(maxsplit=1)
        if longer:  # one more word would not fit
            assert count_tokens(cut + " " + longer[0]) > target
    assert cut_to_tokens(text, 100) == text and "\n" in cut_to_tokens(text, 6)
