"""People: the user's own name ("I'm Dana", "call me Kenji"), pets ("a dog named Biscuit"),
who a thing was about ("that was my brother"), and corrections."""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    ENGAGED,
    PARTNER_END,
    USER,
    Context,
    Found,
    Part,
    match,
    search,
)
from graphmem.extract.en.grammar import is_name
from graphmem.extract.en.lexicon import is_word
from graphmem.extract.en.shapes import clean
from graphmem.extract.en.subjects import IC, KIN_MOD, NAME, NOT_NAMES, NOT_PETS, singular
from graphmem.extract.vocab import (
    DIET_EN,
    ENGAGED_EN,
    PARTNERS_EN,
    PET_EN,
    REL_EN,
)


def _self_name(t: str, part: Part, ctx: Context, found: Found) -> None:
    """"I'm Dana" (the whole part, perhaps "…here" / "…from accounting"); "my daughter's
    name is Lily"."""
    if (m := match(rf"^'s\s+(?i:(?:full\s+|real\s+)?name)(?:'s|\s+is)\s+({NAME})", t)) and (
            part.subjects is not None and m.group(1).split()[0].lower() not in NOT_NAMES):
        found.say(part, "name", m.group(1), False, 0.9, "name")
        for subject in part.subjects:
            ctx.names[m.group(1).lower()] = subject
    if (m := match(rf"^(?:is|'s)\s+({NAME})\s*(?:and\b|$)", t)) and part.subjects not in {
            None, (USER,)} and m.group(1).split()[0].lower() not in NOT_NAMES:
        found.say(part, "name", m.group(1), False, 0.9, "name")  # "my best friend is Sarah"
    if part.subjects != (USER,):
        return
    m = (match(rf"^(?:'m|am)\s+({NAME})(?:\s+(?:here|from\s+.+))?(?:\s+(?i:btw|by the way|fyi))?"
               rf"(?:\s+and|\s*,\s*(?:(?:she|he|they)/\w+|"
               rf"(?i:btw|by the way|nice to meet you)\b.*))?"
               rf"\s*$", t)
         or match(rf"^(?i:go by|usually go by)\s+({NAME})\b", t))
    if m and is_name(m.group(1)):
        found.say(part, "name", m.group(1), False, 0.9, "name")
    elif (name := _lower_name(match(r"^(?:'m|am)\s+([a-z][a-z'-]+)(?:\s+([a-z][a-z'-]+))?(?=\s*"
                                     r"(?:\bbtw\b|\bby the way\b|\bhere\b|$))", t))) and search(
            rf"\b{re.escape(name.lower())}\s*(?:,\s*\d|btw|by the way|here)", ctx.sentence.lower()):
        found.say(part, "name", name, False, 0.85, "name")  # "im tomas btw", "im bev macisaac, 66"


def _lower_name(m: re.Match[str] | None, surname_any: bool = False) -> str:
    """A name typed in lower case: a first word no dictionary lists ("tomas", "bev"), and
    the word after it when it is no dictionary word either ("macisaac") — or any word, at a
    sign-off ("sign it rosie hughes")."""
    if m is None or m.group(1) in NOT_NAMES or is_word(m.group(1)) or "-" in m.group(1) or (
            search(rf"^(?:{DIET_EN})$|(?:arian|ist|ish|ed|ic)$", m.group(1), IC)):
        return ""  # "I'm keto", "I'm pescatarian", "im gluten-free": a diet, not a name
    last = m.group(2) or ""
    if last and (last in NOT_NAMES or (is_word(last) and not surname_any)):
        last = ""
    return " ".join(w.capitalize() for w in (m.group(1), last) if w)


def signed(t: str, found: Found) -> None:
    """The user's name at a sign-off they ask for: "sign it rosie hughes"."""
    m = match(r"^(?:(?:and|pls|please)\s+)*(?:sign\s+(?:it|off|this|the\s+\w+)(?:\s+(?:as|from|"
              r"with))?|signed)\s*,?\s+([A-Za-z][a-z'-]+)(?:\s+([A-Za-z][a-z'-]+))?\s*[.!]*$",
              t, IC)
    if m and (name := _lower_name(re.match(r"(\S+)(?:\s+(\S+))?", " ".join(
            w.lower() for w in m.groups() if w)), surname_any=True)):
        found.add(USER, "name", name, False, 0.85, "name")


# (not "passed her driving test", "passed on the message")
_DIED = (r"^\s*(?:just\s+|sadly\s+|recently\s+)?(?:died|passed away|is gone|was put down|"
         r"crossed the rainbow bridge|passed(?:\s+on)?(?=\s*(?:$|[,.;!]|\s(?:in|last|this|"
         r"on\s+\w+day|yesterday|recently|a\s+few|\d|\w+\s+(?:years?|months?|weeks?|days?)"
         r"\s+ago))))")


