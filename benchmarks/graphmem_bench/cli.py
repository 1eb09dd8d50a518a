"""``graphmem bench …`` (and ``graphmem-bench …``): the benchmarks' command line. Each
command connects a ``graphmem.Memory`` with the usual settings, runs one benchmark and
prints its tables; progress bars are graphmem's own (``graphmem.cli.progress``)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from graphmem import GraphmemError

app = typer.Typer(help="Benchmarks: ingest throughput, scale, LoCoMo, LongMemEval and chat "
                       "retrieval, extraction.", no_args_is_help=True, add_completion=False)
console = Console(width=None if sys.stdout.isatty() or os.environ.get("COLUMNS") else 200)
err = Console(stderr=True)
SHARED = Path(os.environ.get("GRAPHMEM_SHARED_DIR", "../shared"))

UriOpt = Annotated[str | None, typer.Option("--uri", envvar="GRAPHMEM_NEO4J_URI",
                                            help="Neo4j Bolt URI.")]
BufferOpt = Annotated[Path | None, typer.Option("--buffer-dir", envvar="GRAPHMEM_BUFFER_DIR",
                                                help="Raw buffer directory.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")]


def _connect(uri: str | None, buffer_dir: Path | None, **settings: Any) -> Any:
    from graphmem import Memory

    return Memory.connect(uri, buffer_dir=buffer_dir, **settings)


def _run(action: Callable[[], Any]) -> Any:
    try:
        return action()
    except GraphmemError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from None


def _check_data(path: Path) -> None:
    if not path.is_file():
        raise typer.BadParameter(f"{path} not found; pass --data (or set GRAPHMEM_SHARED_DIR)",
                                 param_hint="--data")


def main() -> None:  # pragma: no cover - console entry point
    sys.exit(app())


@app.command("ingest")
def bench_ingest(
    messages: Annotated[int, typer.Option(help="How many generated messages.")] = 50_000,
    users: Annotated[int, typer.Option()] = 50,
    sessions: Annotated[int, typer.Option(help="Sessions per user.")] = 20,
    uri: UriOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Ingest throughput: messages/s, episodes/s, embedding vs Neo4j time."""
    from graphmem.cli.progress import progress_callback
    from graphmem_bench.ingest import run_ingest_bench

    with progress_callback("ingest", quiet) as on_progress:
        report = _run(lambda: run_ingest_bench(
            lambda buffer_dir: _connect(uri, buffer_dir), messages, users, sessions,
            on_progress=on_progress,
        ))
    console.print(report.to_markdown())


