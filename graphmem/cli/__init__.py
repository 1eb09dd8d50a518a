"""The ``graphmem`` command line: each command builds the client, calls one public method
and renders the result (``app``)."""

from graphmem.cli.app import app, main

__all__ = ["app", "main"]
