"""Score the rule extractor on a held-out labelled set, the way the labelled test does.

``tests/data/extraction_heldout.{en,zh}.jsonl``, then ``extraction_heldout2`` and
``extraction_heldout3`` were each written apart from the rules (``heldout3`` by someone who
had not seen them), scored once — the honest figure — and then used to improve the rules:
development sets now. The next honest figure needs a new set, written before the rules see
it. This script reuses the scoring of ``tests/test_extract_labelled.py``
unchanged (episode building, min confidence, subject normalization, the item's own
supersession, value matching) and only swaps the data file.

    cd /work/main && .venv/bin/python scripts/extraction_heldout.py \
        [--set heldout|heldout2|heldout3 | --file PATH.jsonl] [--lang en|zh] [--quiet] [--speed]

Prints per language: overall and per-predicate precision/recall, then every item with an
error (expected vs got), false negatives and false positives. ``--speed`` also times the
extraction itself (spaCy loaded and warmed up first): user messages per second over the
set's conversations, each read as one episode, as consolidation reads them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

import test_extract_labelled as harness  # noqa: E402

from graphmem.extract import RuleExtractor  # noqa: E402
from graphmem.facts.predicates import PREDICATES  # noqa: E402

HELDOUT = ROOT / "tests" / "data"


def path_of(lang: str, name: str = "heldout") -> Path:
    """The data file of a named set: ``tests/data/extraction_<name>.<lang>.jsonl``."""
    return HELDOUT / f"extraction_{name}.{lang}.jsonl"


def load(lang: str, name: str = "heldout", path: Path | None = None) -> list[dict]:
    with (path or path_of(lang, name)).open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def speed(items: list[dict], rounds: int = 5) -> dict[str, float]:
    """User messages extracted per CPU second (best of ``rounds``; CPU time, so that other
    work on a shared machine counts less), models loaded first: one episode at a time
    (``extract``), all at once (``extract_many``, as consolidation does), and with the
    rules only (the online path)."""
    episodes = [harness.episode_of(item) for item in items]
    messages = sum(len(item["messages"]) for item in items)
    full, rules = RuleExtractor(), RuleExtractor(generic=False)
    ways = {"per episode": lambda: [full.extract(e) for e in episodes],
            "batched": lambda: full.extract_many(episodes),
            "rules only": lambda: [rules.extract(e) for e in episodes]}
    out = {}
    for way, run in ways.items():
        run()  # load spaCy and warm up
        best = float("inf")
        for _ in range(rounds):
            start = time.process_time()
            run()
            best = min(best, time.process_time() - start)
        out[way] = messages / best
    return out


def score_items(items: list[dict]) -> tuple[harness.Score, list[dict]]:
    """``harness.score`` line for line, over ``items``, also keeping per-item detail."""
    extractor = RuleExtractor()
    tp: Counter = Counter()
    fp: Counter = Counter()
    fn: Counter = Counter()
    misses: list[str] = []
    details: list[dict] = []
    for item in items:
        found = [c for c in extractor.extract(harness.episode_of(item))
                 if c.predicate in PREDICATES and c.confidence >= harness.MIN_CONFIDENCE]
        got = harness.surviving(found)
        want = [(harness.subject_key(s), p, v, bool(n)) for s, p, v, n in item["expected"]]
        unmatched = list(got)
        missed, extra = [], []
        for w in want:
            hit = next((g for g in unmatched if g[:2] == w[:2] and g[3] == w[3]
                        and harness.values_match(g[2], w[2])), None)
            if hit is None:
                fn[w[1]] += 1
                missed.append(w)
                misses.append(f"{item['id']} missed {w}")
            else:
                tp[w[1]] += 1
                unmatched.remove(hit)
        for g in unmatched:
            fp[g[1]] += 1
            extra.append(g)
            misses.append(f"{item['id']} extra  {g}")
        if missed or extra:
            details.append({"id": item["id"], "tags": item.get("tags", []),
                            "messages": item["messages"], "expected": want, "got": got,
                            "missed": missed, "extra": extra})
    return harness.Score(tp, fp, fn, misses), details


def fmt(t: tuple) -> str:
    s, p, v, n = t
    return f"({s}, {p}, {v!r}{', NEG' if n else ''})"


def report(lang: str, items: list[dict], name: str, quiet: bool) -> harness.Score:
    s, details = score_items(items)
    print(f"=== {name} {lang}: {len(items)} items, "
          f"{sum(1 for i in items if not i['expected'])} without facts ===")
    print(harness.table(lang, s))
    print(f"  items fully correct: {len(items) - len(details)}/{len(items)}")
    if quiet:
        return s
    print(f"\n--- {lang}: items with errors ({len(details)}) ---")
    for d in details:
        print(f"\n{d['id']}  [{', '.join(d['tags'])}]")
        for m in d["messages"]:
            print(f"   > {m}")
        print(f"   expected: {', '.join(map(fmt, d['expected'])) or '-'}")
        print(f"   got:      {', '.join(map(fmt, d['got'])) or '-'}")
        for w in d["missed"]:
            print(f"   FN {fmt(w)}")
        for g in d["extra"]:
            print(f"   FP {fmt(g)}")
    print(f"\n--- {lang}: false negatives ---")
    for d in details:
        for w in d["missed"]:
            print(f"  {d['id']}  {fmt(w)}")
    print(f"\n--- {lang}: false positives ---")
    for d in details:
        for g in d["extra"]:
            print(f"  {d['id']}  {fmt(g)}")
    print()
    return s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", default="heldout", metavar="NAME",
                    help="tests/data/extraction_<NAME>.<lang>.jsonl (default: heldout)")
    ap.add_argument("--file", type=Path, help="score this JSONL file (one language: --lang)")
    ap.add_argument("--lang", choices=["en", "zh"], action="append")
    ap.add_argument("--quiet", action="store_true", help="tables only")
    ap.add_argument("--speed", action="store_true", help="also time extraction (messages/s)")
    args = ap.parse_args()
    langs = args.lang or ["en", "zh"]
    if args.file and len(langs) != 1:
        ap.error("--file scores one language: give --lang en or --lang zh")
    name = args.file.name if args.file else args.set
    sets = {lang: load(lang, args.set, args.file) for lang in langs}
    scores = {lang: report(lang, items, name, args.quiet) for lang, items in sets.items()}
    print(f"=== summary ({name}) ===")
    for lang, s in scores.items():
        print(f"  {lang}: precision {s.precision():.3f}  recall {s.recall():.3f}  "
              f"(targets on the labelled set: P>={harness.TARGETS['precision']}, "
              f"R>={harness.TARGETS['recall']})")
    if args.speed:
        for lang, items in sets.items():
            rates = ", ".join(f"{way} {rate:.0f}" for way, rate in speed(items).items())
            print(f"  {lang}: messages/s extracted: {rates} "
                  f"({sum(len(i['messages']) for i in items)} messages)")


if __name__ == "__main__":
    main()
