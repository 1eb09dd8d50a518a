"""Text the rules read: sentences and clauses, and what kind of statement a clause is.

Sentence boundaries respect abbreviations: "I work as a nurse at St. Mary's hospital",
"Dr. Patel", "the U.S. Postal Service", "Mt. Rainier", "e.g.", "approx. $40" and
"a Ph.D. student at U. of Michigan" each stay one sentence. Clauses split on commas,
semicolons, colons, dashes, brackets and emoji, never inside a number ("€2,000").
Pure code, no I/O.
"""

from __future__ import annotations

import re

_MASK = "\u2024"  # ONE DOT LEADER stands in for a period that ends no sentence

_ABBREVIATIONS = (
    "mr mrs ms mx dr prof st mt ft jr sr rev gen col lt sgt capt gov sen rep pres vs etc "
    "approx est dept univ inc ltd corp jan feb mar apr jun jul aug sep sept oct nov dec "
    "mon tue tues wed thu thur thurs fri sat sun ave blvd rd hwy apt bldg misc ext tel"
)
_ABBREVIATION = re.compile(rf"\b(?:{'|'.join(_ABBREVIATIONS.split())})\.", re.IGNORECASE)
_DOTTED = re.compile(r"\b(?:[A-Za-z]{1,2}\.){2,}")          # U.S., e.g., i.e., Ph.D., a.m.
_INITIAL = re.compile(r"\b[A-HJ-Z]\.(?=\s)")               # "U. of Michigan", "J. Smith"
_NUMBERED = re.compile(r"\b(?:no|nos|vol|fig|pp?)\.(?=\s*\d)", re.IGNORECASE)  # No. 5

_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]*\s+|(?<=[。！？])|\n+")
_EMOJI = re.compile("[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D]+")
# Commas (never inside a number), semicolons, colons before a space, dashes, brackets.
_CLAUSE_BREAK = re.compile(
    r"(?<!\d),|,(?!\s?\d)|[，；;（）()\[\]～~…]|：|:(?=\s)|\s[-–—]+\s|[–—]+|\.\.\."
    r"|(?<!anything)(?<!nothing)\s+but\s+|^but\s+"
    r"|\s+(?:so|because|cause|though|although|whereas)\s+")
_TRAILING = re.compile(r"[\s.!。！]+$")  # a question keeps its mark


def mask_abbreviations(text: str) -> str:
    """Periods of abbreviations become ``_MASK`` (same length), so they end nothing."""
    def hide(m: re.Match[str]) -> str:
        return m.group(0).replace(".", _MASK)

    for pattern in (_DOTTED, _ABBREVIATION, _NUMBERED, _INITIAL):
        text = pattern.sub(hide, text)
    return text


def unmask(text: str) -> str:
    return text.replace(_MASK, ".")


def sentences(text: str) -> list[str]:
    """The sentences of a message, abbreviations kept inside them; emoji mark a boundary
    too ("I have a dog named Biscuit 🐶 he's a golden retriever")."""
    masked = mask_abbreviations(_EMOJI.sub(" \n", text))
    out = []
    for piece in _SENTENCE_END.split(masked):
        piece = unmask(piece).strip()
        if piece:
            out.append(piece)
    return out


def clauses(sentence: str) -> list[str]:
    """The clauses of a sentence, without their closing punctuation (a question keeps
    its question mark)."""
    masked = mask_abbreviations(sentence)
    out = []
    for piece in _CLAUSE_BREAK.split(masked):
        piece = unmask(_TRAILING.sub("", piece)).strip()
        if piece:
            out.append(piece)
    return out


# -- what kind of statement --------------------------------------------------------------

_QUESTION = re.compile(
    r"[?？]\s*(?:lol|lmao|haha+|hehe|xd)?\W*$|吗[？?。]?\s*$|"
    r"^(?:(?:how|what|where|when|why|which|who)\s+)?(?:do|does|did|is|are|was|were|should|can|"
    r"could|would|will)\s+(?:you|i|we|it|there|anyone|anybody|she|he|they)\b|有没有|是不是|要不要",
    re.IGNORECASE)
_REQUEST = re.compile(r"^(?:can|could|would|will) you\b|^please\b|^帮我|^请|^麻烦|^能不能|^可以帮",
                      re.IGNORECASE)
_HEDGE = re.compile(
    r"可能|也许|大概是|好像|不确定|或许|说不定|不一定|考虑|有点想|还没想好|"
    r"\b(?:maybe|might|perhaps|probably|possibly|not sure|i guess|idk|thinking about|"
    r"considering)\b", re.IGNORECASE)
_PAST = re.compile(
    r"以前|之前|原来|曾经|小时候|过去|当年|那时候|"
    r"\b(?:used to|as a kid|as a child|when i was (?:a |little|young|younger)|"
    r"back in (?:college|school|high school|the day)|in college|in high school)\b",
    re.IGNORECASE)
_HYPOTHETICAL = re.compile(
    r"如果|假如|假设|万一|(?<![主重需还只])要是|(?<!找我)(?<!联系我)的话|就好了|我以为|还以为|本以为|"
    r"^(?:if|what if|suppose|imagine|i wish|wish)\b|\bif i\b|\bi'd\b(?! (?:say|guess))",
    re.IGNORECASE)
_REPORTED = re.compile(r"^(?:听说|据说|有人|大家|别人|人家|他们说|people|everyone|someone|"
                       r"somebody|nobody|they say)|(?<![上小传游解演学])说(?!过|话|的|正事)",
                       re.IGNORECASE)  # 小说, 传说: a novel, a legend — nobody speaking


def is_question(clause: str) -> bool:
    return bool(_QUESTION.search(clause)) and not _REQUEST.search(clause)


def is_hedged(text: str) -> bool:
    return bool(_HEDGE.search(text))


def is_past(text: str) -> bool:
    return bool(_PAST.search(text))


def is_hypothetical(clause: str) -> bool:
    """An if, a wish or a daydream: 如果我住在大理, "If I lived in Tokyo I'd...", "I'd love
    to visit Iceland"."""
    return bool(_HYPOTHETICAL.search(clause))


def is_reported(clause: str) -> bool:
    """Someone else's words or an unnamed someone: 听说他要去北京了, 大家都说我适合当老师,
    "People always tell me..."."""
    return bool(_REPORTED.search(clause.strip()))


def strip_emoji(text: str) -> str:
    return _EMOJI.sub("", text)
