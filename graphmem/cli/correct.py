"""Commands that correct what memory got wrong: retract, correct, delete-episode, forget.
Each connects without taking messages (``ingest=False``: no raw buffer is opened for
writing, nothing is replayed), so it runs beside the application from the same folder; the
raw buffer it is given (``--buffer-dir``, default ``.graphmem/buffer``) is the one it cleans."""

from __future__ import annotations

import getpass
import json
from typing import Annotated

import typer

from graphmem.cli.base import (
    BufferOpt,
    JsonOpt,
    UriOpt,
    _with_memory,
    app,
    console,
    err,
)

ReasonOpt = Annotated[str, typer.Option(
    "--reason", help="Why (kept in the fact's history with who and when).")]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]


def _by() -> str:
    """Who makes a change from the command line: ``cli:<login name>``."""
    try:
        return f"cli:{getpass.getuser()}"
    except (KeyError, OSError):  # no login name (a container without USER)
        return "cli"


def _not_reached(places: tuple[str, ...]) -> None:
    for place in places:
        err.print(f"[yellow]not reached:[/yellow] {place}", markup=True, highlight=False)


@app.command()
def retract(
    user_id: str, fact_id: str, reason: ReasonOpt, uri: UriOpt = None,
    buffer_dir: BufferOpt = None, as_json: JsonOpt = False,
) -> None:
    """Take back a fact memory got wrong: a new version heads its chain, status
    'retracted', with the reason, who and when (`graphmem history` shows it)."""
    made = _with_memory(uri, buffer_dir, lambda mem: mem.retract_fact(
        user_id, fact_id, reason, by=_by()), ingest=False)
    if as_json:
        typer.echo(made.model_dump_json())
        return
    console.print(f"retracted {fact_id}: {made.sentence!r} — the retraction is {made.fact_id}")


@app.command()
def correct(
    user_id: str, fact_id: str,
    value: Annotated[str, typer.Argument(help="The right value, e.g. Munich.")],
    reason: ReasonOpt, uri: UriOpt = None, buffer_dir: BufferOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Give a fact its right VALUE: a new current version supersedes the wrong one in its
    chain, with the reason, who and when."""
    made = _with_memory(uri, buffer_dir, lambda mem: mem.correct_fact(
        user_id, fact_id, value, reason, by=_by()), ingest=False)
    if as_json:
        typer.echo(made.model_dump_json())
        return
    console.print(f"corrected {fact_id}: now {made.sentence!r} ({made.fact_id})")


@app.command("delete-episode")
def delete_episode(
    user_id: str, event_id: str, yes: YesOpt = False, uri: UriOpt = None,
    buffer_dir: BufferOpt = None, as_json: JsonOpt = False,
) -> None:
    """Delete an episode and its messages (in Neo4j and in the raw buffer); facts it was
    the only evidence for expire, saying why."""
    if not yes:
        typer.confirm(f"Delete episode {event_id} of {user_id} and its messages?", abort=True)
    done = _with_memory(uri, buffer_dir, lambda mem: mem.delete_episode(
        user_id, event_id, by=_by()), ingest=False)
    if as_json:
        typer.echo(done.model_dump_json())
    else:
        console.print(
            f"deleted {event_id} (session {done.session_id}, messages {done.raw_span[0]}–"
            f"{done.raw_span[1]}): {done.messages} stored messages, {done.raw_messages} raw "
            f"buffer lines; {len(done.facts_expired)} facts expired "
            f"{list(done.facts_expired) or ''}, {len(done.facts_updated)} keep other evidence")
    _not_reached(done.not_reached)


@app.command()
def forget(
    user: Annotated[str, typer.Option("--user", help="The user to forget.")],
    yes: YesOpt = False, uri: UriOpt = None, buffer_dir: BufferOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Delete everything of a user: the graph, and the user's raw messages in the raw
    buffer (--buffer-dir). Prints every place it could not reach."""
    if not yes:
        typer.confirm(f"Forget everything about {user}? This cannot be undone", abort=True)
    report = _with_memory(uri, buffer_dir, lambda mem: mem.forget_user(user), ingest=False)
    if as_json:
        typer.echo(json.dumps(report.model_dump(mode="json"), ensure_ascii=False))
    else:
        console.print(f"forgot {user}: {report.nodes} nodes, {report.raw_messages} raw "
                      f"messages in {report.raw_sessions} sessions of the raw buffer")
    _not_reached(report.not_reached)
