"""LoCoMo data: conversations, sessions, turns and questions, typed.

LoCoMo (snap-research, ``locomo10.json``) holds 10 long conversations between two people,
each in dated sessions, with questions whose *evidence* turns are known (``dia_id`` such
as ``D1:3``: session 1, turn 3). Categories: 1 multi-hop, 2 temporal, 3 open-domain,
4 single-hop, 5 adversarial (no answer; not scored here).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

CATEGORIES = (1, 2, 3, 4)
CATEGORY_NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
_DATE_FORMAT = "%I:%M %p on %d %B, %Y"
_DIA_ID = re.compile(r"D(\d+):(\d+)")
_SESSION_KEY = re.compile(r"session_(\d+)")


class Turn(BaseModel):
    model_config = ConfigDict(frozen=True)

    dia_id: str
    speaker: str
    text: str


class Session(BaseModel):
    model_config = ConfigDict(frozen=True)

    number: int
    date_time: datetime
    turns: tuple[Turn, ...]


class QA(BaseModel):
    model_config = ConfigDict(frozen=True)

    question: str
    answer: str
    evidence: tuple[str, ...]
    category: int


class Conversation(BaseModel):
    model_config = ConfigDict(frozen=True)

    sample_id: str
    speaker_a: str
    speaker_b: str
    sessions: tuple[Session, ...]
    qa: tuple[QA, ...]
    number: int = 0  # 1-based position in the data file (the halves: 1–5 tune, 6–10 test)

    @property
    def turns(self) -> int:
        return sum(len(s.turns) for s in self.sessions)

    def turn_text(self) -> dict[str, str]:
        """dia_id → the turn's text, for every turn."""
        return {t.dia_id: t.text for s in self.sessions for t in s.turns}


def parse_session_datetime(text: str) -> datetime:
    """``"1:56 pm on 8 May, 2023"`` as an aware UTC datetime."""
    cleaned = " ".join(text.split())
    return datetime.strptime(cleaned, _DATE_FORMAT).replace(tzinfo=UTC)


def extract_dia_ids(evidence: Iterable[str]) -> tuple[str, ...]:
    """Canonical dialogue ids (``D<session>:<turn>``, no leading zeros) in evidence strings.

    Spaces are removed first, then ``D\\d+:\\d+`` is matched, so ``"D8:6; D9:17"`` and
    ``"D9:1 D4:4"`` give two ids each and ``"D:11:26"`` gives none. Order kept, no repeats.
    """
    found: list[str] = []
    for item in evidence:
        for session, turn in _DIA_ID.findall(str(item).replace(" ", "")):
            dia = canonical_dia_id(session, turn)
            if dia not in found:
                found.append(dia)
    return tuple(found)


def canonical_dia_id(session: str | int, turn: str | int) -> str:
    return f"D{int(session)}:{int(turn)}"


def _turn_text(raw: dict[str, Any]) -> str:
    text = str(raw.get("text") or "")
    caption = raw.get("blip_caption")
    if caption:
        text = f"{text} [shares a photo: {caption}]"
    return text


def parse_conversation(sample: dict[str, Any], number: int = 0) -> Conversation:
    conv = sample["conversation"]
    sessions: list[Session] = []
    for key, value in conv.items():
        match = _SESSION_KEY.fullmatch(key)
        if not match or not isinstance(value, list) or not value:
            continue
        session_number = int(match.group(1))
        turns = []
        for raw in value:
            ids = extract_dia_ids([raw.get("dia_id", "")])
            turns.append(Turn(
                dia_id=ids[0] if ids else str(raw.get("dia_id", "")),
                speaker=str(raw["speaker"]),
                text=_turn_text(raw),
            ))
        sessions.append(Session(
            number=session_number,
            date_time=parse_session_datetime(conv[f"session_{session_number}_date_time"]),
            turns=tuple(turns),
        ))
    sessions.sort(key=lambda s: s.number)
    qas = [
        QA(
            question=str(q["question"]),
            answer=str(q.get("answer", q.get("adversarial_answer", ""))),
            evidence=extract_dia_ids(q.get("evidence") or ()),
            category=int(q["category"]),
        )
        for q in sample.get("qa", ())
    ]
    return Conversation(
        sample_id=str(sample["sample_id"]),
        speaker_a=str(conv["speaker_a"]),
        speaker_b=str(conv["speaker_b"]),
        sessions=tuple(sessions),
        qa=tuple(qas),
        number=number,
    )


def load_locomo(path: str | Path) -> list[Conversation]:
    """All samples of a ``locomo10.json``-shaped file, typed and numbered from 1."""
    with open(path, encoding="utf-8") as handle:
        raw = json.load(handle)
    return [parse_conversation(sample, number) for number, sample in enumerate(raw, start=1)]


def parse_selection(text: str | None, available: int) -> list[int]:
    """Conversation numbers from ``"1-5"``, ``"6-10"``, ``"1,3,7"`` (None: all of them)."""
    if text is None or not text.strip():
        return list(range(1, available + 1))
    chosen: list[int] = []
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        try:
            low, high = int(first), int(last or first)
        except ValueError:
            raise ValueError(f"conversations must look like 1-5 or 1,3,7 (got {text!r})") from None
        if not 1 <= low <= high <= available:
            raise ValueError(f"conversations {part.strip()!r} are outside 1-{available}")
        chosen.extend(n for n in range(low, high + 1) if n not in chosen)
    return chosen


def select_questions(conv: Conversation, max_questions: int | None) -> list[tuple[int, QA]]:
    """The scored questions (categories 1–4) of a conversation, with their index."""
    chosen = [(i, q) for i, q in enumerate(conv.qa) if q.category in CATEGORIES]
    return chosen if max_questions is None else chosen[:max_questions]
