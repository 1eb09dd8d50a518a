"""Write a chat set and its labels in traditional characters (OpenCC s2t), to check that
graphmem reads Chinese typed the Taiwan / Hong Kong way as it reads simplified:

    python scripts/benchmarks/traditional_set.py \
        benchmarks/data/chat/zh-dev.json /tmp/zh-dev-hant.json
    graphmem bench facts --data /tmp/zh-dev-hant.json --run-tag hant
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import opencc

KEEP = {"user_id", "session_id", "question_id", "date", "question_date", "role",
        "question_type", "owner_relation", "attribute", "status", "language", "user"}


def converted(value: Any, to: opencc.OpenCC, key: str = "") -> Any:
    if key in KEEP:
        return value
    if isinstance(value, str):
        return to.convert(value)
    if isinstance(value, list):
        return [converted(v, to) for v in value]
    if isinstance(value, dict):
        return {k: converted(v, to, k) for k, v in value.items()}
    return value


def main(source: Path, target: Path) -> None:
    to = opencc.OpenCC("s2t")
    data = converted(json.loads(source.read_text(encoding="utf-8")), to)
    data["name"] = target.stem
    target.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    labels = source.with_suffix(".labels.jsonl")
    if labels.exists():
        rows = [converted(json.loads(line), to) for line in
                labels.read_text(encoding="utf-8").splitlines() if line.strip()]
        target.with_suffix(".labels.jsonl").write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"wrote {target}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
