"""The LoCoMo report: per budget, per half (conversations 1–5 tune, 6–10 held out) and per
category, for every system; rendered as markdown tables and JSON."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pydantic import BaseModel, Field

from graphmem_bench.locomo.data import CATEGORIES, CATEGORY_NAMES
from graphmem_bench.locomo.score import percentile

TUNE_HALF = range(1, 6)  # conversations tuned on; 6–10 are held out


class QuestionScore(BaseModel):
    sample_id: str
    conversation: int = 0
    index: int
    category: int
    system: str
    budget: str = "default"
    answer_in_context: float | None
    evidence_in_context: float | None = None
    provenance_recall: float | None = None
    tokens: int
    target_tokens: int
    latency_ms: float
    error: str | None = None


class CategoryStats(BaseModel):
    """Means over one system's questions of one category (or all: ``overall``)."""

    questions: int = 0
    with_evidence: int = 0
    answer_in_context_pct: float = 0.0
    evidence_in_context_pct: float = 0.0
    provenance_recall_pct: float | None = None
    mean_context_tokens: float = 0.0
    latency_p50_ms: float = 0.0
    latency_p95_ms: float = 0.0
    errors: int = 0


def summarize(scores: Sequence[QuestionScore]) -> CategoryStats:
    if not scores:
        return CategoryStats()
    answers = [s.answer_in_context for s in scores if s.answer_in_context is not None]
    shown = [s.evidence_in_context for s in scores if s.evidence_in_context is not None]
    behind = [s.provenance_recall for s in scores if s.provenance_recall is not None]
    latencies = [s.latency_ms for s in scores]
    return CategoryStats(
        questions=len(scores),
        with_evidence=len(shown),
        answer_in_context_pct=100 * sum(answers) / len(answers) if answers else 0.0,
        evidence_in_context_pct=100 * sum(shown) / len(shown) if shown else 0.0,
        provenance_recall_pct=100 * sum(behind) / len(behind) if behind else None,
        mean_context_tokens=sum(s.tokens for s in scores) / len(scores),
        latency_p50_ms=percentile(latencies, 50),
        latency_p95_ms=percentile(latencies, 95),
        errors=sum(1 for s in scores if s.error),
    )


def half_of(conversation: int) -> str:
    return "1-5" if conversation in TUNE_HALF else "6-10"


