"""Background work yields the CPU to requests (issue 28, under load): each background
thread runs at a lower priority than the thread that asks — pure, no Neo4j."""

from __future__ import annotations

import os
import threading

import pytest

from graphmem.ingest.background import BackgroundQueue, lower_thread_priority

pytestmark = pytest.mark.skipif(not hasattr(os, "setpriority"), reason="no per-thread nice")


def _nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def test_a_background_queue_thread_runs_nicer_than_its_caller():
    seen: list[int] = []
    queue = BackgroundQueue(lambda items: seen.append(_nice()), name="t", nice=5)
    queue.submit("x")
    assert queue.drain(10)
    queue.close()
    assert seen and seen[0] == min(19, _nice() + 5)
    assert _nice() == os.getpriority(os.PRIO_PROCESS, 0)  # the caller keeps its own


def test_priority_zero_leaves_a_thread_as_it_is():
    seen: list[int] = []

    def run() -> None:
        lower_thread_priority(0)
        seen.append(_nice())

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [_nice()]


def test_lowering_twice_keeps_the_setting_not_its_sum():
    """The scheduler lowers its pool thread before every consolidation run: the thread
    stays at the process's nice + the setting, it does not sink to 19."""
    seen: list[int] = []

    def run() -> None:
        lower_thread_priority(3)
        lower_thread_priority(3)
        seen.append(_nice())

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert seen == [min(19, os.getpriority(os.PRIO_PROCESS, os.getpid()) + 3)]
