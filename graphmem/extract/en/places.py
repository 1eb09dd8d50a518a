"""Places: home ("I live in", "just moved to", "she's in Phoenix") and origin ("from",
"grew up in")."""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    USER,
    Context,
    Found,
    Part,
    first_search,
    match,
    search,
)
from graphmem.extract.en.grammar import _ADV, _BE
from graphmem.extract.en.lexicon import is_noun, is_place_name, is_verb, is_word
from graphmem.extract.en.shapes import PLACE, is_place, lower_phrase, place
from graphmem.extract.en.subjects import IC

_AREA = (r"(?:(?:rural|upstate|downstate|downtown|northern|southern|eastern|western|central|"
         r"north|south|east|west|suburban|outer|inner)\s+)?")


_LIVES = (
    rf"\b(?i:(?:live|lives|living|reside|resides|residing|based|settled)\s+"
    rf"(?:(?:now|currently|here|out|over|up|down|still|alone|together|nearby|full-time)\s+)*"
    rf"in)\s+((?i:{_AREA}){PLACE})",
    rf"\b(?i:(?:moved|relocated)\s+(?:here\s+|back\s+)?from)\s+{PLACE}\s+(?i:to)\s+({PLACE})",
    rf"(?<!got )(?<!been )(?<!was )(?<!were )\b(?i:(?:moved|relocated)\s+"
    rf"(?:(?:back|over|home|here)\s+)*to)\s+({PLACE})",
    rf"\b(?i:(?:been|lived|living|stayed)\s+in)\s+({PLACE})\s+(?i:(?:for\s+)?(?:\d+|a|an|one|"
    rf"two|three|four|five|six|seven|eight|nine|ten|many|several|a few)\s+(?:years?|months?)"
    rf"|since\b)",
    rf"\b(?i:(?:an?|officially\s+an?)\s+)({PLACE})\s+(?i:resident|local)\b",
    rf"^(?i:(?:now|currently|still|these days)\s+(?:based\s+|living\s+)?in)\s+({PLACE})"
    rf"(?!(?i:\s+for\s|\s+this\s|\s+visiting))",
    rf"\b(?i:moved\s+(?:in)?to\s+(?:an?|the|our|my)\s+(?:new\s+|bigger\s+|smaller\s+)?"
    rf"(?:apartment|house|place|flat|home|condo)\s+in)\s+({PLACE})",
    # "signed a lease on a two-bedroom in Sellwood", "bought a house in Tacoma"
    rf"\b(?i:(?:signed\s+a\s+lease\s+on|bought|closed\s+on|rented|renting|moved\s+into)\s+"
    rf"(?:an?|the|our|my)\s+(?:[\w'-]+\s+){{0,2}}?(?:apartment|house|place|flat|home|condo|"
    rf"two-bedroom|one-bedroom|three-bedroom|studio|townhouse|loft)\s+in)\s+({PLACE})",
)


_STAYING = re.compile(  # "I'm in Chicago this week for a conference" is a visit
    r"\b(?:for|on)\s+(?:a\s+|an\s+|the\s+)?(?:vacation|holiday|business|trip|work|conference|"
    r"weekend|week|visit|meeting|wedding|few)|\bvisiting\b|\bthis (?:week|weekend)\b|"
    r"\btoday\b|\btonight\b|\bright now\b|\bfor\s+(?:\d+|a|one|two|three|four|five|six|"
    r"seven|eight|a\s+few|a\s+couple\s+of)\s+(?:days?|nights?|weeks?)\b", IC)


_LOWER_PLACE = re.compile(  # "i live in leeds": one place word said in lower case
    r"\b(?:live|lives|living|based)\s+(?:(?:now|currently|out)\s+)?in\s+(?!(?:a|an|the|my|"
    r"our|his|her|their|this|that|fear|denial|hope|peace|sin|poverty|luxury|comfort|harmony|"
    r"misery|style|town|the city|it|there|here|what|which)\b)([a-z]{3,})\b"
    r"(?!\s+(?:with|and|on|in|for|of)\b)", IC)


