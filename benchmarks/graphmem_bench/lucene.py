"""The bm25 baseline's query: the question's words, escaped, OR-ed — never Lucene syntax
from user text. Chinese runs are split into words with jieba. (A copy of what graphmem
does for its own keyword channel, without graphmem's ranking tricks: a plain BM25.)"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

_CJK = re.compile(r"[\u3400-\u9fff]")


def is_chinese(text: str) -> bool:
    return bool(_CJK.search(text))


@cache
def _jieba() -> Any:
    import logging

    import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


def jieba_words(text: str) -> list[str]:
    return [w for w in _jieba().lcut(text) if w.strip()]


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

_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
# A word keeps its apostrophes ("didn't", "O'Brien"): split there, "Samantha's" gave "s" and
# "didn't" gave "t", one-letter terms that matched rare messages with odd quote marks
# ("it`s") at a high weight.
_QUERY_WORD = re.compile(r"[\u3400-\u9fff]+|\w+(?:['\u2019]\w+)*")
_POSSESSIVE = re.compile(r"'s$")



def escape_lucene(term: str) -> str:
    """``term`` with Lucene query syntax characters backslash-escaped."""
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


def lucene_terms(text: str, stopwords: frozenset[str] = QUERY_STOPWORDS,
                 chinese_phrases: bool = False) -> list[dict[str, Any]]:
    """The distinct words of ``text`` (lowercased, function words out; all words when only
    function words are left), each as ``{"word": …, "term": …, "weak": …}`` — the term
    escaped for Lucene, ``weak`` for a word in ``WEAK_WORDS``. With ``chinese_phrases``, a
    Chinese word of several characters is a quoted phrase: for an index whose analyzer
    splits Chinese into single characters (``english``), the phrase matches the word
    itself, not any of its characters."""
    words: list[str] = []
    for run in _QUERY_WORD.findall(text):
        words.extend(jieba_words(run) if is_chinese(run) else [_latin_word(run)])
    content = [w for w in words if not _function_word(w, stopwords)] or words
    unique = list(dict.fromkeys(w for w in content if w.strip()))
    return [{"word": w, "term": f'"{w}"' if chinese_phrases and is_chinese(w) and len(w) > 1
             else escape_lucene(w)} for w in unique]


def _latin_word(run: str) -> str:
    """``run`` lowercased, one apostrophe, a possessive's "'s" off ("Samantha's" is
    "samantha": the ``english`` analyzer drops it from messages, and a speaker's name
    is known by its bare form)."""
    return _POSSESSIVE.sub("", run.lower().replace("\u2019", "'"))


def _function_word(word: str, stopwords: frozenset[str]) -> bool:
    """A stop word, a contraction of one ("it's", "I'm", "you're") or a negated verb
    ("didn't", "haven't"), or a single Latin letter."""
    if word in stopwords or (len(word) == 1 and word.isascii() and word.isalpha()):
        return True
    base, apostrophe, _ = word.partition("'")
    return bool(apostrophe) and (base in stopwords or word.endswith("n't"))


def lucene_or_query(text: str, stopwords: frozenset[str] = QUERY_STOPWORDS,
                    chinese_phrases: bool = False) -> str:
    """An OR of ``lucene_terms``; ``""`` for no words."""
    return " OR ".join(t["term"] for t in lucene_terms(text, stopwords, chinese_phrases))
