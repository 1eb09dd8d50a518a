"""Long user↔assistant histories with questions: LongMemEval (each question with its own
history, ``longmemeval_s_*.jsonl.gz``) and graphmem's own chat sets (a few users, each with
many sessions and many questions, ``benchmarks/data/chat/*.json``), read into one shape."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# LongMemEval's six question types, in the order the tables show them.
TYPES = ("single-session-user", "single-session-assistant", "single-session-preference",
         "multi-session", "knowledge-update", "temporal-reasoning")
_CJK = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True)
class Turn:
    role: str
    content: str
    has_answer: bool = False


@dataclass(frozen=True)
class Session:
    session_id: str
    date: datetime
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Question:
    question_id: str
    type: str
    text: str
    date: datetime
    answer: str
    keys: tuple[str, ...] = ()  # strings the context must hold (chat sets); () → answer words
    evidence: tuple[tuple[str, int], ...] = ()  # (session_id, turn index)


@dataclass(frozen=True)
class History:
    """One memory (a graphmem user): its sessions in time order and the questions on it."""

    history_id: str
    sessions: tuple[Session, ...]
    questions: tuple[Question, ...]
    language: str = "en"
    key_facts: tuple[dict[str, Any], ...] = field(default=(), repr=False)

    def turn(self, session_id: str, index: int) -> Turn | None:
        for session in self.sessions:
            if session.session_id == session_id:
                return session.turns[index] if 0 <= index < len(session.turns) else None
        return None


def is_chinese(text: str) -> bool:
    return bool(_CJK.search(text))


def parse_lme_date(text: str) -> datetime:
    """``2023/05/30 (Tue) 23:40`` → an aware datetime (UTC)."""
    day, _, clock = text.partition(")")
    return datetime.strptime(f"{day.split('(')[0].strip()} {clock.strip()}",
                             "%Y/%m/%d %H:%M").replace(tzinfo=UTC)


def load_longmemeval(path: str | Path, per_type: int | None = None,
                     types: Sequence[str] | None = None) -> list[History]:
    """LongMemEval questions, each its own history; ``per_type`` keeps the first N of each
    type (in file order), ``types`` only those types."""
    opener = gzip.open if str(path).endswith(".gz") else open
    wanted = set(types or TYPES)
    taken: dict[str, int] = {}
    out = []
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            raw = json.loads(line)
            kind = raw["question_type"]
            if kind not in wanted or (per_type is not None and taken.get(kind, 0) >= per_type):
                continue
            taken[kind] = taken.get(kind, 0) + 1
            out.append(_lme_history(raw))
    return out


def _lme_history(raw: dict[str, Any]) -> History:
    sessions, evidence = [], []
    order = sorted(range(len(raw["haystack_sessions"])),
                   key=lambda i: parse_lme_date(raw["haystack_dates"][i]))
    for i in order:
        session_id = str(raw["haystack_session_ids"][i])
        turns = tuple(Turn(t["role"], t["content"], bool(t.get("has_answer")))
                      for t in raw["haystack_sessions"][i])
        sessions.append(Session(session_id, parse_lme_date(raw["haystack_dates"][i]), turns))
        evidence += [(session_id, j) for j, t in enumerate(turns) if t.has_answer]
    question = Question(
        question_id=str(raw["question_id"]), type=raw["question_type"], text=raw["question"],
        date=parse_lme_date(raw["question_date"]), answer=str(raw["answer"]),
        evidence=tuple(evidence))
    return History(str(raw["question_id"]), tuple(sessions), (question,))


def load_chat_set(path: str | Path) -> list[History]:
    """A chat set (``benchmarks/data/chat/*.json``): one history per user, its questions
    with ``answer_keys`` and evidence turns, its key facts."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    language = data.get("language", "en")
    out = []
    for user in data["users"]:
        sessions = tuple(
            Session(s["session_id"], datetime.fromisoformat(s["date"]),
                    tuple(Turn(t["role"], t["content"], bool(t.get("has_answer")))
                          for t in s["turns"]))
            for s in sorted(user["sessions"], key=lambda s: s["date"]))
        questions = tuple(
            Question(question_id=q["question_id"], type=q["question_type"], text=q["question"],
                     date=datetime.fromisoformat(q["question_date"]), answer=str(q["answer"]),
                     keys=tuple(q.get("answer_keys") or ()),
                     evidence=tuple((e["session_id"], int(e["turn"]))
                                    for e in q.get("evidence") or ()))
            for q in user["questions"])
        out.append(History(user["user_id"], sessions, questions, language,
                           tuple(user.get("key_facts") or ())))
    return out


def all_questions(histories: Iterable[History]) -> list[tuple[History, Question]]:
    return [(h, q) for h in histories for q in h.questions]