def _pets(t: str, part: Part, ctx: Context, found: Found) -> None:
    if part.subjects and re.fullmatch(PET_EN, part.subjects[0], IC) and search(_DIED, t, IC):
        found.add(USER, "has_pet", part.subjects[0], True, 0.85, "pet")  # "my cat died"
        return
    if part.subjects and len(part.subjects) == 1 and re.fullmatch(
            REL_EN, part.subjects[0], IC) and search(_DIED, t, IC):
        died(part.subjects[0], found)  # "my wife passed away in 2019"
        return
    m = search(rf"\b(?i:(?:have|has|'ve got|got|adopted|own|owns|just got)\s+(?:an?|two|three|"
               rf"four|\d+)\s+(?:little\s+|new\s+|old\s+|rescue\s+)?)(?P<pet>(?i:{PET_EN}))"
               rf"(?:e?s)?\b(?!\s+(?i:{NOT_PETS})\b)(?:\s+(?i:named|called)\s+(?P<name>{NAME}))?"
               rf"(?:\s+(?i:named|called)\s+(?P<lower>[a-z][a-z'-]+)\b)?", t)
    if not m:
        pet_named(t, ctx, found)  # "WE GOT A CAT. … named her pappu": the pet met before
        return
    if part.subjects is None or part.past:
        return
    pet = singular(m.group("pet"))
    found.say(part, "has_pet", pet, False, 0.85, "pet")
    ctx.meet(pet)  # "we got a dog ... her name is chile"
    # a name in lower case only for the user's own pet ("a pug named max"): after another
    # subject it is too often someone else's ("lola hates cats and greg has a cat named
    # smokey" — "greg" unrecognised, the cat went to Lola)
    lower = _given_name(m.group("lower") or "") if part.subjects == (USER,) else ""
    if name := m.group("name") or lower:
        found.add(pet, "name", name, False, 0.9, "name")
        ctx.names[name.lower()] = pet
    else:
        pet_named(t, ctx, found)  # "got a kitten and named it Luna"


def died(rel: str, found: Found) -> None:
    """A relative who died is the user's late one ("my wife passed away", "I lost my dad
    last year"): no longer a current relation."""
    relation_ended(rel, found)
    found.add(USER, "has_relation", f"late {rel}", False, 0.85, "person")


def relation_ended(rel: str, found: Found) -> None:
    """The user has ``rel`` no longer — and the clause that said so does not also say that
    they do ("my girlfriend and i broke up", "my wife passed away")."""
    found.items = [c for c in found.items if (c.entity, c.predicate, c.value) != (
        USER, "has_relation", rel)]
    found.add(USER, "has_relation", rel, True, 0.85, "person")


def pet_named(t: str, ctx: Context, found: Found) -> None:
    """The pet just talked of, named: "WE GOT A CAT … named her pappu", "called him
    biscuit" (a name typed in lower case when no dictionary lists it)."""
    m = search(r"\b(?i:named|called|call|calling|calls)\s+(?i:her|him|it)\s+([A-Za-z][a-z'-]+)\b",
               t)
    pet = ctx.person
    if m is None or pet is None or not re.fullmatch(PET_EN, pet, IC):
        return
    if name := _given_name(m.group(1)):
        found.add(pet, "name", name, False, 0.9, "name")
        ctx.names[name.lower()] = pet


_NOT_GIVEN = frozenset({"after", "because", "by", "for", "so", "that", "this", "it", "him",
                        "her", "them", "something", "anything", "nothing", "what", "whatever"})


def _given_name(word: str) -> str:
    """A word given as a pet's name ("named her pappu", "a labrador named max"): after
    "named" even a dictionary word is a name — not "named him after…"."""
    low = word.lower()
    return "" if low in NOT_NAMES or low in _NOT_GIVEN else word.capitalize()


_BARE_KIN = "wife|husband|mom|mum|dad|boss|girlfriend|boyfriend|partner|fiancée|fiancé|fiance"


def _exception(t: str, ctx: Context, found: Found) -> None:
    """After "allergic to walnuts" / "I don't eat pork", "cashews are fine" is one thing
    that is not avoided."""
    last = ctx.last
    if last is None or last.negated or last.predicate not in {"allergic_to",
                                                              "dietary_restriction"}:
        return
    m = match(r"^(?:but\s+)?([\w' -]{2,30}?)\s+(?:is|are|'s|'re)\s+(?:totally\s+|perfectly\s+|"
              r"actually\s+|still\s+)?(?:fine|ok|okay|no problem|safe|not a problem)"
              r"(?:\s+though)?$", t, IC)
    if m and (value := clean(m.group(1))) and value.lower() not in {"everything", "rest",
                                                                    "else"}:
        found.add(last.entity, last.predicate, value, True, last.confidence)


