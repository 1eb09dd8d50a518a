"""LoCoMo extraction benchmark: are LoCoMo's gold observations among the extracted facts?

LoCoMo's ``observation`` field lists, per session and speaker, short fact sentences with
the dialogue turn(s) they come from (``dia_id``). Each conversation is ingested exactly as
the retrieval benchmark does it (``graphmem_bench.locomo.ingest_conversation``: add, flush,
consolidate as of the conversation's own date); then for every gold observation:

- its turn(s) are mapped to ``(session_id, msg_id)`` and to the stored episode(s) whose
  raw span contains them;
- it is *covered* if some fact version (any status) ``DERIVED_FROM`` one of those episodes
  has a sentence embedding with cosine >= ``threshold`` (0.6) to the observation's.

Observations whose turns are in no stored episode count as not covered. The report gives
that coverage, facts per episode, timings and a few misses with their nearest fact. There
is no target: this is a baseline for the extractor.

Run it: ``graphmem bench extraction --samples 2``.
"""

from __future__ import annotations

import bisect
import json
import math
import operator
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from graphmem_bench.baselines import bench_store
from graphmem_bench.locomo import (
    Conversation,
    IngestTimings,
    Span,
    extract_dia_ids,
    ingest_conversation,
    load_locomo,
)

Progress = Callable[[int, int], None]
Vector = Sequence[float]

DEFAULT_THRESHOLD = 0.6
EMBED_BATCH = 256
MAX_EXAMPLE_MISSES = 5
_OBSERVATION_KEY = "_observation"


# -- data ----------------------------------------------------------------------------------


class Observation(BaseModel):
    """One gold fact sentence of LoCoMo, with the turn(s) it was written from."""

    model_config = ConfigDict(frozen=True)

    sample_id: str
    session: int
    speaker: str
    text: str
    dia_ids: tuple[str, ...]


def parse_observations(sample: Mapping[str, Any]) -> list[Observation]:
    """A sample's ``observation`` → ``session_N_observation`` → ``{speaker: [[text, dia_id]]}``
    as a flat list, sessions in order. ``dia_id`` may be a string or a list of strings;
    entries without text are skipped, entries without a readable dia_id are kept (with no
    turns: they can never be covered)."""
    sample_id = str(sample.get("sample_id", ""))
    found: list[Observation] = []
    sessions = sample.get("observation") or {}
    numbered = []
    for key, per_speaker in sessions.items():
        head = key[: -len(_OBSERVATION_KEY)] if key.endswith(_OBSERVATION_KEY) else key
        number = head.rsplit("_", 1)[-1]
        numbered.append((int(number) if number.isdigit() else 0, key, per_speaker))
    for number, _, per_speaker in sorted(numbered, key=lambda t: (t[0], t[1])):
        if not isinstance(per_speaker, Mapping):
            continue
        for speaker, items in per_speaker.items():
            for item in items or ():
                if not isinstance(item, Sequence) or isinstance(item, str) or not item:
                    continue
                text = str(item[0] or "").strip()
                if not text:
                    continue
                raw = item[1] if len(item) > 1 else ()
                ids = [raw] if isinstance(raw, str) else list(raw or ())
                found.append(Observation(
                    sample_id=sample_id, session=number, speaker=str(speaker), text=text,
                    dia_ids=extract_dia_ids(ids),
                ))
    return found


def load_observations(path: str | Path) -> dict[str, list[Observation]]:
    """Every sample's gold observations, by ``sample_id``."""
    with open(path, encoding="utf-8") as handle:
        raw = json.load(handle)
    return {str(s["sample_id"]): parse_observations(s) for s in raw}


# -- matching ------------------------------------------------------------------------------


