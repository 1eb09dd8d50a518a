"""Every example in the README runs: each ```python block is a whole script, run on its
own in a fresh interpreter against the test Neo4j, in an empty folder (so the default
relative buffer_dir lands there), with nothing fetched from a model hub."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```python\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def python_blocks() -> list[str]:
    return BLOCK.findall((REPO / "README.md").read_text(encoding="utf-8"))


def test_the_readme_has_python_examples():
    assert len(python_blocks()) >= 2


@pytest.mark.parametrize("number", range(len(python_blocks())),
                         ids=lambda n: f"block-{n + 1}")
def test_the_readme_python_block_runs(number: int, neo4j_uri: str, tmp_path: Path):
    code = python_blocks()[number]
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRAPHMEM_")} | {
        "GRAPHMEM_NEO4J_URI": neo4j_uri,
        "PYTHONPATH": str(REPO),  # this checkout's graphmem, whatever is installed
        "HF_HUB_OFFLINE": "1",
        "TRANSFORMERS_OFFLINE": "1",
    }
    script = tmp_path / f"readme_block_{number + 1}.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"README block {number + 1} failed:\n{done.stderr[-4000:]}"
    assert done.stdout.strip(), f"README block {number + 1} printed nothing"
    buffers = [p for p in (tmp_path / ".graphmem" / "buffer").glob("*") if p.is_dir()]
    assert buffers, "the example's raw buffer is under its working directory"