# Cues after which a place typed in lower case is where someone lives: "we close on a
# house in canal winchester", "bought a condo in bedford", "signed a lease on a 2 bed in
# pilsen", "moved to moncton", "lives alone in zanesville", "our place in marrickville".
_HOME_LOWER = re.compile(
    r"\b(?:(?:live|lives|living|lived)\s+(?:(?:alone|now|here|still|together)\s+)*in|"
    r"moved\s+(?:back\s+)?to|"
    r"(?:bought|buy|buying|closed\s+on|close\s+on|closing\s+on|lease\s+on|moved\s+into|rent|"
    r"rented|renting|settled\s+in(?:to)?)\s+(?:(?:an?|the|our|my)\s+)?(?:[\w-]+\s+){0,3}?"
    r"(?:house|home|condo|apartment|flat|place|studio|townhouse|terrace|bungalow|ranch|bed|"
    r"bedroom|unit|cottage|duplex|villa|loft|maisonette|\dbhk|\d\s?bhk|bhk)!?\s+in|"
    r"(?:our|my)\s+(?:new\s+)?(?:house|home|condo|apartment|flat|place|studio)\s+in)\s+", IC)
_IN_LOWER = re.compile(r"^\s*(?:'s|is|'m|am|are|'re)\s+(?:now\s+|still\s+|currently\s+)?in\s+", IC)


# A home taken, said without "live" or "moved": an offer on it accepted ("our offer on a
# house in knowle got accepted", "OFFER ACCEPTED!! 3 bed in papakura"), or one got or
# rented ("got a 1 bed in salthill", "im getting my own 1 bedroom in leslieville", "we rent
# a semi in east york"). An offer not yet accepted ("putting an offer on…") is no home.
_HOME_KIND = (r"(?:(?:(?:\d|one|two|three|four|five)[- ]?(?:bed(?:room)?(?:ed)?|br|bhk)|\dbhk|"
              r"\d\s?bhk)(?:\s+(?:house|flat|apartment|semi|terrace|condo|townhouse|bungalow|"
              r"unit|weatherboard))?|house|condo|condominium|apartment|flat|townhouse|terrace|"
              r"semi|bungalow|cottage|duplex|maisonette|studio|weatherboard)")
_TAKEN = re.compile(rf"\b(offer\s+on|accepted!*|got|getting|rent|renting|found|took|bought|"
                    rf"lease\s+on|won)\s+(?:(?:an?|the|our|my)\s+)?(?:own\s+)?(?:[\w-]+\s+)"
                    rf"{{0,2}}?(?:{_HOME_KIND}|(?P<place>place))\s+in\s+", IC)
_HOME_FIRST = re.compile(rf"^\s*(?:(?:an?|the|our|my)\s+)?(?:[\w-]+\s+)?{_HOME_KIND}\s+in\s+", IC)
_ACCEPTED = re.compile(r"\boffer\b[^.!?\n]{0,80}?\baccepted\b|\baccepted\s+(?:our|my)\s+offer|"
                       r"\bsigned\s+(?:a|the)\s+lease\b|\bwon\s+the\s+auction\b|"
                       r"\bgot\s+the\s+keys\b|\bfound\s+(?:a|our)\s+(?:new\s+)?(?:flat|place|house|"
                       r"apartment|home)\b", IC)
# "found a place in Brooklyn" is a home when the message is about one (not a restaurant)
_HOUSING = re.compile(r"\b(?:mov(?:e|ed|ing)|shifting|lease|rent|pcm|deposit|landlord|"
                      r"bed(?:room)?s?|bhk|flat|flatmates?|roommates?|keys)\b", IC)


def _home_taken(t: str, part: Part, ctx: Context, found: Found) -> bool:
    """A home taken (above): where the speaker lives from now on. "OFFER ACCEPTED!! 3 bed
    in papakura": the home may open the sentence after the offer's."""
    accepted = _ACCEPTED.search(ctx.message or t) is not None
    m = _TAKEN.search(t) or (_HOME_FIRST.match(t) if accepted else None)
    if m is None or (m.re is _TAKEN and m.group(1).lower().startswith(("offer", "accepted"))
                     and not accepted):
        return False
    if m.re is _TAKEN and m.group("place") and not _HOUSING.search(ctx.message or t):
        return False  # "found a place in soho for her birthday dinner"
    rest = t[m.end():]
    if (named := re.match(PLACE, rest)) and (where := place(named.group(0))):
        found.say(part, "lives_in", where, False, 0.8, "place")
        return True
    words = lower_phrase(rest, 3).split()
    while len(words) > 1 and is_verb(words[-1]) and not is_noun(words[-1]):
        words.pop()  # "knowle got accepted": not the place's words
    where = " ".join(words)
    if where and is_place(where) and where[0].islower():
        found.say(part, "lives_in", where.title(), False, 0.8, "place")
        return True
    return False


