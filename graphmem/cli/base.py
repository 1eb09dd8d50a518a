"""What every command shares: the Typer app, the consoles, the common options, and
connecting and running one library call (library errors become CLI errors here)."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from rich.console import Console
from rich.table import Column, Table

from graphmem._errors import GraphmemError

if TYPE_CHECKING:
    pass

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


def _with_memory(uri: str | None, buffer_dir: Path | None, call: Callable[[Any], T],
                 ingest: bool = True) -> T:
    """Connect, run one library call, close — library errors become CLI errors. A command
    that takes no messages connects with ``ingest=False``: it opens no raw buffer for
    writing and replays nothing, so it runs beside the application, same folder."""
    mem = _run(lambda: _connect(uri, buffer_dir, ingest=ingest))
    with mem:
        return _run(lambda: call(mem))


def _run(action: Callable[[], Any]) -> Any:
    try:
        return action()
    except GraphmemError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(1) from None



def _aware(value: datetime | None) -> datetime | None:
    from datetime import UTC

    return value.replace(tzinfo=UTC) if value is not None and value.tzinfo is None else value



def main() -> None:  # pragma: no cover - console entry point
    sys.exit(app())


