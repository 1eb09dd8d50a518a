"""Scoring a context for a history's question, without an LLM, in English and Chinese.

- **answer-in-context** (the headline): with ``answer_keys`` (the chat sets), the share of
  the keys the context holds (case, spacing and markdown emphasis aside); without them
  (LongMemEval), the share of the answer's words the context holds, as for LoCoMo;
- **evidence-in-context**: the share of the evidence turns the context shows — a turn is
  shown when more than half of its content (English words; Chinese character pairs) is in
  the context.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem_bench.histories.data import is_chinese
from graphmem_bench.locomo.score import EVIDENCE_SHARE, EVIDENCE_STOPWORDS, answer_in_context

_SPACES = re.compile(r"\s+")
_MARKUP = re.compile(r"[*_`#>|]+")
_HAN = re.compile(r"[\u3400-\u9fff]+")
_LATIN = re.compile(r"[a-z0-9]+")


def normalized(text: str) -> str:
    return _SPACES.sub(" ", _MARKUP.sub("", text.lower())).strip()


def keys_in_context(keys: Sequence[str], context: str) -> float | None:
    if not keys:
        return None
    have = normalized(context)
    squeezed = have.replace(" ", "")
    found = sum(1 for k in keys if normalized(k) in have
                or (is_chinese(k) and normalized(k).replace(" ", "") in squeezed))
    return found / len(keys)


def answer_score(answer: str, keys: Sequence[str], context: str) -> float | None:
    return keys_in_context(keys, context) if keys else answer_in_context(answer, context)


def content_units(text: str) -> set[str]:
    """What a turn is made of for evidence-in-context: English content words and Chinese
    character pairs."""
    lower = text.lower()
    units = {w for w in _LATIN.findall(lower) if w not in EVIDENCE_STOPWORDS and len(w) > 1}
    for run in _HAN.findall(lower):
        units |= {run[i:i + 2] for i in range(len(run) - 1)} or {run}
    return units


def evidence_score(evidence: Sequence[str], context: str) -> float | None:
    if not evidence:
        return None
    have = content_units(context)
    shown = 0
    for text in evidence:
        units = content_units(text)
        if units and len(units & have) > EVIDENCE_SHARE * len(units):
            shown += 1
    return shown / len(evidence)
