"""Full-text query strings: the user's words, escaped, OR-ed — never Lucene syntax from
user text. Chinese runs are segmented with jieba (the ``cjk`` analyzer then bigrams them).

A question's keyword terms are capped: the first ``MAX_KEYWORD_TERMS`` distinct words, no
word longer than ``MAX_WORD_CHARS``, and no more than ``MAX_KEYWORD_CLAUSES`` Lucene clauses
in all (a Chinese word of n characters is n - 1 bigram clauses in a ``cjk`` index). Lucene
refuses a query of more than 1,024 clauses (``TooManyClauses``: 342 distinct English words
did it), and every term costs Neo4j time."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from graphmem.text import topics
from graphmem.text.language import is_chinese, jieba_words
from graphmem.text.words import QUERY_STOPWORDS, content_words

_LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/&|])')
# A word keeps its apostrophes ("didn't", "O'Brien"): split there, "Samantha's" gave "s" and
# "didn't" gave "t", one-letter terms that matched rare messages with odd quote marks
# ("it`s") at a high weight.
_QUERY_WORD = re.compile(r"[\u3400-\u9fff]+|\w+(?:['\u2019]\w+)*")
_POSSESSIVE = re.compile(r"'s$")

# Words a question needs but nearly every chat message has too ("What outdoor activities
# does John enjoy?": any "Enjoy!" is a hit). In message search they are optional when
# the question has other words (a hit needs one of those); alone they are searched as usual.
_WEAK_WORDS_TEXT = """
    enjoy enjoys enjoyed like likes liked love loves loved go goes went going get gets got
    make makes made feel feels felt think thinks thought know knows knew want wants wanted
    take takes took see sees saw look looks looking looked say says said tell told use used
    new good great nice fun favorite favourite thing things stuff time times kind kinds
    type types sort sorts lot lots really way ways recently usually often always never
    many much day days year years
    """
WEAK_WORDS = frozenset(_WEAK_WORDS_TEXT.split())
MAX_KEYWORD_TERMS = 64
MAX_KEYWORD_CLAUSES = 256
MAX_WORD_CHARS = 64  # a longer run of letters is no word anyone searches for
# A question that names a topic ("what sports have I done") also searches the words that
# say one ("badminton", "羽毛球": graphmem.text.topics), each counting TOPIC_BOOST of a word
# of the question, within MAX_TOPIC_CLAUSES more clauses.
TOPIC_BOOST = 0.5
MAX_TOPIC_CLAUSES = 256


def escape_lucene(term: str) -> str:
    """``term`` with Lucene query syntax characters backslash-escaped."""
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


def lucene_terms(text: str, stopwords: frozenset[str] = QUERY_STOPWORDS,
                 chinese_phrases: bool = False, with_topics: bool = False
                 ) -> list[dict[str, Any]]:
    """The distinct words of ``text`` (lowercased, function words out; all words when only
    function words are left), each as ``{"word": …, "term": …, "weak": …}`` — the term
    escaped for Lucene, ``weak`` for a word in ``WEAK_WORDS``. With ``chinese_phrases``, a
    Chinese word of several characters is a quoted phrase: for an index whose analyzer
    splits Chinese into single characters (``english``), the phrase matches the word
    itself, not any of its characters. ``with_topics``: the words of a topic the question
    names too (``topic_words``), boosted ``TOPIC_BOOST``."""
    words: list[str] = []
    for run in _QUERY_WORD.findall(text):
        words.extend(jieba_words(run) if is_chinese(run) else [_latin_word(run)])
    content = [w for w in words if not _function_word(w, stopwords)] or words
    unique = cap_words(dict.fromkeys(w for w in content if w.strip()))

    def term(w: str) -> str:
        return f'"{w}"' if chinese_phrases and is_chinese(w) and len(w) > 1 else escape_lucene(w)

    out = [{"word": w, "term": term(w), "weak": w in WEAK_WORDS} for w in unique]
    if with_topics:
        said = topic_words(text, set(unique))
        out += [{"word": w, "term": f"{term(w)}^{TOPIC_BOOST}", "weak": False} for w in said]
    return out


def topic_words(text: str, searched: set[str]) -> list[str]:
    """The words that say a thing of a topic ``text`` names, in its language, not already
    ``searched``, within ``MAX_TOPIC_CLAUSES`` (``topics``)."""
    named = topics.asked(frozenset(content_words(text)))
    chinese = is_chinese(text)
    words = sorted({w for topic in named for w in topics.members(topic, chinese)} - searched)
    kept: list[str] = []
    clauses = 0
    for word in words:
        clauses += _clauses(word)
        if clauses > MAX_TOPIC_CLAUSES:
            break
        kept.append(word)
    return kept


def _clauses(word: str) -> int:
    """Lucene clauses a word costs: a Chinese word of n characters is n - 1 bigrams."""
    return max(1, len(word) - 1) if is_chinese(word) else 1


def cap_words(words: Iterable[str]) -> list[str]:
    """The first words of ``words`` within ``MAX_KEYWORD_TERMS`` and
    ``MAX_KEYWORD_CLAUSES`` (a word that does not fit is left out, and so is a word longer
    than ``MAX_WORD_CHARS``)."""
    kept: list[str] = []
    clauses = 0
    for word in words:
        if len(word) > MAX_WORD_CHARS:
            continue
        cost = _clauses(word)
        if clauses + cost <= MAX_KEYWORD_CLAUSES:
            kept.append(word)
            clauses += cost
            if len(kept) == MAX_KEYWORD_TERMS:
                break
    return kept


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
