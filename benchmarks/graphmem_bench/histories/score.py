"""Scoring a context for a history's question, without an LLM, in English and Chinese.

- **answer-in-context** (the headline): with ``answer_keys`` (the chat sets), the share of
  the keys the context holds (case, spacing and markdown emphasis aside); without them
  (LongMemEval), the share of the answer's words the context holds, as for LoCoMo;
- **stated answer-in-context**: the same, but of an answer its evidence turns state: only
  the answer's words those turns hold count, and a question whose evidence holds no more
  than half of its answer's words is not scored (``None``) — a computed answer ("$750" from
  $800 and $50, "4" cuisines counted over four sessions) is in no turn, and a context holds
  a "4" or a "2" only by chance. Chat sets' keys are verbatim in their evidence: the same
  as answer-in-context;
- **evidence-in-context**: the share of the evidence turns the context shows — a turn is
  shown when more than half of its content (English words; Chinese character pairs) is in
  the context.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem_bench.histories.data import is_chinese
from graphmem_bench.locomo.score import (
    EVIDENCE_SHARE,
    EVIDENCE_STOPWORDS,
    answer_in_context,
    normalize_tokens,
)

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


def stated_answer_score(answer: str, keys: Sequence[str], evidence: Sequence[str],
                        context: str) -> float | None:
    """The share of the answer's words that its evidence turns hold found in the context;
    None when those turns hold no more than half of them (an answer computed, not said)."""
    if keys:
        return keys_in_context(keys, context)
    gold = normalize_tokens(answer)
    said = set(normalize_tokens(" ".join(evidence)))
    stated = [w for w in gold if w in said]
    if not gold or len(stated) <= EVIDENCE_SHARE * len(gold):
        return None
    have = set(normalize_tokens(context))
    return sum(1 for w in stated if w in have) / len(stated)


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
