"""LoCoMo retrieval benchmark: graphmem against equal-token baselines, no LLM involved.

LoCoMo (snap-research, ``locomo10.json``) holds 10 long conversations between two people
with questions whose *evidence* turns are known. Each conversation is ingested turn by
turn (speaker A as ``user``, speaker B as ``assistant``); then every question of categories
1–4 (multi-hop, temporal, open-domain, single-hop; 5 is adversarial and skipped) is asked
to each system, and scored on what it retrieved:

- evidence recall: 1 if any evidence turn is among the raw messages the context covers;
- answer-in-context: the share of the gold answer's words found in the context's words;
- context tokens (``count_tokens``) and latency.

The baselines (``flat`` vector search, ``bm25`` full-text search, over single messages) fill
the same number of tokens graphmem used for the question, so the comparison is at equal cost.

Run it: ``graphmem bench locomo --samples 2``.
"""

from __future__ import annotations

import json
import math
import re
import string
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graphmem.bench.baselines import (
    BenchMessage,
    Bm25Baseline,
    FlatBaseline,
    Retrieved,
    StoreTimings,
    bench_id,
    ensure_bench_schema,
    store_messages,
)
from graphmem.retrieve.tokens import count_tokens

Progress = Callable[[int, int], None]
Span = tuple[str, int]

SYSTEMS = ("graphmem", "flat", "bm25")
CATEGORIES = (1, 2, 3, 4)
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
TURN_SPACING = timedelta(seconds=30)
FALLBACK_TARGET_TOKENS = 150
_DATE_FORMAT = "%I:%M %p on %d %B, %Y"
_DIA_ID = re.compile(r"D(\d+):(\d+)")
_SESSION_KEY = re.compile(r"session_(\d+)")
_ARTICLES = frozenset({"a", "an", "the"})
_ANSWER_STOPWORDS_TEXT = (
    "and or of to in on at for with by from as is are was were be been it its that this"
)
ANSWER_STOPWORDS = _ARTICLES | frozenset(_ANSWER_STOPWORDS_TEXT.split())
_PUNCT = str.maketrans("", "", string.punctuation + "\u2018\u2019\u201c\u201d\u2013\u2014")


# -- data ----------------------------------------------------------------------------------


class Turn(BaseModel):
    model_config = ConfigDict(frozen=True)

    dia_id: str
    speaker: str
    text: str


class Session(BaseModel):
    model_config = ConfigDict(frozen=True)

    number: int
    date_time: datetime
    turns: tuple[Turn, ...]


class QA(BaseModel):
    model_config = ConfigDict(frozen=True)

    question: str
    answer: str
    evidence: tuple[str, ...]
    category: int


class Conversation(BaseModel):
    model_config = ConfigDict(frozen=True)

    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: tuple[Session, ...]
    qa: tuple[QA, ...]

    @property
    def turns(self) -> int:
        return sum(len(s.turns) for s in self.sessions)


