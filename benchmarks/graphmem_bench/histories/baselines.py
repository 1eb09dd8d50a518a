"""Equal-token baselines over a history's single turns, in memory (a history is a few
hundred turns): plain BM25 (English words; Chinese split into words with jieba), dense
(cosine with graphmem's own embedder, so the model is equal) and hybrid (reciprocal-rank
fusion of the two). Each shows a turn as a memory product would — ``[8 May 2023] User:
text`` — and is cut to exactly graphmem's tokens for the same question."""

from __future__ import annotations

import hashlib
import math
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from graphmem_bench.baselines import Retrieved, fill_context
from graphmem_bench.histories.data import History, is_chinese
from graphmem_bench.lucene import QUERY_STOPWORDS, jieba_words
from graphmem_bench.text import Embedder, day_label

ROLES = {"user": "User", "assistant": "Assistant"}
_RUN = re.compile(r"[\u3400-\u9fff]+|[A-Za-z0-9]+(?:'[A-Za-z]+)?")
SYSTEMS = ("bm25", "dense", "hybrid")


def words(text: str) -> list[str]:
    """BM25's terms: lowercased English words and jieba's Chinese words, function words
    out."""
    out: list[str] = []
    for run in _RUN.findall(text):
        parts = jieba_words(run) if is_chinese(run) else [run.lower()]
        out += [p for p in parts if p not in QUERY_STOPWORDS]
    return out


class TurnIndex:
    """One history's turns (empty ones skipped, as an adapter would), ranked three ways."""

    def __init__(self, history: History, vectors: np.ndarray, k1: float = 1.2,
                 b: float = 0.75) -> None:
        self.rows: list[dict[str, Any]] = []
        for session in history.sessions:
            for index, turn in enumerate(session.turns):
                if turn.content.strip():
                    self.rows.append({"session_id": session.session_id, "msg_id": index,
                                      "role": turn.role, "content": turn.content,
                                      "ts": session.date})
        self.vectors = vectors
        self.k1, self.b = k1, b
        self.tfs = [Counter(words(r["content"])) for r in self.rows]
        self.lengths = [sum(tf.values()) for tf in self.tfs]
        self.mean_length = sum(self.lengths) / max(1, len(self.lengths))
        df = Counter(w for tf in self.tfs for w in tf)
        n = len(self.rows)
        self.idf = {w: math.log(1 + (n - c + 0.5) / (c + 0.5)) for w, c in df.items()}

    def bm25(self, query: str) -> list[int]:
        terms = set(words(query))
        scores = []
        for i, (tf, length) in enumerate(zip(self.tfs, self.lengths, strict=True)):
            s = 0.0
            for w in terms:
                f = tf.get(w, 0)
                if f:
                    s += self.idf[w] * f * (self.k1 + 1) / (
                        f + self.k1 * (1 - self.b + self.b * length / self.mean_length))
            if s > 0:
                scores.append((s, i))
        return [i for _, i in sorted(scores, key=lambda x: (-x[0], x[1]))]

    def dense(self, vector: np.ndarray) -> list[int]:
        if not len(self.rows):
            return []
        similarity = self.vectors @ vector
        return [int(i) for i in np.argsort(-similarity, kind="stable")]

    def ranked(self, system: str, query: str, vector: np.ndarray) -> list[int]:
        if system == "bm25":
            return self.bm25(query)
        if system == "dense":
            return self.dense(vector)
        fused: dict[int, float] = {}
        for ranking in (self.dense(vector), self.bm25(query)):
            for rank, i in enumerate(ranking, start=1):
                fused[i] = fused.get(i, 0.0) + 1.0 / (60 + rank)
        return [i for i, _ in sorted(fused.items(), key=lambda kv: (-kv[1], kv[0]))]

    def retrieve(self, system: str, query: str, vector: np.ndarray, target: int) -> Retrieved:
        """The turns best first as dated lines, cut at exactly ``target`` tokens."""
        chinese = is_chinese(query)
        rows = [self.rows[i] | {"line": f"[{day_label(self.rows[i]['ts'], chinese)}] "
                                        f"{ROLES.get(self.rows[i]['role'], 'User')}: "
                                        f"{self.rows[i]['content']}"}
                for i in self.ranked(system, query, vector)]
        return fill_context(rows, target)


class VectorCache:
    """Turn embeddings kept on disk by text (sha1), so a history is embedded once across
    runs; the embedder's model name keys the file."""

    def __init__(self, embedder: Embedder, folder: Path | None) -> None:
        self.embedder = embedder
        safe = re.sub(r"[^\w.-]+", "_", getattr(embedder, "model_name", "model"))
        self.path = folder / f"vectors-{safe}.npz" if folder else None
        self.known: dict[str, np.ndarray] = {}
        if self.path is not None and self.path.is_file():
            with np.load(self.path) as saved:
                self.known = dict(zip(saved["keys"].tolist(), saved["vectors"], strict=True))
        self.added = 0

    def vectors(self, texts: Sequence[str]) -> np.ndarray:
        keys = [hashlib.sha1(t.encode()).hexdigest() for t in texts]
        missing = list(dict.fromkeys(k for k in keys if k not in self.known))
        if missing:
            by_key = {k: t for k, t in zip(keys, texts, strict=True)}
            for start in range(0, len(missing), 256):
                chunk = missing[start:start + 256]
                for k, v in zip(chunk, self.embedder.embed([by_key[k] for k in chunk]),
                                strict=True):
                    self.known[k] = np.asarray(v, dtype=np.float32)
            self.added += len(missing)
        if not keys:
            return np.zeros((0, self.embedder.dimension), dtype=np.float32)
        return np.stack([self.known[k] for k in keys])

    def save(self) -> None:
        if self.path is None or not self.added:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        keys = list(self.known)
        np.savez(self.path, keys=np.array(keys), vectors=np.stack([self.known[k] for k in keys]))
        self.added = 0
