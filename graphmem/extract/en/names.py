"""English names typed in chat: the words that are no name (``NOT_NAMES`` and the words a
relation or a clause may be followed by without naming anyone), and a name set apart just
before she / he ("dana, shes a 4th grade teacher"), which is who the pronoun is — typed in
lower case, with no relation said, so that no rule of ``graphmem.extract.en.subjects``
knows it for a person."""

from __future__ import annotations

import re

from graphmem.extract.candidate import Context
from graphmem.extract.vocab import PET_EN, REL_EN

IC = re.IGNORECASE
# Words that are no name, though a clause may open with one ("Thanks", "Monday", "Vegan").
_NOT_NAMES_TEXT = """
    i im the a an and but so or my our your his her their this that these those it
    its he she they we you me monday tuesday wednesday thursday friday saturday
    sunday january february march april may june july august september october
    november december god ok okay yes no hi hey hello thanks thank lol btw fyi not
    just also still really sorry sure fine good great here there now then well oh
    anyway actually honestly today tomorrow yesterday christmas thanksgiving easter
    happy excited tired back home done going getting moving working trying ready new
    from in on at with for about american canadian british english irish scottish
    welsh australian chinese japanese korean indian mexican french german italian
    spanish brazilian russian dutch swedish nigerian filipino vietnamese thai polish
    greek turkish egyptian jewish muslim christian catholic buddhist hindu asian
    european african latino latina hispanic vegan vegetarian gay straight single
    married divorced retired pregnant free busy glad proud new name remember remind
    tell ask let please note maybe wait look listen guess apparently luckily
    unfortunately hopefully same what who where when why how which everyone everybody
    nobody someone somebody wow cool nice awesome cheers congrats looky"""
NOT_NAMES = frozenset(_NOT_NAMES_TEXT.split())


# Words that follow a relation without naming anyone ("my friend group", "my dad stuff").
NOT_NAME_WORDS = frozenset({
    "group", "groups", "circle", "chat", "stuff", "things", "thing", "side", "family", "life",
    "birthday", "wedding", "house", "place", "car", "phone", "friends", "kids", "job", "work",
    "time", "days", "years", "age", "too", "either", "again", "here", "there", "now", "then",
    "today", "tonight", "tomorrow", "yesterday", "lol", "haha", "though", "tho", "btw",
    "anyway", "honestly", "literally", "basically", "actually", "really", "back", "home",
    "out", "over", "up", "down", "away", "around", "said", "says", "thinks", "passed",
    "died", "who", "whom", "whose", "that", "which", "what", "when", "where", "while",
    "because", "since", "so", "if", "or", "nor", "but", "and", "to", "for", "of", "with",
    "about", "at", "on", "in", "from", "by", "as", "than", "like", "is", "was", "are",
    "were", "be", "been", "has", "have", "had", "does", "did", "do", "will", "would",
    "can", "could", "should", "might", "must", "shall", "may", "not", "no", "yes"})
# Chat words that open a clause like a name typed in lower case would.
CHAT_WORDS_NOT_NAMES = frozenset({"tmrw", "tmr", "tbh", "idk", "ngl", "omg", "lol", "lmao", "btw",
                                   "imo", "imho", "pls", "plz", "thx", "yep", "nope", "gonna",
                                   "wanna", "gotta", "kinda", "sorta", "dunno", "tho", "cuz",
                                   "bc", "rn", "ofc", "yall", "everyones", "noone"})


# "dana, shes a 4th grade teacher", "her name is noor, she's a physio", "callum, ma boy, 31,
# he's an electrician", "greg. he's a retired firefighter", "femi from work (she's a nurse)":
# a name set apart just before she / he is who the pronoun is — typed in lower case, with
# no relation said, so no other rule knows it for a person.
_SET_APART = re.compile(
    r"(?:^|(?<=[\s.!?;:,(]))(?P<name>[A-Za-z][a-z]{1,15}(?:\s+[A-Z][a-z]{1,15})?)"
    r"(?:\s+from\s+(?:work|school|uni|college|church|the\s+[a-z]+))?"
    r"(?:\s*,\s*[\w' ]{1,14}?){0,2}\s*(?:[,.:;(]|\s-+)\s*$")
