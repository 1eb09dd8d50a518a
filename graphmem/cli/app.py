"""The ``graphmem`` command: each command builds the client, calls one public method
and renders the result. Library errors become CLI errors only here."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Column, Table
from rich.text import Text

from graphmem._errors import GraphmemError

if TYPE_CHECKING:
    from graphmem._models import QueryExplanation

T = TypeVar("T")
app = typer.Typer(help="graphmem — long-term memory for LLM agents, kept in Neo4j.",
                  no_args_is_help=True, add_completion=False)
# Piped or redirected, rich would fit tables into 80 columns and cut ids and times with
# "…"; a file or a pager gets wide lines instead ($COLUMNS still wins).
PIPED_WIDTH = 200
console = Console(width=None if sys.stdout.isatty() or os.environ.get("COLUMNS")
                  else PIPED_WIDTH)
err = Console(stderr=True)

UriOpt = Annotated[str | None, typer.Option("--uri", envvar="GRAPHMEM_NEO4J_URI",
                                            help="Neo4j Bolt URI.")]
BufferOpt = Annotated[Path | None, typer.Option("--buffer-dir", envvar="GRAPHMEM_BUFFER_DIR",
                                                help="Raw buffer directory.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bars.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object per line.")]


def _table(*headers: str, title: str | None = None) -> Table:
    """A table whose cells wrap onto more lines when narrow, never cut with "…"."""
    return Table(*(Column(h, overflow="fold") for h in headers), title=title)


def _iso_time(text: str) -> datetime:
    """An ``--since``/``--until``/``--now`` value: an ISO date or datetime, UTC without a
    zone; anything else is refused with an example."""
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise typer.BadParameter(
            f"{text!r} is not an ISO date or datetime; e.g. 2024-05-08, 2024-05-08T14:30 "
            "or 2024-05-08T14:30+02:00 (UTC without a zone)") from None
    return _aware(value)  # type: ignore[return-value]


def _time_option(help_text: str) -> Any:
    return typer.Option(parser=_iso_time, metavar="ISO", help=help_text)


def _connect(uri: str | None, buffer_dir: Path | None, **settings: Any):
    from graphmem import Memory

    return Memory.connect(uri, buffer_dir=buffer_dir, **settings)


def _with_memory(uri: str | None, buffer_dir: Path | None, call: Callable[[Any], T]) -> T:
    """Connect, run one library call, close — library errors become CLI errors."""
    mem = _run(lambda: _connect(uri, buffer_dir))
    with mem:
        return _run(lambda: call(mem))


def _run(action: Callable[[], Any]) -> Any:
    try:
        return action()
    except GraphmemError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from None


@app.command()
def init(uri: UriOpt = None, buffer_dir: BufferOpt = None) -> None:
    """Apply the schema (constraints, range, vector and full-text indexes)."""
    _with_memory(uri, buffer_dir, lambda mem: None)
    console.print("[green]schema applied[/green]")


@app.command()
def doctor(
    uri: UriOpt = None,
    timeout: Annotated[float, typer.Option(
        envvar="GRAPHMEM_NEO4J_CONNECT_TIMEOUT_S", min=0.1,
        help="Seconds to wait for Neo4j to answer before calling it unreachable.")
    ] = 3.0,  # doctor.DEFAULT_CONNECT_TIMEOUT_S (not imported: --help stays instant)
) -> None:
    """Check Neo4j, the schema, the embedder and the spaCy models; exit 1 if one fails."""
    from graphmem.cli.doctor import run_checks

    failed = False
    for check in run_checks(uri, timeout):
        if check.skipped:
            console.print(f"[dim]skip {check.name}: {check.detail}[/dim]")
            continue
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
    from graphmem.cli.progress import progress_callback

    lines = _read_jsonl(path)
    mem = _run(lambda: _connect(uri, buffer_dir))
    with mem, progress_callback("ingest", quiet) as on_progress:
        for start in range(0, len(lines), batch):
            chunk = lines[start:start + batch]
            _run(lambda c=chunk: mem.add_messages(c))
            on_progress(start + len(chunk), len(lines))
        closed = _run(mem.flush)
    console.print(f"ingested {len(lines)} messages; {len(closed)} "
                  f"episode{'' if len(closed) == 1 else 's'} closed at flush")


@app.command()
def episodes(
    user_id: str,
    since: Annotated[datetime | None, _time_option("From (ISO; UTC if no zone).")] = None,
    until: Annotated[datetime | None, _time_option("Up to, not including (ISO).")] = None,
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """List a user's episodes in a time range."""
    found = _with_memory(uri, buffer_dir,
                         lambda mem: mem.episodes(user_id, since, until))
    if as_json:
        for ep in found:
            typer.echo(ep.model_dump_json(exclude={"actions"}))
        return
    if not found:
        console.print(f"[dim]no episodes for {user_id}[/dim]")
        return
    table = _table("start", "session", "goal", "result", "raw_span")
    for ep in found:
        table.add_row(ep.start_time.isoformat(timespec="seconds"), ep.session_id, ep.goal,
                      ep.result, f"{ep.raw_span[0]}–{ep.raw_span[1]}")
    console.print(table)


