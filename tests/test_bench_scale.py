"""``graphmem bench scale``: the seeded generator, the questions, the chart, and the whole
run at a tiny size against the test Neo4j."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest
from graphmem_bench.generate import PREFERENCES_EN, PREFERENCES_ZH, ScaleCorpus, zipf_sizes
from graphmem_bench.scale import (
    DESIGNS,
    latency_chart_svg,
    percentile,
    run_scale_bench,
    scale_questions,
)
from graphmem_bench.svgplot import log_log_chart_svg
from typer.testing import CliRunner

from graphmem._errors import ConfigError
from graphmem.cli import app

CJK = re.compile(r"[\u4e00-\u9fff]")

# -- the generator -----------------------------------------------------------------------


def test_zipf_sizes_sum_to_the_total_and_are_skewed():
    sizes = zipf_sizes(100_000, 200)
    assert sum(sizes) == 100_000
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[0] > 50 * sizes[-1]  # a few users hold most messages
    assert sum(sizes[:20]) > sum(sizes) / 2


def test_zipf_sizes_keep_every_user_above_the_minimum_or_refuse():
    assert min(zipf_sizes(300, 12)) >= 4
    assert zipf_sizes(40, 200) == [4] * 10  # fewer users when there are too few messages
    assert sum(zipf_sizes(41, 200)) == 41
    with pytest.raises(ValueError):
        zipf_sizes(5, 3, minimum=6)


def test_the_corpus_is_deterministic_time_ordered_and_complete():
    first = list(ScaleCorpus(3000, 30, seed=3).messages())
    again = list(ScaleCorpus(3000, 30, seed=3).messages())
    other = list(ScaleCorpus(3000, 30, seed=4).messages())
    assert first == again
    assert first != other
    assert len(first) == 3000
    assert [m["ts"] for m in first] == sorted(m["ts"] for m in first)
    per_user = defaultdict(int)
    for m in first:
        per_user[m["user_id"]] += 1
    corpus = ScaleCorpus(3000, 30, seed=3)
    assert [per_user[corpus.user_id(u)] for u in range(30)] == corpus.sizes


def test_the_corpus_mixes_languages_switches_silences_and_changing_preferences():
    corpus = ScaleCorpus(5000, 20, seed=7)
    messages = list(corpus.messages())
    chinese = sum(bool(CJK.search(m["content"])) for m in messages)
    assert 0.25 < chinese / len(messages) < 0.75
    assert any(m["content"].startswith(("By the way", "另外", "换个话题")) for m in messages)
    gaps = defaultdict(list)
    previous = {}
    for m in messages:
        key = m["session_id"]
        if key in previous:
            gaps[key].append((m["ts"] - previous[key]).total_seconds())
        previous[key] = m["ts"]
    assert any(g > 900 for values in gaps.values() for g in values)  # idle splits inside
    stated = defaultdict(list)  # (user, slot) -> values in time order
    templates = [(slot, said.split("{v}")) for slot, said, _, _ in PREFERENCES_EN + PREFERENCES_ZH]
    for m in messages:
        for slot, (head, tail) in templates:
            text = m["content"]
            if m["role"] == "user" and text.startswith(head) and text.endswith(tail):
                stated[(m["user_id"], slot)].append(text[len(head):len(text) - len(tail)])
    assert any(len(set(values)) > 1 for values in stated.values())  # a preference changed
    assert corpus.last_ts and corpus.preferences


def test_questions_mix_kinds_languages_and_user_sizes():
    corpus = ScaleCorpus(5000, 40, seed=7)
    list(corpus.messages())
    questions = scale_questions(corpus, 60, seed=7)
    assert len(questions) == 60
    assert {q.kind for q in questions} == {"time", "semantic", "ambiguous"}
    assert {q.language for q in questions} == {"en", "zh"}
    assert {q.user_size for q in questions} == {"large", "small"}
    big = {q.user_id for q in questions if q.user_size == "large"}
    small = {q.user_id for q in questions if q.user_size == "small"}
    size_of = {corpus.user_id(u): s for u, s in enumerate(corpus.sizes)}
    assert min(size_of[u] for u in big) > max(size_of[u] for u in small)
    for q in questions:
        assert q.now > corpus.last_ts[q.user_id]
        assert bool(CJK.search(q.text)) == (q.language == "zh")


def test_percentile_is_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 51.0
    assert percentile(values, 95) == 95.0
    assert percentile(values, 99) == 99.0
    assert percentile([7.0], 99) == 7.0


def test_the_chart_draws_every_series_on_log_axes():
    svg = log_log_chart_svg({"a p95": [(10_000, 5.0), (100_000, 50.0)],
                             "a p50": [(10_000, 2.0), (100_000, 20.0)]},
                            "t", "messages", "ms", dashed=frozenset({"a p50"}))
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert svg.count("<polyline") == 2
    assert svg.count("stroke-dasharray") == 2  # the dashed line and its legend entry
    for label in ("10k", "100k", "1", "10", "100"):
        assert f">{label}</text>" in svg
    with pytest.raises(ValueError):
        log_log_chart_svg({"empty": []}, "t", "x", "y")


def test_the_cli_refuses_a_chart_it_cannot_write():
    result = CliRunner().invoke(app, ["bench", "scale", "--sizes", "300", "--plot", "x.png"])
    assert result.exit_code == 2
    assert ".svg" in result.output


# -- the whole run, tiny --------------------------------------------------------------------


def test_a_tiny_scale_run_reports_every_design_on_the_data_it_loaded(
        neo4j_server, embedder, driver, tmp_path):
    from graphmem import Memory

    def connect(buffer_dir, tracer=None):
        return Memory.connect(neo4j_server.uri, buffer_dir=buffer_dir, embedder=embedder,
                              tracer=tracer)

    probe = connect(tmp_path / "probe-buffer")
    try:
        from graphmem_bench.store import BenchStore

        store = BenchStore.beside(probe)
        has_search = int(store.server_version().split(".")[0]) >= 2025
        store.close()
    finally:
        probe.close()
    stages = set()
    if not has_search:  # 5.26: nothing to compare the index with
        with pytest.raises(ConfigError, match="2026"):
            run_scale_bench(connect, [300], users=12, questions=20, k=5)
        return
    report = run_scale_bench(connect, [300], users=12, questions=20, k=5,
                             neo4j_dir=neo4j_server.home,
                             on_progress=lambda stage, done, total: stages.add(stage))
    assert stages == {"300 ingest", "300 consolidate", "300 questions", "300 forget"}
    assert report.neo4j and report.k == 5
    [size] = report.sizes
    assert size.messages == 300 and size.users == 12
    assert size.messages_in_episodes == 300  # every loaded message is in one episode
    # consolidate() takes every user's pending episodes: in this shared test database other
    # tests may have left some (on the scratch server of a real run, it is exactly ours)
    assert size.consolidation_episodes >= size.episodes > 0
    assert size.consolidation_errors == 0
    assert size.facts_created > 0  # the corpus states preferences
    assert size.questions == 20 and sum(size.questions_by_kind.values()) == 20
    assert set(size.designs) == set(DESIGNS)
    for name, design in size.designs.items():
        assert 0.0 <= design.recall_min <= design.recall_at_k <= 1.0, name
        lat = design.latency
        assert 0 < lat.p50_ms <= lat.p95_ms <= lat.p99_ms, name
    assert size.designs["brute_force"].recall_at_k == 1.0  # the ground truth itself
    assert size.speedup_p95["brute_force"] == 1.0
    assert 0 < size.query_memory.p50_ms <= size.query_memory.p95_ms <= size.query_memory.p99_ms
    assert 0 < size.query_embedding.p50_ms <= size.query_memory.p99_ms
    assert size.ingest_embed_s > 0 and size.ingest_write_s > 0
    assert size.embedder_alone_messages_per_s > 0
    assert size.ingest_vs_embedder == pytest.approx(
        size.ingest_messages_per_s / size.embedder_alone_messages_per_s, rel=0.01)
    # the tracer saw query_memory's statements, and only those (not the designs' own)
    statements = size.query_memory_statements
    assert statements and all(name.startswith("retrieve/") for name in statements)
    assert "retrieve/search_episodes_exact" not in statements
    assert sum(s.calls_per_question for s in statements.values()) >= 1
    assert size.peak_rss_mb > 0
    if neo4j_server.home is not None:
        assert size.store_mb is not None and size.store_mb > 0
    # each size's users are forgotten afterwards: nothing of the run is left
    left = driver.execute_query(
        "MATCH (n) WHERE n.user_id STARTS WITH 's300-' RETURN count(n) AS n").records[0]["n"]
    assert left == 0
    svg = latency_chart_svg(report)
    assert svg.count("<polyline") == 2 * (1 + len(DESIGNS))