def _lower_home(t: str, part: Part, found: Found) -> bool:
    if (m := _HOME_LOWER.search(t)) and not _STAYING.search(t[m.end():]):
        where = lower_phrase(t[m.end():], 3)  # (not "somewhere to live in plymouth for 8 weeks")
        if where and is_place(where) and where[0].islower():
            found.say(part, "lives_in", where.title(), False, 0.8, "place")
            return True
    if (m := _IN_LOWER.match(t)) and not _STAYING.search(t[m.end():]):
        where = lower_phrase(t[m.end():], 3)  # "shes in zanesville", "nikhil is in boston"
        if where and where[0].islower() and (not is_word(where.split()[0])
                                             or is_place_name(where)):
            found.say(part, "lives_in", where.title(), False, 0.8, "place")
            return True
    return False


# A move said by the home moved into, its place before it or after "into": "moved into the
# ancoats flat", "moved in to leslieville!!", "we're officially in the catford flat" (not
# "moved into a bigger office", "in the spare room").
_HOME_WORD = r"(?:flat|house|apartment|place|condo|studio|home|townhouse|bungalow|unit)"
_MOVED_INTO = (
    re.compile(rf"\bmoved\s+(?:in\s*)?(?:in)?to\s+(?:the|our|my|a|an)\s+(?P<at>[\w'-]+(?:\s+"
               rf"[\w'-]+)?)\s+(?:new\s+)?{_HOME_WORD}\b", IC),
    re.compile(r"\bmoved\s+in\s*to\s+(?!(?:the|our|my|a|an|her|his|their|it|this|that)\b)"
               r"(?P<at>[\w'-]+(?:\s+[\w'-]+)?)", IC),
    re.compile(rf"\b(?:officially|finally|now|all)\s+(?:moved\s+)?in\s+(?:the|our)\s+"
               rf"(?P<at>[\w'-]+(?:\s+[\w'-]+)?)\s+(?:new\s+)?{_HOME_WORD}\b", IC),
)


def _moved_into(t: str, part: Part, found: Found) -> bool:
    for pattern in _MOVED_INTO:
        if not (m := pattern.search(t)):
            continue
        said = m.group("at")
        where = place(said) if said[0].isupper() else lower_phrase(said, 2)
        if where and (said[0].isupper() or is_place(where)) and (
                not is_word(where.lower()) or is_place_name(where)):
            found.say(part, "lives_in", where if where[0].isupper() else where.title(), False,
                      0.85, "place")
            return True
    return False


# Someone coming to visit from where they live: "my sister niamh is coming over from london",
# "my mam bernie drove down from mullingar", "diane visiting next week from portland". Said
# of others only (the user setting off from home is a trip); not "back from" a trip, not
# "moving from" the home left.
_VISITING_FROM = re.compile(
    r"^\s*(?:(?:is|'s|are|'re|was|were|will\s+be|might|will|'ll)\s+)?(?:(?:also|just|all)\s+)?"
    r"(?:coming|came|comes|come|flying|flew|flies|fly|driving|drove|drives|drive|visiting|"
    r"travell?ing|travell?ed)\s+(?:(?:over|up|down|in|out|across|all\s+the\s+way)\s+)*"
    r"(?:(?:next|this|on)\s+\w+\s+)?from\s+(?!(?:work|school|college|uni|church|hospital|home|"
    r"town|practice|training|holiday|vacation|abroad|overseas|there|here|the|a|an|my|her|his|"
    r"their|our)\b)", IC)


def _visiting_from(t: str, part: Part, found: Found) -> bool:
    if part.subjects is None or USER in part.subjects or not (m := _VISITING_FROM.match(t)):
        return False
    rest = t[m.end():]
    if named := re.match(PLACE, rest):
        where = place(named.group(0))
    else:
        where = lower_phrase(rest, 2)
        where = where.title() if where and where[0].islower() and is_place(where) else ""
    if where:
        found.say(part, "lives_in", where, False, 0.8, "place")
    return bool(where)


def _home(t: str, part: Part, ctx: Context, found: Found) -> None:
    if _home_taken(t, part, ctx, found) or _lower_home(t, part, found) or _moved_into(
            t, part, found) or _visiting_from(t, part, found):
        return
    if (m := _LOWER_PLACE.search(t)) and m.group(1).islower():
        found.say(part, "lives_in", m.group(1).capitalize(), False, 0.8, "place")
        return
    if m := search(rf"\b(?i:moved\s+back\s+home\s+to|back\s+home\s+in)\s+({PLACE})", t):
        found.say(part, "is_from", place(m.group(1)), False, 0.8, "place")  # home is origin
    m = first_search(_LIVES, t)
    if m is None and (m := match(rf"^\s*(?i:{_BE}\s+(?:now\s+|currently\s+|still\s+)?"
                                 rf"(?:based\s+)?in)\s+({PLACE})(.*)$", t)):
        m = None if _STAYING.search(m.group(2)) else m
    if m is not None:
        found.say(part, "lives_in", place(m.group(1)), False, 0.85, "place")


