"""The consolidation worker (``graphmem worker``): consolidation off the request path.

On an interval (APScheduler), for each user with something to do — episodes not yet
distilled, facts past their validity, versions past the retention — the worker

1. takes the user's **lease** in Neo4j (``consolidate/acquire_lease``: one :Lease node per
   user with an owner and an expiry, taken in one statement under the node's lock), so two
   workers started at once never process the same user at the same time, and a crashed
   worker's lease frees itself when it runs out; a user leased by another worker is left
   for the next run;
2. distills the user's closed episodes, expires and applies the retention
   (``Memory.consolidate`` for that user: each episode in one transaction, so a crashed
   job leaves no half-written versions);
3. runs **cross-episode induction** (``consolidate/induce_facts``), see below;
4. releases the lease.

Each run's counts (users, episodes, facts created / verified / superseded / expired,
induced, duration) are logged and stored as a :WorkerRun node (``graphmem stats``).

The worker lowers its own CPU priority (``lower_priority``, ``graphmem worker --nice``,
default ``DEFAULT_NICE`` = 19): on a host it shares with the application, spaCy and the
embedder then take only the CPU the request path leaves. Measured with
``scripts/add_message_latency.py`` on 2 cores shared with other jobs (docs/benchmarks.md):
``add_message`` p95 was 2.0-2.3x its baseline while a worker at niceness 0 ran, 1.2-1.3x
at niceness 10, 0.8-1.17x at 19 (four rounds), the worker doing the same work. Consolidation in a
thread of the application's process (``consolidate_every_s``) cannot be deprioritized
this way: it competes for the GIL (1.3x).

Confidence, all of it documented in one place:

- a fact version starts at its extractor confidence ``c``;
- each further episode that says the same thing re-verifies it (``conflict.reinforced``,
  a half-weight noisy-or): ``conf ← min(0.99, conf + (1 - conf) * c / 2)``;
- induction: once the same normalized fact (entity, predicate, value, polarity) is
  supported by ``k ≥ N`` distinct episodes over all its versions, its current version gets
  ``conf ← max(conf, induced_confidence(k, N))`` with
  ``induced_confidence(k, N) = min(0.99, 1 - (1 - 0.95) * 0.5 ** (k - N))`` — 0.95 at N
  episodes, 0.975 at N+1, 0.9875 at N+2 — and every supporting episode in
  ``source_episodes`` and ``DERIVED_FROM``. Re-verification alone can stay below that
  (three episodes at c = 0.82, the rule extractor's usual, give 0.949), and a fact said,
  replaced and said again has its support spread over several versions, which
  re-verification never adds up.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from pydantic import BaseModel

from graphmem.ingest.background import lower_thread_priority
from graphmem.store.runner import QueryRunner

if TYPE_CHECKING:
    from apscheduler.schedulers.base import BaseScheduler

    from graphmem._client import Memory
    from graphmem._config import MemoryConfig

log = logging.getLogger("graphmem.worker")

DEFAULT_EVERY_S = 60.0
DEFAULT_NICE = 19  # the worker yields the CPU to the request path (0: no change)
DEFAULT_LEASE_S = 600.0  # a crashed worker's lease frees itself after this long
INDUCTION_MIN_EPISODES = 3  # N: distinct episodes before induction raises confidence
INDUCTION_BASE = 0.95  # the confidence induction gives at exactly N episodes
RUNS_KEPT = 100  # :WorkerRun nodes kept for `graphmem stats`


def induced_confidence(support: int, min_episodes: int = INDUCTION_MIN_EPISODES,
                       base: float = INDUCTION_BASE) -> float:
    """The confidence floor of a fact supported by ``support`` distinct episodes (0 below
    ``min_episodes``); ``consolidate/induce_facts`` computes the same in Cypher."""
    if support < min_episodes:
        return 0.0
    return min(0.99, 1 - (1 - base) * 0.5 ** (support - min_episodes))


class WorkerRun(BaseModel):
    """One worker run's counts (stored as a :WorkerRun node)."""

    run_id: str
    owner: str
    started_at: datetime
    finished_at: datetime
    duration_s: float
    users: int = 0  # users processed under this worker's lease
    users_leased_elsewhere: int = 0  # left for a later run: another worker held them
    episodes: int = 0
    created: int = 0
    verified: int = 0
    superseded: int = 0
    expired: int = 0
    deleted: int = 0
    induced: int = 0
    errors: int = 0

    def summary(self) -> str:
        return (f"{self.users} users, {self.episodes} episodes: {self.created} facts "
                f"created, {self.verified} verified, {self.superseded} superseded, "
                f"{self.expired} expired, {self.deleted} deleted, {self.induced} induced; "
                f"{self.users_leased_elsewhere} users leased by another worker; "
                f"{self.errors} errors; {self.duration_s:.2f} s")


