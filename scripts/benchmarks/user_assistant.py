"""User/assistant chat check: graphmem's ``query_memory`` context against a BM25 over single
turns, each line dated and labelled (``[5 January 2024] User: …``) and cut to exactly
graphmem's tokens for the same question. Two users chatting with an assistant over 16
sessions each (long assistant replies, personal facts said in passing, changes over time),
60 questions (user_assistant.json, written by hand). Usage:

    .venv/bin/python scripts/benchmarks/user_assistant.py --uri bolt://127.0.0.1:7687 \
        [--buffer-dir DIR] [--budgets 128,512] [--reingest] [--out results.json]

Ingest is skipped for a user that already has episodes (--reingest forgets the two
``uachat-*`` users first and ingests again). Scores: answer-in-context and
evidence-in-context, as ``graphmem bench locomo`` counts them.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

from graphmem_bench.baselines import cut_to_tokens
from graphmem_bench.locomo.score import answer_in_context, evidence_in_context

from graphmem import Memory
from graphmem.text.dates import day_label
from graphmem.text.tokens import count_tokens

HERE = Path(__file__).resolve().parent
TURN_GAP = timedelta(seconds=30)
TYPES = ["single-session-user", "single-session-assistant", "knowledge-update", "temporal",
         "multi-session"]

_STOPWORDS_TEXT = """
    a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for
    from further had has have having he her here hers herself him himself his how i if in
    into is it its itself just me more most my myself no nor not now of off on once only or
    other our ours ourselves out over own same she should so some such than that the their
    theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours
    yourself yourselves im ive id dont didnt s t
