"""Commands over one user's memory: init, doctor, ingest, episodes, query, facts,
history, consolidate, export, import. Only ingest and import take messages (they open the
raw buffer for writing); the others connect with ``ingest=False``."""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from graphmem._models import QueryExplanation

from graphmem.cli.base import (
    BufferOpt,
    JsonOpt,
    QuietOpt,
    UriOpt,
    _aware,
    _connect,
    _run,
    _table,
    _time_option,
    _with_memory,
    app,
    console,
    err,
)


@app.command()
def init(uri: UriOpt = None, buffer_dir: BufferOpt = None) -> None:
    """Apply the whole schema (constraints, range, vector and full-text indexes), even
    where Memory.connect finds it up to date."""
    from graphmem.store.runner import QueryRunner
    from graphmem.store.schema import apply_schema

    def apply(mem: Any) -> None:
        config = mem.config
        runner = QueryRunner(config.driver_uri, config.auth, config.neo4j_database,
                             connect_timeout_s=config.neo4j_connect_timeout_s)
        try:
            apply_schema(runner, mem.embedder.dimension)
        finally:
            runner.close()

    _with_memory(uri, buffer_dir, apply, ingest=False)
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
                         lambda mem: mem.episodes(user_id, since, until), ingest=False)
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
        mem.explain_query if show_why else mem.query_memory)(question, user_id, **options),
        ingest=False)
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
    found = _with_memory(uri, buffer_dir, lambda mem: mem.facts(
        user_id, entity, predicate, include_superseded), ingest=False)
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
    versions = _with_memory(uri, buffer_dir, lambda mem: mem.history(fact_id, user_id),
                            ingest=False)
    for version in versions:
        if as_json:
            typer.echo(version.model_dump_json())
            continue
        f = version.fact
        console.print(f"[bold]{f.status}[/bold] {f.sentence} ({f.confidence:.2f}) "
                      f"{f.valid_from:%Y-%m-%d} {f.fact_id}", highlight=False)
        if f.change is not None:
            when = f"{f.changed_at:%Y-%m-%d %H:%M}" if f.changed_at else "?"
            console.print(f"    {f.change.replace('_', ' ')} by {f.changed_by} at {when}: "
                          f"{f.reason}", markup=False, highlight=False)
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
            user_id, now=now, on_progress=on_progress), ingest=False)
    console.print(
        f"{report.episodes} episodes distilled: {report.created} facts created, "
        f"{report.reverified} re-verified, {report.superseded} superseded, "
        f"{report.historic} kept as history (older than the current version), "
        f"{report.unconfirmed} online facts retracted (the whole episode did not say them), "
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
    buffer; embeddings included) as JSONL — for `graphmem import`. Warns when raw
    messages of the user's sessions are not in the raw buffer (--buffer-dir)."""
    import tempfile
    import warnings

    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        if out is not None:
            counts = _with_memory(uri, buffer_dir, lambda mem: mem.export_user(user, out),
                                  ingest=False)
        else:
            with tempfile.TemporaryDirectory() as tmp:
                path = Path(tmp) / "export.jsonl"
                counts = _with_memory(uri, buffer_dir,
                                      lambda mem: mem.export_user(user, path), ingest=False)
                sys.stdout.write(path.read_text(encoding="utf-8"))
    for warning in warned:
        err.print(f"[yellow]warning:[/yellow] {warning.message}", highlight=False)
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