def tabulate(scores: Sequence[QuestionScore]
             ) -> dict[str, dict[str, dict[str, dict[str, CategoryStats]]]]:
    """budget → half ("all", "1-5", "6-10") → system → category ("1".."4", "overall")."""
    out: dict[str, dict[str, dict[str, dict[str, CategoryStats]]]] = {}
    budgets = list(dict.fromkeys(s.budget for s in scores))
    for budget in budgets:
        mine = [s for s in scores if s.budget == budget]
        halves = {"all": mine}
        for half in ("1-5", "6-10"):
            part = [s for s in mine if half_of(s.conversation) == half]
            if part and len(part) < len(mine):
                halves[half] = part
        out[budget] = {}
        for half, part in halves.items():
            systems = list(dict.fromkeys(s.system for s in part))
            out[budget][half] = {
                system: {str(c): summarize([s for s in part if s.system == system
                                            and s.category == c]) for c in CATEGORIES}
                | {"overall": summarize([s for s in part if s.system == system])}
                for system in systems
            }
    return out


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
    budgets: list[str] = Field(default_factory=lambda: ["default"])
    samples: list[str]
    questions: int
    ingest: IngestTimings
    results: dict[str, dict[str, dict[str, dict[str, CategoryStats]]]]
    scores: list[QuestionScore] = Field(default_factory=list, repr=False)
    seconds: float = 0.0

    def to_json(self, scores: bool = False, indent: int | None = 2) -> str:
        """The report as JSON; per-question ``scores`` only when asked (they are long)."""
        exclude = None if scores else {"scores"}
        return self.model_dump_json(indent=indent, exclude=exclude)

    def to_markdown(self) -> str:
        out = [
            f"## LoCoMo retrieval ({len(self.samples)} conversations, {self.questions} "
            "questions, categories 1-4)",
            "",
            "Each baseline's context is cut to exactly graphmem's tokens for the same question "
            "and budget; every baseline line shows its date and speaker. Conversations 1-5 "
            "are the tuning half, 6-10 the held-out half.",
            "",
        ]
        for budget in self.budgets:
            if budget in self.results:
                out += self._budget_section(budget)
        out += self._ingest_lines()
        return "\n".join(out) + "\n"

    def _budget_section(self, budget: str) -> list[str]:
        by_half = self.results[budget]
        systems = [s for s in self.systems if s in by_half["all"]]
        title = ("graphmem's default context (top 3 episodes, 5 facts)" if budget == "default"
                 else f"{budget}-token budget")
        out = [f"### {title}", ""]
        metrics: list[tuple[str, Callable[[CategoryStats], str]]] = [
            ("Answer-in-context (%)", lambda s: f"{s.answer_in_context_pct:.1f}"),
            ("Evidence-in-context (%)", lambda s: f"{s.evidence_in_context_pct:.1f}"),
        ]
        labels = {str(c): f"{c} {CATEGORY_NAMES[c]}" for c in CATEGORIES} | {
            "overall": "**overall**"}
        for name, cell in metrics:
            out += [f"**{name}**", "",
                    "| conversations | category | n | " + " | ".join(systems) + " |",
                    "| --- | --- | ---: | " + " | ".join("---:" for _ in systems) + " |"]
            for half, per_system in by_half.items():
                for row in [*(str(c) for c in CATEGORIES), "overall"]:
                    stats = [per_system[s][row] for s in systems]
                    n = max(st.questions for st in stats)
                    out.append(f"| {half} | {labels[row]} | {n} | "
                               + " | ".join(cell(st) for st in stats) + " |")
            out.append("")
        overall = {s: by_half["all"][s]["overall"] for s in systems}
        out.append("| | " + " | ".join(systems) + " |")
        out.append("| --- | " + " | ".join("---:" for _ in systems) + " |")
        out.append("| mean context tokens | " + " | ".join(
            f"{overall[s].mean_context_tokens:.0f}" for s in systems) + " |")
        out.append("| latency p50 / p95 (ms) | " + " | ".join(
            f"{overall[s].latency_p50_ms:.0f} / {overall[s].latency_p95_ms:.0f}"
            for s in systems) + " |")
        out.append("| provenance recall (%), secondary | " + " | ".join(
            "—" if overall[s].provenance_recall_pct is None
            else f"{overall[s].provenance_recall_pct:.1f}" for s in systems) + " |")
        errors = {s: overall[s].errors for s in systems if overall[s].errors}
        if errors:
            out.append(f"\nErrors (counted as empty contexts): {errors}")
        out.append("")
        return out

    def _ingest_lines(self) -> list[str]:
        ing = self.ingest
        out = ["### Ingest", "",
               f"- {ing.messages} messages in {ing.sessions} sessions of "
               f"{ing.conversations} conversations"]
        if ing.graphmem_total_s:
            out.append(
                f"- graphmem: {ing.graphmem_total_s:.1f} s = add {ing.graphmem_add_s:.1f} s + "
                f"flush {ing.graphmem_flush_s:.1f} s + consolidate "
                f"{ing.graphmem_consolidate_s:.1f} s → {ing.graphmem_messages_per_s:.0f} "
                "messages/s")
        out.append(
            f"- baselines: embedded {ing.baseline_embedded}/{ing.baseline_messages} messages "
            f"in {ing.baseline_embed_s:.1f} s, stored in {ing.baseline_store_s:.1f} s")
        out.append(f"- total {self.seconds:.0f} s")
        return out
