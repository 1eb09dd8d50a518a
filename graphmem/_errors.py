"""The one error tree of graphmem.

    GraphmemError
    ├── ConfigError            bad settings, or an index built with another dimension
    ├── InvalidInputError      a bad argument at the public API (also a ValueError)
    ├── StoreUnavailableError  Neo4j could not be reached or refused a query
    └── ExtractionError        an extractor failed on an episode

Driver exceptions are translated in one place (``graphmem.store``) with
``raise ... from exc``, naming the query that failed, never its parameters
(they hold user data).
"""

from __future__ import annotations


class GraphmemError(Exception):
    """Root of every error graphmem raises on purpose."""


class ConfigError(GraphmemError):
    """Settings are invalid, or the database disagrees with them."""


class InvalidInputError(GraphmemError, ValueError):
    """An argument passed to the public API is not acceptable."""


class StoreUnavailableError(GraphmemError):
    """Neo4j is unreachable or a query failed; nothing in the raw buffer is lost."""

    def __init__(self, message: str, *, query: str | None = None) -> None:
        super().__init__(message)
        self.query = query


class ExtractionError(GraphmemError):
    """A fact extractor failed on an episode."""
