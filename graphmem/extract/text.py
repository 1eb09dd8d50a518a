"""What kind of statement a clause is: a question, a request, a hedge, the past, a
hypothesis, someone else's words. Pure code, no I/O (sentences and clauses:
``graphmem.text.sentences``)."""

from __future__ import annotations

import re

from graphmem.text.sentences import clauses, sentences, strip_emoji

__all__ = ["clauses", "is_hedged", "is_hypothetical", "is_past", "is_question", "is_reported",
           "sentences", "strip_emoji"]

# -- what kind of statement --------------------------------------------------------------

_QUESTION = re.compile(
    r"[?？]\s*(?:lol|lmao|haha+|hehe|xd)?\W*$|吗[？?。]?\s*$|"
    r"^(?:(?:how|what|where|when|why|which|who)\s+)?(?:do|does|did|is|are|was|were|should|can|"
    r"could|would|will)\s+(?:you|i|we|it|there|anyone|anybody|she|he|they)\b|有没有|是不是|要不要|"
    # chat asks without a question mark, after a few words of setting ("in google sheets how
    # do i look up a sku", "how long do i boil a gammon joint", "whats the difference")
    r"^(?:[\w'-]+\s+){0,4}?(?:how|what|which|where|when|why|who)(?:\s+(?:long|much|many|often|"
    r"far|else))?\s+(?:do|does|did|should|can|could|would|will)\s+(?:you|u|i|we|it|they|she|"
    r"he)\b|^(?:whats|what's|hows|how's|whos|who's|wheres|where's)\s",
    re.IGNORECASE)
_REQUEST = re.compile(r"^(?:can|could|would|will) you\b|^please\b|^帮我|^请|^麻烦|^能不能|^可以帮",
                      re.IGNORECASE)
_HEDGE = re.compile(
    r"可能|也许|大概是|好像|不确定|或许|说不定|不一定|考虑|有点想|还没想好|"
    r"\b(?:maybe|might|perhaps|probably|possibly|not sure|i guess|idk|thinking about|"
    r"considering)\b", re.IGNORECASE)
_PAST = re.compile(
    r"以前|之前|原来|曾经|小时候|过去|当年|那时候|年轻(?:的)?时(?:候)?|年轻那会|"
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
