"""Checks at the door: every argument of the public API is checked here and turned into
an ``InvalidInputError`` that says what is wrong (never a raw pydantic, type or value
error)."""

from __future__ import annotations

import functools
import math
import os
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from graphmem._config import RetrievalConfig
from graphmem._errors import ConfigError, InvalidInputError
from graphmem._models import (
    MAX_NAME_CHARS,
    MAX_QUESTION_CHARS,
    MAX_TOP_K,
    MessageIn,
    check_id,
    check_text,
    check_time,
)

Method = TypeVar("Method", bound=Callable[..., Any])


def in_its_process(method: Method) -> Method:
    """A ``Memory`` method that runs only in the process that opened the Memory, and only
    while it is open. After ``os.fork()`` the child holds copies of the parent's buffer
    lock, driver sockets and none of its threads: its writes passed the lock, numbered
    messages the parent numbers too, and never reached Neo4j."""

    @functools.wraps(method)
    def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        if self._pid != os.getpid():
            raise ConfigError(
                f"this Memory was opened in process {self._pid}, and process {os.getpid()} "
                "is a fork of it; a forked process opens its own: Memory.connect() in the "
                "child, with its own buffer_dir")
        if self._closed:
            raise InvalidInputError("this Memory is closed; open another with "
                                    "Memory.connect()")
        return method(self, *args, **kwargs)

    return checked  # type: ignore[return-value]


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


def valid_question(value: Any, name: str) -> str:
    """A question: text, not blank, at most ``MAX_QUESTION_CHARS`` characters."""
    valid_text(value, name)
    if not value.strip():
        raise InvalidInputError(f"{name} is empty")
    if len(value) > MAX_QUESTION_CHARS:
        raise InvalidInputError(
            f"{name} has {len(value):,} characters; a question is at most "
            f"{MAX_QUESTION_CHARS:,} (ask with the part that matters, e.g. the last turn)")
    return value


def valid_name(value: Any, name: str) -> str:
    """An entity or predicate name asked for: text of at most ``MAX_NAME_CHARS``."""
    valid_text(value, name)
    if len(value) > MAX_NAME_CHARS:
        raise InvalidInputError(f"{name} has {len(value):,} characters; the limit is "
                                f"{MAX_NAME_CHARS:,}")
    return value


def valid_count(value: Any, name: str, least: int, most: int | None = MAX_TOP_K) -> int:
    """An integer in ``[least, most]`` (not a bool; ``most`` None: no upper bound)."""
    if (not isinstance(value, int) or isinstance(value, bool) or value < least
            or (most is not None and value > most)):
        raise InvalidInputError(f"{name} must be an integer from {least} to {most:,}"
                                if most is not None else f"{name} must be an integer >= {least}")
    return value


def valid_path(value: Any, name: str) -> Path:
    """A file path: a ``str`` or an ``os.PathLike`` of text, never a file descriptor (an
    int would write into, and close, someone else's file) nor anything else."""
    if not isinstance(value, str | os.PathLike):
        raise InvalidInputError(
            f"{name} must be a path (str or os.PathLike), got {type(value).__name__}")
    path = os.fspath(value)
    if not isinstance(path, str):
        raise InvalidInputError(f"{name} must be a path of text, got {type(path).__name__}")
    if not path.strip():
        raise InvalidInputError(f"{name} is empty")
    if "\0" in path:
        raise InvalidInputError(f"{name} contains a NUL character")
    try:
        os.fsencode(path)
    except UnicodeEncodeError as exc:
        raise InvalidInputError(f"{name} is not a valid file name here ({exc.reason} at "
                                f"position {exc.start})") from None
    return Path(path)


def shown(value: Any, limit: int = 80) -> str:
    """``repr(value)``, cut to ``limit`` characters: what an error message may echo of an
    argument (an argument can be megabytes)."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


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


def valid_span(raw_span: Any) -> tuple[int, int | None]:
    """``(first, last)`` msg_ids of a raw span; None: the whole session (``(1, None)``)."""
    if raw_span is None:
        return 1, None
    try:
        first, last = (int(x) for x in raw_span)
    except (TypeError, ValueError, OverflowError):
        raise InvalidInputError(
            f"raw_span must be (first, last) msg_ids, got {shown(raw_span)}") from None
    if first > last:
        raise InvalidInputError(f"raw_span must be (first, last), got {shown(raw_span)}")
    return first, last
