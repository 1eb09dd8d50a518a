"""The analysts' Cypher library: the named queries in ``cypher/queries/``.

Each file starts with a comment header: what it answers, then a ``Parameters:`` line
naming each ``$parameter`` with its type in parentheses — ``$since (DATETIME)`` — and
``optional`` when null is allowed. ``graphmem cypher NAME --param k=v`` reads the header to
type the values given as text (ISO dates and datetimes become datetimes, UTC when no zone
is given), to refuse a missing or unknown parameter, and to list the library. Pure
functions apart from ``run_query``; the CLI draws the table.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import TYPE_CHECKING, Any

from graphmem._errors import InvalidInputError
from graphmem.store import cypher

if TYPE_CHECKING:
    from graphmem.store.runner import QueryRunner

FOLDER = "queries"
TYPES = ("STRING", "INTEGER", "FLOAT", "BOOLEAN", "DATETIME", "LIST", "MAP")
_PARAMETER = re.compile(r"\$(\w+)(?:\s*\(([^)]*)\))?")
_INTEGER = re.compile(r"[+-]?\d+")
_FLOAT = re.compile(r"[+-]?(?:\d+\.\d*|\.\d+)(?:[eE][+-]?\d+)?")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass(frozen=True)
class QueryParameter:
    name: str
    type: str | None  # one of TYPES, or None: inferred from the text
    optional: bool = False


@dataclass(frozen=True)
class NamedQuery:
    name: str  # the file name without .cypher, e.g. "user_timeline"
    description: str  # the header up to "Parameters:", one paragraph
    parameters: tuple[QueryParameter, ...]

    @property
    def summary(self) -> str:
        """The header's first sentence."""
        return re.split(r"(?<=\.)\s", self.description, maxsplit=1)[0]

    @property
    def text(self) -> str:
        return cypher.load(f"{FOLDER}/{self.name}")


def list_queries() -> list[NamedQuery]:
    prefix = f"{FOLDER}/"
    return [get_query(n[len(prefix):]) for n in cypher.all_names() if n.startswith(prefix)]


def get_query(name: str) -> NamedQuery:
    path = cypher.cypher_dir() / FOLDER / f"{name}.cypher"
    if "/" in name or "\\" in name or not path.is_file():
        known = ", ".join(q.name for q in list_queries()) if "/" not in name else ""
        raise InvalidInputError(f"no query named {name!r} in cypher/{FOLDER}/ (known: {known})")
    return _parse(name, cypher.load(f"{FOLDER}/{name}"))


def _parse(name: str, text: str) -> NamedQuery:
    header: list[str] = []
    body: list[str] = []
    for line in text.splitlines():
        if not body and line.startswith("//"):
            header.append(line[2:].strip())
        elif not line.lstrip().startswith("//"):
            body.append(line)
    joined = " ".join(header)
    description, _, parameter_text = joined.partition("Parameters:")
    declared: dict[str, QueryParameter] = {}
    for match in _PARAMETER.finditer(parameter_text):
        note = (match.group(2) or "").strip()
        word = re.match(r"[A-Za-z]+", note)
        first = word.group(0).upper() if word else ""
        declared[match.group(1)] = QueryParameter(
            match.group(1), first if first in TYPES else None, "optional" in note.lower())
    for used in dict.fromkeys(m.group(1) for m in _PARAMETER.finditer("\n".join(body))):
        declared.setdefault(used, QueryParameter(used, None))
    return NamedQuery(name, description.strip(), tuple(declared.values()))


def bind_parameters(query: NamedQuery, given: Mapping[str, str]) -> dict[str, Any]:
    """The query's parameters typed from text; missing optional ones are null."""
    known = {p.name: p for p in query.parameters}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise InvalidInputError(f"{query.name} takes no parameter {', '.join(unknown)} "
                                f"(it takes: {_names(query)})")
    missing = [p.name for p in query.parameters if p.name not in given and not p.optional]
    if missing:
        flags = " ".join(f"--param {m}=…" for m in missing)
        raise InvalidInputError(f"{query.name} needs {flags} (it takes: {_names(query)})")
    return {p.name: parse_value(given[p.name], p.type) if p.name in given else None
            for p in query.parameters}


def parse_parameter_args(args: list[str]) -> dict[str, str]:
    """``["user_id=u1", "at=2025-01-21"]`` → ``{"user_id": "u1", "at": "2025-01-21"}``."""
    pairs: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep or not key.strip():
            raise InvalidInputError(f"--param takes key=value, got {arg!r}")
        pairs[key.strip().lstrip("$")] = value
    return pairs


def parse_value(text: str, type_name: str | None = None) -> Any:
    """Text as the Cypher type the header declares, or as it looks: an integer, a float,
    true/false, null, an ISO date or datetime (date → midnight UTC; no zone → UTC), a JSON
    list or map; anything else stays a string."""
    try:
        if type_name == "STRING":
            return text
        if type_name == "DATETIME":
            return _datetime(text)
        if type_name == "INTEGER":
            return int(text)
        if type_name == "FLOAT":
            return float(text)
        if type_name == "BOOLEAN":
            return {"true": True, "false": False}[text.strip().lower()]
        if type_name in ("LIST", "MAP"):
            return json.loads(text)
    except (ValueError, KeyError) as exc:
        raise InvalidInputError(f"{text!r} is not a {type_name}") from exc
    stripped = text.strip()
    if _INTEGER.fullmatch(stripped):
        return int(stripped)
    if _FLOAT.fullmatch(stripped):
        return float(stripped)
    if stripped.lower() in ("true", "false"):
        return stripped.lower() == "true"
    if stripped.lower() == "null":
        return None
    if _DATE.match(stripped):
        try:
            return _datetime(stripped)
        except ValueError:
            return text
    if stripped[:1] in "[{":
        try:
            return json.loads(stripped)
        except json.JSONDecodeError:
            return text
    return text


def _datetime(text: str) -> datetime:
    value = text.strip()
    if _DATE.fullmatch(value):
        parsed = datetime.combine(date.fromisoformat(value), datetime.min.time())
    else:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)


def run_query(runner: QueryRunner, query: NamedQuery, params: Mapping[str, Any]) -> list[dict]:
    """The rows, each a plain dict (nodes as property maps, temporal values as datetimes)."""
    return [{key: _plain(value) for key, value in row.items()}
            for row in runner.read(f"{FOLDER}/{query.name}", **params)]


def _plain(value: Any) -> Any:
    """neo4j.time values as datetimes; nodes keep their properties but not their vectors."""
    if hasattr(value, "to_native"):
        return value.to_native()
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if k != "embedding"}
    return value


def _names(query: NamedQuery) -> str:
    return ", ".join(f"{p.name}{' (optional)' if p.optional else ''}"
                     for p in query.parameters) or "none"
