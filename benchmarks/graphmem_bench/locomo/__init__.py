"""LoCoMo retrieval benchmark: graphmem against equal-token baselines, no LLM involved.

``data`` loads the conversations, ``score`` scores a context (answer-in-context,
evidence-in-context, provenance recall), ``report`` tabulates per budget, half and
category, ``run`` ingests and asks. Run it: ``graphmem bench locomo --conversations 1-5``.
"""

from graphmem_bench.locomo.data import (
    CATEGORIES,
    CATEGORY_NAMES,
    QA,
    Conversation,
    Session,
    Turn,
    extract_dia_ids,
    load_locomo,
    parse_selection,
    parse_session_datetime,
    select_questions,
)
from graphmem_bench.locomo.report import (
    CategoryStats,
    IngestTimings,
    LocomoReport,
    QuestionScore,
    summarize,
    tabulate,
)
from graphmem_bench.locomo.run import (
    BUDGETS,
    SYSTEMS,
    Ingested,
    ingest_conversation,
    run_conversations,
    run_locomo,
    user_id_for,
)
from graphmem_bench.locomo.score import (
    Span,
    answer_in_context,
    context_spans,
    evidence_in_context,
    normalize_tokens,
    provenance_recall,
    span_members,
    turn_shown,
)

__all__ = [
    "BUDGETS", "CATEGORIES", "CATEGORY_NAMES", "QA", "SYSTEMS", "CategoryStats",
    "Conversation", "IngestTimings", "Ingested", "LocomoReport", "QuestionScore", "Session",
    "Span", "Turn", "answer_in_context", "context_spans", "evidence_in_context",
    "extract_dia_ids", "ingest_conversation", "load_locomo", "normalize_tokens",
    "parse_selection", "parse_session_datetime", "provenance_recall", "run_conversations",
    "run_locomo", "select_questions", "span_members", "summarize", "tabulate",
    "turn_shown", "user_id_for",
]
