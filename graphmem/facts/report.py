"""What a consolidation run did: the counts of its changes, what it skipped and what failed."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from graphmem._errors import ExtractionError
from graphmem.extract import ExtractionStats
from graphmem.facts.conflict import Change, Create, Historic, Reverify, Supersede


@dataclass
class ConsolidationReport:
    episodes: int = 0
    created: int = 0
    reverified: int = 0
    superseded: int = 0
    historic: int = 0
    embedded: int = 0
    messages_embedded: int = 0  # messages given their vector (the nearest-messages channel)
    expired: int = 0
    deleted: int = 0
    skipped_episodes: int = 0  # distilled meanwhile by another consolidation
    skipped_facts: int = 0  # facts that could not be stored (see errors)
    # online facts retracted: read from one message, not found when the whole episode was
    unconfirmed: int = 0
    errors: list[str] = field(default_factory=list)
    # episodes whose extraction failed, each as the ExtractionError (event_id set): they
    # are given back and retried by the next run
    failed: list[ExtractionError] = field(default_factory=list)
    extraction: ExtractionStats | None = None  # a batch (LLM) extractor's calls and tokens

    def tally(self, changes: Sequence[Change]) -> None:
        """Count applied changes by kind."""
        for change in changes:
            if isinstance(change, Supersede):
                self.superseded += 1
            elif isinstance(change, Create):
                self.created += 1
            elif isinstance(change, Reverify):
                self.reverified += 1
            elif isinstance(change, Historic):
                self.historic += 1

    def fail(self, event_id: str, exc: Exception) -> None:
        """Report an episode whose extraction failed (in ``errors`` and as a typed
        ``failed``)."""
        error = ExtractionError(f"{event_id}: {exc!r}", event_id=event_id)
        self.errors.append(str(error))
        self.failed.append(error)
