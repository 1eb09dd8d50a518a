"""LoCoMo extraction benchmark: pure helpers, and one end-to-end run on a truncated sample."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from graphmem_bench.baselines import bench_store
from graphmem_bench.extraction import (
    ConversationRow,
    EpisodeIndex,
    ExtractionReport,
    MissExample,
    Observation,
    best_match,
    cosine,
    episodes_for,
    is_covered,
    load_observations,
    parse_observations,
    pick_examples,
    run_extraction_bench,
    score_conversation,
)
from graphmem_bench.locomo import load_locomo, user_id_for

LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "bench" / "locomo" / "locomo10.json"


def _episode(event_id: str, session_id: str, first: int, last: int) -> SimpleNamespace:
    return SimpleNamespace(event_id=event_id, session_id=session_id, raw_span=(first, last))


# -- parsing ---------------------------------------------------------------------------------


def test_observations_parse_string_list_and_malformed_dia_ids():
    sample = {
        "sample_id": "s-1",
        "observation": {
            "session_2_observation": {"Bob": [["Bob has a dog.", "D2:1"]]},
            "session_1_observation": {
                "Ann": [
                    ["Ann moved to Paris.", "D1:3"],
                    ["Ann plays violin and piano.", ["D1:5", "D1:07"]],
                    ["Ann likes tea.", "D:1:9"],  # unreadable dia_id: kept, no turns
                    ["", "D1:1"],  # no text: skipped
                ],
            },
        },
    }
    got = parse_observations(sample)
    assert [(o.session, o.speaker, o.text, o.dia_ids) for o in got] == [
        (1, "Ann", "Ann moved to Paris.", ("D1:3",)),
        (1, "Ann", "Ann plays violin and piano.", ("D1:5", "D1:7")),
        (1, "Ann", "Ann likes tea.", ()),
        (2, "Bob", "Bob has a dog.", ("D2:1",)),
    ]
    assert all(o.sample_id == "s-1" for o in got)
    assert parse_observations({"sample_id": "x"}) == []


@pytest.mark.skipif(not LOCOMO.is_file(), reason="locomo10.json not available")
def test_the_real_observations_point_at_real_turns():
    observations = load_observations(LOCOMO)
    convs = {c.sample_id: c for c in load_locomo(LOCOMO)}
    assert set(observations) == set(convs)
    total = sum(len(v) for v in observations.values())
    assert total > 2000
    dangling = sum(
        1 for sid, obs in observations.items() for o in obs
        if not {t.dia_id for s in convs[sid].sessions for t in s.turns} & set(o.dia_ids)
    )
    assert dangling <= total * 0.02  # a few gold dia_ids are malformed or point nowhere


# -- matching --------------------------------------------------------------------------------


def test_episode_index_finds_the_episode_whose_inclusive_span_holds_a_message():
    index = EpisodeIndex([
        _episode("e2", "s1", 4, 7), _episode("e1", "s1", 1, 3), _episode("e3", "s2", 1, 2),
    ])
    assert index.lookup("s1", 1) == ["e1"]
    assert index.lookup("s1", 3) == ["e1"]
    assert index.lookup("s1", 4) == ["e2"]
    assert index.lookup("s1", 7) == ["e2"]
    assert index.lookup("s1", 8) == []  # past the last episode (still open, say)
    assert index.lookup("s2", 2) == ["e3"]
    assert index.lookup("s3", 1) == []  # same msg_id, unknown session
    overlapping = EpisodeIndex([_episode("a", "s", 1, 5), _episode("b", "s", 3, 4)])
    assert overlapping.lookup("s", 4) == ["a", "b"]
    assert overlapping.lookup("s", 5) == ["a"]


def test_episodes_for_maps_dia_ids_through_the_dia_map():
    index = EpisodeIndex([_episode("e1", "s1", 1, 3), _episode("e2", "s2", 1, 9)])
    dia_map = {"D1:1": ("s1", 1), "D1:2": ("s1", 2), "D2:5": ("s2", 5), "D1:9": ("s1", 9)}
    assert episodes_for(["D1:1", "D1:2"], dia_map, index) == ["e1"]  # no repeats
    assert episodes_for(["D2:5", "D1:1"], dia_map, index) == ["e2", "e1"]
    assert episodes_for(["D1:9"], dia_map, index) == []  # turn in no episode
    assert episodes_for(["D7:7"], dia_map, index) == []  # unknown turn
    assert episodes_for([], dia_map, index) == []


def test_cosine_and_the_coverage_decision():
    assert cosine([1.0, 0.0], [1.0, 0.0]) == pytest.approx(1.0)
    assert cosine([1.0, 0.0], [0.0, 2.0]) == pytest.approx(0.0)
    assert cosine([3.0, 4.0], [6.0, 8.0]) == pytest.approx(1.0)  # not only unit vectors
    assert cosine([0.0, 0.0], [1.0, 0.0]) == 0.0
    angle = math.acos(0.6)
    at_threshold = [math.cos(angle), math.sin(angle)]
    sentence, score = best_match([1.0, 0.0], [("far", [0.0, 1.0]), ("near", at_threshold)])
    assert sentence == "near" and score == pytest.approx(0.6)
    assert is_covered(0.6 + 1e-9) and is_covered(0.6)
    assert not is_covered(0.5999)
    assert is_covered(0.55, threshold=0.5)
    assert best_match([1.0, 0.0], []) == (None, None)
    assert not is_covered(None)


def test_pick_examples_prefers_misses_with_facts_and_spreads_them():
    bare = [MissExample(sample_id="x", dia_ids=(), observation=f"o{i}") for i in range(3)]
    rich = [MissExample(sample_id="x", dia_ids=("D1:1",), observation=f"r{i}",
                        best_fact="f", cosine=0.1, episodes=1, episode_facts=1)
            for i in range(20)]
    chosen = pick_examples(bare + rich, k=5)
    assert len(chosen) == 5 and all(m.best_fact for m in chosen)
    assert [m.observation for m in chosen] == ["r0", "r4", "r8", "r12", "r16"]
    assert pick_examples(bare, k=5) == bare
    assert pick_examples([], k=5) == []


class _FakeEmbedder:
    """Maps texts to fixed 2-d vectors by keyword."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return [[1.0, 0.0] if "dog" in t else [0.0, 1.0] for t in texts]


