"""``add_message`` latency with and without a concurrent consolidation run (issue 11).

    python scripts/add_message_latency.py --uri bolt://127.0.0.1:18087 \
        [--messages 300] [--rate 20] [--rounds 2] [--phase-timeout 90] \
        [--backlog-users 6] [--backlog-sessions 12] [--consolidation worker|thread] \
        [--worker-nice 19]

Bounded, so it finishes on a busy machine: each phase sends at most ``--messages``
``add_message`` calls, paced at ``--rate`` per second (0: back to back), and stops after
``--phase-timeout`` seconds whatever it has. Ctrl-C or SIGTERM stops it too, and what was
measured so far is printed (``"interrupted": true``). Each round is

1. **backlog**: ``--backlog-users`` users with ``--backlog-sessions`` closed, not yet
   consolidated sessions each (what a worker finds after a busy day), written and flushed
   before the round's phases;
2. **baseline**: timed ``add_message`` calls for fresh users (online extraction on, the
   episode writer working in the background, as in production);
3. **concurrent**: the same while a consolidation run works on the backlog — ``worker``:
   ``graphmem worker --once --nice N`` in its own process (the documented deployment;
   ``--worker-nice``, default 19 as the command's), timed from
   the moment its run starts (it logs it) until it ends; ``thread``: a
   ``ConsolidationWorker(memory).run_once()`` in a thread of the measuring process (what
   ``consolidate_every_s`` does). Only calls made while the run was going are counted.

Per phase: n, p50 / p95 / p99 / max in ms, the 1-minute load average before and after
(the machine may be shared: compare rounds to see the noise), the CPU seconds the client
process and the consolidating process used. Then the ratio of the p95s per round and
overall. Progress lines go to stderr, the JSON report to stdout. Use a scratch server,
never one holding data you need (it writes users named after a fresh ``--prefix``).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from graphmem import Memory  # noqa: E402
from graphmem.worker import ConsolidationWorker  # noqa: E402

START = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
TURNS = [
    "I live in {city} these days", "I like {like}", "my budget is now ${budget}",
    "I work at {company} now", "Can you help me plan the review for the {company} team?",
]
CITIES = ["Paris", "Berlin", "Lisbon", "Oslo", "Madrid"]
LIKES = ["jazz", "roses", "hiking", "sushi", "chess"]
COMPANIES = ["Acme", "Globex", "Initech", "Hooli"]
CLK_TCK = os.sysconf("SC_CLK_TCK")


def turn(k: int) -> str:
    return TURNS[k % len(TURNS)].format(city=CITIES[k // 7 % 5], like=LIKES[k // 3 % 5],
                                        budget=200 + 25 * (k % 9),
                                        company=COMPANIES[k // 11 % 4])


def backlog(prefix: str, users: int, sessions: int) -> list[dict]:
    out = []
    for u in range(users):
        for s in range(sessions):
            t = START + timedelta(days=s, minutes=u)
            out += [{"user_id": f"{prefix}-backlog{u}", "session_id": f"s{s}", "role": "user",
                     "content": turn(u * 31 + s * 5 + i), "ts": t + timedelta(minutes=i)}
                    for i in range(5)]
    return out


def cpu_s(pid: int) -> float | None:
    """User + system CPU seconds of a live process (Linux ``/proc``), None if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def percentiles(samples: list[float]) -> dict[str, Any]:
    if len(samples) < 2:
        return {"n": len(samples)}
    q = statistics.quantiles(samples, n=100, method="inclusive")
    return {"n": len(samples), "p50_ms": round(q[49], 2), "p95_ms": round(q[94], 2),
            "p99_ms": round(q[98], 2), "max_ms": round(max(samples), 2)}


@dataclass
class Phase:
    name: str
    round: int
    samples: list[float] = field(default_factory=list)
    load_before: float = 0.0
    load_after: float | None = None
    client_cpu_s: float | None = None
    consolidator_cpu_s: float | None = None
    duration_s: float | None = None
    stopped_by: str = "running"
    consolidation: str | None = None

    def report(self) -> dict[str, Any]:
        out = {"phase": self.name, "round": self.round, **percentiles(self.samples),
               "load1_before": round(self.load_before, 2),
               "load1_after": None if self.load_after is None else round(self.load_after, 2),
               "duration_s": self.duration_s, "client_cpu_s": self.client_cpu_s,
               "stopped_by": self.stopped_by}
        if self.name == "concurrent":
            out["consolidator_cpu_s"] = self.consolidator_cpu_s
            out["consolidation"] = self.consolidation
        return out


