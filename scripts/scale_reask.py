"""Re-ask a kept `graphmem bench scale` run's questions (same corpus, same seed) against its
data: `query_memory` p50/p95/p99 end to end, large and small users apart — to measure a
retrieval change at 1M without re-loading the million messages.

    python scripts/scale_reask.py --uri bolt://127.0.0.1:17987 --size 1000000 \
        --prefix s1000000-314084 [--passes 2]

``--prefix`` is the run's user-id prefix (``s<size>-<run id>``: see any user id of the run).
"""

from __future__ import annotations

import argparse
import tempfile
import time

from graphmem_bench.generate import ScaleCorpus
from graphmem_bench.scale import WARM_UP_QUESTIONS, percentile, scale_questions

from graphmem import Memory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uri", required=True)
    parser.add_argument("--size", type=int, required=True)
    parser.add_argument("--prefix", required=True)
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--questions", type=int, default=500)
    parser.add_argument("--passes", type=int, default=2)
    args = parser.parse_args()
    corpus = ScaleCorpus(args.size, args.users, args.seed, prefix=args.prefix)
    for _ in corpus.messages():  # the users' last times, which the questions are asked after
        pass
    asked = scale_questions(corpus, args.questions, args.seed)
    with tempfile.TemporaryDirectory() as buffer, Memory.connect(args.uri,
                                                                 buffer_dir=buffer) as mem:
        for q in asked[:WARM_UP_QUESTIONS]:
            mem.query_memory(q.text, q.user_id, now=q.now)
        for n in range(1, args.passes + 1):
            timed = []
            for q in asked:
                started = time.perf_counter()
                mem.query_memory(q.text, q.user_id, now=q.now)
                timed.append(((time.perf_counter() - started) * 1000, q.user_size))
            every = [ms for ms, _ in timed]
            by = {size: percentile([ms for ms, s in timed if s == size], 95)
                  for size in ("large", "small")}
            print(f"pass {n}: p50/p95/p99 {percentile(every, 50):.1f} / "
                  f"{percentile(every, 95):.1f} / {percentile(every, 99):.1f} ms; p95 large "
                  f"{by['large']:.1f}, small {by['small']:.1f} ms")


if __name__ == "__main__":
    main()