@app.command("scale")
def bench_scale(
    sizes: Annotated[str, typer.Option(help="Comma-separated message counts.")] = "10000,100000",
    users: Annotated[int, typer.Option(help="Users (Zipf-distributed sizes).")] = 200,
    questions: Annotated[int, typer.Option(help="Questions per size.")] = 500,
    k: Annotated[int, typer.Option(help="Nearest episodes per design, for recall@k.")] = 10,
    seed: Annotated[int, typer.Option()] = 7,
    out: Annotated[Path | None, typer.Option(help="Write the JSON report here.")] = None,
    plot: Annotated[Path | None, typer.Option(help="Write the latency chart (.svg) here.")
                    ] = None,
    neo4j_dir: Annotated[Path | None, typer.Option(
        envvar="GRAPHMEM_NEO4J_DIR", help="The server's folder, to report its size on disk.")
    ] = None,
    keep: Annotated[bool, typer.Option(help="Keep each size's users (default: forget).")
                    ] = False,
    uri: UriOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Scale: ingest, consolidation and query latency from 10k messages up, indexed vs
    brute-force vs oversampled vector search on the same data."""
    from graphmem.cli.progress import stages_callback
    from graphmem_bench.scale import latency_chart_svg, run_scale_bench

    try:
        counts = [int(part) for part in _csv(sizes)]
    except ValueError:
        raise typer.BadParameter(f"not a list of numbers: {sizes!r}",
                                 param_hint="--sizes") from None
    if not counts or min(counts) < 20 or questions < 1:
        raise typer.BadParameter("sizes must be ≥ 20 messages, questions ≥ 1")
    if plot is not None and plot.suffix.lower() != ".svg":
        raise typer.BadParameter("the chart is written as SVG: give a .svg path",
                                 param_hint="--plot")
    command = (f"graphmem bench scale --sizes {','.join(map(str, counts))} --users {users} "
               f"--questions {questions} --k {k} --seed {seed}")
    def save(report: Any) -> None:  # after every size: a long run keeps what it measured
        if out is not None:
            out.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")

    with stages_callback(quiet) as on_progress:
        report = _run(lambda: run_scale_bench(
            lambda buffer_dir, tracer: _connect(uri, buffer_dir, tracer=tracer), counts, users,
            questions, k, seed, neo4j_dir=neo4j_dir, keep=keep, command=command,
            on_progress=on_progress, on_size=save))
    console.print(report.to_markdown(), markup=False, soft_wrap=True)
    if plot is not None:
        plot.write_text(latency_chart_svg(report), encoding="utf-8")


LocomoData = Annotated[Path, typer.Option("--data", help="locomo10.json")]
DEFAULT_LOCOMO = SHARED / "bench" / "locomo" / "locomo10.json"
SamplesOpt = Annotated[int | None, typer.Option(help="First N conversations (default: all).")]


@app.command("locomo")
def bench_locomo(
    data: LocomoData = DEFAULT_LOCOMO,
    conversations: Annotated[str | None, typer.Option(
        help="Which conversations: 1-5 (the tuning half), 6-10 (held out), 1,3,7; "
             "default all.")] = None,
    budgets: Annotated[str, typer.Option(
        help="Comma-separated: 'default' and/or token budgets.")] = "default,128,512,1024",
    systems: Annotated[str, typer.Option(
        help="Comma-separated: graphmem, flat, bm25, hybrid.")] = "graphmem,flat,bm25,hybrid",
    max_questions: Annotated[int | None, typer.Option(help="Per conversation.")] = None,
    out: Annotated[Path | None, typer.Option(help="Write the markdown tables here.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Per-question scores.")] = None,
    run_tag: Annotated[str | None, typer.Option(
        help="Reuse what an earlier run with this tag stored (with the same --buffer-dir).")
    ] = None,
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """LoCoMo retrieval: graphmem vs flat, bm25 and hybrid baselines at equal tokens."""
    import tempfile

    from graphmem.cli.progress import progress_callback
    from graphmem_bench.locomo import run_locomo

    _check_data(data)
    with tempfile.TemporaryDirectory(prefix="graphmem-locomo-") as tmp:
        mem = _run(lambda: _connect(uri, buffer_dir or Path(tmp)))
        with mem, progress_callback("questions", quiet) as on_progress:
            try:
                report = _run(lambda: run_locomo(
                    mem, data, conversations, max_questions=max_questions,
                    systems=_csv(systems), budgets=_csv(budgets), on_progress=on_progress,
                    run_tag=run_tag))
            except ValueError as exc:
                raise typer.BadParameter(str(exc)) from None
    table = report.to_markdown()
    console.print(table, markup=False)
    if out is not None:
        out.write_text(table + "\n", encoding="utf-8")
    if json_out is not None:
        json_out.write_text(report.to_json(scores=True), encoding="utf-8")


def _csv(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


@app.command("extraction")
def bench_extraction(
    data: LocomoData = DEFAULT_LOCOMO,
    samples: SamplesOpt = None,
    threshold: Annotated[float, typer.Option(help="Cosine for a covered observation.")] = 0.6,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the report.")] = None,
    uri: UriOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """LoCoMo extraction: share of gold observations matched by an extracted fact."""
    import tempfile

    from graphmem.cli.progress import progress_callback
    from graphmem_bench.extraction import run_extraction_bench

    _check_data(data)
    with tempfile.TemporaryDirectory(prefix="graphmem-extraction-") as tmp:
        mem = _run(lambda: _connect(uri, Path(tmp)))
        with mem, progress_callback("conversations", quiet) as on_progress:
            report = _run(lambda: run_extraction_bench(
                mem, data, samples=samples, threshold=threshold, on_progress=on_progress))
    console.print(report.to_markdown(), markup=False)
    if json_out is not None:
        json_out.write_text(report.model_dump_json(indent=2), encoding="utf-8")


LONGMEMEVAL = SHARED / "bench" / "longmemeval" / "longmemeval_s_dev120.jsonl.gz"
CHAT_DIR = Path(__file__).resolve().parent.parent / "data" / "chat"
BudgetsOpt = Annotated[str, typer.Option(help="Comma-separated: 'default' and/or token budgets.")]
SystemsOpt = Annotated[str, typer.Option(help="Comma-separated: graphmem, bm25, dense, hybrid.")]
RunTagOpt = Annotated[str, typer.Option(
    help="Users are <run-tag>-<history>: a user already ingested is asked again, not "
         "re-ingested (use a new tag after changing extraction).")]
OutOpt = Annotated[Path | None, typer.Option(help="Write the markdown tables here.")]
JsonOutOpt = Annotated[Path | None, typer.Option("--json", help="Per-question scores.")]
CacheOpt = Annotated[Path | None, typer.Option(
    help="Keep the dense baseline's turn vectors here between runs.")]


def _histories(name: str, histories: list[Any], run_tag: str, budgets: str, systems: str,
               uri: str | None, buffer_dir: Path | None, out: Path | None,
               json_out: Path | None, cache_dir: Path | None, quiet: bool) -> None:
    from graphmem.cli.progress import progress_callback
    from graphmem_bench.histories.run import run_histories

    buffer = buffer_dir or Path(".graphmem/bench") / run_tag
    mem = _run(lambda: _connect(uri, buffer))
    with mem, progress_callback("histories ingested", quiet) as on_ingest, \
                progress_callback("questions", quiet) as on_progress:
        report = _run(lambda: run_histories(
            mem, histories, name, run_tag, budgets=_csv(budgets), systems=_csv(systems),
            cache_dir=cache_dir, on_progress=on_progress, on_ingest=on_ingest))
    table = report.to_markdown()
    console.print(table, markup=False)
    if out is not None:
        out.write_text(table, encoding="utf-8")
    if json_out is not None:
        json_out.write_text(report.model_dump_json(indent=1), encoding="utf-8")


@app.command("longmemeval")
def bench_longmemeval(
    data: Annotated[Path, typer.Option("--data", help="LongMemEval-S .jsonl(.gz)")] = LONGMEMEVAL,
    per_type: Annotated[int | None, typer.Option(
        help="The first N questions of each type (0: all).")] = 10,
    budgets: BudgetsOpt = "128,512,1024",
    systems: SystemsOpt = "graphmem,bm25,dense,hybrid",
    run_tag: RunTagOpt = "lme",
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
    out: OutOpt = None,
    json_out: JsonOutOpt = None,
    cache_dir: CacheOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """LongMemEval: long user↔assistant histories (one per question), graphmem against
    BM25, dense and hybrid over single dated turns at equal tokens, by question type."""
    from graphmem_bench.histories.data import load_longmemeval

    _check_data(data)
    histories = load_longmemeval(data, per_type=per_type or None)
    _histories("LongMemEval-S (development split)", histories, run_tag, budgets, systems, uri,
               buffer_dir, out, json_out, cache_dir, quiet)


@app.command("chat")
def bench_chat(
    data: Annotated[Path, typer.Option("--data", help="A chat set (.json).")] = (
        CHAT_DIR / "zh-dev.json"),
    budgets: BudgetsOpt = "128,512,1024",
    systems: SystemsOpt = "graphmem,bm25,dense,hybrid",
    run_tag: RunTagOpt = "chat",
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
    out: OutOpt = None,
    json_out: JsonOutOpt = None,
    cache_dir: CacheOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """graphmem's chat sets (benchmarks/data/chat/): a few users each with months of chat
    with an assistant, half of it unrelated tasks, in English or Chinese; answer-in-context
    counts the answer keys the context holds."""
    from graphmem_bench.histories.data import load_chat_set

    _check_data(data)
    _histories(f"Chat set {data.stem}", load_chat_set(data), run_tag, budgets, systems, uri,
               buffer_dir, out, json_out, cache_dir, quiet)


@app.command("facts")
def bench_facts(
    data: Annotated[Path, typer.Option("--data", help="A chat set (.json) with key facts.")] = (
        CHAT_DIR / "zh-dev.json"),
    labels: Annotated[Path | None, typer.Option(
        help="Hand labels of stored facts (default: <set>.labels.jsonl beside the set).")
    ] = None,
    unlabelled: Annotated[Path | None, typer.Option(
        help="Write the stored facts that carry no label here (JSONL), to label them.")
    ] = None,
    run_tag: RunTagOpt = "chat",
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
    json_out: JsonOutOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Facts of a chat set's users: key-fact recall (who each fact belongs to counts),
    ended facts that are no longer current, and precision over hand-labelled facts."""
    import json

    from graphmem.cli.progress import progress_callback
    from graphmem_bench.histories.data import load_chat_set
    from graphmem_bench.histories.facts import evaluate, load_labels
    from graphmem_bench.histories.run import Timings, ingest, user_id_for

    _check_data(data)
    histories = load_chat_set(data)
    labels_path = labels or data.with_suffix(".labels.jsonl")
    buffer = buffer_dir or Path(".graphmem/bench") / run_tag
    mem = _run(lambda: _connect(uri, buffer))
    with mem, progress_callback("histories ingested", quiet) as on_progress:
        timings = Timings()
        facts_of = {}
        for i, history in enumerate(histories):
            user_id = user_id_for(run_tag, history.history_id)
            _run(lambda h=history, u=user_id: ingest(mem, h, u, timings))
            facts_of[history.history_id] = mem.facts(user_id)
            on_progress(i + 1, len(histories))
    report = evaluate(histories, facts_of, load_labels(labels_path), data.stem)
    console.print(report.to_markdown(), markup=False)
    if unlabelled is not None:
        unlabelled.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n"
                                      for row in report.unlabelled), encoding="utf-8")
    if json_out is not None:
        json_out.write_text(report.model_dump_json(indent=1), encoding="utf-8")