class EpisodeIndex:
    """Which stored episode(s) hold a message: per session, spans sorted by first msg_id."""

    def __init__(self, episodes: Iterable[Any]) -> None:
        by_session: dict[str, list[tuple[int, int, str]]] = {}
        for ep in episodes:
            first, last = int(ep.raw_span[0]), int(ep.raw_span[1])
            by_session.setdefault(ep.session_id, []).append((first, last, ep.event_id))
        self._spans = {sid: sorted(spans) for sid, spans in by_session.items()}
        self._firsts = {sid: [s[0] for s in spans] for sid, spans in self._spans.items()}

    def lookup(self, session_id: str, msg_id: int) -> list[str]:
        """event_ids of the episodes whose inclusive raw span holds ``msg_id`` (usually 0
        or 1; spans should not overlap, but if they do every match is returned)."""
        spans = self._spans.get(session_id)
        if not spans:
            return []
        end = bisect.bisect_right(self._firsts[session_id], msg_id)
        return [eid for first, last, eid in spans[:end] if first <= msg_id <= last]


def episodes_for(dia_ids: Iterable[str], dia_map: Mapping[str, Span],
                 index: EpisodeIndex) -> list[str]:
    """The episodes holding any of the turns ``dia_ids`` (unknown turns are ignored)."""
    found: list[str] = []
    for dia in dia_ids:
        span = dia_map.get(dia)
        if span is None:
            continue
        for event_id in index.lookup(span[0], span[1]):
            if event_id not in found:
                found.append(event_id)
    return found


def cosine(a: Vector, b: Vector) -> float:
    """Cosine similarity (0.0 if either vector is zero)."""
    dot = sum(map(operator.mul, a, b))
    norm = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(x * x for x in b))
    return dot / norm if norm else 0.0


def best_match(vector: Vector, candidates: Sequence[tuple[str, Vector]]
               ) -> tuple[str | None, float | None]:
    """The candidate sentence nearest to ``vector`` and its cosine; (None, None) if none."""
    best: tuple[str | None, float | None] = (None, None)
    for sentence, other in candidates:
        score = cosine(vector, other)
        if best[1] is None or score > best[1]:
            best = (sentence, score)
    return best


def is_covered(score: float | None, threshold: float = DEFAULT_THRESHOLD) -> bool:
    return score is not None and score >= threshold


def embed_in_batches(embedder: Any, texts: Sequence[str],
                     batch: int = EMBED_BATCH) -> list[list[float]]:
    vectors: list[list[float]] = []
    for start in range(0, len(texts), batch):
        vectors.extend(embedder.embed(list(texts[start:start + batch])))
    return vectors


# -- report --------------------------------------------------------------------------------


class ConversationRow(BaseModel):
    sample_id: str
    observations: int = 0
    covered: int = 0
    coverage_pct: float = 0.0
    observations_without_episode: int = 0
    episodes: int = 0
    facts: int = 0
    facts_per_episode: float = 0.0


class MissExample(BaseModel):
    sample_id: str
    dia_ids: tuple[str, ...]
    observation: str
    best_fact: str | None = None
    cosine: float | None = None
    episodes: int = 0  # stored episodes holding the observation's turn(s)
    episode_facts: int = 0  # how many facts those episodes had


class ExtractionTimings(BaseModel):
    messages: int = 0
    add_s: float = 0.0
    flush_s: float = 0.0
    consolidate_s: float = 0.0
    ingest_consolidate_s: float = 0.0
    scoring_s: float = 0.0
    total_s: float = 0.0