def lower_priority(increment: int = DEFAULT_NICE) -> int | None:
    """Raise this process's niceness by ``increment`` (capped by the OS at 19), so that
    consolidation uses the CPU the application's requests leave. Returns the niceness
    now in effect, or None where the platform has no ``os.nice``."""
    if not hasattr(os, "nice"):  # pragma: no cover - not on POSIX
        return None
    try:
        niceness = os.nice(increment)
    except OSError as exc:  # pragma: no cover - lowering priority is always allowed
        log.warning("could not lower the worker's priority: %s", exc)
        return os.nice(0)
    log.info("worker running at niceness %d", niceness)
    return niceness


def default_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class ConsolidationWorker:
    """Runs consolidation, induction, expiry and retention for every user with work,
    one user at a time under that user's lease."""

    def __init__(self, memory: Memory, owner: str | None = None,
                 lease_s: float = DEFAULT_LEASE_S,
                 min_episodes: int = INDUCTION_MIN_EPISODES) -> None:
        self.memory = memory
        self.owner = owner or default_owner()
        self.lease_s = lease_s
        self.min_episodes = min_episodes
        self._runner = _runner_for(memory)  # its own connection, from the public config
        self._stopping = threading.Event()

    def stop(self) -> None:
        """Take no further user: a run going on ends after the user in hand (its lease
        released, the run recorded); the users left wait for the next worker run."""
        self._stopping.set()

    def close(self) -> None:
        """Close the worker's own connection (the ``Memory`` stays open)."""
        self._runner.close()

    def __enter__(self) -> ConsolidationWorker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- leases --------------------------------------------------------------------------

    def acquire(self, user_id: str) -> bool:
        """Take (or renew) the user's lease; False while another worker holds it, or when
        the user is not there (forgotten meanwhile: no lease is made again)."""
        rows = self._runner.write("consolidate/acquire_lease", user_id=user_id,
                                  owner=self.owner, lease_s=self.lease_s)
        if not rows:
            return False
        row = rows[0]
        if row["took_over_from"]:
            log.warning("lease of %s taken over from %s (it had run out)", user_id,
                        row["took_over_from"])
        return bool(row["acquired"])

    def release(self, user_id: str) -> bool:
        rows = self._runner.write("consolidate/release_lease", user_id=user_id,
                                  owner=self.owner)
        return bool(rows[0]["released"])

    # -- one run -------------------------------------------------------------------------

    def run_once(self, now: datetime | None = None) -> WorkerRun:
        """One pass over every user with work; counts logged and stored."""
        started = datetime.now(UTC)
        clock = time.perf_counter()
        at = now or started
        retention = self.memory.config.retention_days
        before = at - timedelta(days=retention) if retention else None
        users = [r["user_id"] for r in self._runner.read(
            "consolidate/list_users_with_work", now=at, before=before)]
        run = WorkerRun(run_id=uuid.uuid4().hex, owner=self.owner, started_at=started,
                        finished_at=started, duration_s=0.0)
        log.info("consolidation run %s started: %d users with work", run.run_id, len(users))
        for done, user_id in enumerate(users):
            if self._stopping.is_set():
                log.info("consolidation run %s stopping: %d users left for the next run",
                         run.run_id, len(users) - done)
                break
            if not self.acquire(user_id):
                run.users_leased_elsewhere += 1
                continue
            try:
                self._process(user_id, at, run)
            finally:
                self.release(user_id)
        run.finished_at = datetime.now(UTC)
        run.duration_s = round(time.perf_counter() - clock, 3)
        log.info("consolidation run %s: %s", run.run_id, run.summary())
        self._runner.write("consolidate/record_worker_run", run=run.model_dump(),
                           keep=RUNS_KEPT)
        return run

    def _process(self, user_id: str, now: datetime, run: WorkerRun) -> None:
        report = self.memory.consolidate(user_id, now=now)
        run.users += 1
        run.episodes += report.episodes
        run.created += report.created + report.historic
        run.verified += report.reverified
        run.superseded += report.superseded
        run.expired += report.expired
        run.deleted += report.deleted
        run.errors += len(report.errors)
        for problem in report.errors:
            log.warning("user %s: %s", user_id, problem)
        if not self.acquire(user_id):  # renew; lost only if it ran out meanwhile
            log.warning("lease of %s ran out during its consolidation; induction skipped",
                        user_id)
            return
        run.induced += self.induce(user_id, now)

    def induce(self, user_id: str, now: datetime) -> int:
        """Cross-episode induction for one user (see the module docstring)."""
        rows = self._runner.write("consolidate/induce_facts", user_id=user_id,
                                  min_episodes=self.min_episodes, base=INDUCTION_BASE,
                                  now=now)
        return int(rows[0]["induced"]) if rows else 0

    # -- scheduling ----------------------------------------------------------------------

    def schedule(self, scheduler: BaseScheduler, every_s: float = DEFAULT_EVERY_S) -> None:
        """Add the run to an APScheduler scheduler: every ``every_s`` seconds, first one
        now, never two at once (a late run is coalesced, not stacked)."""
        scheduler.add_job(self._scheduled_run, "interval", seconds=every_s,
                          next_run_time=datetime.now(UTC), max_instances=1, coalesce=True,
                          id=f"graphmem-worker-{self.owner}")

    def _scheduled_run(self) -> None:
        try:
            self.run_once()
        except Exception:  # the scheduler keeps going; the next run retries
            log.exception("consolidation run failed")