def timed_calls(mem: Memory, prefix: str, phase: Phase, n: int, rate: float,
                deadline: float, keep_going=lambda: True) -> None:
    """Up to ``n`` timed ``add_message`` calls, paced, into ``phase.samples``; stops at
    ``deadline`` (monotonic) or when ``keep_going()`` turns False."""
    began = time.monotonic()
    for k in range(n):
        if rate:
            wait = began + k / rate - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        if time.monotonic() >= deadline:
            phase.stopped_by = "phase timeout"
            return
        if not keep_going():
            phase.stopped_by = "consolidation finished"
            return
        user, session = f"{prefix}-live{k % 20}", f"s{k // 100}"
        ts = START + timedelta(days=60, seconds=30 * k)
        t0 = time.perf_counter()
        mem.add_message(user, session, "user", turn(k), ts)
        phase.samples.append((time.perf_counter() - t0) * 1000)
    phase.stopped_by = "messages sent"


class WorkerProcess:
    """``graphmem worker --once`` in its own process; ``started`` is set when its run
    begins (it logs it), ``alive()`` is False once it exits."""

    def __init__(self, uri: str, buffer_dir: Path, nice: int) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "graphmem", "worker", "--once", "--uri", uri,
             "--buffer-dir", str(buffer_dir), "--nice", str(nice)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        self.started = threading.Event()
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read_log, daemon=True)
        self._reader.start()

    def _read_log(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line)
            if "started:" in line:
                self.started.set()

    def alive(self) -> bool:
        return self.proc.poll() is None

    def cpu_s(self) -> float | None:
        return cpu_s(self.proc.pid)

    def summary(self) -> str:
        assert self.proc.stdout is not None
        out = " ".join(self.proc.stdout.read().split())  # rich wraps the summary line
        tail = out if self.proc.returncode == 0 else " ".join(x.strip() for x in self.lines[-3:])
        return f"exit {self.proc.returncode}: {tail}"

    def stop(self) -> None:
        if self.alive():
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class WorkerThread:
    """The same run in a thread of this process (``Memory.consolidate`` per user)."""

    def __init__(self, mem: Memory) -> None:
        self.started = threading.Event()
        self.result = "running"
        self._cpu_s = 0.0
        self._thread = threading.Thread(target=self._run, args=(mem,), daemon=True)
        self._thread.start()

    def _run(self, mem: Memory) -> None:
        self.started.set()
        t0 = time.thread_time()
        try:
            self.result = f"ok: {ConsolidationWorker(mem).run_once().summary()}"
        except Exception as exc:  # reported, the measurement goes on
            self.result = f"failed: {exc!r}"
        self._cpu_s = time.thread_time() - t0

    def alive(self) -> bool:
        return self._thread.is_alive()

    def cpu_s(self) -> float | None:
        return None if self.alive() else round(self._cpu_s, 2)

    def summary(self) -> str:
        return self.result

    def stop(self) -> None:  # a run cannot be cut short; it ends by itself
        self._thread.join(timeout=0)


def run(args: argparse.Namespace, tmp: Path, phases: list[Phase]) -> None:
    mem = Memory.connect(args.uri, buffer_dir=tmp / "app")
    consolidator: WorkerProcess | WorkerThread | None = None
    try:
        progress("warming up (models, connections)")
        warm = Phase("warmup", 0)
        timed_calls(mem, args.prefix + "-warm", warm, 50, 0, time.monotonic() + 120)
        for r in range(1, args.rounds + 1):
            progress(f"round {r}: writing the backlog")
            mem.add_messages(backlog(f"{args.prefix}-r{r}", args.backlog_users,
                                     args.backlog_sessions))
            mem.flush()
            for name in ("baseline", "concurrent"):
                phase = Phase(name, r, load_before=os.getloadavg()[0])
                phases.append(phase)
                keep_going = lambda: True  # noqa: E731
                if name == "concurrent":
                    if args.consolidation == "worker":
                        consolidator = WorkerProcess(args.uri, tmp / f"worker{r}",
                                                     args.worker_nice)
                    else:
                        consolidator = WorkerThread(mem)
                    if not wait_started(consolidator, args.phase_timeout):
                        phase.stopped_by = "consolidation did not start"
                        phase.consolidation = consolidator.summary()
                        consolidator = None
                        continue
                    keep_going = consolidator.alive
                    other_cpu = consolidator.cpu_s()
                cpu0, t0 = time.process_time(), time.monotonic()
                timed_calls(mem, f"{args.prefix}-{name}{r}", phase, args.messages,
                            args.rate, t0 + args.phase_timeout, keep_going)
                phase.duration_s = round(time.monotonic() - t0, 1)
                phase.client_cpu_s = round(time.process_time() - cpu0, 2)
                phase.load_after = os.getloadavg()[0]
                if consolidator is not None:
                    if isinstance(consolidator, WorkerProcess):
                        now_cpu = consolidator.cpu_s()
                        if now_cpu is not None and other_cpu is not None:
                            phase.consolidator_cpu_s = round(now_cpu - other_cpu, 2)
                    finish(consolidator, args.phase_timeout)
                    if isinstance(consolidator, WorkerThread):
                        phase.consolidator_cpu_s = consolidator.cpu_s()
                    phase.consolidation = consolidator.summary()
                    consolidator = None
                progress(f"round {r} {name}: {json.dumps(phase.report())}")
                mem.flush()
    except KeyboardInterrupt:  # report what was measured before the slow part (close)
        for phase in phases:
            if phase.stopped_by == "running":
                phase.stopped_by = "interrupted"
        print(json.dumps(summarize(args, phases, interrupted=True), indent=2), flush=True)
        raise
    finally:
        if consolidator is not None:
            consolidator.stop()
        mem.close()


