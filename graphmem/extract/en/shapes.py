"""English values cut to their shape: a value ends where the clause moves on ("cilantro
it tastes like soap" → cilantro, "run a half marathon this spring" → run a half marathon),
a place or an organization is a proper name ("Mass General", "hallett logistics in
groveport" typed in lower case), never a clause remnant."""

from __future__ import annotations

import re

from graphmem.extract.en.subjects import IC, NOT_NAMES
from graphmem.extract.vocab import ORG_NOUN_EN

_CUT = re.compile(
    r"\s+(?:and|but|because|so|since|though|although|when|if|as|which|that|who|where|while|"
    r"too|anymore|any more|again|now|either|at all|these days|lately|right now|btw|fyi|lol|"
    r"haha|lmao|tbh|after all|esp|especially|e\.g\.|like|i think|honestly|really|a lot|"
    r"very much|so much|all the time|it|i|she|he|they|we|you|instead|for now|"
    r"every day|everyday|recently|already|originally|mostly|part-time|over|"
    r"rather than|instead of|than|says|said|thinks|reckons|swears|"
    r"full-time|for (?:the )?(?:past |last )?(?:\d+|a|an|one|two|three|few|several|many) "
    r"\w+|this (?:week|month|year|spring|summer|fall|autumn|winter)|next \w+|last \w+|"
    r"in (?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)|by \d{4}|before the \w+|someday|soon|tomorrow|today|tonight|a while ago|"
    r"yesterday|(?:\w+ )?ago)\b.*$", IC)
_LEAD_VALUE = re.compile(r"^(?:to use|using|to|the|a|an|some|also|eating|to eat|having|drinking|"
                         r"to drink|any|all|more)\s+", IC)
_NOT_A_VALUE = frozenset({"to", "for", "and", "or", "it", "that", "this", "them", "those",
                          "these", "you", "him", "her", "me", "us", "what", "how", "when",
                          "if", "everything", "something", "anything", "being", "having",
                          "with", "of", "in", "on", "at", "who", "which", "so", "as", "a",
                          "an", "the", "your", "my", "his", "their", "our", "about", "why",
                          "one", "ones"})
PLACE = r"(?:the\s+)?[A-Z][\w'.&-]*(?:\s+(?:of\s+|de\s+|la\s+)?[A-Z][\w'.&-]*)*"


def clean(value: str, words: int = 4) -> str:
    """A value as said, without what follows it in the clause or leads into it; "" when
    that leaves nothing, too much, or a word that is no value ("it", "how")."""
    value = _CUT.sub("", value.strip())
    for _ in range(2):
        value = _LEAD_VALUE.sub("", value)
    parts_ = value.strip(" .,'\"!?").split()
    if not 0 < len(parts_) <= words or parts_[0].lower() in _NOT_A_VALUE:
        return ""
    return " ".join(parts_)


_NOT_PLACES = re.compile(
    r"^(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|i|the)\b", IC)


def place(value: str) -> str:
    value = re.sub(r"^the\s+", "", value.strip(), flags=IC).strip(" ,")
    return "" if _NOT_PLACES.match(value) else value


# An employer: a name ("Mass General", "St. Mary's hospital", "the U.S. Postal Service")
# or a kind of place ("a consulting firm in Philly", "a little café downtown").
ORG_NAME = rf"{PLACE}(?:\s+(?i:{ORG_NOUN_EN}))?"
ORG = (rf"(?:{ORG_NAME}"
       rf"|(?:a|an|the)\s+(?:[a-z'-]+\s+){{0,3}}?(?i:{ORG_NOUN_EN})"
       rf"(?:\s+(?:in|downtown)\s*(?:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)?)?)")


def org(value: str) -> str:
    return re.sub(r"^(?:a|an|the)\s+", "", value.strip(), flags=IC).strip(" ,")


# Where a proper name typed in lower case ends ("hallett logistics in groveport", "birch &
# barrel in the west loop", "canal winchester june 13"): a word of the sentence's grammar,
# a time, a number, a filler.
_NAME_STOPS_TEXT = """
    in at on for with and near by to from as since so but because bc now then today
    tonight tomorrow yesterday this next last every each lol haha tho though btw here
    there which who where when while is was are were 's has have had i we he she they you
    my our his her their its it that the a an about after before until till over under
    into onto off out up down around like just also too still already probably maybe
    monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur
    thurs fri sat sun january february march april may june july august september october
    november december jan feb mar apr jun jul aug sep sept oct nov dec weekend week month
    year years months weeks days day night nights morning mornings shift shifts time part
    full remote remotely doing working start starting started done if or not ok okay pls
    please yet anymore"""
_NAME_STOPS = frozenset(_NAME_STOPS_TEXT.split())
_PHRASE_WORD = re.compile(r"\s*([A-Za-z][\w'.-]*|&)")


def lower_phrase(text: str, words: int = 4) -> str:
    """The proper name that opens ``text`` when it is typed in lower case: its words up
    to the first word of grammar, time or number (at most ``words``); "" if none."""
    out: list[str] = []
    pos = 0
    while len(out) < words and (m := _PHRASE_WORD.match(text, pos)):
        word = m.group(1)
        if word.lower().strip(".'") in _NAME_STOPS and not (word == "&" or (
                out and word.lower() == "of" and len(out) < words - 1)):
            break
        out.append(word)
        pos = m.end()
    while out and out[-1] in {"&", "of"}:
        out.pop()
    return " ".join(out).strip(".'")


def is_proper(phrase: str) -> bool:
    """Could ``phrase`` (lower case) be a proper name rather than a common noun phrase
    ("mount carmel east", "zanesville" — not "home", "bed", "the city")? Some word of it
    no dictionary lists, or several words (names of places and firms run to two or
    three)."""
    from graphmem.extract.en.lexicon import is_word

    words = [w for w in phrase.lower().split() if w not in {"&", "of"}]
    if not words or words[0] in NOT_NAMES:
        return False
    return len(words) >= 2 or not is_word(words[0])


def is_place(phrase: str) -> bool:
    """Could ``phrase`` (lower case) name a place: a proper name (``is_proper``) or a
    place a dictionary lists as a word too ("vancouver", "perth")?"""
    from graphmem.extract.en.lexicon import is_place_name

    return is_proper(phrase) or is_place_name(phrase)
