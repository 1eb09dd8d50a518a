"""The ``graphmem`` command: each command builds the client, calls one public method
and renders the result. Library errors become CLI errors only here."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from graphmem._errors import GraphmemError

app = typer.Typer(help="graphmem — long-term memory for LLM agents, kept in Neo4j.",
                  no_args_is_help=True, add_completion=False)
bench_app = typer.Typer(help="Benchmarks: ingest throughput, LoCoMo retrieval.",
                        no_args_is_help=True)
app.add_typer(bench_app, name="bench")
console = Console()
err = Console(stderr=True)

UriOpt = Annotated[str | None, typer.Option("--uri", envvar="GRAPHMEM_NEO4J_URI",
                                            help="Neo4j Bolt URI.")]
BufferOpt = Annotated[Path | None, typer.Option("--buffer-dir", envvar="GRAPHMEM_BUFFER_DIR",
                                                help="Raw buffer directory.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object per line.")]


def _connect(uri: str | None, buffer_dir: Path | None, **settings: Any):
    from graphmem import Memory

    return Memory.connect(uri, buffer_dir=buffer_dir, **settings)


def _run(action: Callable[[], Any]) -> Any:
    try:
        return action()
    except GraphmemError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from None


@app.command()
def init(uri: UriOpt = None, buffer_dir: BufferOpt = None) -> None:
    """Apply the schema (constraints, range, vector and full-text indexes)."""
    mem = _run(lambda: _connect(uri, buffer_dir))
    mem.close()
    console.print("[green]schema applied[/green]")


@app.command()
def doctor(uri: UriOpt = None) -> None:
    """Check Neo4j, the schema, the embedder and the spaCy models; exit 1 if one fails."""
    from graphmem.doctor import run_checks

    failed = False
    for check in run_checks(uri):
        mark = "[green]ok[/green]  " if check.ok else "[red]FAIL[/red]"
        console.print(f"{mark} {check.name}: {check.detail}")
        if not check.ok:
            failed = True
            console.print(f"      [yellow]fix:[/yellow] {check.fix}")
    raise typer.Exit(1 if failed else 0)


@app.command()
def ingest(
    path: Annotated[Path, typer.Argument(help="JSONL: user_id, session_id, role, content, ts.")],
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
    batch: Annotated[int, typer.Option(help="Messages per buffer write.")] = 500,
    quiet: QuietOpt = False,
) -> None:
    """Add messages from a JSONL file, then flush."""
    from graphmem.progress import progress_bar

    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
             if line.strip()]
    mem = _run(lambda: _connect(uri, buffer_dir))
    with mem, progress_bar("ingest", len(lines), quiet) as advance:
        for start in range(0, len(lines), batch):
            chunk = lines[start:start + batch]
            _run(lambda c=chunk: mem.add_messages(c))
            advance(len(chunk))
        closed = _run(mem.flush)
    console.print(f"ingested {len(lines)} messages; {len(closed)} episodes closed at flush")


@app.command()
def episodes(
    user_id: str,
    since: Annotated[datetime | None, typer.Option(help="ISO datetime (UTC if no zone).")] = None,
    until: Annotated[datetime | None, typer.Option()] = None,
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List a user's episodes in a time range."""
    mem = _run(lambda: _connect(uri, buffer_dir))
    with mem:
        found = _run(lambda: mem.episodes(user_id, _aware(since), _aware(until)))
    if as_json:
        for ep in found:
            typer.echo(ep.model_dump_json(exclude={"actions"}))
        return
    table = Table("start", "session", "goal", "result", "raw_span")
    for ep in found:
        table.add_row(ep.start_time.isoformat(timespec="seconds"), ep.session_id, ep.goal,
                      ep.result, f"{ep.raw_span[0]}–{ep.raw_span[1]}")
    console.print(table)


@app.command()
def demo(uri: UriOpt = None, buffer_dir: BufferOpt = None) -> None:
    """Feed the article's conversations and show what memory made of them."""
    from graphmem.demo import run_demo

    _run(lambda: run_demo(uri, buffer_dir, console))


def _aware(value: datetime | None) -> datetime | None:
    from datetime import UTC

    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def main() -> None:  # pragma: no cover - console entry point
    sys.exit(app())


@bench_app.command("ingest")
def bench_ingest(
    messages: Annotated[int, typer.Option(help="How many generated messages.")] = 50_000,
    users: Annotated[int, typer.Option()] = 50,
    sessions: Annotated[int, typer.Option(help="Sessions per user.")] = 20,
    uri: UriOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Ingest throughput: messages/s, episodes/s, embedding vs Neo4j time."""
    from graphmem.bench.ingest import run_ingest_bench
    from graphmem.progress import progress_bar

    with progress_bar("ingest", messages, quiet) as advance:
        state = {"done": 0}

        def on_progress(done: int, total: int) -> None:
            advance(done - state["done"])
            state["done"] = done

        report = _run(lambda: run_ingest_bench(
            lambda buffer_dir: _connect(uri, buffer_dir), messages, users, sessions,
            on_progress=on_progress,
        ))
    console.print(report.to_markdown())