# "we grew up in tucson", "born and raised in leeds": where one is from, typed in lower case
# (not "grew up in poverty", "born in march", "in the countryside")
_NOT_ORIGINS_TEXT = """poverty wealth luxury comfort chaos church hospital care foster
    captivity suburbia public private denial fear hope peace misery style town city
    january february march april may june july august september october november december
    spring summer autumn fall winter lockdown wartime secret"""
_NOT_ORIGINS = frozenset(_NOT_ORIGINS_TEXT.split())
_ORIGIN_LOWER = re.compile(r"\b(?:grew\s+up|born\s+and\s+raised|(?:was|were)\s+born|raised)\s+"
                           r"in\s+(?!(?:a|an|the|my|our|his|her|their|this|that)\b)(?=[a-z])", IC)
# "my wife is from chennai", "shes from kerala": a place said in lower case after "from"
# (a place by its shape or by name — not "from work", "from school"). Not "we're from
# phoenix so not used to altitude": a household is from where it lives.
_FROM_LOWER = re.compile(r"^\s*(?:'m|am|'s|is)\s+" + _ADV + r"(?:originally\s+)?from\s+(?=[a-z])",
                         IC)


def _origin(t: str, part: Part, ctx: Context, found: Found) -> None:
    if (low := _ORIGIN_LOWER.search(t)) and (where := lower_phrase(t[low.end():], 3)) and (
            where.split()[0] not in _NOT_ORIGINS and (is_place(where) or is_noun(where))):
        found.say(part, "is_from", where.title(), False, 0.85, "place")
        return
    if (low := _FROM_LOWER.match(t)) and (where := lower_phrase(t[low.end():], 3)) and (
            where.split()[0] not in _NOT_ORIGINS and is_place(where)):
        found.say(part, "is_from", where.title(), False, 0.85, "place")
        return
    if m := (match(rf"^\s*(?i:(?:{_BE}\s+)?{_ADV}(?:originally\s+)?from)\s+({PLACE})", t)
             or search(rf"\b(?i:(?:grew up|born and raised|was born|born|raised)\s+in)\s+"
                       rf"(?:(?:a|an|the)\s+(?:[a-z]+\s+){{0,3}}in\s+)?({PLACE})", t)
             or search(rf"\b(?i:hails? from|a native of)\s+({PLACE})", t)
             or search(r"\b(?i:originally from|from\s+(?=\w+\s+originally))\s*"
                    r"(?!(?:the|a|an|my|here|there|around|home|out)\b)([a-z]{3,})\b", t)):
        value = place(m.group(1))
        if _ADOPTED_FROM.search(value) or (not part.subject_said and ctx.last is not None
                                           and ctx.last.predicate == "has_pet"):
            return  # "ginger boy, 2 years old, from RSPCA Leeds": where a pet came from
        found.say(part, "is_from", value.capitalize() if value.islower() else value, False,
                  0.85, "place")


# Where a pet is adopted or bought from, not a place anyone is from.
_ADOPTED_FROM = re.compile(r"\b(?:rspca|spca|shelter|rescue|breeder|humane society|pound|"
                           r"dogs trust|battersea|cats protection|pet shop|petstore)\b", IC)


_HOME_NOUN = r"apartment|flat|house|place|condo|home|studio"


def _home_of(t: str, ctx: Context, found: Found) -> None:
    """"out of my apartment in Queens", "at her place in Savannah": where someone lives."""
    m = search(rf"\b(my|our|her|his)\s+(?!(?:vacation|holiday|summer|beach|lake|second|old|"
               rf"parents'?|work)\s)(?:[a-z]+\s+)?(?:{_HOME_NOUN})\s+in\s+({PLACE})", t, IC)
    if m is None or not m.group(2)[0].isupper():
        return
    owner = USER if m.group(1).lower() in {"my", "our"} else ctx.person
    if owner and (value := place(m.group(2))):
        found.add(owner, "lives_in", value, False, 0.8, "place")