@app.command()
def query(
    user_id: str,
    question: str,
    now: Annotated[datetime | None, _time_option("Resolve time hints as of (ISO).")] = None,
    top_k_episodes: Annotated[int, typer.Option()] = 3,
    top_k_facts: Annotated[int, typer.Option()] = 5,
    token_budget: Annotated[int | None, typer.Option()] = None,
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
    as_json: JsonOpt = False,
    show_why: Annotated[bool, typer.Option(
        "--explain", help="Also show each channel's messages, the fused ranking and which "
                          "messages the context shows (why an answer is or is not there).")
    ] = False,
) -> None:
    """The memory context an agent would get for QUESTION."""
    if not question.strip():
        raise typer.BadParameter("QUESTION is empty: ask something, e.g. "
                                 "graphmem query u1 'what flowers does she like?'")
    options = dict(now=now, top_k_episodes=top_k_episodes, top_k_facts=top_k_facts,
                   token_budget=token_budget)
    answer = _with_memory(uri, buffer_dir, lambda mem: (
        mem.explain_query if show_why else mem.query_memory)(question, user_id, **options))
    if as_json:
        typer.echo(answer.model_dump_json())
        return
    ctx = answer.context if show_why else answer
    window = f" {ctx.window.since} → {ctx.window.until}" if ctx.window else ""
    console.print(f"[dim]route: {ctx.route}{window}; {ctx.tokens}/{ctx.token_budget} tokens[/dim]")
    if ctx.text:
        console.print(ctx.text, markup=False)
    else:
        console.print("[dim](nothing remembered)[/dim]")
    if show_why:
        _print_explanation(answer)


EXPLAIN_ROWS = 25  # of the fused ranking


def _print_explanation(why: QueryExplanation) -> None:
    from graphmem.retrieve.explain import channel_counts, channel_ranks

    console.print(f"\n[bold]channels[/bold] (messages found): {channel_counts(why)}")
    table = _table("#", "score", "cover", "shown", "time", "session", "msg", "ranks", "text",
                   title=f"fused ranking (best {EXPLAIN_ROWS})")
    for i, m in enumerate(why.ranked[:EXPLAIN_ROWS], start=1):
        table.add_row(str(i), f"{m.score:.4f}", f"{m.coverage:.2f}", "yes" if m.shown else "",
                      m.ts.isoformat(timespec="minutes"), m.session_id, str(m.msg_id),
                      channel_ranks(m), m.text)
    console.print(table)
    if why.candidate_facts:
        facts = _table("score", "shown", "fact", "confidence", title="candidate facts")
        shown = {f.fact_id for f in why.context.facts}
        for f in why.candidate_facts:
            facts.add_row(f"{f.score:.3f}", "yes" if f.fact_id in shown else "",
                          f.sentence or f"{f.entity} {f.predicate} {f.value}",
                          f"{f.confidence:.2f}{' (reference only)' if f.reference_only else ''}")
        console.print(facts)


