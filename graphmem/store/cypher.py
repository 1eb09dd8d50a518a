"""Named Cypher statements, loaded once from the ``cypher/`` folder.

In a wheel the folder ships as ``graphmem/cypher``; in a source checkout it is the
repository's top-level ``cypher/``. A name is the path without ``.cypher``, e.g.
``"store/merge_episodes"``.
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