class ExtractionReport(BaseModel):
    data_path: str
    run_tag: str
    threshold: float
    samples: list[str]
    observations: int
    covered: int
    coverage_pct: float
    observations_without_episode: int
    episodes: int
    facts: int
    facts_per_episode: float
    facts_embedded_here: int = 0  # facts consolidation had left without an embedding
    conversations: list[ConversationRow] = Field(default_factory=list)
    example_misses: list[MissExample] = Field(default_factory=list)
    timings: ExtractionTimings = Field(default_factory=ExtractionTimings)

    def to_markdown(self) -> str:
        out = [
            f"## LoCoMo extraction ({len(self.samples)} conversations, "
            f"{self.observations} gold observations, cosine >= {self.threshold:g})",
            "",
            "| conversation | observations | covered (%) | no episode | episodes | facts "
            "| facts / episode |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in self.conversations:
            out.append(
                f"| {row.sample_id} | {row.observations} | {row.covered} "
                f"({row.coverage_pct:.1f}) | {row.observations_without_episode} | "
                f"{row.episodes} | {row.facts} | {row.facts_per_episode:.2f} |"
            )
        out += [
            f"| **all** | {self.observations} | {self.covered} ({self.coverage_pct:.1f}) | "
            f"{self.observations_without_episode} | {self.episodes} | {self.facts} | "
            f"{self.facts_per_episode:.2f} |",
            "",
        ]
        t = self.timings
        out.append(
            f"- {t.messages} messages: ingest + consolidate {t.ingest_consolidate_s:.1f} s "
            f"(add {t.add_s:.1f} s, flush {t.flush_s:.1f} s, consolidate "
            f"{t.consolidate_s:.1f} s); scoring {t.scoring_s:.1f} s; total {t.total_s:.1f} s"
        )
        if self.facts_embedded_here:
            out.append(f"- {self.facts_embedded_here} facts had no embedding (embedded here)")
        if self.example_misses:
            out += ["", "**Example misses** (observation → nearest fact of its episode)", ""]
            for miss in self.example_misses:
                nearest = (
                    f"“{miss.best_fact}” ({miss.cosine:.2f})" if miss.best_fact is not None
                    else ("no fact" if miss.episodes else "turn in no episode")
                )
                out.append(
                    f"- {miss.sample_id} {','.join(miss.dia_ids) or '?'}: "
                    f"“{miss.observation}” → {nearest}"
                )
        return "\n".join(out) + "\n"


def _pct(part: int, whole: int) -> float:
    return 100 * part / whole if whole else 0.0


def pick_examples(misses: Sequence[MissExample], k: int = MAX_EXAMPLE_MISSES
                  ) -> list[MissExample]:
    """Up to ``k`` misses spread evenly over the run (deterministic), preferring those whose
    episode had facts (they show what the extractor said instead)."""
    with_facts = [m for m in misses if m.best_fact is not None]
    pool = with_facts if len(with_facts) >= k else list(misses)
    if len(pool) <= k:
        return list(pool)
    step = len(pool) / k
    return [pool[int(i * step)] for i in range(k)]


# -- running -------------------------------------------------------------------------------


class _Scored(BaseModel):
    row: ConversationRow
    misses: list[MissExample]
    embedded_here: int


def _episode_facts(mem: Any, runner: Any, event_ids: Sequence[str]
                   ) -> tuple[dict[str, list[tuple[str, Vector]]], int, int]:
    """Facts of each episode as (sentence, vector); facts without an embedding get one
    here. Returns the map, how many distinct facts, how many were embedded here."""
    rows = runner.read("bench/get_episode_facts", event_ids=list(event_ids)) \
        if event_ids else []
    vectors: dict[str, Vector] = {}
    sentences: dict[str, str] = {}
    for r in rows:
        sentences[r["fact_id"]] = str(r["sentence"] or "")
        if r["embedding"] is not None:
            vectors[r["fact_id"]] = r["embedding"]
    missing = [fid for fid in sentences if fid not in vectors]
    for fid, vec in zip(missing, embed_in_batches(mem.embedder, [sentences[f] for f in missing]),
                        strict=True):
        vectors[fid] = vec
    by_episode: dict[str, list[tuple[str, Vector]]] = {}
    for r in rows:
        by_episode.setdefault(r["event_id"], []).append(
            (sentences[r["fact_id"]], vectors[r["fact_id"]])
        )
    return by_episode, len(sentences), len(missing)


def score_conversation(
    mem: Any, runner: Any, sample_id: str, user_id: str, dia_map: Mapping[str, Span],
    observations: Sequence[Observation], threshold: float = DEFAULT_THRESHOLD,
) -> _Scored:
    """Coverage of one ingested conversation's observations by its stored facts."""
    episodes = mem.episodes(user_id)
    index = EpisodeIndex(episodes)
    by_episode, n_facts, embedded_here = _episode_facts(mem, runner,
                                                        [e.event_id for e in episodes])
    vectors = embed_in_batches(mem.embedder, [o.text for o in observations])
    row = ConversationRow(sample_id=sample_id, observations=len(observations),
                          episodes=len(episodes), facts=n_facts)
    misses: list[MissExample] = []
    for obs, vector in zip(observations, vectors, strict=True):
        event_ids = episodes_for(obs.dia_ids, dia_map, index)
        if not event_ids:
            row.observations_without_episode += 1
            misses.append(MissExample(sample_id=sample_id, dia_ids=obs.dia_ids,
                                      observation=obs.text))
            continue
        candidates = [c for eid in event_ids for c in by_episode.get(eid, ())]
        sentence, score = best_match(vector, candidates)
        if is_covered(score, threshold):
            row.covered += 1
        else:
            misses.append(MissExample(
                sample_id=sample_id, dia_ids=obs.dia_ids, observation=obs.text,
                best_fact=sentence, cosine=score, episodes=len(event_ids),
                episode_facts=len(candidates),
            ))
    row.coverage_pct = _pct(row.covered, row.observations)
    row.facts_per_episode = n_facts / row.episodes if row.episodes else 0.0
    return _Scored(row=row, misses=misses, embedded_here=embedded_here)


def run_conversations(
    mem: Any,
    conversations: Sequence[Conversation],
    observations: Mapping[str, Sequence[Observation]],
    *,
    threshold: float = DEFAULT_THRESHOLD,
    on_progress: Progress | None = None,
    run_tag: str | None = None,
    data_path: str = "",
) -> ExtractionReport:
    """``run_extraction_bench`` on already loaded conversations and observations."""
    started = time.perf_counter()
    run_tag = run_tag or uuid.uuid4().hex[:8]
    ingest = IngestTimings()
    scoring_s = 0.0
    scored: list[_Scored] = []
    runner, _ = bench_store(mem)
    try:
        for done, conv in enumerate(conversations, start=1):
            ing = ingest_conversation(mem, conv, run_tag, ingest, graphmem=True)
            began = time.perf_counter()
            scored.append(score_conversation(
                mem, runner, conv.sample_id, ing.user_id, ing.dia_map,
                observations.get(conv.sample_id, ()), threshold,
            ))
            scoring_s += time.perf_counter() - began
            if on_progress is not None:
                on_progress(done, len(conversations))
    finally:
        runner.close()

    rows = [s.row for s in scored]
    n_obs = sum(r.observations for r in rows)
    covered = sum(r.covered for r in rows)
    episodes = sum(r.episodes for r in rows)
    facts = sum(r.facts for r in rows)
    ingest_s = ingest.graphmem_add_s + ingest.graphmem_flush_s + ingest.graphmem_consolidate_s
    return ExtractionReport(
        data_path=data_path,
        run_tag=run_tag,
        threshold=threshold,
        samples=[c.sample_id for c in conversations],
        observations=n_obs,
        covered=covered,
        coverage_pct=_pct(covered, n_obs),
        observations_without_episode=sum(r.observations_without_episode for r in rows),
        episodes=episodes,
        facts=facts,
        facts_per_episode=facts / episodes if episodes else 0.0,
        facts_embedded_here=sum(s.embedded_here for s in scored),
        conversations=rows,
        example_misses=pick_examples([m for s in scored for m in s.misses]),
        timings=ExtractionTimings(
            messages=ingest.messages,
            add_s=ingest.graphmem_add_s,
            flush_s=ingest.graphmem_flush_s,
            consolidate_s=ingest.graphmem_consolidate_s,
            ingest_consolidate_s=ingest_s,
            scoring_s=scoring_s,
            total_s=time.perf_counter() - started,
        ),
    )


def run_extraction_bench(
    mem: Any,
    data_path: str | Path,
    samples: int | None = None,
    threshold: float = DEFAULT_THRESHOLD,
    on_progress: Progress | None = None,
    run_tag: str | None = None,
) -> ExtractionReport:
    """Ingest the first ``samples`` LoCoMo conversations (all if None) into ``mem`` and
    measure how many gold observations an extracted fact of the observation's episode
    matches (sentence-embedding cosine >= ``threshold``), and facts per episode.

    ``run_tag`` makes the user ids (``locomo-<sample>-<run_tag>``); a fresh one by default.
    ``on_progress(done, total)`` is called after each conversation.
    """
    conversations = load_locomo(data_path)
    if samples is not None:
        conversations = conversations[:samples]
    return run_conversations(
        mem, conversations, load_observations(data_path), threshold=threshold,
        on_progress=on_progress, run_tag=run_tag, data_path=str(data_path),
    )
