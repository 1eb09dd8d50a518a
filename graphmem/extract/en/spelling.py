"""English chat spelled out before the rules read it: chat words and common typos ("r",
"alergic"), contractions typed without their apostrophe ("dont", "shes", "im"), letter runs
("loooove"), with a map back to the original text's characters."""

from __future__ import annotations

import re

IC = re.IGNORECASE


# Chat spellings and common typos, as words: "im alergic to walnuts, cashews r fine tho".
CHAT_WORDS = {
    "r": "are", "u": "you", "ur": "your", "tho": "though", "bc": "because", "cuz": "because",
    "coz": "because", "liv": "live", "livin": "living", "frm": "from", "alergic": "allergic",
    "allergic": "allergic", "alergy": "allergy", "allergie": "allergy", "fav": "favourite",
    "fave": "favourite", "favorite": "favourite", "atm": "at the moment", "gf": "girlfriend",
    "bf": "boyfriend", "hubby": "husband", "bday": "birthday", "w/": "with", "wanna":
    "want to", "gonna": "going to", "prolly": "probably", "ppl": "people", "pls": "please",
    "plz": "please", "vegitarian": "vegetarian", "vegeterian": "vegetarian",
    # a dropped g ("goin", "nothin") and Scots spellings ("allergic tae penicillin", "he's
    # goin wi his pals", "whit dae ye think", "she cannae stand it", "telt them")
    "goin": "going", "doin": "doing", "gettin": "getting", "comin": "coming", "sayin":
    "saying", "runnin": "running", "nothin": "nothing", "somethin": "something", "tae": "to",
    "intae": "into", "wi": "with", "dae": "do", "whit": "what", "noo": "now", "aboot": "about",
    "oot": "out", "doon": "down", "hame": "home", "gie": "give", "telt": "told", "cannae":
    "can't", "didnae": "didn't", "dinnae": "don't", "disnae": "doesn't", "isnae": "isn't",
    "wasnae": "wasn't", "wouldnae": "wouldn't", "couldnae": "couldn't"}
_CHAT_WORD = re.compile(r"(?<![\w'.&/-])(?:" + "|".join(
    re.escape(w) for w in sorted(CHAT_WORDS, key=len, reverse=True)) + r")(?![\w'.&-])", IC)


def chat_word(m: re.Match[str]) -> str:
    word = CHAT_WORDS[m.group(0).lower()]
    return word.capitalize() if m.group(0)[0].isupper() and len(m.group(0)) > 1 else word


# Contractions typed without their apostrophe ("dont", "shes", "theyre"): words no other
# English word is spelled as ("its", "ill", "were", "well", "wont", "hell", "id" are).
_BARE_CONTRACTIONS_TEXT = """
    dont doesnt didnt cant couldnt wouldnt shouldnt isnt arent wasnt werent hasnt havent
    hadnt aint shes hes thats whats theyre youre weve theyve youve ive im"""
_BARE_CONTRACTIONS = {w: w[:-1] + "'" + w[-1] if w.endswith("nt") else
                      {"shes": "she's", "hes": "he's", "thats": "that's", "whats": "what's",
                       "theyre": "they're", "youre": "you're", "weve": "we've",
                       "theyve": "they've", "youve": "you've", "ive": "I've", "im": "I'm"}[w]
                      for w in _BARE_CONTRACTIONS_TEXT.split()}
_BARE_CONTRACTIONS["cant"] = "can't"
_BARE_CONTRACTIONS["aint"] = "ain't"
_BARE_CONTRACTION = re.compile(r"(?<![\w'-])(?:" + "|".join(_BARE_CONTRACTIONS) + r")(?![\w'-])",
                               IC)


# In-laws typed without hyphens: "my mother in law lakshmi", "my in laws" — one relative.
_IN_LAW = re.compile(r"\b(?:mother|father|sister|brother|son|daughter)s?\s+in\s+laws?\b"
                     r"|(?:(?<=\bmy\s)|(?<=\bour\s))in\s+laws\b", IC)


# "me" and "ma" for "my" before the people of one's life (Irish, Scots, northern English: "me
# ma bernie", "me mate paddy", "ma boy callum", "ma wife"), "ma" for mum after a possessive
# ("my ma", "our ma"), and "other half" for the partner ("shauna (other half)").
_FAMILY_AFTER = (r"(?:ma|da|mam|mum|dad|mammy|daddy|wife|missus|husband|fella|mate|pal|son|"
                 r"daughter|boy|lassie|girl|wean|weans|brother|sister|nan|nanna|granny|gran|"
                 r"family|kids|other\s+half|auld|oul)")
