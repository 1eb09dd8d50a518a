"""Ingest long histories into graphmem and ask their questions: graphmem's context against
equal-token baselines (``baselines``), at each budget, by question type.

Each history is one graphmem user (``<run tag>-<history id>``): its sessions in time
order, each turn a message (timestamps: the session's date, 30 s apart), then flush and
consolidation as of the question's date. A user already holding episodes is not ingested
again (``run_tag``: the same stores serve several runs)."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, Field

from graphmem import count_tokens
from graphmem_bench.histories.baselines import SYSTEMS, TurnIndex, VectorCache
from graphmem_bench.histories.data import TYPES, History, Question
from graphmem_bench.histories.score import answer_score, evidence_score, stated_answer_score
from graphmem_bench.locomo.score import percentile
from graphmem_bench.text import embed_questions

TURN_GAP = timedelta(seconds=30)
ITEMS_PER_TOKENS = 16  # top-k asked of graphmem at a budget, as for LoCoMo
PACE_BACKLOG = 2000  # a bulk load waits for the writer past this many episodes
Progress = Callable[[int, int], None]


class Score(BaseModel):
    history_id: str
    question_id: str
    type: str
    system: str
    budget: str
    answer_in_context: float | None
    evidence_in_context: float | None
    tokens: int
    stated_answer_in_context: float | None = None
    latency_ms: float = 0.0


class Timings(BaseModel):
    histories: int = 0
    ingested: int = 0
    messages: int = 0
    add_s: float = 0.0
    flush_s: float = 0.0
    consolidate_s: float = 0.0
    baseline_embed_s: float = 0.0


class HistoriesReport(BaseModel):
    name: str
    run_tag: str
    systems: list[str]
    budgets: list[str]
    histories: int
    questions: int
    timings: Timings
    scores: list[Score] = Field(default_factory=list, repr=False)
    seconds: float = 0.0

    def table(self, budget: str, metric: str = "answer_in_context") -> dict[str, dict[str, float]]:
        """type (and "overall") → system → mean %, for one budget."""
        out: dict[str, dict[str, float]] = {}
        mine = [s for s in self.scores if s.budget == budget]
        types = [t for t in TYPES if any(s.type == t for s in mine)]
        types += sorted({s.type for s in mine} - set(types))
        for row in [*types, "overall"]:
            out[row] = {}
            for system in self.systems:
                values = [getattr(s, metric) for s in mine if s.system == system
                          and (row == "overall" or s.type == row)
                          and getattr(s, metric) is not None]
                if values:
                    out[row][system] = 100 * sum(values) / len(values)
        return out

    def counts(self, budget: str, metric: str = "answer_in_context") -> dict[str, int]:
        """Questions scored by ``metric``: type (and "overall") → how many."""
        mine = [s for s in self.scores if s.budget == budget and s.system == "graphmem"
                and (metric == "answer_in_context" or getattr(s, metric) is not None)]
        out: dict[str, int] = {}
        for s in mine:
            out[s.type] = out.get(s.type, 0) + 1
        out["overall"] = len(mine)
        return out

    def to_markdown(self) -> str:
        out = [f"## {self.name}: {self.histories} histories, {self.questions} questions", "",
               "Each baseline's context is cut to exactly graphmem's tokens for the same "
               "question and budget; baseline lines show their date and speaker; dense uses "
               "graphmem's own embedder.", ""]
        for budget in self.budgets:
            title = "graphmem's default context" if budget == "default" else (
                f"{budget} tokens")
            out += [f"### {title}", ""]
            for metric, label in (("answer_in_context", "Answer-in-context (%)"),
                                  ("stated_answer_in_context", "Stated answer-in-context (%): "
                                   "only answers their evidence turns state (not a computed "
                                   "count or difference)"),
                                  ("evidence_in_context", "Evidence-in-context (%)")):
                table = self.table(budget, metric)
                counts = self.counts(budget, metric)
                out += [f"**{label}**", "",
                        "| type | n | " + " | ".join(self.systems) + " |",
                        "| --- | ---: | " + " | ".join("---:" for _ in self.systems) + " |"]
                for row, cells in table.items():
                    name = f"**{row}**" if row == "overall" else row
                    out.append(f"| {name} | {counts.get(row, 0)} | " + " | ".join(
                        f"{cells[s]:.1f}" if s in cells else "—" for s in self.systems) + " |")
                out.append("")
            mine = [s for s in self.scores if s.budget == budget]
            out.append("| | " + " | ".join(self.systems) + " |")
            out.append("| --- | " + " | ".join("---:" for _ in self.systems) + " |")
            out.append("| mean context tokens | " + " | ".join(
                f"{_mean([s.tokens for s in mine if s.system == x]):.0f}"
                for x in self.systems) + " |")
            latencies = [s.latency_ms for s in mine if s.system == "graphmem"]
            if latencies:
                out.append(f"\ngraphmem latency p50 / p95: {percentile(latencies, 50):.0f} / "
                           f"{percentile(latencies, 95):.0f} ms")
            out.append("")
        t = self.timings
        out.append(f"Ingest: {t.ingested} of {t.histories} histories ingested now, "
                   f"{t.messages} messages (add {t.add_s:.1f} s, flush {t.flush_s:.1f} s, "
                   f"consolidate {t.consolidate_s:.1f} s); baseline embedding "
                   f"{t.baseline_embed_s:.1f} s; total {self.seconds:.0f} s.")
        return "\n".join(out) + "\n"


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def user_id_for(run_tag: str, history_id: str) -> str:
    return f"{run_tag}-{re.sub(r'[^A-Za-z0-9_.-]+', '_', history_id)}"


def ingest(mem: Any, history: History, user_id: str, timings: Timings) -> None:
    """Every turn of the history as a message (unless the user has episodes already),
    then flush and consolidate as of the first question's date."""
    timings.histories += 1
    if mem.episodes(user_id, limit=1):
        return
    started = time.perf_counter()
    for number, session in enumerate(history.sessions):
        batch = [{"user_id": user_id, "session_id": f"s{number:03d}-{session.session_id}"[:200],
                  "role": turn.role if turn.role in ("user", "assistant") else "user",
                  "content": turn.content, "ts": session.date + i * TURN_GAP}
                 for i, turn in enumerate(session.turns) if turn.content.strip()]
        if batch:
            mem.add_messages(batch)
            timings.messages += len(batch)
        while mem.stats().backlog > PACE_BACKLOG:
            time.sleep(0.05)
    added = time.perf_counter()
    mem.flush()
    flushed = time.perf_counter()
    now = min(q.date for q in history.questions)
    mem.consolidate(user_id=user_id, now=now)
    timings.add_s += added - started
    timings.flush_s += flushed - added
    timings.consolidate_s += time.perf_counter() - flushed
    timings.ingested += 1