class _FakeRunner:
    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self.rows = rows

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        assert name == "bench/get_episode_facts"
        return [r for r in self.rows if r["event_id"] in params["event_ids"]]


def test_score_conversation_without_neo4j_embeds_facts_that_lack_a_vector():
    embedder = _FakeEmbedder()
    rows = [
        {"event_id": "e1", "fact_id": "f1", "sentence": "Bob has a dog", "embedding": None},
        {"event_id": "e2", "fact_id": "f2", "sentence": "Ann likes tea", "embedding": [0, 1]},
        {"event_id": "e2", "fact_id": "f3", "sentence": "Ann is tall", "embedding": [0, 1]},
    ]
    mem = SimpleNamespace(
        episodes=lambda user_id: [_episode("e1", "s1", 1, 2), _episode("e2", "s1", 3, 4),
                                  _episode("e3", "s1", 5, 5)],
        embedder=embedder,
    )
    dia_map = {f"D1:{i}": ("s1", i) for i in range(1, 7)}
    observations = [
        Observation(sample_id="x", session=1, speaker="Bob", text="Bob owns a dog",
                    dia_ids=("D1:2",)),  # e1, its fact is embedded here: covered
        Observation(sample_id="x", session=1, speaker="Bob", text="Bob walks the dog",
                    dia_ids=("D1:4",)),  # e2 has facts, none near: miss
        Observation(sample_id="x", session=1, speaker="Ann", text="Ann sings",
                    dia_ids=("D1:5",)),  # e3 has no facts: miss
        Observation(sample_id="x", session=1, speaker="Ann", text="Ann sleeps",
                    dia_ids=("D1:6",)),  # turn in no episode
        Observation(sample_id="x", session=1, speaker="Ann", text="Ann dog",
                    dia_ids=("D1:4", "D1:1")),  # any of its turns' episodes counts
    ]
    got = score_conversation(mem, _FakeRunner(rows), "x", "u", dia_map, observations)
    row = got.row
    assert (row.observations, row.covered, row.observations_without_episode) == (5, 2, 1)
    assert (row.episodes, row.facts, got.embedded_here) == (3, 3, 1)
    assert row.coverage_pct == pytest.approx(40.0)
    assert row.facts_per_episode == pytest.approx(1.0)
    assert embedder.calls[0] == ["Bob has a dog"]  # only the fact without a vector
    by_text = {m.observation: m for m in got.misses}
    assert set(by_text) == {"Bob walks the dog", "Ann sings", "Ann sleeps"}
    assert by_text["Bob walks the dog"].best_fact in {"Ann likes tea", "Ann is tall"}
    assert by_text["Bob walks the dog"].cosine == pytest.approx(0.0)
    assert by_text["Bob walks the dog"].episode_facts == 2
    assert (by_text["Ann sings"].episodes, by_text["Ann sings"].best_fact) == (1, None)
    assert by_text["Ann sleeps"].episodes == 0


