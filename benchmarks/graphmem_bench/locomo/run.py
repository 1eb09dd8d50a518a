"""Running LoCoMo: ingest every conversation into graphmem and the baselines, then ask
each question of categories 1–4 to every system at every budget, and score the contexts.

Each conversation is ingested turn by turn (both speakers are people: both are ``user``
turns, and the ``Name: `` prefix tells graphmem whose first person it is), flushed and
consolidated as of its own last date. graphmem answers through the public
``query_memory(token_budget=B)`` with top-k large enough to fill B (or with its defaults);
each baseline ranks the user's messages once per question and is cut to exactly graphmem's
tokens for the same question and budget.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from graphmem import count_tokens
from graphmem_bench.baselines import (
    BenchMessage,
    Bm25Baseline,
    FlatBaseline,
    HybridBaseline,
    Retrieved,
    StoreTimings,
    bench_id,
    bench_store,
    ensure_bench_schema,
    fill_context,
    message_line,
    store_messages,
)
from graphmem_bench.locomo.data import (
    QA,
    Conversation,
    Session,
    load_locomo,
    parse_selection,
    select_questions,
)
from graphmem_bench.locomo.report import IngestTimings, LocomoReport, QuestionScore, tabulate
from graphmem_bench.locomo.score import (
    Span,
    answer_in_context,
    context_spans,
    evidence_in_context,
    provenance_recall,
)
from graphmem_bench.store import BenchStore
from graphmem_bench.text import embed_questions

Progress = Callable[[int, int], None]

SYSTEMS = ("graphmem", "flat", "bm25", "hybrid")
BUDGETS = ("default", "128", "512", "1024")
TURN_SPACING = timedelta(seconds=30)
FALLBACK_TARGET_TOKENS = 150
ITEMS_PER_TOKENS = 16  # top-k asked of graphmem at a budget: one item per 16 tokens


def user_id_for(sample_id: str, run_tag: str) -> str:
    return f"locomo-{sample_id}-{run_tag}"


def session_id_for(user_id: str, number: int) -> str:
    return f"{user_id}-s{number}"


def turn_messages(conv: Conversation, session: Session, user_id: str) -> list[dict[str, Any]]:
    """The ``add_messages`` input of one session (both speakers as ``user``, 30 s apart)."""
    session_id = session_id_for(user_id, session.number)
    return [
        {
            "user_id": user_id,
            "session_id": session_id,
            "role": "user",
            "content": f"{turn.speaker}: {turn.text}",
            "ts": session.date_time + i * TURN_SPACING,
        }
        for i, turn in enumerate(session.turns)
    ]


class Ingested(BaseModel):
    """One conversation as stored: dia_id -> (session_id, msg_id) and the message texts."""

    user_id: str
    now: datetime
    dia_map: dict[str, Span]
    messages: list[BenchMessage]


def _map_stored(mem: Any, batch: list[dict[str, Any]], stored: Sequence[Any]) -> list[int]:
    """msg_ids of ``batch`` in order, from ``add_messages``' result or (on a re-run, when
    the raw buffer deduplicated them) from ``mem.raw``."""
    key = {(m.content, m.ts): m.msg_id for m in stored}
    if any((b["content"], b["ts"]) not in key for b in batch):
        for m in mem.raw(batch[0]["user_id"], batch[0]["session_id"], None):
            key.setdefault((m.content, m.ts), m.msg_id)
    return [key[(b["content"], b["ts"])] for b in batch]


def ingest_conversation(
    mem: Any, conv: Conversation, run_tag: str, timings: IngestTimings, graphmem: bool
) -> Ingested:
    """Feed one conversation to graphmem (if ``graphmem``), then flush and consolidate.

    Without graphmem, msg_ids are what a fresh raw buffer would assign (1, 2, ...)."""
    user_id = user_id_for(conv.sample_id, run_tag)
    dia_map: dict[str, Span] = {}
    messages: list[BenchMessage] = []
    last_ts = None
    began = time.perf_counter()
    for session in conv.sessions:
        batch = turn_messages(conv, session, user_id)
        if not batch:
            continue
        if graphmem:
            msg_ids = _map_stored(mem, batch, mem.add_messages(batch))
        else:
            msg_ids = list(range(1, len(batch) + 1))
        for turn, item, msg_id in zip(session.turns, batch, msg_ids, strict=True):
            dia_map[turn.dia_id] = (item["session_id"], msg_id)
            messages.append(BenchMessage(
                bench_id=bench_id(user_id, item["session_id"], msg_id), user_id=user_id,
                session_id=item["session_id"], msg_id=msg_id, text=item["content"],
                ts=item["ts"],
            ))
            last_ts = item["ts"]
        timings.sessions += 1
        timings.messages += len(batch)
    timings.conversations += 1
    if graphmem:
        added = time.perf_counter()
        timings.graphmem_add_s += added - began
        mem.flush()
        flushed = time.perf_counter()
        timings.graphmem_flush_s += flushed - added
    # "now" for questions: just after the last turn, so the last session is in the past.
    now = (last_ts or datetime.now(UTC)) + timedelta(minutes=1)
    if graphmem:
        mem.consolidate(user_id=user_id, now=now)  # as of the conversation's own date
        timings.consolidated = True
        timings.graphmem_consolidate_s += time.perf_counter() - flushed
    return Ingested(user_id=user_id, now=now, dia_map=dia_map, messages=messages)


def ask_graphmem(mem: Any, question: str, ing: Ingested, budget: str) -> Retrieved:
    """graphmem's context for a question: its defaults, or a fixed token budget with
    top-k large enough to fill it."""
    if budget == "default":
        options: dict[str, int] = {}
    else:
        tokens = int(budget)
        options = {"token_budget": tokens, "top_k_episodes": max(3, tokens // ITEMS_PER_TOKENS),
                   "top_k_facts": max(5, tokens // ITEMS_PER_TOKENS)}
    began = time.perf_counter()
    context = mem.query_memory(question, ing.user_id, now=ing.now, **options)
    latency = time.perf_counter() - began
    return Retrieved(text=context.text or "", spans=frozenset(context_spans(context)),
                     latency_s=latency)


def _score(conv: Conversation, ing: Ingested, index: int, qa: QA, system: str, budget: str,
           got: Retrieved, target: int, error: str | None) -> QuestionScore:
    turns = conv.turn_text()
    evidence = [ing.dia_map[d] for d in qa.evidence if d in ing.dia_map]
    return QuestionScore(
        sample_id=conv.sample_id, conversation=conv.number, index=index,
        category=qa.category, system=system, budget=budget,
        answer_in_context=answer_in_context(qa.answer, got.text),
        evidence_in_context=evidence_in_context([turns[d] for d in qa.evidence if d in turns],
                                                got.text),
        provenance_recall=provenance_recall(evidence, got.spans) if system == "graphmem"
        else None,
        tokens=count_tokens(got.text), target_tokens=target,
        latency_ms=got.latency_s * 1000, error=error,
    )


@dataclass(frozen=True)
class Baselines:
    """The two search engines over single messages and the baselines asked of them."""

    flat: FlatBaseline
    bm25: Bm25Baseline
    active: list[str]


def _baselines(runner: BenchStore, embedder: Any, ingested: Sequence[Ingested],
               active: Sequence[str], timings: IngestTimings) -> Baselines | None:
    """Store every message for the baselines (embedding those not embedded yet) and build
    the active ones."""
    if not {"flat", "bm25", "hybrid"} & set(active):
        return None
    ensure_bench_schema(runner, embedder.dimension)
    stored = StoreTimings()
    for ing in ingested:
        got = store_messages(runner, embedder, ing.messages)
        stored.messages += got.messages
        stored.embedded += got.embedded
        stored.embed_s += got.embed_s
        stored.store_s += got.store_s
    timings.baseline_messages = stored.messages
    timings.baseline_embedded = stored.embedded
    timings.baseline_embed_s = stored.embed_s
    timings.baseline_store_s = stored.store_s
    flat, bm25 = FlatBaseline(runner, embedder), Bm25Baseline(runner)
    for baseline in (flat, bm25):
        baseline.refresh_total()
        for ing in ingested:
            baseline.register_user(ing.user_id, [message_line(m.text, m.ts)
                                                 for m in ing.messages])
    return Baselines(flat, bm25, [n for n in active if n in ("flat", "bm25", "hybrid")])


def run_conversations(
    mem: Any,
    conversations: Sequence[Conversation],
    *,
    max_questions: int | None = None,
    systems: Sequence[str] = SYSTEMS,
    budgets: Sequence[str] = BUDGETS,
    on_progress: Progress | None = None,
    run_tag: str | None = None,
    data_path: str = "",
) -> LocomoReport:
    """Ingest ``conversations``, ask their questions to every system at every budget."""
    started = time.perf_counter()
    unknown = set(systems) - set(SYSTEMS)
    if unknown:
        raise ValueError(f"unknown systems {sorted(unknown)}; choose from {SYSTEMS}")
    for budget in budgets:
        if budget != "default" and (not budget.isdigit() or int(budget) <= 0):
            raise ValueError(f"a budget is 'default' or a positive token count (got {budget!r})")
    run_tag = run_tag or uuid.uuid4().hex[:8]
    active = list(systems)
    timings = IngestTimings()
    ingested = [ingest_conversation(mem, conv, run_tag, timings, graphmem="graphmem" in active)
                for conv in conversations]
    if "graphmem" in active:
        timings.graphmem_total_s = (
            timings.graphmem_add_s + timings.graphmem_flush_s + timings.graphmem_consolidate_s)
        timings.graphmem_messages_per_s = timings.messages / max(timings.graphmem_total_s, 1e-9)
    runner, embedder = bench_store(mem)
    try:
        baselines = _baselines(runner, embedder, ingested, active, timings)
        scores = _ask_all(mem, conversations, ingested, baselines, active, budgets,
                          max_questions, on_progress)
    finally:
        runner.close()
    return LocomoReport(
        data_path=data_path, run_tag=run_tag, systems=active, budgets=list(budgets),
        samples=[c.sample_id for c in conversations],
        questions=len({(s.sample_id, s.index) for s in scores}), ingest=timings,
        results=tabulate(scores), scores=scores, seconds=time.perf_counter() - started,
    )


def _ask_all(mem: Any, conversations: Sequence[Conversation], ingested: Sequence[Ingested],
             baselines: Baselines | None, active: Sequence[str], budgets: Sequence[str],
             max_questions: int | None, on_progress: Progress | None) -> list[QuestionScore]:
    """Every question to every system at every budget; baselines rank once per question
    and are cut to graphmem's tokens at each budget."""
    plan = [(conv, ing, select_questions(conv, max_questions))
            for conv, ing in zip(conversations, ingested, strict=True)]
    total = sum(len(qs) for _, _, qs in plan)
    scores: list[QuestionScore] = []
    done = 0
    for conv, ing, questions in plan:
        for index, qa in questions:
            targets: dict[str, int] = {}
            for budget in budgets:
                targets[budget] = (FALLBACK_TARGET_TOKENS if budget == "default"
                                   else int(budget))
                if "graphmem" not in active:
                    continue
                error = None
                try:
                    got = ask_graphmem(mem, qa.question, ing, budget)
                except Exception as exc:  # one failing question must not end a long run
                    got, error = Retrieved(text=""), f"{type(exc).__name__}: {exc}"
                targets[budget] = count_tokens(got.text)
                scores.append(_score(conv, ing, index, qa, "graphmem", budget, got,
                                     targets[budget], error))
            if baselines:
                for budget, (name, got, error) in _ask_baselines(baselines, qa.question,
                                                                 ing.user_id, targets):
                    scores.append(_score(conv, ing, index, qa, name, budget, got,
                                         targets[budget], error))
            done += 1
            if on_progress is not None:
                on_progress(done, total)
    return scores


