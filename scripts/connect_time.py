"""How long ``Memory.connect`` takes: cold (a new database: the schema is applied, the
indexes built, the graph version recorded) and warm (the schema is up to date: one query
checks it). Each connect runs in a fresh process, as an application start does; the
import of graphmem is timed apart.

    # a fresh Neo4j of its own (scripts/neo4j-local, a temporary folder, ports given):
    python scripts/connect_time.py --fresh-server --bolt-port 18089 --http-port 18078
    # or an existing server (cold only if its database is empty):
    python scripts/connect_time.py --uri bolt://127.0.0.1:7687

Prints one line per connect and the median of the warm ones.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ONE_CONNECT = """
import json, sys, time
started = time.perf_counter()
from graphmem import Memory
imported = time.perf_counter()
mem = Memory.connect(sys.argv[1], buffer_dir=sys.argv[2])
connected = time.perf_counter()
mem.close()
print(json.dumps({"import_s": imported - started, "connect_s": connected - imported}))
"""


def connect_once(uri: str, buffer_dir: str) -> dict[str, float]:
    env = os.environ | {"PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", ONE_CONNECT, uri, buffer_dir], env=env,
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise SystemExit(f"connect failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def launcher(command: str, home: Path, bolt: int, http: int) -> None:
    env = os.environ | {"GRAPHMEM_NEO4J_DIR": str(home), "NEO4J_BOLT_PORT": str(bolt),
                        "NEO4J_HTTP_PORT": str(http)}
    done = subprocess.run([str(REPO / "scripts" / "neo4j-local"), command], env=env,
                          capture_output=True, text=True, timeout=900)
    if done.returncode != 0:
        raise SystemExit(f"neo4j-local {command} failed:\n{done.stdout}{done.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", default=None)
    parser.add_argument("--fresh-server", action="store_true",
                        help="start a Neo4j with an empty database for this run")
    parser.add_argument("--bolt-port", type=int, default=18089)
    parser.add_argument("--http-port", type=int, default=18078)
    parser.add_argument("--warm", type=int, default=5, help="warm connects to time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="graphmem-connect-") as tmp:
        home = Path(tmp) / "neo4j"
        uri = args.uri or f"bolt://127.0.0.1:{args.bolt_port}"
        if args.fresh_server:
            launcher("start", home, args.bolt_port, args.http_port)
        try:
            cold = connect_once(uri, str(Path(tmp) / "buffer"))
            print(f"cold: connect {cold['connect_s']:.2f} s (import {cold['import_s']:.2f} s)")
            warm = []
            for i in range(args.warm):
                run = connect_once(uri, str(Path(tmp) / "buffer"))
                warm.append(run["connect_s"])
                print(f"warm {i + 1}: connect {run['connect_s']:.2f} s "
                      f"(import {run['import_s']:.2f} s)")
            print(f"warm median: {statistics.median(warm):.2f} s over {len(warm)} processes")
        finally:
            if args.fresh_server:
                launcher("stop", home, args.bolt_port, args.http_port)


if __name__ == "__main__":
    main()