def test_report_markdown_has_rows_totals_and_misses():
    report = ExtractionReport(
        data_path="d", run_tag="t", threshold=0.6, samples=["a", "b"], observations=10,
        covered=4, coverage_pct=40.0, observations_without_episode=1, episodes=5, facts=12,
        facts_per_episode=2.4,
        conversations=[
            ConversationRow(sample_id="a", observations=6, covered=3, coverage_pct=50.0),
            ConversationRow(sample_id="b", observations=4, covered=1, coverage_pct=25.0),
        ],
        example_misses=[
            MissExample(sample_id="a", dia_ids=("D1:2",), observation="Ann likes tea.",
                        best_fact="Ann drinks coffee.", cosine=0.41, episodes=1,
                        episode_facts=2),
            MissExample(sample_id="b", dia_ids=("D3:1",), observation="Bob sings."),
        ],
    )
    md = report.to_markdown()
    assert "| a | 6 | 3 (50.0) |" in md
    assert "| **all** | 10 | 4 (40.0) | 1 | 5 | 12 | 2.40 |" in md
    assert "“Ann likes tea.” → “Ann drinks coffee.” (0.41)" in md
    assert "“Bob sings.” → turn in no episode" in md
    assert json.loads(report.model_dump_json())["coverage_pct"] == 40.0


# -- end to end on Neo4j ---------------------------------------------------------------------


def _truncated_sample(tmp_path: Path, sessions: int = 2) -> Path:
    """The first conversation cut to its first ``sessions`` sessions and their observations."""
    raw = json.loads(LOCOMO.read_text(encoding="utf-8"))[0]
    keep = {"speaker_a", "speaker_b"}
    for n in range(1, sessions + 1):
        keep |= {f"session_{n}", f"session_{n}_date_time"}
    raw["conversation"] = {k: v for k, v in raw["conversation"].items() if k in keep}
    wanted = {f"session_{n}_observation" for n in range(1, sessions + 1)}
    raw["observation"] = {k: v for k, v in raw["observation"].items() if k in wanted}
    raw["qa"] = []
    path = tmp_path / "locomo-extraction.json"
    path.write_text(json.dumps([raw]), encoding="utf-8")
    return path


@pytest.mark.neo4j
@pytest.mark.skipif(not LOCOMO.is_file(), reason="locomo10.json not available")
def test_truncated_sample_end_to_end(memory, tmp_path):
    path = _truncated_sample(tmp_path)
    [conv] = load_locomo(path)
    observations = load_observations(path)[conv.sample_id]
    assert observations and all(re.fullmatch(r"D[12]:\d+", d)
                                for o in observations for d in o.dia_ids)
    progress: list[tuple[int, int]] = []
    report = run_extraction_bench(memory, path, on_progress=lambda d, t: progress.append((d, t)))

    assert progress == [(1, 1)]
    assert report.samples == [conv.sample_id] and report.threshold == 0.6
    assert report.observations == len(observations)
    assert 0 <= report.covered <= report.observations
    assert 0.0 <= report.coverage_pct <= 100.0
    assert report.coverage_pct == pytest.approx(100 * report.covered / report.observations)
    assert 0 <= report.observations_without_episode <= report.observations - report.covered
    assert report.episodes >= 1  # flush closed every session into episodes
    # Caroline's and Melanie's first two sessions state lasting things (a support group, a
    # painting, kids): the rules store some, and some gold observations are covered
    assert report.facts >= 1
    assert report.covered >= 1
    assert report.facts_per_episode == pytest.approx(report.facts / report.episodes)
    [row] = report.conversations
    assert (row.observations, row.covered, row.episodes, row.facts) == (
        report.observations, report.covered, report.episodes, report.facts
    )
    assert report.timings.messages == conv.turns
    assert report.timings.ingest_consolidate_s > 0 and report.timings.scoring_s > 0
    assert report.timings.total_s >= report.timings.ingest_consolidate_s
    misses = report.observations - report.covered
    assert len(report.example_misses) == min(misses, 5)
    for miss in report.example_misses:
        assert miss.cosine is None or miss.cosine < 0.6
    assert "LoCoMo extraction" in report.to_markdown()

    # every stored episode is a piece of one of the two sessions
    user_id = user_id_for(conv.sample_id, report.run_tag)
    episodes = memory.episodes(user_id)
    assert len(episodes) == report.episodes
    assert {e.session_id for e in episodes} <= {f"{user_id}-s1", f"{user_id}-s2"}

    # an observation that *is* a stored fact's sentence, on a turn of its episode, is
    # covered; one on a turn outside every episode is not
    runner, _ = bench_store(memory)
    rows = runner.read("bench/get_episode_facts", event_ids=[e.event_id for e in episodes])
    assert len({r["fact_id"] for r in rows}) == report.facts
    fact = rows[0]
    ep = next(e for e in episodes if e.event_id == fact["event_id"])
    dia_map = {"D1:1": (ep.session_id, ep.raw_span[1]), "D9:9": (ep.session_id, 10_000)}
    planted = [
        Observation(sample_id=conv.sample_id, session=1, speaker="x", text=fact["sentence"],
                    dia_ids=("D1:1",)),
        Observation(sample_id=conv.sample_id, session=1, speaker="x", text=fact["sentence"],
                    dia_ids=("D9:9",)),
    ]
    got = score_conversation(memory, runner, conv.sample_id, user_id, dia_map, planted)
    assert (got.row.covered, got.row.observations_without_episode) == (1, 1)
    assert got.embedded_here == 0  # consolidation embedded every fact
