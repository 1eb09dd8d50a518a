"""English: who an aside in brackets is about. "me, jess and oliver (5, turning 6 in
august, loves trains)", "my mum (68, diabetic, not a fan of spicy food)", "Priya (my
flatmate, vegan)": what the brackets say is about the person named just before them, not
the user. After anything else ("I started a new job (at Google)") the clause's subject
goes on as usual."""

from __future__ import annotations

import re

from graphmem.extract.candidate import USER, Context, Found
from graphmem.extract.en.subjects import IC, KIN_MOD, NOT_NAMES, singular
from graphmem.extract.en.work import JOB_ONLY
from graphmem.extract.vocab import PET_EN, REL_EN

_FIRST_PERSON = frozenset({"i", "me", "myself", "we", "us", "ourselves"})
_LAST_WORD = re.compile(r"([A-Za-zÀ-ÖØ-öø-ÿ'-]+)\s*$")
_KIN_BEFORE = re.compile(rf"\b(?:my|our)\s+{KIN_MOD}(?P<rel>{REL_EN})\s*$", IC)
_PET_BEFORE = re.compile(rf"\b(?:my|our)\s+(?:(?:little|new|old|sweet)\s+)?(?P<pet>{PET_EN})"
                         rf"(?:e?s)?\s*$", IC)
_AGE = re.compile(r"\s*\d{1,2}\s*(?:,|\)|$|yo\b|y/?o\b|years?\b|months?\b|and\b)", IC)
_NOT_NAMED = frozenset({"age", "aged", "ages", "about", "around", "roughly", "only", "just",
                        "nearly", "almost", "over", "under", "turning", "turned", "now"})


def asides(sentence: str, ctx: Context) -> list[tuple[int, int, tuple[str, ...]]]:
    """``(start, end, owner)`` of each bracketed aside that follows a person: ``owner`` is
    who it is about. Other asides are read like the rest of the sentence."""
    out: list[tuple[int, int, tuple[str, ...]]] = []
    for m in re.finditer(r"\(([^()]*)\)?", sentence):
        owner = _owner(sentence[:m.start()], ctx, _AGE.match(m.group(1)) is not None)
        if owner is not None:
            out.append((m.start(), m.end(), owner))
    return out


# "who" opening what is said of the person just named: "my daughter Susan, who is a
# pharmacist", "my friend who's a nurse" (what follows keeps its verb: "'s a nurse").
WHO_OPENS = re.compile(r"^\s*who(?=\s+(?:is|was|works|worked|teaches|lives|has|runs)\b|'s\b)",
                       IC)


def relative(before: str, clause: str, ctx: Context) -> tuple[tuple[str, ...], str] | None:
    """"my daughter Susan, who is a pharmacist": a clause opening with "who" after a
    person is about them — ``(owner, the clause without "who")``, else None."""
    if (m := WHO_OPENS.match(clause)) is None or (
            owner := _owner(before.rstrip(" ,"), ctx, False)) is None:
        return None
    return owner, clause[m.end():].lstrip()


def aside_job(clause: str, owner: tuple[str, ...], found: Found) -> None:
    """An aside that is nothing but a job is the owner's: "my friend Tom (a dentist)", "my
    flatmate ollie (electrician apprentice, …)", "Susan (she's a pharmacist)"."""
    if (m := JOB_ONLY.fullmatch(clause.strip(" ()"))) and owner != (USER,):
        for who in owner:
            found.add(who, "works_as", m.group("job").lower(), False, 0.8, "job")


def _owner(before: str, ctx: Context, age: bool) -> tuple[str, ...] | None:
    """Who is named just before the brackets: a relation or pet of the user's, a name
    given to one, a capitalized name; a word in lower case only when the brackets open
    with an age ("oliver (5, …)")."""
    if m := _KIN_BEFORE.search(before):
        return (m.group("rel").lower(),)
    if m := _PET_BEFORE.search(before):
        return (singular(m.group("pet")),)
    last = _LAST_WORD.search(before)
    if last is None:
        return None
    word = last.group(1).strip("'")
    low = word.lower()
    if low in _FIRST_PERSON or low in NOT_NAMES:
        return None
    if low in ctx.names:
        return (ctx.names[low],)
    if word[0].isupper() and before[:last.start()].strip():  # not the sentence's first word
        return (ctx.entity_named(word),)
    if age and word.islower() and len(word) > 2 and low not in _NOT_NAMED:  # "oliver (5"
        return (singular(low),) if re.fullmatch(rf"{REL_EN}|{PET_EN}|kids", low, IC) else (
            ctx.entity_named(word.capitalize()),)
    return None
