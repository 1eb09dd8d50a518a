"""Fact extraction (pipeline stage 3a): candidate facts from what the user said.

``RuleExtractor`` needs no LLM: rules over the clauses of user messages, in Chinese and
English, for names, preferences, diets and foods avoided, allergies, budgets, dates and
deadlines, channels, home and origin, work and study, pets, plans (and plans dropped)
and relatives — each with its negation where it has one. I / 我 resolve to the user;
she / 她 to the person last named in the episode (never to the user: a pronoun with
nobody named before it gives no fact); a relative's name ("my sister Emma") names that
relative; budgets and dates attach to the episode's event (聚会, party, trip...) when it
has one. Hedged clauses are lowered below ``min_confidence``; questions, hypotheticals
and things past ("I used to live in Boston") give no fact. Another extractor (an LLM)
plugs in through the ``Extractor`` protocol: ``LLMExtractor`` (module ``llm``, the
``graphmem[llm]`` extra) reads several episodes per call from any OpenAI-compatible
chat-completions endpoint (a ``BatchExtractor``).

Modules: ``text`` (sentences, clauses, kinds of statement), ``english`` / ``chinese``
(subjects and rules), ``dates``, ``plans``, ``vocab`` (word lists), ``reader`` (the
extractor itself), ``online`` (the online path: each new message read once, with its
open episode's context).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graphmem.extract.candidate import (
    USER,
    BatchExtractor,
    Candidate,
    Context,
    ExtractionStats,
    Extractor,
)
from graphmem.extract.reader import RuleExtractor

if TYPE_CHECKING:
    from graphmem._config import MemoryConfig

__all__ = ["USER", "BatchExtractor", "Candidate", "Context", "ExtractionStats", "Extractor",
           "RuleExtractor", "configured_extractor"]


def configured_extractor(config: MemoryConfig) -> Extractor:
    """The extractor the settings name: the offline rules, or an OpenAI-compatible LLM."""
    if config.extraction == "llm":
        from graphmem.extract.llm import LLMExtractor

        return LLMExtractor.from_config(config)
    return RuleExtractor()