# Words before a name that make it a place or a thing ("went to Paris, she", "the food, he")
_NOT_BEFORE_NAME = frozenset({
    "to", "in", "at", "from", "for", "of", "on", "with", "near", "around", "through", "into",
    "onto", "by", "about", "after", "before", "like", "than", "the", "a", "an", "my", "our",
    "your", "his", "her", "their", "this", "that", "these", "those", "so", "very", "too",
    "really", "some", "any", "no", "every", "its", "it's", "was", "were", "be", "been", "not"})


# Words before a lower-case dictionary word that make it a name given ("her name is dana",
# "she's marrying aditya", "me and daniel"); interjections and ways to address anyone.
_INTRODUCING = frozenset({"is", "called", "named", "met", "meet", "marrying", "married",
                          "dating", "and"})
_SAID_TO_ANYONE = frozenset({"ugh", "um", "uh", "hmm", "ah", "aw", "aww", "ooh", "yay", "welp",
                             "meh", "oof", "eh", "whoa", "gosh", "bro", "dude", "man", "mate",
                             "guys", "babe", "hun", "anyways", "omg", "lmao", "ikr", "pfft",
                             "him", "them", "us", "yours", "mine", "ours", "theirs"})


def named_just_before(before: str, pronoun: str, ctx: Context,
                       clause: str) -> str | None:
    """The person a name set apart right before ``pronoun`` names (see ``_SET_APART``),
    when nothing says it is a place, a thing or a word of the sentence's grammar; the
    message's earlier sentences count when the pronoun opens the clause."""
    if not before.strip():  # the pronoun opens the clause: what the message said before it
        at = ctx.message.find(clause) if clause else -1
        before = ctx.message[:at] if at > 0 else ""
    tail = before[-80:]
    pos = 0
    while m := _SET_APART.search(tail, pos):  # the nearest name that is one: "…at a testing
        pos = m.start("name") + 1  # center, Priya (shes a pharmacist…)" is Priya's
        if entity := _set_apart_person(m, tail, pronoun, ctx):
            return entity
    return None


def _set_apart_person(m: re.Match[str], tail: str, pronoun: str, ctx: Context) -> str | None:
    """The person ``m``'s name is, or None when it is a place, a thing, a dictionary word
    or someone of the other gender."""
    name = m.group("name")
    low = name.split()[0].lower()
    prior = tail[:m.start()].split()
    if (low in NOT_NAMES or low in NOT_NAME_WORDS or low in CHAT_WORDS_NOT_NAMES
            or (prior and prior[-1].lower().strip(",.(") in _NOT_BEFORE_NAME)
            or re.fullmatch(rf"(?:{REL_EN}|{PET_EN})s?", low, IC)
            or not re.search("[aeiouy]", low)):
        return None
    from graphmem.extract.en.lexicon import is_adjective, is_verb, is_word
    from graphmem.extract.en.spelling import dropped_g

    if low not in ctx.names and name[0].islower() and ctx.person_said == ctx.sentence and (
            ctx.she_or_he(pronoun) is not None):
        return None  # "my brother karthik finally left infosys, he…": who was just named
    if low not in ctx.names and (  # (a list of things: "her insulin and meds (she's…")
            low in _SAID_TO_ANYONE or is_adjective(low) or is_verb(low)
            or (prior and (is_adjective(prior[-1].lower()) or prior[-1][0].isdigit()))
            or (len(prior) > 1 and prior[-1].lower() in {"and", "or", "&"} and prior[-2].isalpha()
                and prior[-2].lower() not in {"me", "i", "him", "her"} and is_word(prior[-2]))
            or low.endswith(("ing", "ed")) or dropped_g(low)
            or (name[0].islower() and is_word(low) and not (
                not prior or prior[-1].endswith((".", "!", "?"))
                or prior[-1].lower() in _INTRODUCING))):
        return None  # a dictionary word typed in lower case: a name only where one is given
    entity = ((ctx.names.get(low) or name) if name[0].isupper()
              else ctx.names.get(low, low.capitalize()))
    gender = "f" if pronoun.lower() == "she" else "m"
    if ctx.genders.get(entity, gender) != gender:
        return None
    ctx.names.setdefault(low, entity)
    ctx.genders.setdefault(entity, gender)
    ctx.meet(entity)
    return entity
