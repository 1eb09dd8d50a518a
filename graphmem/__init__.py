"""graphmem — long-term memory for LLM agents, kept in Neo4j."""

from graphmem._async_client import AsyncMemory
from graphmem._client import Memory
from graphmem._config import MemoryConfig
from graphmem._errors import (
    ConfigError,
    ExtractionError,
    GraphmemError,
    InvalidInputError,
    StoreUnavailableError,
)
from graphmem._models import (
    Episode,
    EpisodeHit,
    Fact,
    FactHit,
    FactVersion,
    IngestStats,
    MemoryContext,
    Message,
)

__version__ = "0.1.0"

__all__ = [
    "AsyncMemory",
    "ConfigError",
    "Episode",
    "EpisodeHit",
    "ExtractionError",
    "Fact",
    "FactHit",
    "FactVersion",
    "GraphmemError",
    "IngestStats",
    "InvalidInputError",
    "Memory",
    "MemoryConfig",
    "MemoryContext",
    "Message",
    "StoreUnavailableError",
    "__version__",
]
