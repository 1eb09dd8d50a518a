"""LoCoMo benchmark: pure scoring helpers, and one end-to-end run on a truncated sample."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace

import pytest
from graphmem_bench.baselines import (
    Bm25Baseline,
    FlatBaseline,
    HybridBaseline,
    bench_store,
    cut_to_tokens,
    fill_context,
    fill_to_tokens,
    message_line,
)
from graphmem_bench.locomo import (
    CATEGORIES,
    IngestTimings,
    LocomoReport,
    QuestionScore,
    answer_in_context,
    context_spans,
    evidence_in_context,
    extract_dia_ids,
    load_locomo,
    normalize_tokens,
    parse_selection,
    parse_session_datetime,
    provenance_recall,
    run_locomo,
    span_members,
    tabulate,
    user_id_for,
)
from graphmem_bench.lucene import escape_lucene, lucene_or_query
from graphmem_bench.store import BenchStore, statement, statement_names

from graphmem import count_tokens

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo" / "locomo10.json"
BENCH_DIR = Path(__file__).resolve().parents[1] / "benchmarks" / "graphmem_bench"

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


def test_span_membership_and_provenance_recall():
    assert span_members("s1", (3, 5)) == {("s1", 3), ("s1", 4), ("s1", 5)}
    assert span_members("s1", (4, 4)) == {("s1", 4)}
    spans = span_members("s1", (3, 5)) | {("s2", 1)}
    assert provenance_recall([("s1", 9), ("s2", 1)], spans) == 1.0  # any evidence turn
    assert provenance_recall([("s1", 2)], spans) == 0.0
    assert provenance_recall([("s3", 4)], spans) == 0.0  # same msg_id, other session
    assert provenance_recall([], spans) is None


def test_evidence_counts_only_when_most_of_its_words_are_shown():
    turn = "I went to a LGBTQ support group yesterday and it was so powerful."
    # content words: went, lgbtq, support, group, yesterday, powerful (6)
    assert evidence_in_context([turn], "[8 May 2023] Caroline: " + turn) == 1.0
    assert evidence_in_context([turn], "Caroline went to a LGBTQ support group (7 May)") == 1.0
    assert evidence_in_context([turn], "a support group") == 0.0  # 2 of 6 words
    half = "went lgbtq support"  # exactly half is not most
    assert evidence_in_context([turn], half) == 0.0
    photo = "Look at this! [shares a photo: a dog on a beach with a red ball]"
    assert evidence_in_context([photo], "look at this") == 1.0  # the caption is not the turn
    assert evidence_in_context([turn, "Hey Mel!"], turn) == 0.5
    assert evidence_in_context([], turn) is None


def test_conversation_selection():
    assert parse_selection(None, 10) == list(range(1, 11))
    assert parse_selection("1-5", 10) == [1, 2, 3, 4, 5]
    assert parse_selection("6-10,2", 10) == [6, 7, 8, 9, 10, 2]
    for bad in ("0-3", "9-11", "a", "5-2"):
        with pytest.raises(ValueError, match="conversations"):
            parse_selection(bad, 10)


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
    # an apostrophe does not split a word: no one-letter terms ("s", "t") from it
    assert lucene_or_query("What did Samantha's dog eat?") == "samantha OR dog OR eat"
    assert lucene_or_query("Why didn’t John’s O'Brien go?") == "john OR o'brien OR go"
    assert lucene_or_query("What's Plan B for June 5?") == "plan OR june OR 5"
    assert escape_lucene('a+b (c) "d" e:f AND/OR*') == r'a\+b \(c\) \"d\" e\:f AND\/OR\*'


def test_report_tabulates_budgets_halves_and_categories():
    scores = [
        QuestionScore(sample_id=f"c{conv}", conversation=conv, index=i, category=c, system=s,
                      budget=b, answer_in_context=0.5 if s == "flat" else 1.0,
                      evidence_in_context=float(i % 2), tokens=100, target_tokens=100,
                      latency_ms=10.0 * (i + 1))
        for conv in (2, 7) for i, c in enumerate([1, 2, 3, 4, 4])
        for s in ("graphmem", "flat") for b in ("default", "512")
    ]
    results = tabulate(scores)
    assert set(results) == {"default", "512"}
    assert set(results["512"]) == {"all", "1-5", "6-10"}
    overall = results["512"]["all"]["flat"]["overall"]
    assert overall.questions == 10
    assert overall.answer_in_context_pct == pytest.approx(50.0)
    assert overall.evidence_in_context_pct == pytest.approx(40.0)
    assert results["512"]["6-10"]["graphmem"]["4"].questions == 2
    assert results["512"]["1-5"]["graphmem"]["overall"].answer_in_context_pct == 100.0
    report = LocomoReport(
        data_path="d", run_tag="t", systems=["graphmem", "flat"], budgets=["default", "512"],
        samples=["c2", "c7"], questions=10, ingest=IngestTimings(), results=results,
        scores=scores,
    )
    md = report.to_markdown()
    for label in ("1 multi-hop", "2 temporal", "3 open-domain", "4 single-hop", "overall",
                  "512-token budget", "default context", "| 6-10 |", "| 1-5 |"):
        assert label in md
    assert "| conversations | category | n | graphmem | flat |" in md
    assert "scores" not in json.loads(report.to_json())
    assert len(json.loads(report.to_json(scores=True))["scores"]) == 40


def test_baseline_lines_show_date_and_speaker_and_fill_exactly():
    ts = datetime(2023, 5, 8, 13, 56, tzinfo=UTC)
    assert message_line("Caroline: hi there", ts) == "[8 May 2023] Caroline: hi there"
    rows = [{"session_id": "s", "msg_id": i, "line": message_line(f"A: word{i} more", ts)}
            for i in range(1, 6)]
    for target in range(0, 40):
        got = fill_context(rows, target)
        assert got.tokens <= target
        assert got.text == cut_to_tokens("\n".join(r["line"] for r in rows), target)


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
    systems = ("graphmem", "flat", "bm25", "hybrid")
    budgets = ("default", "128", "512")
    progress: list[tuple[int, int]] = []
    report = run_locomo(memory, path, systems=systems, budgets=budgets,
                        on_progress=lambda d, t: progress.append((d, t)))

    assert report.questions == len(conv.qa)
    assert progress[-1] == (len(conv.qa), len(conv.qa))
    assert report.systems == list(systems)
    assert report.ingest.messages == conv.turns
    assert report.ingest.baseline_messages == conv.turns
    assert report.ingest.baseline_embedded == conv.turns  # fresh run tag: all embedded
    assert len(report.scores) == len(conv.qa) * len(systems) * len(budgets)

    by_key = {(s.index, s.budget, s.system): s for s in report.scores}
    for score in report.scores:
        assert score.error is None, score.error
        assert score.answer_in_context is None or 0.0 <= score.answer_in_context <= 1.0
        assert score.evidence_in_context is None or 0.0 <= score.evidence_in_context <= 1.0
        assert score.latency_ms > 0
        if score.budget != "default":
            assert score.tokens <= int(score.budget)  # graphmem keeps to its budget
        mine = by_key[(score.index, score.budget, "graphmem")]
        assert score.target_tokens == mine.tokens  # every system at graphmem's tokens
        assert score.tokens <= score.target_tokens
        if score.system == "graphmem":
            assert score.provenance_recall in (0.0, 1.0)
        else:
            assert score.provenance_recall is None
    for budget in budgets:
        for system in systems:
            stats = report.results[budget]["all"][system]["overall"]
            assert stats.questions == len(conv.qa)
            assert 0.0 <= stats.answer_in_context_pct <= 100.0
    # a fixed budget gives graphmem room: more tokens at 512 than at 128
    def mean_tokens(b):
        return report.results[b]["all"]["graphmem"]["overall"].mean_context_tokens
    assert mean_tokens("512") > mean_tokens("128")

    # the last questions are an evidence turn's exact text: bm25 shows that turn whenever
    # it is given enough tokens for it
    n = len(conv.qa)
    for system in ("bm25", "hybrid"):
        found = [s for s in report.scores if s.system == system and s.index >= n - exact
                 and s.budget == "512"]
        assert len(found) == exact
        assert all(s.evidence_in_context == 1.0 for s in found if s.target_tokens >= 100)

    md = report.to_markdown()
    assert "overall" in md and "hybrid" in md and "128-token budget" in md

    # the baselines can be asked directly, too
    user_id = user_id_for(conv.sample_id, report.run_tag)
    turn = max(conv.sessions[1].turns, key=lambda t: len(t.text))
    runner, embedder = bench_store(memory)
    try:
        bm25 = Bm25Baseline(runner)
        line = message_line(f"{turn.speaker}: {turn.text}",
                            conv.sessions[1].date_time)
        got = bm25.retrieve(turn.text, user_id, count_tokens(line))
        assert got.text.endswith(f"{turn.speaker}: {turn.text}")  # the best message, whole
        assert got.text.startswith("[") and "2023]" in got.text  # dated
        assert bm25.retrieve(turn.text, user_id, 1).text == ""  # no word fits in one token
        assert len(got.spans) == 1 and next(iter(got.spans))[0].endswith("-s2")
        flat = FlatBaseline(runner, embedder)
        got = flat.retrieve(turn.text, user_id, 200)
        assert 196 <= got.tokens <= 200  # cut at the last whole word that fits
        assert all(sid.startswith(user_id) for sid, _ in got.spans)
        assert flat.retrieve(turn.text, user_id, 0).text == ""
        hybrid = HybridBaseline(flat, bm25)
        ranked = hybrid.rank(turn.text, user_id, 300)
        assert ranked[0]["text"] == f"{turn.speaker}: {turn.text}"  # first in both
        assert len({(r["session_id"], r["msg_id"]) for r in ranked}) == len(ranked)
    finally:
        runner.close()


def test_the_baseline_context_is_cut_to_exactly_the_target():
    text = "one two three\nfour five six seven\neight"
    for target in range(0, count_tokens(text) + 2):
        cut = cut_to_tokens(text, target)
        assert count_tokens(cut) <= target and text.startswith(cut)
        longer = text[len(cut):].split(maxsplit=1)
        if longer:  # one more word would not fit
            assert count_tokens(cut + " " + longer[0]) > target
    assert cut_to_tokens(text, 100) == text and "\n" in cut_to_tokens(text, 6)


@pytest.mark.neo4j
@pytest.mark.parametrize("name", statement_names())
def test_every_benchmark_statement_is_used_documented_and_passes_explain(neo4j_uri, name):
    text = statement(name)
    assert text.startswith("//") and "Parameters:" in text, f"{name} needs its header"
    code = "\n".join(p.read_text(encoding="utf-8") for p in BENCH_DIR.rglob("*.py"))
    assert f'"{name}"' in code, f"{name} is not used by the benchmarks"
    store = BenchStore(neo4j_uri)
    try:
        params = {p: None for p in re.findall(r"\$(\w+)", text)}
        if name.startswith("bench/create_"):
            store.write(name, **params | ({"dimension": 384} if "dimension" in params else {}))
        else:
            store.driver.execute_query("EXPLAIN " + text, params)
    finally:
        store.close()
