"""How long the ``graphmem`` command takes to answer before it does any work.

Runs each command in a fresh interpreter several times and prints the median and the
worst wall time, in a markdown table:

    .venv/bin/python scripts/cli_startup.py            # this checkout
    .venv/bin/python scripts/cli_startup.py --checkout /path/to/other/worktree --runs 7

``--help`` should not load spaCy, torch, sentence-transformers or the Neo4j driver;
``from graphmem import Memory`` does load the client (but still no model).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

COMMANDS = {
    "graphmem --help": ["-m", "graphmem", "--help"],
    "graphmem doctor --help": ["-m", "graphmem", "doctor", "--help"],
    "import graphmem": ["-c", "import graphmem"],
    "from graphmem import Memory": ["-c", "from graphmem import Memory"],
}


def time_command(args: list[str], checkout: Path, env: dict[str, str], runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run([sys.executable, *args], cwd=checkout, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--checkout", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="The graphmem source tree to time (default: this one).")
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    checkout = options.checkout.resolve()
    env = os.environ | {"PYTHONPATH": str(checkout),
                        "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    print(f"checkout {checkout}, {options.runs} runs each\n")
    print("| command | median | worst |")
    print("| --- | --- | --- |")
    for label, args in COMMANDS.items():
        times = time_command(args, checkout, env, options.runs)
        print(f"| `{label}` | {statistics.median(times):.2f} s | {max(times):.2f} s |")


if __name__ == "__main__":
    main()