_FAMILY = re.compile(
    rf"(?P<my>(?<![\w'-])(?:me|ma)(?=\s+{_FAMILY_AFTER}\b))"
    r"|(?P<ma>(?:(?<=\bmy\s)|(?<=\bour\s)|(?<=\bme\s))ma\b(?!-))"
    r"|(?P<half>(?:(?<=\bmy\s)|(?<=\bme\s)|(?<=\bour\s)|(?<=\())other\s+half\b)"
    r"|(?P<kin>(?<![\w'-])(?:mam|mammy|da)\b(?!-))", IC)
_FAMILY_WORD = {"my": "my", "ma": "mum", "half": "partner"}


# A dropped g beyond the common ones above ("shona's expectin", "we're movin to lisburn",
# "hes home n waggin", "been fishin"): a word no dictionary lists, ending in "in", whose
# "-ing" is a verb's ("justin", "kevin" and "robin" are no verb's), typed in lower case.
_DROPPED_G = re.compile(r"(?<![\w'-])[a-z]{2,}[a-z]in(?![\w-])", IC)


def dropped_g(word: str) -> str | None:
    """``word`` with its dropped g put back, or None when it is no "-in'" form."""
    from graphmem.extract.en.lexicon import is_verb, is_word

    low = word.lower()
    if is_word(low) or not low.endswith("in") or word[0].isupper():  # "Dustin": a name
        return None
    stem = low[:-2]
    doubled = len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "aeiouls"
    if is_verb(stem) or is_verb(stem + "e") or (doubled and is_verb(stem[:-1])):
        return word + "g"
    return None


def _family_word(m: re.Match[str]) -> str:
    """What a family word of ``_FAMILY`` says in standard English (mam → mum, da → dad) —
    ``m`` of ``_FAMILY`` or of a pattern that holds it (its groups keep their names)."""
    said = next((g for g in _FAMILY_WORD if m.group(g)), "")
    return _FAMILY_WORD.get(said) or ("dad" if m.group(0).lower() == "da" else "mum")


def _hyphened(said: str) -> str:
    return re.sub(r"\s+", "-", said)


def _contraction(m: re.Match[str]) -> str:
    word = _BARE_CONTRACTIONS[m.group(0).lower()]
    return word if word.startswith("I'") or not m.group(0)[0].isupper() else word.capitalize()


def normalize(clause: str) -> str:
    """Chat spelling evened out: curly quotes, "reallly loooove" → "really loove",
    "im" / "i'm" → "I'm", "dont" → "don't", "shes" → "she's", "r" → "are", "alergic" →
    "allergic"."""
    text = clause.replace("’", "'").replace("‘", "'")
    text = re.sub(r"([a-zA-Z])\1{2,}", r"\1\1", text)
    text = _CHAT_WORD.sub(chat_word, text)
    text = _DROPPED_G.sub(lambda m: dropped_g(m.group(0)) or m.group(0), text)
    text = _BARE_CONTRACTION.sub(_contraction, text)
    text = _IN_LAW.sub(lambda m: _hyphened(m.group(0)), text)
    text = _FAMILY.sub(_family_word, text)
    return re.sub(r"\bi'(m|ve|ll|d)\b", r"I'\1", text)


def normalize_mapped(text: str) -> tuple[str, list[int]]:
    """``text`` with chat words and bare contractions spelled out (as ``normalize`` does,
    letter runs aside), and for each character of the result the index of the character
    of ``text`` it comes from — so that spans of the original still point into it."""
    text = text.replace("’", "'").replace("‘", "'")
    out: list[str] = []
    where: list[int] = []
    last = 0
    for m in re.finditer(rf"(?P<in_law>{_IN_LAW.pattern})|(?P<family>{_FAMILY.pattern})|"
                         rf"{_CHAT_WORD.pattern}|"
                         rf"{_BARE_CONTRACTION.pattern}|(?P<g>{_DROPPED_G.pattern})|"
                         r"(?<![\w'-])i(?=')|(?<![\w'-])i(?![\w'-])", text, IC):
        said = m.group(0)
        spelled = dropped_g(said) if m.group("g") else None
        if m.group("g") and spelled is None:
            continue
        word = ("I" if said.lower() == "i" else _hyphened(said) if m.group("in_law")
                else _family_word(m) if m.group("family")
                else chat_word(m) if said.lower() in CHAT_WORDS
                else spelled or _contraction(m))
        out.append(text[last:m.start()])
        where.extend(range(last, m.start()))
        out.append(word)
        where.extend([m.start()] * len(word))
        last = m.end()
    out.append(text[last:])
    where.extend(range(last, len(text)))
    return "".join(out), where
