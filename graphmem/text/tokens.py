"""A CJK-aware token estimate, used for budgets and reported by benchmarks.

No vocabulary download: a CJK character counts as one token (BPE and WordPiece
vocabularies split Chinese roughly per character), a Latin word as 4/3 of a token
(the usual English ratio), and each punctuation mark or digit run as one.
"""

from __future__ import annotations

import math
import re

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")
_OTHER = re.compile(r"\d+|[^\sA-Za-z\d\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def count_tokens(text: str) -> int:
    """Estimated LLM tokens of ``text`` (never less than the number of CJK characters)."""
    return tokens_from(token_parts(text))


TokenParts = tuple[int, int, int]  # CJK characters, Latin words, other marks


def token_parts(text: str) -> TokenParts:
    """What ``count_tokens`` counts, before the estimate: the parts of texts joined by
    whitespace add up (``tokens_from(sum of parts)`` is the tokens of the joined text)."""
    return len(_CJK.findall(text)), len(_WORD.findall(text)), len(_OTHER.findall(text))


def tokens_from(parts: TokenParts) -> int:
    cjk, words, other = parts
    return cjk + math.ceil(words * 4 / 3) + other
