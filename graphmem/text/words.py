"""Content words for matching a question against memory text, without a model.

Function words are left out, Chinese runs are segmented with jieba, and English words
are cut to a light stem (their first five letters: "reminds" and "reminder",
"researching" and "research" meet) so that related forms count as shared. Names can be
left out too: a speaker's name is in nearly every line of their history, so sharing it
says nothing about relevance.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from graphmem.text.language import is_chinese, jieba_words

STEM_CHARS = 5
# Function words left out of queries (they make every document a candidate).
_STOPWORDS_TEXT = """
    a an the and or but if of to in on at for with by from as into about over after before
    is are was were be been being am do does did done has have had having it its this that
    these those there here what which who whom whose when where why how i me my we our you
    your he him his she her they them their not no so than too very can could would should
    will shall may might must just also ever any some
    的 了 是 我 你 他 她 它 们 我们 咱们 你们 他们 她们 吗 呢 吧 啊 什么 怎么 哪 那 这 个
    来着 来 着 一下 上次 那次 还 和 与 在
    """
QUERY_STOPWORDS = frozenset(_STOPWORDS_TEXT.split())

_WORD = re.compile(r"[\u3400-\u9fff]+|[A-Za-z0-9'+-]+")


def stem(word: str) -> str:
    """A light stem: Chinese words whole, English ones cut to ``STEM_CHARS`` letters."""
    word = word.lower().strip("'-+").removesuffix("'s")
    return word if is_chinese(word) else word[:STEM_CHARS]


def content_words(text: str, names: Iterable[str] = ()) -> set[str]:
    """Stems of ``text``'s content words, without function words and ``names``."""
    words = set(_stems(text))
    if names:
        words -= {stem(n) for name in names for n in name.split()}
    return words


@lru_cache(maxsize=1 << 16)
def _stems(text: str) -> frozenset[str]:
    """``content_words`` before names are left out, once per text: a message's words
    never change, and a question reads the same messages' sentences many times. (``stem``
    inlined: a run of ``_WORD`` is all Chinese or all Latin, so one test per run.)"""
    words: set[str] = set()
    for run in _WORD.findall(text):
        if run[0] >= "\u3400":  # Chinese: jieba's words, whole
            words.update(w for w in jieba_words(run) if w not in QUERY_STOPWORDS)
            continue
        part = run.lower().strip("'-+")
        if len(part) < 2 or part in QUERY_STOPWORDS:
            continue
        key = part.removesuffix("'s")[:STEM_CHARS]
        if key:
            words.add(key)
    return frozenset(words)
