"""Progress drawing for the CLI edge; the library only calls ``on_progress(done, total)``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

OnProgress = Callable[[int, int], None]


@contextmanager
def progress_callback(label: str, quiet: bool = False) -> Iterator[OnProgress]:
    """Yields ``on_progress(done, total)`` that draws a rich bar (nothing if ``quiet``)."""
    if quiet:
        yield lambda done, total: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=False) as progress:
        task = progress.add_task(label, total=None)

        def on_progress(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        yield on_progress


@contextmanager
def stages_callback(quiet: bool = False) -> Iterator[Callable[[str, int, int], None]]:
    """Yields ``on_progress(stage, done, total)``: one rich bar per stage, added when the
    stage first reports (nothing if ``quiet``)."""
    if quiet:
        yield lambda stage, done, total: None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=False) as progress:
        tasks: dict[str, TaskID] = {}

        def on_progress(stage: str, done: int, total: int) -> None:
            if stage not in tasks:
                tasks[stage] = progress.add_task(stage, total=total)
            progress.update(tasks[stage], completed=done, total=total)

        yield on_progress