"""
STOPWORDS = frozenset(_STOPWORDS_TEXT.split())


def tokenize(text: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9]+", text.lower().replace("'", ""))
            if w not in STOPWORDS]


class BM25:
    """Okapi BM25 (k1=1.5, b=0.75) over a fixed list of documents."""

    def __init__(self, docs: list[str], k1: float = 1.5, b: float = 0.75):
        self.k1, self.b = k1, b
        self.tfs = [Counter(tokenize(d)) for d in docs]
        self.lens = [sum(tf.values()) for tf in self.tfs]
        self.avg = sum(self.lens) / max(1, len(self.lens))
        df = Counter(w for tf in self.tfs for w in tf)
        n = len(docs)
        self.idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}

    def scores(self, query: str) -> list[float]:
        q = tokenize(query)
        out = []
        for tf, length in zip(self.tfs, self.lens, strict=False):
            s = 0.0
            for w in q:
                f = tf.get(w, 0)
                if f:
                    s += self.idf[w] * f * (self.k1 + 1) / (
                        f + self.k1 * (1 - self.b + self.b * length / self.avg))
            out.append(s)
        return out


def turns_of(user: dict) -> list[dict]:
    rows = []
    for s in user["sessions"]:
        start = datetime.fromisoformat(s["date"])
        for i, t in enumerate(s["turns"]):
            rows.append({"session_id": s["session_id"], "index": i, "role": t["role"],
                         "content": t["content"], "ts": start + i * TURN_GAP})
    return rows


def ingest(mem: Memory, user: dict, reingest: bool) -> tuple[datetime, str]:
    uid = user["user_id"]
    assert uid.startswith("uachat-")
    rows = turns_of(user)
    last = max(r["ts"] for r in rows)
    now = last + timedelta(minutes=1)
    have = mem.episodes(uid, limit=1)
    if have and not reingest:
        return now, "skipped (already ingested)"
    if have or reingest:
        mem.forget_user(uid)
    began = time.perf_counter()
    for s in user["sessions"]:
        batch = [{"user_id": uid, "session_id": r["session_id"], "role": r["role"],
                  "content": r["content"], "ts": r["ts"]}
                 for r in rows if r["session_id"] == s["session_id"]]
        mem.add_messages(batch)
    mem.flush(uid)
    flushed = time.perf_counter()
    report = mem.consolidate(user_id=uid, now=now)
    done = time.perf_counter()
    n_eps = len(mem.episodes(uid))
    n_facts = len(mem.facts(uid))
    n_all = len(mem.facts(uid, include_superseded=True))
    return now, (f"ingested {len(rows)} turns in {flushed - began:.1f}s, consolidated in "
                 f"{done - flushed:.1f}s: {n_eps} episodes, {n_facts} current facts "
                 f"({n_all} versions); report={report!r}"[:600])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--reingest", action="store_true")
    ap.add_argument("--budgets", default="128,512")
    ap.add_argument("--uri", default="bolt://127.0.0.1:7687")
    ap.add_argument("--buffer-dir", default=str(Path(tempfile.gettempdir()) / "uachat-buffer"))
    ap.add_argument("--data", default=str(HERE / "user_assistant.json"))
    ap.add_argument("--out", default=None, help="per-question rows (JSON)")
    args = ap.parse_args()
    budgets = [int(b) for b in args.budgets.split(",")]
    data = json.loads(Path(args.data).read_text())

    results = []
    with Memory.connect(uri=args.uri, buffer_dir=args.buffer_dir) as mem:
        for user in data["users"]:
            uid = user["user_id"]
            now, note = ingest(mem, user, args.reingest)
            print(f"{uid}: {note}", file=sys.stderr)
            rows = turns_of(user)
            lines = [f"[{day_label(r['ts'])}] {'User' if r['role'] == 'user' else 'Assistant'}: "
                     f"{r['content']}" for r in rows]
            bm25 = BM25([r["content"] for r in rows])
            by_key = {(r["session_id"], r["index"]): r for r in rows}
            for qi, q in enumerate(user["questions"]):
                sc = bm25.scores(q["q"])
                order = sorted(range(len(rows)), key=lambda i: -sc[i])
                ranked = "\n".join(lines[i] for i in order)
                ev_texts = [by_key[(s, i)]["content"] for s, i in q["evidence"]]
                for B in budgets:
                    t0 = time.perf_counter()
                    ctx = mem.query_memory(q["q"], uid, token_budget=B,
                                           top_k_episodes=max(3, B // 16),
                                           top_k_facts=max(5, B // 16), now=now)
                    ms = (time.perf_counter() - t0) * 1000
                    g_text = ctx.text or ""
                    g_tok = count_tokens(g_text)
                    b_text = cut_to_tokens(ranked, g_tok)
                    results.append({
                        "user_id": uid, "qi": qi, "budget": B, "type": q["type"],
                        "question": q["q"], "answer": q["answer"], "evidence": q["evidence"],
                        "graphmem": answer_in_context(q["answer"], g_text),
                        "bm25": answer_in_context(q["answer"], b_text),
                        "graphmem_evidence": evidence_in_context(ev_texts, g_text),
                        "bm25_evidence": evidence_in_context(ev_texts, b_text),
                        "graphmem_tokens": g_tok, "bm25_tokens": count_tokens(b_text),
                        "latency_ms": round(ms, 1), "route": ctx.route,
                        "window": str(ctx.window) if ctx.window else None,
                        "facts": [f"{f.entity} | {f.predicate} | {f.value} | {f.status} | "
                                  f"{f.confidence:.2f} | ref={f.reference_only} | {f.sentence}"
                                  for f in ctx.facts],
                        "episodes": [f"{e.session_id} {e.raw_span} {e.score:.3f} {e.summary[:120]}"
                                     for e in ctx.episodes],
                        "graphmem_context": g_text, "bm25_context": b_text,
                    })
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=1, ensure_ascii=False,
                                             default=str))
    print_table(results, budgets)


def mean(xs):
    xs = [x for x in xs if x is not None]
    return sum(xs) / len(xs) if xs else float("nan")


def print_table(results: list[dict], budgets: list[int]) -> None:
    head = "| type | n | " + " | ".join(f"graphmem@{b} | bm25@{b}" for b in budgets) + " |"
    print(head)
    print("|" + "---|" * (2 + 2 * len(budgets)))
    for typ in [*TYPES, "overall"]:
        cells = []
        n = 0
        for b in budgets:
            rs = [r for r in results if r["budget"] == b and (typ == "overall" or r["type"] == typ)]
            n = len(rs)
            cells += [f"{100 * mean(r['graphmem'] for r in rs):.1f}",
                      f"{100 * mean(r['bm25'] for r in rs):.1f}"]
        print(f"| {typ} | {n} | " + " | ".join(cells) + " |")
    print()
    print("| budget | mean tokens (both) | evidence-in-context graphmem | bm25 "
          "| wins/ties/losses (graphmem vs bm25) | p50 latency ms |")
    print("|---|---|---|---|---|---|")
    for b in budgets:
        rs = [r for r in results if r["budget"] == b]
        w = sum(r["graphmem"] > r["bm25"] for r in rs)
        lo = sum(r["graphmem"] < r["bm25"] for r in rs)
        lat = sorted(r["latency_ms"] for r in rs)[len(rs) // 2]
        print(f"| {b} | {mean(r['graphmem_tokens'] for r in rs):.0f} / "
              f"{mean(r['bm25_tokens'] for r in rs):.0f} | "
              f"{100 * mean(r['graphmem_evidence'] for r in rs):.1f} | "
              f"{100 * mean(r['bm25_evidence'] for r in rs):.1f} | "
              f"{w}/{len(rs) - w - lo}/{lo} | {lat} |")
    for u in sorted({r["user_id"] for r in results}):
        for b in budgets:
            rs = [r for r in results if r["budget"] == b and r["user_id"] == u]
            print(f"{u} @{b}: graphmem {100 * mean(r['graphmem'] for r in rs):.1f}  "
                  f"bm25 {100 * mean(r['bm25'] for r in rs):.1f}")


if __name__ == "__main__":
    main()