def start_scheduler(job: Callable[[], object], every_s: float, nice: int = 0):
    """Run ``job`` every ``every_s`` seconds in a background thread (one at a time), at
    ``nice`` (``graphmem.ingest.background``). Returns the ``BackgroundScheduler``."""
    from apscheduler.schedulers.background import BackgroundScheduler

    def run() -> object:
        lower_thread_priority(nice)  # once per pool thread: it keeps its nice value
        return job()

    scheduler = BackgroundScheduler(daemon=True)
    scheduler.add_job(run, "interval", seconds=every_s, max_instances=1, coalesce=True,
                      id="graphmem-consolidate")
    scheduler.start()
    return scheduler


def _runner_for(memory: Memory) -> QueryRunner:
    """A connection to the database ``memory`` uses (its public ``config``)."""
    config = memory.config
    return QueryRunner(config.driver_uri, config.auth, config.neo4j_database,
                       retry_s=config.neo4j_retry_s,
                       connect_timeout_s=config.neo4j_connect_timeout_s,
                       read_timeout_s=config.neo4j_read_timeout_s,
                       serial_writes=config.neo4j_serial_writes)


def last_run(memory: Memory) -> WorkerRun | None:
    """The newest stored worker run, or None if no worker has run yet."""
    runs = recent_runs(memory.config, 1)
    return runs[0] if runs else None


def recent_runs(config: MemoryConfig, limit: int = 10) -> list[WorkerRun]:
    """The newest stored worker runs, newest first (of every worker on the database)."""
    runner = QueryRunner(config.driver_uri, config.auth, config.neo4j_database,
                         connect_timeout_s=config.neo4j_connect_timeout_s)
    try:
        rows = runner.read("consolidate/list_worker_runs", limit=limit)
    finally:
        runner.close()
    runs = []
    for row in rows:
        run = dict(row["run"])
        for key in ("started_at", "finished_at"):
            value = run.get(key)
            if hasattr(value, "to_native"):
                run[key] = value.to_native()
        runs.append(WorkerRun(**run))
    return runs
