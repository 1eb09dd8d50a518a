"""The one error tree of graphmem.

    GraphmemError
    ├── ConfigError            bad settings (MemoryConfig, RetrievalConfig, Memory.connect,
    │                          the MCP server), a missing model, or a database that
    │                          disagrees with them (an index of another dimension)
    ├── InvalidInputError      a bad argument at the public API (also a ValueError)
    ├── StoreUnavailableError  Neo4j could not be reached; nothing in the raw buffer is lost
    ├── QueryRefusedError      Neo4j refused a statement (an unsupported server, or a bug)
    ├── SessionBusyError       a session is being written by another writer (another process
    │                          or Memory on the same raw buffer folder): one writer a session
    └── ExtractionError        an extractor failed on an episode (consolidation reports it
                               in ConsolidationReport.failed and retries the episode later)

Driver exceptions are translated in one place (``graphmem.store.runner``) with
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
    """Neo4j is unreachable; nothing in the raw buffer is lost."""

    def __init__(self, message: str, *, query: str | None = None) -> None:
        super().__init__(message)
        self.query = query


class QueryRefusedError(GraphmemError):
    """Neo4j refused a statement: the server lacks a feature, or graphmem has a bug (say
    which query in a report). Retrying does not help."""

    def __init__(self, message: str, *, query: str | None = None,
                 code: str | None = None) -> None:
        super().__init__(message)
        self.query = query
        self.code = code


class SessionBusyError(GraphmemError):
    """A session of the raw buffer is being written by another writer (``holder``): each
    session has one writer at a time. Nothing of the refused batch was written."""

    def __init__(self, message: str, *, holder: str | None = None) -> None:
        super().__init__(message)
        self.holder = holder


class ExtractionError(GraphmemError):
    """A fact extractor failed on an episode (``event_id``, when known)."""

    def __init__(self, message: str, *, event_id: str | None = None) -> None:
        super().__init__(message)
        self.event_id = event_id