def ask_graphmem(mem: Any, user_id: str, q: Question, budget: str) -> tuple[str, float]:
    options: dict[str, int] = {}
    if budget != "default":
        tokens = int(budget)
        options = {"token_budget": tokens,
                   "top_k_episodes": max(3, tokens // ITEMS_PER_TOKENS),
                   "top_k_facts": max(5, tokens // ITEMS_PER_TOKENS)}
    began = time.perf_counter()
    context = mem.query_memory(q.text, user_id, now=q.date, **options)
    return context.text or "", (time.perf_counter() - began) * 1000


def run_histories(
    mem: Any, histories: Sequence[History], name: str, run_tag: str,
    budgets: Sequence[str] = ("128", "512", "1024"), systems: Sequence[str] = (
        "graphmem", *SYSTEMS), cache_dir: Path | None = None,
    on_progress: Progress | None = None, on_ingest: Progress | None = None,
) -> HistoriesReport:
    began = time.perf_counter()
    timings = Timings()
    cache = VectorCache(mem.embedder, cache_dir)
    for i, history in enumerate(histories):
        ingest(mem, history, user_id_for(run_tag, history.history_id), timings)
        if on_ingest is not None:
            on_ingest(i + 1, len(histories))
    scores: list[Score] = []
    total = sum(len(h.questions) for h in histories)
    done = 0
    for history in histories:
        user_id = user_id_for(run_tag, history.history_id)
        index = None
        if set(systems) & set(SYSTEMS):
            started = time.perf_counter()
            texts = [t.content for s in history.sessions for t in s.turns if t.content.strip()]
            index = TurnIndex(history, cache.vectors(texts))
            timings.baseline_embed_s += time.perf_counter() - started
        for q in history.questions:
            evidence = [t.content for sid, j in q.evidence
                        if (t := history.turn(sid, j)) is not None]
            vector = (np.asarray(embed_questions(mem.embedder, [q.text])[0], dtype=np.float32)
                      if index is not None else None)
            for budget in budgets:
                text, ms = ask_graphmem(mem, user_id, q, budget)
                target = count_tokens(text)
                contexts = {"graphmem": (text, ms)}
                for system in systems:
                    if system != "graphmem" and index is not None:
                        contexts[system] = (index.retrieve(system, q.text, vector, target).text,
                                            0.0)
                for system, (context, latency) in contexts.items():
                    scores.append(Score(
                        history_id=history.history_id, question_id=q.question_id,
                        type=q.type, system=system, budget=budget,
                        answer_in_context=answer_score(q.answer, q.keys, context),
                        stated_answer_in_context=stated_answer_score(
                            q.answer, q.keys, evidence, context),
                        evidence_in_context=evidence_score(evidence, context),
                        tokens=count_tokens(context), latency_ms=latency))
            done += 1
            if on_progress is not None:
                on_progress(done, total)
    cache.save()
    return HistoriesReport(name=name, run_tag=run_tag, systems=list(systems),
                           budgets=list(budgets), histories=len(histories), questions=total,
                           timings=timings, scores=scores,
                           seconds=round(time.perf_counter() - began, 1))
