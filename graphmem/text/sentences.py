"""Sentences and clauses of a message. Sentence boundaries respect abbreviations: "I work
as a nurse at St. Mary's hospital", "Dr. Patel", "the U.S. Postal Service", "Mt. Rainier",
"e.g.", "approx. $40" and "a Ph.D. student at U. of Michigan" each stay one sentence.
Clauses split on commas, semicolons, colons, dashes, brackets and emoji, never inside a
number ("€2,000"). Pure code, no I/O.
"""


from __future__ import annotations

import re

_MASK = "\u2024"  # ONE DOT LEADER stands in for a period that ends no sentence

_ABBREVIATIONS = (
    "mr mrs ms mx dr prof st mt ft jr sr rev gen col lt sgt capt gov sen rep pres vs etc "
    "approx est dept univ inc ltd corp ave blvd rd hwy apt bldg misc ext tel"
)
# A month or a day ends a sentence too ("staying with us till 3 Oct. also Meera got a job"),
# unless a number follows it ("Oct. 5", "Sept. 2025").
_DATE_ABBREVIATIONS = ("jan feb mar apr jun jul aug sep sept oct nov dec "
                       "mon tue tues wed thu thur thurs fri sat sun")
# (the lookahead first: most words are no abbreviation, and fail it at once)
_ABBREVIATION = re.compile(
    rf"\b(?=[a-z]{{2,6}}\.)(?:(?:{'|'.join(_ABBREVIATIONS.split())})\.|"
    rf"(?:{'|'.join(_DATE_ABBREVIATIONS.split())})\.(?=\s*\d|\S))", re.IGNORECASE)
_DOTTED = re.compile(r"\b(?:[A-Za-z]{1,2}\.){2,}")          # U.S., e.g., i.e., Ph.D., a.m.
_INITIAL = re.compile(r"\b[A-HJ-Z]\.(?=\s)")               # "U. of Michigan", "J. Smith"
_NUMBERED = re.compile(r"\b(?=[a-z]{1,3}\.)(?:no|nos|vol|fig|pp?)\.(?=\s*\d)",
                       re.IGNORECASE)  # No. 5

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

    if "." not in text:
        return text
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


def strip_emoji(text: str) -> str:
    return _EMOJI.sub("", text)
