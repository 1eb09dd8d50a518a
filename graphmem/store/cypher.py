"""Named Cypher statements, loaded once from the ``cypher/`` folder.

In a wheel the folder ships as ``graphmem/cypher``; in a source checkout it is the
repository's top-level ``cypher/``. A name is the path without ``.cypher``, e.g.
``"store/merge_episodes"``.

The only text a statement takes from outside besides its ``$parameters`` is a predicate
used as a relationship type (``$(rel_type)``), and only as ``relationship_type`` makes it:
a safe snake_case name, upper-cased.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from graphmem._errors import ConfigError

_PACKAGE_DIR = Path(__file__).resolve().parent.parent


def cypher_dir() -> Path:
    for candidate in (_PACKAGE_DIR / "cypher", _PACKAGE_DIR.parent / "cypher"):
        if (candidate / "schema.cypher").is_file():
            return candidate
    raise ConfigError("graphmem's cypher/ folder is missing from this installation")


@cache
def load(name: str) -> str:
    """The text of the named statement (comments kept: Neo4j ignores them)."""
    path = cypher_dir() / f"{name}.cypher"
    if not path.is_file():
        raise ConfigError(f"no Cypher file named {name!r} in {cypher_dir()}")
    return path.read_text(encoding="utf-8")


def statements(name: str) -> list[str]:
    """A multi-statement file (the schema) split on ``;`` at line ends."""
    body = "\n".join(
        line for line in load(name).splitlines() if not line.lstrip().startswith("//")
    )
    return [s.strip() for s in re.split(r";\s*(?:\n|$)", body) if s.strip()]


def all_names() -> list[str]:
    root = cypher_dir()
    return sorted(str(p.relative_to(root).with_suffix("")) for p in root.rglob("*.cypher"))


# -- the one dynamic part of a statement: a predicate as relationship type ----------------

_SAFE = re.compile(r"[^a-z0-9_]+")
# graphmem's own relationship types: a predicate never becomes one (an extractor that names
# "supersedes" or "maybe_same_as" would forge a version chain or a review pair).
RESERVED_TYPES = frozenset({"ABOUT", "DERIVED_FROM", "HAS_EPISODE", "HAS_MESSAGE",
                            "HAS_SESSION", "HAS_VALUE", "MAYBE_SAME_AS", "NEXT",
                            "SUPERSEDES"})


def safe_predicate(word: str) -> str:
    """A name that is safe as a Neo4j relationship type: ``[a-z][a-z0-9_]{0,40}``, and
    none of graphmem's own (``RESERVED_TYPES``: ``about`` becomes ``rel_about``)."""
    name = _SAFE.sub("_", word.lower()).strip("_")[:40].rstrip("_")
    if not name or not name[0].isalpha() or name.upper() in RESERVED_TYPES:
        name = "rel_" + name[:36] if name else "related_to"
    return name.rstrip("_")  # idempotent: a safe name is its own safe name


def relationship_type(predicate: str) -> str:
    """The typed edge for a predicate (``likes`` → ``LIKES``), validated, never raw text
    and never one of graphmem's own types."""
    name = safe_predicate(predicate)
    if name != predicate:
        raise ValueError(f"predicate {predicate!r} is not canonical")
    return name.upper()
