"""graphmem — long-term memory for LLM agents, kept in Neo4j.

The client, its config and result models are imported when first used (PEP 562), so
``import graphmem`` — and ``graphmem --help`` — loads neither the Neo4j driver nor
pydantic nor spaCy; ``from graphmem import Memory`` works as usual. Models (spaCy,
the embedder) load later still: when a ``Memory`` first needs them.
"""

import importlib as _importlib
import typing as _typing

from graphmem._errors import (
    ConfigError,
    ExtractionError,
    GraphmemError,
    InvalidInputError,
    QueryRefusedError,
    SessionBusyError,
    StoreUnavailableError,
)

if _typing.TYPE_CHECKING:
    from graphmem._async_client import AsyncMemory
    from graphmem._client import Memory
    from graphmem._config import MemoryConfig, RetrievalConfig
    from graphmem._models import (
        Episode,
        EpisodeDeletion,
        EpisodeHit,
        Fact,
        FactHit,
        FactVersion,
        ForgetReport,
        IngestStats,
        MemoryContext,
        Message,
        MessageIn,
        QueryExplanation,
    )
    from graphmem.embed import Embedder
    from graphmem.extract.candidate import Candidate, Extractor
    from graphmem.extract.reader import RuleExtractor
    from graphmem.facts.consolidate import ConsolidationReport
    from graphmem.store.runner import Tracer
    from graphmem.text.tokens import count_tokens

__version__ = "0.1.0"

# public name -> the private module that defines it, imported on first access
_LAZY: dict[str, str] = {
    "AsyncMemory": "graphmem._async_client",
    "Candidate": "graphmem.extract.candidate",
    "ConsolidationReport": "graphmem.facts.consolidate",
    "Embedder": "graphmem.embed",
    "Extractor": "graphmem.extract.candidate",
    "MessageIn": "graphmem._models",
    "RuleExtractor": "graphmem.extract.reader",
    "Tracer": "graphmem.store.runner",
    "Episode": "graphmem._models",
    "EpisodeDeletion": "graphmem._models",
    "EpisodeHit": "graphmem._models",
    "Fact": "graphmem._models",
    "FactHit": "graphmem._models",
    "FactVersion": "graphmem._models",
    "ForgetReport": "graphmem._models",
    "IngestStats": "graphmem._models",
    "Memory": "graphmem._client",
    "MemoryConfig": "graphmem._config",
    "MemoryContext": "graphmem._models",
    "Message": "graphmem._models",
    "QueryExplanation": "graphmem._models",
    "RetrievalConfig": "graphmem._config",
    "count_tokens": "graphmem.text.tokens",
}

__all__ = [
    "AsyncMemory",
    "Candidate",
    "ConfigError",
    "ConsolidationReport",
    "Embedder",
    "Episode",
    "EpisodeDeletion",
    "EpisodeHit",
    "ExtractionError",
    "Extractor",
    "Fact",
    "FactHit",
    "FactVersion",
    "ForgetReport",
    "GraphmemError",
    "IngestStats",
    "InvalidInputError",
    "Memory",
    "MemoryConfig",
    "MemoryContext",
    "Message",
    "MessageIn",
    "QueryExplanation",
    "QueryRefusedError",
    "RetrievalConfig",
    "RuleExtractor",
    "SessionBusyError",
    "StoreUnavailableError",
    "Tracer",
    "__version__",
    "count_tokens",
]


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'graphmem' has no attribute {name!r}")
    value = getattr(_importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