def parse_session_datetime(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` as an aware UTC datetime."""
    cleaned = " ".join(text.split())
    return datetime.strptime(cleaned, _DATE_FORMAT).replace(tzinfo=UTC)


def extract_dia_ids(evidence: Iterable[str]) -> tuple[str, ...]:
    """Canonical dialogue ids (``D<session>:<turn>``, no leading zeros) in evidence strings.

    Spaces are removed first, then ``D\\d+:\\d+`` is matched, so ``"D8:6; D9:17"`` and
    ``"D9:1 D4:4"`` give two ids each and ``"D:11:26"`` gives none. Order kept, no repeats.
    """
    found: list[str] = []
    for item in evidence:
        for session, turn in _DIA_ID.findall(str(item).replace(" ", "")):
            dia = canonical_dia_id(session, turn)
            if dia not in found:
                found.append(dia)
    return tuple(found)


def canonical_dia_id(session: str | int, turn: str | int) -> str:
    return f"D{int(session)}:{int(turn)}"


def _turn_text(raw: dict[str, Any]) -> str:
    text = str(raw.get("text") or "")
    caption = raw.get("blip_caption")
    if caption:
        text = f"{text} [shares a photo: {caption}]"
    return text


def parse_conversation(sample: dict[str, Any]) -> Conversation:
    conv = sample["conversation"]
    sessions: list[Session] = []
    for key, value in conv.items():
        match = _SESSION_KEY.fullmatch(key)
        if not match or not isinstance(value, list) or not value:
            continue
        number = int(match.group(1))
        turns = []
        for raw in value:
            ids = extract_dia_ids([raw.get("dia_id", "")])
            turns.append(Turn(
                dia_id=ids[0] if ids else str(raw.get("dia_id", "")),
                speaker=str(raw["speaker"]),
                text=_turn_text(raw),
            ))
        sessions.append(Session(
            number=number,
            date_time=parse_session_datetime(conv[f"session_{number}_date_time"]),
            turns=tuple(turns),
        ))
    sessions.sort(key=lambda s: s.number)
    qas = [
        QA(
            question=str(q["question"]),
            answer=str(q.get("answer", q.get("adversarial_answer", ""))),
            evidence=extract_dia_ids(q.get("evidence") or ()),
            category=int(q["category"]),
        )
        for q in sample.get("qa", ())
    ]
    return Conversation(
        sample_id=str(sample["sample_id"]),
        speaker_a=str(conv["speaker_a"]),
        speaker_b=str(conv["speaker_b"]),
        sessions=tuple(sessions),
        qa=tuple(qas),
    )


def load_locomo(path: str | Path) -> list[Conversation]:
    """All samples of a ``locomo10.json``-shaped file, typed."""
    with open(path, encoding="utf-8") as handle:
        raw = json.load(handle)
    return [parse_conversation(sample) for sample in raw]


# -- scoring -------------------------------------------------------------------------------


def normalize_tokens(text: str, stopwords: frozenset[str] = ANSWER_STOPWORDS) -> list[str]:
    """Lowercase, strip punctuation, drop articles and a few stopwords, split on whitespace."""
    return [w for w in text.lower().translate(_PUNCT).split() if w not in stopwords]


def answer_in_context(answer: str, context: str) -> float | None:
    """Share of the answer's normalized tokens found among the context's (None if no tokens)."""
    gold = normalize_tokens(answer)
    if not gold:
        return None
    have = set(normalize_tokens(context))
    return sum(1 for w in gold if w in have) / len(gold)


def evidence_recall(evidence_spans: Iterable[Span], spans: Iterable[Span]) -> float | None:
    """1.0 if any evidence message is among ``spans``, 0.0 if none, None without evidence."""
    wanted = set(evidence_spans)
    if not wanted:
        return None
    return 1.0 if wanted & set(spans) else 0.0


def span_members(session_id: str, raw_span: Sequence[int]) -> set[Span]:
    """Every ``(session_id, msg_id)`` of an inclusive ``(first, last)`` raw span."""
    first, last = int(raw_span[0]), int(raw_span[1])
    return {(session_id, m) for m in range(first, last + 1)}


def context_spans(context: Any) -> set[Span]:
    """The raw messages a graphmem ``MemoryContext`` covers: its episodes' raw spans and
    each fact's source spans (``session_ids[i]`` with ``raw_spans[i]``)."""
    spans: set[Span] = set()
    for ep in getattr(context, "episodes", ()) or ():
        spans |= span_members(ep.session_id, ep.raw_span)
    for fact in getattr(context, "facts", ()) or ():
        for session_id, raw_span in zip(
            getattr(fact, "session_ids", ()) or (), getattr(fact, "raw_spans", ()) or (),
            strict=False,
        ):
            spans |= span_members(session_id, raw_span)
    return spans


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile ``q`` in [0, 100]; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low, high = math.floor(pos), math.ceil(pos)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


# -- report --------------------------------------------------------------------------------


class QuestionScore(BaseModel):
    sample_id: str
    index: int
    category: int
    system: str
    recall: float | None
    answer_in_context: float | None
    tokens: int
    target_tokens: int
    messages: int
    latency_ms: float
    error: str | None = None


class CategoryStats(BaseModel):
    """Means over one system's questions of one category (or all: ``overall``)."""

    questions: int = 0
    with_evidence: int = 0
    evidence_recall_pct: float = 0.0
    answer_in_context_pct: float = 0.0
    mean_context_tokens: float = 0.0
    latency_p50_ms: float = 0.0
    latency_p95_ms: float = 0.0
    errors: int = 0


class IngestTimings(BaseModel):
    conversations: int = 0
    sessions: int = 0
    messages: int = 0
    graphmem_add_s: float = 0.0
    graphmem_flush_s: float = 0.0
    graphmem_consolidate_s: float = 0.0
    graphmem_total_s: float = 0.0
    graphmem_messages_per_s: float = 0.0
    consolidated: bool = False
    baseline_messages: int = 0
    baseline_embedded: int = 0
    baseline_embed_s: float = 0.0
    baseline_store_s: float = 0.0


class LocomoReport(BaseModel):
    data_path: str
    run_tag: str
    systems: list[str]
    skipped_systems: dict[str, str] = Field(default_factory=dict)
    samples: list[str]
    questions: int
    target_tokens: str
    ingest: IngestTimings
    results: dict[str, dict[str, CategoryStats]]
    scores: list[QuestionScore] = Field(default_factory=list, repr=False)
    seconds: float = 0.0

    def to_json(self, scores: bool = False, indent: int | None = 2) -> str:
        """The report as JSON; per-question ``scores`` only when asked (they are long)."""
        exclude = None if scores else {"scores"}
        return self.model_dump_json(indent=indent, exclude=exclude)

    def to_markdown(self) -> str:
        rows = [*(str(c) for c in CATEGORIES), "overall"]
        labels = {str(c): f"{c} {CATEGORY_NAMES[c]}" for c in CATEGORIES} | {"overall": "overall"}
        systems = [s for s in self.systems if s in self.results]
        metrics: list[tuple[str, Callable[[CategoryStats], str]]] = [
            ("Evidence recall (%)", lambda s: f"{s.evidence_recall_pct:.1f}"),
            ("Answer-in-context (%)", lambda s: f"{s.answer_in_context_pct:.1f}"),
            ("Mean context tokens", lambda s: f"{s.mean_context_tokens:.0f}"),
            ("Latency p50 / p95 (ms)",
             lambda s: f"{s.latency_p50_ms:.0f} / {s.latency_p95_ms:.0f}"),
        ]
        out = [
            f"## LoCoMo retrieval ({len(self.samples)} conversations, {self.questions} "
            f"questions, categories 1-4)",
            "",
            f"Baselines fill to: {self.target_tokens}.",
            "",
        ]
        for title, cell in metrics:
            out += [
                f"**{title}**",
                "",
                "| category | n | " + " | ".join(systems) + " |",
                "| --- | ---: | " + " | ".join("---:" for _ in systems) + " |",
            ]
            for row in rows:
                stats = [self.results[s].get(row, CategoryStats()) for s in systems]
                n = max((st.questions for st in stats), default=0)
                out.append(
                    f"| {labels[row]} | {n} | " + " | ".join(cell(st) for st in stats) + " |"
                )
            out.append("")
        ing = self.ingest
        out += [
            "**Ingest**",
            "",
            f"- {ing.messages} messages in {ing.sessions} sessions of "
            f"{ing.conversations} conversations",
        ]
        if "graphmem" in self.systems or ing.graphmem_total_s:
            out.append(
                f"- graphmem: {ing.graphmem_total_s:.1f} s = add {ing.graphmem_add_s:.1f} s + "
                f"flush {ing.graphmem_flush_s:.1f} s + consolidate "
                f"{ing.graphmem_consolidate_s:.1f} s"
                f"{'' if ing.consolidated else ' (consolidate() not available)'} "
                f"→ {ing.graphmem_messages_per_s:.0f} messages/s"
            )
        out.append(
            f"- baselines: embedded {ing.baseline_embedded}/{ing.baseline_messages} messages "
            f"in {ing.baseline_embed_s:.1f} s, stored in {ing.baseline_store_s:.1f} s"
        )
        for name, why in self.skipped_systems.items():
            out.append(f"- skipped {name}: {why}")
        errors = {s: self.results[s]["overall"].errors for s in systems}
        if any(errors.values()):
            out.append(f"- errors (counted as empty retrieval): {errors}")
        out.append(f"- total {self.seconds:.0f} s")
        return "\n".join(out) + "\n"


def summarize(scores: Sequence[QuestionScore]) -> CategoryStats:
    if not scores:
        return CategoryStats()
    recalls = [s.recall for s in scores if s.recall is not None]
    answers = [s.answer_in_context for s in scores if s.answer_in_context is not None]
    latencies = [s.latency_ms for s in scores]
    return CategoryStats(
        questions=len(scores),
        with_evidence=len(recalls),
        evidence_recall_pct=100 * sum(recalls) / len(recalls) if recalls else 0.0,
        answer_in_context_pct=100 * sum(answers) / len(answers) if answers else 0.0,
        mean_context_tokens=sum(s.tokens for s in scores) / len(scores),
        latency_p50_ms=percentile(latencies, 50),
        latency_p95_ms=percentile(latencies, 95),
        errors=sum(1 for s in scores if s.error),
    )


# -- running -------------------------------------------------------------------------------


def user_id_for(sample_id: str, run_tag: str) -> str:
    return f"locomo-{sample_id}-{run_tag}"


def session_id_for(user_id: str, number: int) -> str:
    return f"{user_id}-s{number}"


def turn_messages(conv: Conversation, session: Session, user_id: str) -> list[dict[str, Any]]:
    """The ``add_messages`` input of one session (role by speaker, 30 s apart)."""
    session_id = session_id_for(user_id, session.number)
    return [
        {
            "user_id": user_id,
            "session_id": session_id,
            # Both speakers are people, neither is an AI assistant: both are "user" turns,
            # and the "Name: " prefix tells graphmem whose first person it is.
            "role": "user",
            "content": f"{turn.speaker}: {turn.text}",
            "ts": session.date_time + i * TURN_SPACING,
        }
        for i, turn in enumerate(session.turns)
    ]


class _Ingested(BaseModel):
    """One conversation as stored: dia_id -> (session_id, msg_id) and the message texts."""

    user_id: str
    now: datetime
    dia_map: dict[str, Span]
    messages: list[BenchMessage]


def _map_stored(mem: Any, batch: list[dict[str, Any]], stored: Sequence[Any]) -> list[int]:
    """msg_ids of ``batch`` in order, from ``add_messages``' result or (on a re-run, when
    the raw buffer deduplicated them) from the buffer itself."""
    key = {(m.content, m.ts): m.msg_id for m in stored}
    missing = [b for b in batch if (b["content"], b["ts"]) not in key]
    if missing:
        buffer = getattr(mem, "buffer", None)
        if buffer is None:
            raise RuntimeError("add_messages returned fewer messages than sent")
        for m in buffer.iter_session(batch[0]["session_id"]):
            key.setdefault((m.content, m.ts), m.msg_id)
    return [key[(b["content"], b["ts"])] for b in batch]


def ingest_conversation(
    mem: Any, conv: Conversation, run_tag: str, timings: IngestTimings, graphmem: bool
) -> _Ingested:
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
    return _Ingested(user_id=user_id, now=now, dia_map=dia_map, messages=messages)


def _ask_graphmem(query_memory: Callable[..., Any], question: str, ing: _Ingested) -> Retrieved:
    began = time.perf_counter()
    context = query_memory(question, ing.user_id, now=ing.now)
    latency = time.perf_counter() - began
    return Retrieved(text=context.text or "", spans=frozenset(context_spans(context)),
                     latency_s=latency)


def _score(
    conv: Conversation, ing: _Ingested, index: int, qa: QA, system: str,
    got: Retrieved, target: int, error: str | None,
) -> QuestionScore:
    evidence = [ing.dia_map[d] for d in qa.evidence if d in ing.dia_map]
    return QuestionScore(
        sample_id=conv.sample_id, index=index, category=qa.category, system=system,
        recall=evidence_recall(evidence, got.spans),
        answer_in_context=answer_in_context(qa.answer, got.text),
        tokens=count_tokens(got.text), target_tokens=target, messages=len(got.spans),
        latency_ms=got.latency_s * 1000, error=error,
    )


def select_questions(conv: Conversation, max_questions: int | None) -> list[tuple[int, QA]]:
    chosen = [(i, q) for i, q in enumerate(conv.qa) if q.category in CATEGORIES]
    return chosen if max_questions is None else chosen[:max_questions]


def run_conversations(
    mem: Any,
    conversations: Sequence[Conversation],
    *,
    max_questions: int | None = None,
    systems: Sequence[str] = SYSTEMS,
    on_progress: Progress | None = None,
    run_tag: str | None = None,
    fallback_target_tokens: int = FALLBACK_TARGET_TOKENS,
    data_path: str = "",
) -> LocomoReport:
    """``run_locomo`` on already loaded conversations."""
    started = time.perf_counter()
    unknown = set(systems) - set(SYSTEMS)
    if unknown:
        raise ValueError(f"unknown systems {sorted(unknown)}; choose from {SYSTEMS}")
    run_tag = run_tag or uuid.uuid4().hex[:8]
    skipped: dict[str, str] = {}
    query_memory = getattr(mem, "query_memory", None)
    active = list(systems)
    if "graphmem" in active and not callable(query_memory):
        active.remove("graphmem")
        skipped["graphmem"] = "Memory.query_memory() is not available"
    timings = IngestTimings()

    ingested = [
        ingest_conversation(mem, conv, run_tag, timings, graphmem="graphmem" in systems)
        for conv in conversations
    ]
    if "graphmem" in systems:
        timings.graphmem_total_s = (
            timings.graphmem_add_s + timings.graphmem_flush_s + timings.graphmem_consolidate_s
        )
        timings.graphmem_messages_per_s = timings.messages / max(timings.graphmem_total_s, 1e-9)

    baselines: dict[str, FlatBaseline | Bm25Baseline] = {}
    if {"flat", "bm25"} & set(active):
        ensure_bench_schema(mem.runner, mem.embedder.dimension)
        stored = StoreTimings()
        for ing in ingested:
            got = store_messages(mem.runner, mem.embedder, ing.messages)
            stored.messages += got.messages
            stored.embedded += got.embedded
            stored.embed_s += got.embed_s
            stored.store_s += got.store_s
        timings.baseline_messages = stored.messages
        timings.baseline_embedded = stored.embedded
        timings.baseline_embed_s = stored.embed_s
        timings.baseline_store_s = stored.store_s
        if "flat" in active:
            baselines["flat"] = FlatBaseline(mem.runner, mem.embedder)
        if "bm25" in active:
            baselines["bm25"] = Bm25Baseline(mem.runner)
        for baseline in baselines.values():
            baseline.refresh_total()
            for ing in ingested:
                baseline.register_user(ing.user_id, [m.text for m in ing.messages])

    plan = [(conv, ing, select_questions(conv, max_questions))
            for conv, ing in zip(conversations, ingested, strict=True)]
    total = sum(len(qs) for _, _, qs in plan)
    scores: list[QuestionScore] = []
    done = 0
    for conv, ing, questions in plan:
        for index, qa in questions:
            target = fallback_target_tokens
            if "graphmem" in active:
                error = None
                try:
                    got = _ask_graphmem(query_memory, qa.question, ing)  # type: ignore[arg-type]
                except Exception as exc:  # one failing question must not end a long run
                    got, error = Retrieved(text=""), f"{type(exc).__name__}: {exc}"
                target = count_tokens(got.text)
                scores.append(_score(conv, ing, index, qa, "graphmem", got, target, error))
            for name, baseline in baselines.items():
                error = None
                try:
                    got = baseline.retrieve(qa.question, ing.user_id, target)
                except Exception as exc:
                    got, error = Retrieved(text=""), f"{type(exc).__name__}: {exc}"
                scores.append(_score(conv, ing, index, qa, name, got, target, error))
            done += 1
            if on_progress is not None:
                on_progress(done, total)

    results: dict[str, dict[str, CategoryStats]] = {}
    for system in active:
        mine = [s for s in scores if s.system == system]
        results[system] = {
            str(c): summarize([s for s in mine if s.category == c]) for c in CATEGORIES
        }
        results[system]["overall"] = summarize(mine)
    return LocomoReport(
        data_path=data_path,
        run_tag=run_tag,
        systems=active,
        skipped_systems=skipped,
        samples=[c.sample_id for c in conversations],
        questions=total,
        target_tokens=(
            "graphmem's context tokens for the same question" if "graphmem" in active
            else f"a fixed {fallback_target_tokens} tokens (graphmem not run)"
        ),
        ingest=timings,
        results=results,
        scores=scores,
        seconds=time.perf_counter() - started,
    )


def run_locomo(
    mem: Any,
    data_path: str | Path,
    samples: int | None = None,
    max_questions: int | None = None,
    systems: Sequence[str] = SYSTEMS,
    on_progress: Progress | None = None,
    *,
    run_tag: str | None = None,
    fallback_target_tokens: int = FALLBACK_TARGET_TOKENS,
) -> LocomoReport:
    """Ingest the first ``samples`` conversations (all if None) into ``mem`` and the
    baselines, ask up to ``max_questions`` questions (categories 1–4) *per conversation*,
    and score every system.

    ``run_tag`` makes the user ids (``locomo-<sample>-<run_tag>``); a fresh one by default.
    Re-using a tag with the same buffer folder re-uses what is stored (messages are not
    duplicated, baseline embeddings are not recomputed). ``on_progress(done, total)`` is
    called after each question.
    """
    conversations = load_locomo(data_path)
    if samples is not None:
        conversations = conversations[:samples]
    return run_conversations(
        mem, conversations, max_questions=max_questions, systems=systems,
        on_progress=on_progress, run_tag=run_tag,
        fallback_target_tokens=fallback_target_tokens, data_path=str(data_path),
    )