@app.command()
def facts(
    user_id: str,
    entity: Annotated[str | None, typer.Option(help="Any alias of the entity.")] = None,
    predicate: Annotated[str | None, typer.Option()] = None,
    include_superseded: Annotated[bool, typer.Option("--all", help="Superseded too.")] = False,
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A user's facts (current ones unless --all)."""
    found = _with_memory(uri, buffer_dir,
                         lambda mem: mem.facts(user_id, entity, predicate, include_superseded))
    if as_json:
        for fact in found:
            typer.echo(fact.model_dump_json())
        return
    if not found:
        console.print(f"[dim]no facts for {user_id}[/dim]")
        from graphmem.facts.predicates import PREDICATES

        if predicate and predicate not in PREDICATES:
            console.print(f"[dim]({predicate!r} is not a canonical predicate; those are: "
                          f"{', '.join(PREDICATES)}; a generic reading's own predicate, such "
                          "as go_to, is matched as written)[/dim]")
        return
    table = _table("entity", "predicate", "value", "conf", "status", "last verified")
    table.add_column("fact_id", no_wrap=True, min_width=21)  # whole: `graphmem history` needs it
    for f in found:
        table.add_row(f.entity, f.predicate, ("NOT " if f.negated else "") + f.value,
                      f"{f.confidence:.2f}", f.status, f.last_verified.date().isoformat(),
                      f.fact_id)
    console.print(table)


@app.command()
def history(
    user_id: str, fact_id: str, uri: UriOpt = None, buffer_dir: BufferOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """A fact's version chain (the user's only), newest first, with the episodes behind
    each version."""
    versions = _with_memory(uri, buffer_dir, lambda mem: mem.history(fact_id, user_id))
    for version in versions:
        if as_json:
            typer.echo(version.model_dump_json())
            continue
        f = version.fact
        console.print(f"[bold]{f.status}[/bold] {f.sentence} ({f.confidence:.2f}) "
                      f"{f.valid_from:%Y-%m-%d} {f.fact_id}")
        for ep in version.episodes:
            console.print(f"    from {ep.event_id} {ep.session_id} msgs "
                          f"{ep.raw_span[0]}–{ep.raw_span[1]} ({ep.start_time:%Y-%m-%d %H:%M})")


@app.command()
def consolidate(
    user_id: Annotated[str | None, typer.Option(help="Only this user.")] = None,
    now: Annotated[datetime | None, _time_option(
        "Expire and decay as of this time (ISO), e.g. when importing old logs.")] = None,
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
    quiet: QuietOpt = False,
) -> None:
    """Distill new episodes into facts now (what the background job does)."""
    from graphmem.cli.progress import progress_callback

    with progress_callback("consolidate", quiet) as on_progress:
        report = _with_memory(uri, buffer_dir, lambda mem: mem.consolidate(
            user_id, now=now, on_progress=on_progress))
    console.print(
        f"{report.episodes} episodes distilled: {report.created} facts created, "
        f"{report.reverified} re-verified, {report.superseded} superseded, "
        f"{report.historic} kept as history (older than the current version), "
        f"{report.embedded} embedded, {report.expired} expired, {report.deleted} deleted")
    for problem in report.errors:
        err.print(f"[yellow]extraction failed:[/yellow] {problem}")


@app.command("export")
def export_user(
    user: Annotated[str, typer.Option("--user", help="The user whose data to export.")],
    out: Annotated[Path | None, typer.Option(
        "--out", help="The JSONL file to write (default: standard output).")] = None,
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
) -> None:
    """Write a user's whole memory (episodes, messages, fact versions, entities, raw
    buffer; embeddings included) as JSONL — for `graphmem import`."""
    import tempfile

    if out is not None:
        counts = _with_memory(uri, buffer_dir, lambda mem: mem.export_user(user, out))
    else:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "export.jsonl"
            counts = _with_memory(uri, buffer_dir, lambda mem: mem.export_user(user, path))
            sys.stdout.write(path.read_text(encoding="utf-8"))
    err.print(f"exported {user}: " + ", ".join(f"{n} {k}" for k, n in counts.items()))


@app.command("import")
def import_user(
    file: Annotated[Path, typer.Argument(help="A file written by `graphmem export`.")],
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
) -> None:
    """Restore a `graphmem export` file into a database where its user has no data."""
    user_id, counts = _with_memory(uri, buffer_dir, lambda mem: mem.import_user(file))
    console.print(f"imported {user_id}: " + ", ".join(f"{n} {k}" for k, n in counts.items()))


@app.command("cypher")
def cypher_query(
    name: Annotated[str | None, typer.Argument(
        help="A query of cypher/queries/ (without .cypher); see --list.")] = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", "-p", help="key=value; ISO dates/datetimes and numbers are typed.")] = None,
    list_queries: Annotated[bool, typer.Option("--list", help="List the queries.")] = False,
    uri: UriOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Run one of the analysts' named Cypher queries and print its rows."""
    from graphmem import queries

    if list_queries or name is None:
        _print_query_list(queries.list_queries(), as_json)
        return
    query = _run(lambda: queries.get_query(name))
    params = _run(lambda: queries.bind_parameters(
        query, queries.parse_parameter_args(param or [])))
    rows = _run(lambda: _read_query(uri, query, params))
    if as_json:
        for row in rows:
            typer.echo(json.dumps(row, ensure_ascii=False, default=_json_value))
        return
    if not rows:
        console.print(f"[dim]{query.name}: no rows[/dim]")
        return
    table = _table(*rows[0], title=f"{query.name} ({len(rows)} rows)")
    for row in rows:
        table.add_row(*(Text(_cell(value)) for value in row.values()))  # no markup
    console.print(table)


def _read_query(uri: str | None, query: Any, params: dict[str, Any]) -> list[dict]:
    from graphmem.queries import run_query
    from graphmem.store.runner import QueryRunner

    config = _config(uri)
    runner = QueryRunner(config.driver_uri, config.auth, config.neo4j_database,
                         connect_timeout_s=config.neo4j_connect_timeout_s)
    try:
        runner.verify()
        return run_query(runner, query, params)
    finally:
        runner.close()


def _config(uri: str | None) -> Any:
    from pydantic import ValidationError

    from graphmem._config import MemoryConfig

    try:
        return MemoryConfig(**({"neo4j_uri": uri} if uri else {}))
    except ValidationError as exc:
        err.print(f"[red]error:[/red] {exc.errors()[0]['msg']}")
        raise typer.Exit(1) from None


def _print_query_list(found: list[Any], as_json: bool) -> None:
    if as_json:
        for q in found:
            typer.echo(json.dumps({"name": q.name, "summary": q.summary, "parameters": [
                {"name": p.name, "type": p.type, "optional": p.optional}
                for p in q.parameters]}, ensure_ascii=False))
        return
    table = _table("name", "parameters", "answers", title="cypher/queries/")
    for q in found:
        table.add_row(q.name, " ".join(f"{p.name}{'?' if p.optional else ''}"
                                       for p in q.parameters), q.summary)
    console.print(table)


def _cell(value: Any) -> str:
    """A value as table text: datetimes to the second, lists of text one item per line."""
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.isoformat(timespec="seconds").replace("+00:00", "Z")
    if isinstance(value, float):
        return f"{value:.3g}"
    if isinstance(value, list) and value and all(isinstance(v, int | float) for v in value):
        return "[" + ", ".join(_cell(v) for v in value) + "]"
    if isinstance(value, list):
        return "\n".join(_cell(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, default=_json_value)
    return str(value)


def _json_value(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    return str(value)


@app.command()
def worker(
    every: Annotated[float, typer.Option(help="Seconds between runs.")] = 60.0,
    once: Annotated[bool, typer.Option("--once", help="One run, then exit.")] = False,
    lease: Annotated[float, typer.Option(
        help="Seconds a user's lease lasts (a crashed worker's lease frees itself).")] = 600.0,
    min_episodes: Annotated[int, typer.Option(
        help="Distinct episodes before induction raises a fact's confidence.")] = 3,
    nice: Annotated[int, typer.Option(
        min=0, max=19,
        help="Lower the worker's CPU priority by this much, so that on a shared host "
             "the application's requests come first (0: unchanged).")] = 19,
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
) -> None:
    """Consolidate in the background: distill closed episodes, induce, expire, retain —
    each user under a lease in Neo4j, so several workers can run at once."""
    import logging

    from graphmem.worker import ConsolidationWorker, lower_priority

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    if nice:
        lower_priority(nice)  # before the models load: all of the worker's work yields
    mem = _run(lambda: _connect(uri, buffer_dir))
    with mem:
        job = ConsolidationWorker(mem, lease_s=lease, min_episodes=min_episodes)
        if once:
            run = _run(job.run_once)
            console.print(f"worker {job.owner}: {run.summary()}")
            return
        from apscheduler.schedulers.blocking import BlockingScheduler

        scheduler = BlockingScheduler()
        job.schedule(scheduler, every)
        console.print(f"worker {job.owner}: a run every {every:g} s (Ctrl-C stops)")
        with contextlib.suppress(KeyboardInterrupt, SystemExit):
            scheduler.start()


@app.command()
def stats(uri: UriOpt = None, buffer_dir: BufferOpt = None, as_json: JsonOpt = False) -> None:
    """The last consolidation worker run: its counts and duration."""
    from graphmem.worker import last_run

    run = _with_memory(uri, buffer_dir, last_run)
    if as_json:
        typer.echo(run.model_dump_json() if run else "null")
        return
    if run is None:
        console.print("[dim]no worker run yet (start `graphmem worker`)[/dim]")
        return
    table = _table("last worker run", "")
    for key, value in run.model_dump().items():
        table.add_row(key, value.isoformat(timespec="seconds")
                      if isinstance(value, datetime) else str(value))
    console.print(table)


@app.command()
def demo(uri: UriOpt = None, buffer_dir: BufferOpt = None) -> None:
    """Feed the article's conversations and show what memory made of them."""
    from graphmem.cli.demo import run_demo

    _run(lambda: run_demo(uri, buffer_dir, console))


@app.command()
def mcp(
    transport: Annotated[str, typer.Option(
        help="stdio (the client starts this command) or streamable-http.")] = "stdio",
    host: Annotated[str, typer.Option(help="streamable-http: address to listen on.")
                    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="streamable-http: port.")] = 8000,
    path: Annotated[str, typer.Option(help="streamable-http: endpoint path.")] = "/mcp",
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
) -> None:
    """Serve memory to agents over MCP: remember, recall, explain, facts, history,
    episodes, forget_user (every call names its user)."""
    if transport not in ("stdio", "streamable-http"):
        raise typer.BadParameter("use stdio or streamable-http", param_hint="--transport")
    try:
        from graphmem.mcp import serve
    except ImportError as exc:
        err.print(f"[red]error:[/red] {exc}; install the MCP extra: pip install 'graphmem[mcp]'")
        raise typer.Exit(1) from None
    _run(lambda: serve(lambda: _connect(uri, buffer_dir), transport,  # type: ignore[arg-type]
                       host, port, path))


def _read_jsonl(path: Path) -> list[Any]:
    """Messages from a JSONL file, each validated, errors naming the line; a ``ts`` without
    a zone is read as UTC (as --since/--now are)."""
    from pydantic import ValidationError

    from graphmem._models import MessageIn

    if not path.is_file():
        raise typer.BadParameter(f"{path} not found", param_hint="PATH")
    messages = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            if isinstance(row.get("ts"), str):
                row["ts"] = _aware(datetime.fromisoformat(row["ts"]))
            messages.append(MessageIn(**row))
        except (json.JSONDecodeError, ValidationError, ValueError, TypeError,
                AttributeError) as exc:
            detail = exc.errors()[0]["msg"] if isinstance(exc, ValidationError) else str(exc)
            err.print(f"[red]error:[/red] {path}:{number}: {detail}")
            raise typer.Exit(1) from None
    return messages


def _aware(value: datetime | None) -> datetime | None:
    from datetime import UTC

    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value


def main() -> None:  # pragma: no cover - console entry point
    sys.exit(app())


@app.command(context_settings={"allow_extra_args": True, "ignore_unknown_options": True,
                               "help_option_names": []}, add_help_option=False)
def bench(ctx: typer.Context) -> None:
    """Benchmarks (ingest, scale, LoCoMo, LongMemEval, chat histories, extraction): the
    graphmem-bench package, installed from a graphmem checkout (pip install -e
    benchmarks/); `graphmem bench --help` lists them."""
    from importlib.metadata import entry_points

    found = entry_points(group="graphmem.bench")
    if not found:
        err.print("[red]error:[/red] graphmem bench needs the graphmem-bench package: "
                  "pip install -e benchmarks/ from a graphmem checkout (scripts/setup does)")
        raise typer.Exit(1)
    bench_app = next(iter(found)).load()
    bench_app(ctx.args, prog_name="graphmem bench")