def _correction(t: str, ctx: Context, found: Found) -> None:
    """After a negated fact, "that was my brother" gives it to the brother and "it was the
    dust" to its true value."""
    last = ctx.last
    if last is None or not last.negated or last.predicate not in {
            "allergic_to", "likes", "dietary_restriction", "diet"}:
        return
    if m := match(rf"^(?:that|it|this)(?:\s+(?:was|is)|'s)\s+(?:actually\s+|really\s+)?my\s+"
                  rf"{KIN_MOD}({REL_EN})\b", t, IC):
        found.add(m.group(1).lower(), last.predicate, last.value, False, last.confidence)
    elif m := match(r"^(?:that|it|this)(?:\s+(?:was|is)|'s)\s+(?:actually\s+|just\s+|really\s+)?"
                    r"(?:the\s+)?([\w -]{2,30})$", t, IC):
        found.add(last.entity, last.predicate, clean(m.group(1)), False, last.confidence)


# A couple that ended: "nikhil and i ended things", "my girlfriend and i broke up", "i broke
# up with my boyfriend", "we split up" (the one partner known), "he dumped me".
_BROKE_UP = re.compile(r"\b(?:ended\s+things|(?:broke|broken|split)\s+up(?!\s+(?:the|a|an|this|"
                       r"that)\b)|called\s+it\s+quits|separated|got\s+divorced|went\s+(?:our|separate)\s+(?:separate\s+)?"
                       r"ways|dumped\s+me|left\s+me|(?:I|i)\s+dumped)\b", IC)

# Said of a couple only (not "left me a note", "separated the files"): a break-up whose
# partner the episode does not name ends the partner the user has.
_ENDED = re.compile(r"\b(?:(?:we|i|he|she)\s+(?:just\s+|finally\s+|officially\s+)?"
                    r"(?:broke\s+up|split\s+up|called\s+it\s+quits|ended\s+things|got\s+"
                    r"divorced)|(?:he|she)\s+dumped\s+me|i\s+dumped\s+(?:him|her))\b", IC)


def breakup(t: str, ctx: Context, found: Found) -> None:
    """The end of the user's relationship with a partner: that relation no longer holds."""
    if not _BROKE_UP.search(t) or not search(r"\b(?:I|i|we|me|us)\b", t):
        return
    partners = "|".join(PARTNERS_EN)
    if m := search(rf"\b(?:my|our)\s+(?:ex[- ]?)?({partners})\b", t, IC):
        rel = m.group(1).lower()
    else:
        named = [e for n, e in ctx.names.items() if e in PARTNERS_EN and search(
            rf"\b{re.escape(n)}\b", t, IC)]
        known = {e for e in [*ctx.names.values(), *ctx.met] if e in PARTNERS_EN}
        rel = named[0] if named else known.pop() if len(known) == 1 and search(
            r"\bwe\b", t, IC) else ""
    if rel:
        relation_ended(rel, found)
    elif _ENDED.search(t):  # "we broke up last night": the partner the user has, whoever
        found.add(USER, "has_relation", "partner", True, 0.85, PARTNER_END)


# The user's own engagement, as people announce it: "so now we're engaged", "we got engaged",
# a proposal and its yes in one message ("i proposed to niamh … she said yes", "MARCUS
# PROPOSED … I said yes", "asked kaylee last nite … she said yes!! ring was 1,800") — not a
# sister's ("jen got engaged to owen, he proposed"), nor a yes to a job or a lease.
_WE_ENGAGED = re.compile(r"\b(?:we(?:'re|\s+are)|i(?:'m|\s+am)|(?:we|i)\s+(?:just\s+|finally\s+|"
                         r"officially\s+)?got)\s+(?:now\s+|officially\s+|finally\s+)?engaged\b"
                         r"(?!\s+(?:in|with|by)\b)", IC)
_PROPOSAL = re.compile(r"\bpropos(?:ed|al)\b|\bpopped\s+the\s+question\b|\bone\s+knee\b|"
                       r"\bring\b|💍|\bmarry\s+me\b", IC)
_SAID_YES = re.compile(r"\b(i|she|he)\s+(?:\w+\s+)?said\s+yes\b", IC)
_I_ASKED = re.compile(r"(?:^|[.!?]\s*|\bi\s+(?:\w+\s+)?)(?:proposed|asked|popped)\b|"
                      r"\bi\s+did\s+it\b", IC)


def engagement(t: str, ctx: Context, found: Found) -> None:
    """The user got engaged: consolidation makes the boyfriend or girlfriend they have a
    fiancé(e) (``ENGAGED``; with no such partner, the fiancée a "she said yes" names; the
    word ``ENGAGED_EN`` names none)."""
    if _WE_ENGAGED.search(t):
        found.add(USER, "has_relation", ENGAGED_EN, False, 0.85, ENGAGED)
    elif (yes := _SAID_YES.search(t)) and _PROPOSAL.search(ctx.message) and (
            yes.group(1).lower() == "i" or _I_ASKED.search(ctx.message)):
        word = {"she": "fiancée", "he": "fiancé"}.get(yes.group(1).lower(), ENGAGED_EN)
        found.add(USER, "has_relation", word, False, 0.85, ENGAGED)