def wait_started(consolidator: WorkerProcess | WorkerThread, limit_s: float) -> bool:
    deadline = time.monotonic() + limit_s
    while not consolidator.started.wait(0.05):
        if not consolidator.alive() or time.monotonic() > deadline:
            consolidator.stop()
            return False
    return True


def finish(consolidator: WorkerProcess | WorkerThread, limit_s: float) -> None:
    """Let the run end by itself (its work is real); stop a worker process past the limit."""
    deadline = time.monotonic() + limit_s
    while consolidator.alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    consolidator.stop()


def progress(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')} load {os.getloadavg()[0]:.2f}] {text}",
          file=sys.stderr, flush=True)


def summarize(args: argparse.Namespace, phases: list[Phase], interrupted: bool) -> dict:
    rounds = []
    for r in sorted({p.round for p in phases}):
        by = {p.name: p for p in phases if p.round == r}
        base, conc = (percentiles(by[n].samples) if n in by else {}
                      for n in ("baseline", "concurrent"))
        if "p95_ms" in base and "p95_ms" in conc:
            rounds.append({"round": r, "p95_ratio": round(conc["p95_ms"] / base["p95_ms"], 3)})
    pooled = {n: percentiles([s for p in phases if p.name == n for s in p.samples])
              for n in ("baseline", "concurrent")}
    ratio = (round(pooled["concurrent"]["p95_ms"] / pooled["baseline"]["p95_ms"], 3)
             if all("p95_ms" in v for v in pooled.values()) else None)
    return {"interrupted": interrupted, "consolidation": args.consolidation,
            "worker_nice": args.worker_nice if args.consolidation == "worker" else None,
            "messages_per_phase": args.messages, "rate_per_s": args.rate,
            "phases": [p.report() for p in phases], "rounds": rounds,
            "pooled": pooled, "pooled_p95_ratio": ratio, "target_ratio": 1.2}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--messages", type=int, default=300, help="calls per phase (max)")
    parser.add_argument("--rate", type=float, default=20.0,
                        help="calls per second (0: back to back)")
    parser.add_argument("--rounds", type=int, default=2, help="baseline + concurrent pairs")
    parser.add_argument("--phase-timeout", type=float, default=90.0, help="seconds per phase")
    parser.add_argument("--backlog-users", type=int, default=6)
    parser.add_argument("--backlog-sessions", type=int, default=12)
    parser.add_argument("--consolidation", choices=("worker", "thread"), default="worker")
    parser.add_argument("--worker-nice", type=int, default=19,
                        help="graphmem worker --nice (0: the worker at full priority)")
    parser.add_argument("--prefix", default=f"lat{uuid.uuid4().hex[:6]}")
    args = parser.parse_args()

    def stop(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    phases: list[Phase] = []
    with tempfile.TemporaryDirectory(prefix="graphmem-latency-") as tmp:
        try:
            run(args, Path(tmp), phases)
        except KeyboardInterrupt:
            sys.exit(130)  # the partial report is printed
    print(json.dumps(summarize(args, phases, interrupted=False), indent=2), flush=True)


if __name__ == "__main__":
    main()
