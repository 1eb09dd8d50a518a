"""Progress drawing for the CLI edge; the library only calls ``on_progress(done, total)``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


@contextmanager
def progress_bar(label: str, total: int, quiet: bool = False) -> Iterator[Callable[[int], None]]:
    """Yields ``advance(n)``; draws a rich bar unless ``quiet``."""
    if quiet:
        yield lambda n: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=False) as progress:
        task = progress.add_task(label, total=total)
        yield lambda n: progress.advance(task, n)
