"""Commands for running graphmem: the analysts' Cypher library, the consolidation
worker, stats, the demo, the MCP server, and the benchmarks (a separate package)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.text import Text

if TYPE_CHECKING:
    pass

from graphmem.cli.base import (
    BufferOpt,
    JsonOpt,
    QuietOpt,
    UriOpt,
    _connect,
    _run,
    _table,
    app,
    console,
    err,
)


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
    from graphmem._config import MemoryConfig

    return _run(lambda: MemoryConfig(**({"neo4j_uri": uri} if uri else {})))


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
    mem = _run(lambda: _connect(uri, buffer_dir, ingest=False))  # Neo4j alone: no buffer
    with mem, ConsolidationWorker(mem, lease_s=lease, min_episodes=min_episodes) as job:
        if once:
            run = _run(job.run_once)
            console.print(f"worker {job.owner}: {run.summary()}")
            return
        from apscheduler.schedulers.blocking import BlockingScheduler

        scheduler = BlockingScheduler()
        job.schedule(scheduler, every)
        console.print(f"worker {job.owner}: a run every {every:g} s (Ctrl-C stops)")
        _stop_on_signals()
        try:
            scheduler.start()
        except (KeyboardInterrupt, SystemExit):
            job.stop()  # a run going on ends after the user in hand, not after every user
            if scheduler.running:
                scheduler.shutdown(wait=True)


def _stop_on_signals() -> None:
    """SIGINT and SIGTERM (a service manager's stop) end the worker the same graceful way,
    even when it was started with SIGINT ignored (a background job of a shell, ``nohup``):
    the run going on ends after the user in hand, its lease released."""
    import signal

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt(signal.Signals(signum).name)

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, stop)


@app.command()
def stats(
    runs: Annotated[int, typer.Option("--runs", min=1, help="How many recent runs.")] = 10,
    uri: UriOpt = None, buffer_dir: BufferOpt = None, as_json: JsonOpt = False,
) -> None:
    """The recent consolidation worker runs, newest first: counts and durations (read
    from Neo4j alone; --buffer-dir is accepted and not needed)."""
    from graphmem.worker import recent_runs

    found = _run(lambda: recent_runs(_config(uri), runs))
    if as_json:
        for run in found:
            typer.echo(run.model_dump_json())
        return
    if not found:
        console.print("[dim]no worker run yet (start `graphmem worker`)[/dim]")
        return
    table = _table("finished", "worker", "users", "episodes", "created", "verified",
                   "superseded", "expired", "induced", "errors", "seconds",
                   title=f"recent worker runs (newest first, {len(found)})")
    for run in found:
        table.add_row(run.finished_at.isoformat(timespec="seconds"), run.owner,
                      *(str(getattr(run, k)) for k in ("users", "episodes", "created",
                                                        "verified", "superseded", "expired",
                                                        "induced", "errors")),
                      f"{run.duration_s:.2f}")
    console.print(table)
    worked = next((r for r in found if r.episodes), None)
    if worked is not None and worked is not found[0]:
        console.print(f"[dim]last run with episodes: {worked.summary()}[/dim]")


@app.command()
def demo(uri: UriOpt = None, buffer_dir: BufferOpt = None) -> None:
    """Feed the article's conversations and show what memory made of them."""
    from graphmem.cli.demo import run_demo

    _run(lambda: run_demo(uri, buffer_dir, console))


@app.command()
def mcp(
    transport: Annotated[str, typer.Option(
        help="stdio (the client starts this command) or streamable-http.")] = "stdio",
    host: Annotated[str, typer.Option(
        help="streamable-http: address to listen on (beyond loopback only with a token).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="streamable-http: port.")] = 8000,
    path: Annotated[str, typer.Option(help="streamable-http: endpoint path.")] = "/mcp",
    tokens: Annotated[Path | None, typer.Option(
        "--tokens", help="streamable-http: bearer tokens, one a line: TOKEN [USER_ID] (a "
                         "token with a user may only name that user). GRAPHMEM_MCP_TOKEN "
                         "adds one for any user.")] = None,
    uri: UriOpt = None,
    buffer_dir: BufferOpt = None,
) -> None:
    """Serve memory to agents over MCP: remember, recall, explain, facts, history,
    episodes, correct_fact, retract_fact, delete_episode, forget_user (every call names
    its user)."""
    if transport not in ("stdio", "streamable-http"):
        raise typer.BadParameter("use stdio or streamable-http", param_hint="--transport")
    try:
        from graphmem.mcp import serve
    except ImportError as exc:
        err.print(f"[red]error:[/red] {exc}; install the MCP extra: pip install 'graphmem[mcp]'")
        raise typer.Exit(1) from None
    from graphmem._mcp_auth import Tokens

    grants = _run(lambda: Tokens.load(tokens))
    _run(lambda: serve(lambda: _connect(uri, buffer_dir), transport,  # type: ignore[arg-type]
                       host, port, path, grants))


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


@app.command()
def reembed(
    uri: UriOpt = None,
    embedder: Annotated[str | None, typer.Option(
        envvar="GRAPHMEM_EMBEDDER", help="The embedder to re-embed with (default: the "
        "configured one).")] = None,
    quiet: QuietOpt = False,
) -> None:
    """Embed every episode and fact again with the configured embedder (after changing
    the embedding model), then record it as the database's vector space."""
    from graphmem._config import MemoryConfig
    from graphmem.cli.progress import progress_callback
    from graphmem.embed import load_embedder, vector_space
    from graphmem.reembed import reembed as reembed_all
    from graphmem.store.runner import QueryRunner

    settings: dict[str, Any] = {"neo4j_uri": uri} if uri else {}
    if embedder:
        settings["embedder"] = embedder
    config = _run(lambda: MemoryConfig(**settings))
    model = _run(lambda: load_embedder(config))
    runner = QueryRunner(config.driver_uri, config.auth, config.neo4j_database,
                         retry_s=config.neo4j_retry_s)
    try:
        _run(runner.verify)
        with progress_callback("re-embedded", quiet) as on_progress:
            done = _run(lambda: reembed_all(runner, model, on_progress))
    finally:
        runner.close()
    console.print(f"re-embedded {done['episodes']} episodes and {done['facts']} fact versions "
                  f"with {vector_space(model)}")
