"""The layout is the pipeline: each folder imports only the layers below it, nothing imports
in a circle, the library never imports the benchmarks, and every module is small enough to
read in one sitting. Read from the source with ``ast`` (type-checking imports aside)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "graphmem"
MAX_LINES = 520  # "~500": a module is read in one sitting

# Each layer and what it may import (besides itself). Interfaces (the top-level modules and
# cli/) may import anything of graphmem.
FOUNDATION = {"graphmem._errors", "graphmem._models", "graphmem._config"}
LAYERS: dict[str, set[str]] = {
    "text": FOUNDATION,
    "embed": FOUNDATION,
    "store": FOUNDATION | {"text"},
    "extract": FOUNDATION | {"text", "facts.predicates"},
    "facts": FOUNDATION | {"text", "embed", "store", "extract"},
    "ingest": FOUNDATION | {"text", "embed", "store", "extract", "facts"},
    "retrieve": FOUNDATION | {"text", "embed", "store", "facts.predicates", "facts.rank"},
}


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def runtime_imports(path: Path) -> set[str]:
    """graphmem modules ``path`` imports outside ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for child in node.body for n in ast.walk(child)}
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.startswith("graphmem"):
                found.add(node.module)
                found |= {f"{node.module}.{a.name}" for a in node.names
                          if (PACKAGE.parent / f"{node.module}.{a.name}".replace(".", "/")
                              ).with_suffix(".py").exists()
                          or (PACKAGE.parent / f"{node.module}.{a.name}".replace(".", "/")
                              ).is_dir()}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("graphmem")}
    return found


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _allowed(module: str, imported: str) -> bool:
    layer = module.split(".")[1]
    if layer not in LAYERS:
        return True  # an interface: anything of graphmem
    rest = imported.removeprefix("graphmem.")
    if imported in LAYERS[layer] or rest.split(".")[0] == layer:
        return True
    return any(rest == allowed or rest.startswith(allowed + ".") for allowed in LAYERS[layer])


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.count(".") >= 1
                                          and m.split(".")[1] in LAYERS))
def test_a_stage_imports_only_the_layers_below_it(module):
    wrong = sorted(i for i in runtime_imports(MODULES[module]) if not _allowed(module, i))
    assert not wrong, f"{module} imports {wrong}"


def test_no_module_imports_in_a_circle():
    graph = {m: {i for i in runtime_imports(p) if i in MODULES and i != m}
             for m, p in MODULES.items()}
    seen: dict[str, int] = {}  # 1: on the stack, 2: done
    cycles: list[list[str]] = []

    def visit(node: str, stack: list[str]) -> None:
        seen[node] = 1
        for nxt in sorted(graph[node]):
            if seen.get(nxt) == 1:
                cycles.append([*stack[stack.index(nxt):], nxt])
            elif nxt not in seen:
                visit(nxt, [*stack, nxt])
        seen[node] = 2

    for module in sorted(graph):
        if module not in seen:
            visit(module, [module])
    # a package's __init__ re-exporting its modules is no loop of logic
    real = [c for c in cycles if not any(MODULES[m].name == "__init__.py" for m in c)]
    assert not real, real


def test_the_library_never_imports_the_benchmarks():
    offenders = sorted(m for m, p in MODULES.items()
                       if any(i.startswith("graphmem_bench") for i in _all_imports(p)))
    assert not offenders


def _all_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names |= {a.name for a in node.names}
    return names


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_module_reads_in_one_sitting(module):
    lines = MODULES[module].read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"{module} has {lines} lines"


BENCHMARKS = PACKAGE.parent / "benchmarks" / "graphmem_bench"
PUBLIC_FOR_BENCHMARKS = {"graphmem", "graphmem.cli.progress"}


@pytest.mark.parametrize("path", sorted(BENCHMARKS.rglob("*.py")), ids=lambda p: p.name)
def test_the_benchmarks_use_only_the_public_api(path):
    used = {i for i in _all_imports(path) if i == "graphmem" or i.startswith("graphmem.")}
    assert used <= PUBLIC_FOR_BENCHMARKS, f"{path.name} imports {sorted(used)}"
    tree = ast.parse(path.read_text(encoding="utf-8"))
    private = sorted({f"{n.module}.{a.name}" for n in ast.walk(tree)
                      if isinstance(n, ast.ImportFrom) and n.module in PUBLIC_FOR_BENCHMARKS
                      for a in n.names if a.name.startswith("_")}
                     | {node.attr for node in ast.walk(tree)
                        if isinstance(node, ast.Attribute) and node.attr.startswith("_")
                        and not node.attr.startswith("__")
                        and isinstance(node.value, ast.Name)
                        and node.value.id in {"mem", "memory"}})
    assert not private, f"{path.name} uses private names {private}"