def _ask_baselines(baselines: Baselines, question: str, user_id: str,
                   targets: dict[str, int]) -> list[tuple[str, tuple[str, Retrieved, str | None]]]:
    """Each baseline's context at each budget's target, ranked for that target the way a
    product fills its own budget (channels as deep as the target needs; hybrid fuses the
    same flat and bm25 rankings, so its latency is theirs together). The question is
    embedded once."""
    flat, bm25 = baselines.flat, baselines.bm25
    out = []
    vector, embed_s = None, 0.0
    for budget, target in targets.items():
        found: dict[str, tuple[list[dict[str, Any]], float, str | None]] = {}
        for name, engine in (("flat", flat), ("bm25", bm25)):
            rows, error = [], None
            began = time.perf_counter()
            try:
                if target > 0 and name == "flat":
                    if vector is None:
                        vector = embed_questions(engine.embedder, [question])[0]
                        embed_s = time.perf_counter() - began
                    rows = engine.rank(question, user_id, target, vector=vector)
                elif target > 0:
                    rows = engine.rank(question, user_id, target)
            except Exception as exc:  # one failing question must not end a long run
                error = f"{type(exc).__name__}: {exc}"
            spent = time.perf_counter() - began + (embed_s if name == "flat" else 0.0)
            found[name] = (rows, spent, error)
        fused = HybridBaseline.fuse(found["flat"][0], found["bm25"][0])
        found["hybrid"] = (fused, found["flat"][1] + found["bm25"][1],
                           found["flat"][2] or found["bm25"][2])
        for name in baselines.active:
            rows, spent, error = found[name]
            out.append((budget, (name, fill_context(rows, target, spent), error)))
    return out


def run_locomo(
    mem: Any,
    data_path: str | Path,
    conversations: str | None = None,
    max_questions: int | None = None,
    systems: Sequence[str] = SYSTEMS,
    budgets: Sequence[str] = BUDGETS,
    on_progress: Progress | None = None,
    *,
    run_tag: str | None = None,
) -> LocomoReport:
    """Ingest the chosen conversations (``"1-5"``, ``"6-10"``, ``"1,3"``; all if None) into
    ``mem`` and the baselines, ask up to ``max_questions`` questions (categories 1–4) *per
    conversation*, and score every system at every budget.

    ``run_tag`` makes the user ids (``locomo-<sample>-<run_tag>``); a fresh one by default.
    Re-using a tag with the same buffer folder re-uses what is stored (messages are not
    duplicated, baseline embeddings are not recomputed)."""
    everything = load_locomo(data_path)
    chosen = parse_selection(conversations, len(everything))
    return run_conversations(
        mem, [everything[n - 1] for n in chosen], max_questions=max_questions,
        systems=systems, budgets=budgets, on_progress=on_progress, run_tag=run_tag,
        data_path=str(data_path),
    )
