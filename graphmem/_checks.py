"""Checks at the door: every argument of the public API is checked here and turned into
an ``InvalidInputError`` that says what is wrong (never a raw pydantic, type or value
error)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from graphmem._config import RetrievalConfig
from graphmem._errors import InvalidInputError
from graphmem._models import MessageIn, check_id, check_text, check_time


def message_in(raw: Any) -> MessageIn:
    if not isinstance(raw, dict):
        raise InvalidInputError(f"a message is a dict or MessageIn, got {type(raw).__name__}")
    try:
        return MessageIn(**raw)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or 'message'}: "
                             f"{e['msg'].removeprefix('Value error, ')}" for e in exc.errors())
        raise InvalidInputError(f"invalid message: {problems}") from None
    except TypeError as exc:
        raise InvalidInputError(f"invalid message: {exc}") from None


def valid_id(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{name} must be a string, got {type(value).__name__}")
    try:
        return check_id(value, name)
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from None


def valid_text(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise InvalidInputError(f"{name} must be a string, got {type(value).__name__}")
    try:
        return check_text(value, name)
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from None


def valid_time(value: Any, name: str) -> datetime:
    if not isinstance(value, datetime):
        raise InvalidInputError(f"{name} must be a datetime, got {type(value).__name__}")
    try:
        return check_time(value, name)
    except ValueError as exc:
        raise InvalidInputError(str(exc)) from None


def check_window(since: Any, until: Any) -> tuple[datetime | None, datetime | None]:
    """``since`` and ``until`` checked (``check_time``), or an InvalidInputError."""
    since = None if since is None else valid_time(since, "since")
    until = None if until is None else valid_time(until, "until")
    if since is not None and until is not None and since >= until:
        raise InvalidInputError("since must be earlier than until")
    return since, until


def retrieval_settings(given: Any, default: RetrievalConfig) -> RetrievalConfig:
    """The settings of one question: ``given`` (a ``RetrievalConfig``) or the connection's."""
    if given is None:
        return default
    if not isinstance(given, RetrievalConfig):
        raise InvalidInputError(
            f"retrieval must be a RetrievalConfig, got {type(given).__name__}")
    return given


def valid_vector(value: Any, dimension: int) -> list[float]:
    """A query vector: ``dimension`` finite numbers."""
    if isinstance(value, str | bytes) or not isinstance(value, Sequence | list):
        try:
            value = list(value)
        except TypeError:
            raise InvalidInputError("query must be a string or a vector of floats") from None
    try:
        vector = [float(x) for x in value]
    except (TypeError, ValueError):
        raise InvalidInputError("a query vector holds numbers only") from None
    if len(vector) != dimension or not all(math.isfinite(x) for x in vector):
        raise InvalidInputError(f"a query vector has {dimension} finite numbers "
                                f"(the embedder's dimension), got {len(vector)}")
    return vector


def valid_note(value: Any, name: str, limit: int = 2000) -> str:
    """A short free text (a reason, a value, who made a change): stripped, not empty."""
    text = valid_text(value, name).strip()
    if not text:
        raise InvalidInputError(f"{name} is empty")
    if len(text) > limit:
        raise InvalidInputError(f"{name} has {len(text)} characters; the limit is {limit}")
    return text


def valid_count(value: Any, name: str, minimum: int) -> int:
    """An integer (not a bool) of at least ``minimum``."""
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise InvalidInputError(f"{name} must be an integer >= {minimum}")
    return value


def valid_span(raw_span: Any) -> tuple[int, int | None]:
    """``(first, last)`` msg_ids of a raw span; None: the whole session (``(1, None)``)."""
    if raw_span is None:
        return 1, None
    try:
        first, last = (int(x) for x in raw_span)
    except (TypeError, ValueError):
        raise InvalidInputError(
            f"raw_span must be (first, last) msg_ids, got {raw_span!r}") from None
    if first > last:
        raise InvalidInputError(f"raw_span must be (first, last), got {raw_span!r}")
    return first, last
