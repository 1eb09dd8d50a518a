"""Speed and agreement of graphmem's embedders (GRAPHMEM_EMBEDDER) on LoCoMo, 2 threads.

For each backend, in its own process (so thread settings and imports do not mix):
- **texts/s**: the first 2,000 LoCoMo turns ("Speaker: text"), 64 texts per call as the
  writer sends them, after a two-batch warm-up; best of ``--passes`` passes, with the
  share of the machine's CPU that other processes took during that pass;
- **query latency**: 200 LoCoMo questions embedded one at a time, as ``query_memory``
  does, after 10 warm-up calls: p50 / p95 / mean in ms;
- **load s**: import + construction + first call, in a fresh process;
- **CPU ms/text**: this process's CPU time per text over the best pass, less sensitive
  than texts/s to other processes on a shared machine (threads that spin while they
  wait count too).
The parent then compares every backend's vectors with minilm-torch's (cosine per text:
mean / min / 1st percentile, turns and questions apart) and ranks the turns of each fully
covered conversation for its questions (categories 1-4 with evidence; R@5, R@10, MRR) as a
quick retrieval check. The LoCoMo bench (``graphmem bench locomo`` with each
``GRAPHMEM_EMBEDDER``) is the real quality test.

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python scripts/benchmarks/embedders.py
    ... --backends minilm-onnx-int8 --passes 1          # quicker
Writes ``embedders.json`` beside this file (``--out`` to change) and prints a table.
``minilm-onnx-int8 (no torch)`` runs with ``import torch`` blocked: it proves the ONNX
path needs no torch and shows the load time without it (spaCy's thinc imports torch
whenever it is installed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
LOCOMO = Path(os.environ.get("LOCOMO_JSON", "/work/shared/bench/locomo/locomo10.json"))
THREADS = 2
BATCH = 64
N_TURNS = 2000
N_QUESTIONS = 200
BACKENDS = ("minilm-torch", "minilm-onnx", "minilm-onnx-int8", "minilm-onnx-int8 (no torch)")


def locomo_sample() -> dict:
    """First N_TURNS turns; the questions of the conversations wholly among them."""
    from graphmem_bench.locomo.data import CATEGORIES, load_locomo

    turns: list[str] = []
    ids: list[str] = []
    covered = []
    for conv in load_locomo(LOCOMO):
        conv_turns = [(f"{conv.sample_id}/{t.dia_id}", f"{t.speaker}: {t.text}")
                      for s in conv.sessions for t in s.turns]
        room = N_TURNS - len(turns)
        ids += [i for i, _ in conv_turns[:room]]
        turns += [t for _, t in conv_turns[:room]]
        if len(conv_turns) <= room:
            covered.append(conv)
        if len(turns) >= N_TURNS:
            break
    questions = []
    for conv in covered:
        for qa in conv.qa:
            if qa.category in CATEGORIES and qa.evidence:
                questions.append({"conv": conv.sample_id, "question": qa.question,
                                  "evidence": [f"{conv.sample_id}/{e}" for e in qa.evidence]})
    return {"ids": ids, "turns": turns, "questions": questions}


def _cpu_ticks() -> tuple[int, int, int]:
    """(all CPUs' ticks, their busy ticks, this process's ticks) from /proc."""
    with open("/proc/stat") as f:
        vals = [int(x) for x in f.readline().split()[1:9]]
    with open("/proc/self/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(vals), sum(vals) - vals[3] - vals[4], int(fields[11]) + int(fields[12])


def worker(backend: str, passes: int, out_dir: Path) -> None:
    """One backend: load, speed, latency, vectors to ``out_dir``."""
    import numpy as np

    name = backend.split(" ")[0]
    if "(no torch)" in backend:
        sys.modules["torch"] = None  # type: ignore[assignment]  # any `import torch` fails
    t0 = time.perf_counter()
    from graphmem.embed import load_named_embedder

    embedder = load_named_embedder(name, batch_size=BATCH, threads=THREADS)  # type: ignore[arg-type]
    embedder.embed(["warm up"])
    load_s = time.perf_counter() - t0
    torch_imported = sys.modules.get("torch") is not None

    sample = locomo_sample()
    turns, questions = sample["turns"], [q["question"] for q in sample["questions"]]
    embedder.embed(turns[:BATCH])
    embedder.embed(turns[BATCH : 2 * BATCH])
    runs = []
    vectors = []
    for _ in range(passes):
        c0 = _cpu_ticks()
        cpu0 = os.times()
        start = time.perf_counter()
        vectors = []
        for i in range(0, len(turns), BATCH):
            vectors += embedder.embed(turns[i : i + BATCH])
        seconds = time.perf_counter() - start
        cpu1 = os.times()
        c1 = _cpu_ticks()
        cpu_s = (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system)
        others = max((c1[1] - c0[1]) - (c1[2] - c0[2]), 0) / max(c1[0] - c0[0], 1)
        runs.append({"seconds": round(seconds, 3), "texts_per_s": round(len(turns) / seconds, 1),
                     "cpu_ms_per_text": round(cpu_s * 1000 / len(turns), 2),
                     "others_cpu": round(others, 3)})
    for q in questions[:10]:
        embedder.embed([q])
    latencies = []
    query_vectors = []
    for q in questions[:N_QUESTIONS]:
        start = time.perf_counter()
        query_vectors += embedder.embed([q])
        latencies.append((time.perf_counter() - start) * 1000)
    query_vectors += embedder.embed(questions[N_QUESTIONS:])
    np.save(out_dir / f"{name}-{'notorch' if 'no torch' in backend else 'std'}-turns.npy",
            np.asarray(vectors, dtype=np.float32))
    np.save(out_dir / f"{name}-{'notorch' if 'no torch' in backend else 'std'}-questions.npy",
            np.asarray(query_vectors, dtype=np.float32))
    latencies.sort()
    best = max(runs, key=lambda r: r["texts_per_s"])
    result = {
        "backend": backend,
        "model_name": embedder.model_name,
        "dimension": embedder.dimension,
        "load_s": round(load_s, 2),
        "torch_imported": torch_imported,
        "texts": len(turns),
        "texts_per_s": best["texts_per_s"],
        "others_cpu_best_pass": best["others_cpu"],
        "cpu_ms_per_text": min(r["cpu_ms_per_text"] for r in runs),
        "passes": runs,
        "query_ms_p50": round(latencies[len(latencies) // 2], 2),
        "query_ms_p95": round(latencies[int(len(latencies) * 0.95) - 1], 2),
        "query_ms_mean": round(statistics.fmean(latencies), 2),
        "queries": len(latencies),
    }
    print(json.dumps(result))


def run_worker(backend: str, passes: int, out_dir: Path) -> dict:
    env = os.environ | {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
                        "PYTHONPATH": str(REPO), "OMP_NUM_THREADS": str(THREADS)}
    done = subprocess.run(
        [sys.executable, __file__, "--worker", backend, "--passes", str(passes),
         "--tmp", str(out_dir)],
        env=env, capture_output=True, text=True, check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"{backend} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def agreement(vectors, reference) -> dict:
    import numpy as np

    cos = (vectors * reference).sum(axis=1)
    return {"mean": round(float(cos.mean()), 4), "min": round(float(cos.min()), 4),
            "p01": round(float(np.percentile(cos, 1)), 4)}


def retrieval(turns, questions, sample: dict) -> dict:
    """R@5, R@10 (LoCoMo convention: share of the evidence found) and MRR per question."""
    import numpy as np

    position = {turn_id: i for i, turn_id in enumerate(sample["ids"])}
    conv_rows: dict[str, list[int]] = {}
    for i, turn_id in enumerate(sample["ids"]):
        conv_rows.setdefault(turn_id.split("/")[0], []).append(i)
    r5, r10, mrr = [], [], []
    for q, vec in zip(sample["questions"], questions, strict=True):
        rows = np.asarray(conv_rows[q["conv"]])
        order = rows[np.argsort(-(turns[rows] @ vec), kind="stable")]
        gold = {position[e] for e in q["evidence"] if e in position}
        if not gold:
            continue
        r5.append(len(gold & set(order[:5].tolist())) / len(gold))
        r10.append(len(gold & set(order[:10].tolist())) / len(gold))
        rank = next(r for r, i in enumerate(order.tolist(), 1) if i in gold)
        mrr.append(1 / rank)
    return {"questions": len(mrr), "r@5": round(statistics.fmean(r5), 4),
            "r@10": round(statistics.fmean(r10), 4), "mrr": round(statistics.fmean(mrr), 4)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backends", default=",".join(BACKENDS))
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "embedders.json")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--tmp", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.passes, args.tmp)
        return

    import numpy as np

    backends = [b.strip() for b in args.backends.split(",") if b.strip()]
    if "minilm-torch" not in backends:
        backends.insert(0, "minilm-torch")  # the reference for agreement
    sample = locomo_sample()
    results = []
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for backend in backends:
            print(f"embedders: {backend} ...", file=sys.stderr, flush=True)
            results.append(run_worker(backend, args.passes, tmp))

        def load(backend: str, what: str):
            tag = "notorch" if "no torch" in backend else "std"
            return np.load(tmp / f"{backend.split(' ')[0]}-{tag}-{what}.npy")

        ref_turns, ref_questions = load("minilm-torch", "turns"), load("minilm-torch", "questions")
        for r in results:
            turns, questions = load(r["backend"], "turns"), load(r["backend"], "questions")
            r["cosine_to_torch_turns"] = agreement(turns, ref_turns)
            r["cosine_to_torch_questions"] = agreement(questions, ref_questions)
            r["retrieval"] = retrieval(turns, questions, sample)
    torch_rate = results[0]["texts_per_s"]
    for r in results:
        r["speedup_vs_torch"] = round(r["texts_per_s"] / torch_rate, 2)
    report = {
        "machine": {"cpus": os.cpu_count(), "threads": THREADS, "python": sys.version.split()[0]},
        "data": {"locomo": str(LOCOMO), "turns": N_TURNS, "latency_questions": N_QUESTIONS,
                 "retrieval_questions": len(sample["questions"])},
        "results": results,
    }
    args.out.write_text(json.dumps(report, indent=2) + "\n")
    print("| backend | texts/s | × torch | query p50 ms | query p95 ms | load s | torch imported "
          "| cos turns mean / min | cos questions mean / min | R@5 | R@10 | MRR | CPU ms/text "
          "| others' CPU |")
    print("| --- " + "| ---: " * 5 + "| --- " * 3 + "| ---: " * 5 + "|")
    for r in results:
        ct, cq, rt = r["cosine_to_torch_turns"], r["cosine_to_torch_questions"], r["retrieval"]
        print(f"| {r['backend']} | {r['texts_per_s']:.0f} | {r['speedup_vs_torch']:.2f} | "
              f"{r['query_ms_p50']:.1f} | {r['query_ms_p95']:.1f} | {r['load_s']:.1f} | "
              f"{'yes' if r['torch_imported'] else 'no'} | {ct['mean']:.4f} / {ct['min']:.4f} | "
              f"{cq['mean']:.4f} / {cq['min']:.4f} | {rt['r@5']:.3f} | {rt['r@10']:.3f} | "
              f"{rt['mrr']:.3f} | {r['cpu_ms_per_text']:.2f} | {r['others_cpu_best_pass']:.0%} |")
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
