"""The ``graphmem`` command line: each command builds the client, calls one public method
and renders the result (``app``). Commands live by what they are for: ``memory`` (one
user's memory), ``correct`` (correcting and forgetting it) and ``ops`` (running graphmem);
``base`` holds what they share."""

from graphmem.cli import correct, memory, ops  # noqa: F401  (they register their commands)
from graphmem.cli.base import app, main

__all__ = ["app", "main"]
