"""How long ``Memory.close()`` takes when Neo4j is gone (issue 28: it blocked ~90 s).

    python scripts/close_when_down.py --uri bolt://127.0.0.1:17987 [--trials 3] [--messages 60]

Each trial connects a ``Memory`` through a TCP forwarder to ``--uri`` (``tests/netcut.py``),
adds ``--messages`` messages over four sessions, cuts the forwarder (Neo4j gone for this
``Memory``, with the driver's default retry settings), adds as many again, and times
``close()``. Then it reconnects straight to ``--uri`` with the same buffer folder, flushes,
and counts the messages Neo4j has: all of them, or the backlog was lost. Prints JSON. Use a
scratch server (it writes users named after a fresh prefix).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

import neo4j  # noqa: E402
from netcut import Forwarder  # noqa: E402

from graphmem import Memory  # noqa: E402

T0 = datetime(2025, 4, 1, 9, 0, tzinfo=UTC)


def trial(uri: str, messages: int, user: str, workdir: Path) -> dict[str, float | int]:
    sent = [{"user_id": user, "session_id": f"s{i % 4}", "role": "user",
             "content": f"note {i}: water the tomatoes in bed {i}",
             "ts": T0 + timedelta(minutes=i)} for i in range(2 * messages)]
    link = Forwarder.to(uri)
    mem = Memory.connect(link.uri, buffer_dir=workdir)
    mem.add_messages(sent[:messages])
    link.cut()
    mem.add_messages(sent[messages:])
    started = time.monotonic()
    mem.close()
    close_s = time.monotonic() - started
    with Memory.connect(uri, buffer_dir=workdir) as again:
        again.flush()
    with neo4j.GraphDatabase.driver(uri, auth=None) as driver:
        records, _, _ = driver.execute_query(
            "MATCH (m:Message {user_id: $u}) RETURN count(m) AS n", u=user)
    return {"close_s": round(close_s, 2), "sent": len(sent), "in_neo4j": records[0]["n"]}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--messages", type=int, default=60)
    args = parser.parse_args()
    prefix = f"close-{uuid.uuid4().hex[:6]}"
    runs = [trial(args.uri, args.messages, f"{prefix}-{i}", Path(tempfile.mkdtemp()))
            for i in range(args.trials)]
    closes = [r["close_s"] for r in runs]
    print(json.dumps({"trials": runs, "close_s_max": max(closes),
                      "close_s_median": statistics.median(closes)}, indent=2))
    return 0 if all(r["in_neo4j"] == r["sent"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
