"""all-MiniLM-L6-v2 on onnxruntime: the same vectors as the torch path, without torch.

Reads a sentence-transformers model folder (see ``graphmem.embed.models``): the ONNX file
for the transformer, ``tokenizer.json`` for the tokenizer (Hugging Face ``tokenizers``),
``1_Pooling/config.json`` for the pooling; the output is L2-normalized like
``SentenceTransformer.encode(..., normalize_embeddings=True)``. Texts are sorted by length
and padded per batch, as sentence-transformers does, so fp32 vectors match torch's.

Why not ``SentenceTransformer(path, backend="onnx")``: its ONNX backend needs
``optimum-onnx``, whose only release (0.1.0) requires ``transformers<4.58`` while
sentence-transformers 6 requires ``transformers>=5`` (and 0.1.0 fails to import on 5.x).
The folder is laid out so that call loads it once a compatible release exists.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from graphmem._errors import ConfigError

MAX_SEQ_LENGTH = 128  # the torch path caps all-MiniLM-L6-v2 here too


class OnnxEmbedder:
    """A sentence-transformers ONNX folder run by onnxruntime; unit-length output."""

    def __init__(
        self,
        folder: Path,
        file_name: str,
        *,
        model_name: str,
        space: str | None = None,
        batch_size: int = 64,
        threads: int | None = None,
    ) -> None:
        try:
            import numpy as np
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise ConfigError(
                f"embedder {model_name!r} needs onnxruntime and tokenizers: "
                "pip install onnxruntime tokenizers (or choose GRAPHMEM_EMBEDDER=minilm-torch)"
            ) from exc
        self._np = np
        self.model_name = model_name
        self.space = space or model_name
        self.batch_size = batch_size
        self._pooling = _pooling_mode(folder)
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(max_length=_max_seq_length(folder))
        pad_id = self._tokenizer.token_to_id("[PAD]")
        self._tokenizer.enable_padding(pad_id=pad_id or 0, pad_token="[PAD]")  # batch longest
        options = ort.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        options.log_severity_level = 3  # errors only
        # Idle threads of onnxruntime's pool spin by default: on a small machine they burn
        # the CPU the rest of ingest needs (buffer, splitter, Neo4j). Without spinning,
        # 30k generated messages ingest at 819 instead of 692 messages/s on 2 cores.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        self._session = ort.InferenceSession(
            str(folder / file_name), options, providers=["CPUExecutionProvider"]
        )
        self._inputs = {i.name for i in self._session.get_inputs()}
        dimension = self._session.get_outputs()[0].shape[-1]
        if not isinstance(dimension, int):
            raise ConfigError(f"{folder / file_name} does not declare its output dimension")
        self.dimension = dimension
        self._lock = threading.Lock()

    def embed(self, texts: Sequence[str]) -> list[list[float]]:
        """Unit vectors of ``texts``. The model runs one batch of ``batch_size`` at a time
        (under a lock): a question asked while a background batch of hundreds of episodes
        is embedded waits for one batch, not all of them."""
        if not texts:
            return []
        return self._embed(list(texts)).tolist()

    def _embed(self, texts: list[str]) -> Any:
        np = self._np
        out = np.empty((len(texts), self.dimension), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            with self._lock:
                encodings = self._tokenizer.encode_batch([texts[i] for i in idx])
                ids = np.array([e.ids for e in encodings], dtype=np.int64)
                mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
                feeds = {"input_ids": ids, "attention_mask": mask}
                if "token_type_ids" in self._inputs:
                    feeds["token_type_ids"] = np.zeros_like(ids)
                hidden = self._session.run(None, feeds)[0]
            if self._pooling == "cls":
                pooled = hidden[:, 0]
            else:
                weights = mask[:, :, None].astype(np.float32)
                pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            norms = np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            out[idx] = pooled / norms
        return out


def _pooling_mode(folder: Path) -> str:
    config = json.loads((folder / "1_Pooling" / "config.json").read_text())
    if config.get("pooling_mode_mean_tokens"):
        return "mean"
    if config.get("pooling_mode_cls_token"):
        return "cls"
    raise ConfigError(f"{folder}: only mean or CLS pooling is supported")


def _max_seq_length(folder: Path) -> int:
    path = folder / "sentence_bert_config.json"
    configured = json.loads(path.read_text()).get("max_seq_length") if path.is_file() else None
    return min(int(configured or MAX_SEQ_LENGTH), MAX_SEQ_LENGTH)
