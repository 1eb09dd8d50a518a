"""What extraction produces and what it remembers while reading one episode."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Protocol, runtime_checkable

from graphmem._models import Episode
from graphmem.extract.calibration import ceiling
from graphmem.extract.vocab import FEMALE_KIN, KIN_KEY, MALE_KIN, PLURAL_KIN
from graphmem.text.language import is_chinese

USER = "user"
# a break-up whose partner the episode does not name, or names by a name consolidation does
# not know: consolidation ends the current one
PARTNER_END = "partner_end"
# a job left ("quit nero", "提了离职"): consolidation ends the current employer it names, or
# with none named the one said before; nothing else
JOB_END = "job_end"
# the user got engaged ("she said yes", 我们订婚了): consolidation makes the boyfriend or
# girlfriend they have a fiancé(e) — that relation ends — or, with none, stores the value said
# when it names one (a "she said yes" names a fiancée); the bare "fiancé" / 未婚 it does not
ENGAGED = "engaged"
# the most a fact about someone else is trusted when its clause names them only by a
# pronoun (or not at all): measured 0.85 in Chinese and English chat (extract/zh/rules.py,
# extract/en/rules.py)
UNNAMED = 0.85
# a department moved to (调到急诊科): consolidation puts it under the current employer
DEPARTMENT = "department"
# the user's home, said in a message that tells of a move ("we found a place in Brooklyn
# and moved yesterday", "I took 1BHK in HSR Layout, shifting on 8 June", 搬完家了 香坊这边):
# consolidation stores a place and ends the flatmates said before (facts.endings)
HOME_MOVED = "home_moved"
MOVED = re.compile(r"(?i)\bmov(?:e|ed|ing)\b(?!\s+(?:average|forward|on\b|the\s+(?:meeting|"
                   r"call|date|appointment)))|\bshift(?:ed|ing)\b|\bnew (?:place|flat|house|"
                   r"apartment|home)\b|搬")


@dataclass(frozen=True)
class Candidate:
    """A fact as the extractor sees it, before normalization and conflict checks."""

    entity: str
    predicate: str
    value: str
    negated: bool
    confidence: float
    observed_at: datetime
    evidence: str
    value_kind: str = "thing"
    valid_until: datetime | None = None
    sentence: str | None = None  # set by readings whose sentence is not a template
    msg_id: int = 0  # the message it was said in (0: unknown)


class Extractor(Protocol):
    def extract(self, episode: Episode) -> list[Candidate]: ...


@dataclass
class ExtractionStats:
    """What a batch extractor spent and threw away in one consolidation run."""

    calls: int = 0              # requests made (retries included)
    failed_calls: int = 0       # requests that gave nothing usable (their episodes retry)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    facts: int = 0              # candidate facts accepted
    dropped: int = 0            # malformed items dropped (the rest of the batch is kept)

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@runtime_checkable
class BatchExtractor(Protocol):
    """An extractor that reads several episodes per call (an LLM): consolidation hands it
    ``episodes_per_call`` at a time and collects its ``take_stats()`` in the report."""

    episodes_per_call: int

    def extract(self, episode: Episode) -> list[Candidate]: ...

    def extract_many(self, episodes: Sequence[Episode]) -> list[list[Candidate]]: ...

    def take_stats(self) -> ExtractionStats: ...


@dataclass
class Context:
    """What one episode has said so far, as the rules need it: who "she" is, the names
    given to people and pets, the plans made (so that "I gave up on the half marathon"
    drops the right one) and the last fact (so that "that was my brother" moves it)."""

    event: str | None = None
    person: str | None = None       # who she / he / 她 / 他 is
    person_said: str = ""           # the sentence that named ``person``
    introduced: str | None = None   # "Meet Waffles": a name whose bearer is said next
    speaker: str | None = None      # "Name: ..." transcripts: first person is the speaker
    names: dict[str, str] = field(default_factory=dict)  # "emma" → "sister"
    plans: list[tuple[str, str]] = field(default_factory=list)  # (entity, plan), in order
    earlier_plans: list[tuple[str, str]] = field(default_factory=list)  # of earlier episodes
    last: Candidate | None = None   # the latest fact of the current sentence
    deliverable: str | None = None  # the last thing said to be due
    budget_said: bool = False       # a budget was named in this episode
    listing: tuple[str, tuple[str, ...] | None] | None = None  # "allergic to lots: ..."
    tried: str | None = None        # "Tried oysters for the first time" (never again?)
    hired: bool = False             # "offer accepted!": "sous chef at alma cocina" follows
    sentence: str = ""              # the sentence being read
    met: list[str] = field(default_factory=list)  # who was met, the latest last
    met_in: dict[str, str] = field(default_factory=dict)  # who → the sentence they were met in
    genders: dict[str, str] = field(default_factory=dict)  # "friend" → "f" (said "her")
    heard: str = ""                 # the assistant's last message, lower case
    offer_from: str | None = None   # 网易的offer下来了: its employer, until it is taken
    message: str = ""               # the message being read (its other sentences)
    allergic: str | None = None     # "…, my son's allergic": who, the allergen said before

    def meet(self, person: str) -> None:
        """``person`` is who she / he (and, in this sentence, they) is from now on."""
        self.person, self.person_said = person, self.sentence
        if person in self.met:
            self.met.remove(person)
        self.met.append(person)
        self.met_in[person] = self.sentence

    def see(self, entity: str) -> None:
        """``entity`` (a pet) was talked about: she / he may be it when known to be of
        that gender, but it does not become ``person``."""
        if entity in self.met:
            self.met.remove(entity)
        self.met.append(entity)

    def she_or_he(self, pronoun: str) -> str | None:
        """Who "she" / "he" / 她 / 他 is: ``person``, unless a relation's word or the
        pronouns said of them give the other gender ("she" after "my dad" is someone not
        named) — then the latest one met known to be of the pronoun's gender ("he" after
        "marlene ... ask her" is the cat "at his age"), else nobody: no fact is better
        than one about the wrong person."""
        female = pronoun.lower() in {"she", "her", "她"}
        other = MALE_KIN if female else FEMALE_KIN
        same = FEMALE_KIN if female else MALE_KIN
        if self.person is None:
            return None
        if self.person.lower() not in other | PLURAL_KIN and self.genders.get(
                self.person) != ("m" if female else "f"):
            kin = KIN_KEY.get(self.person.lower(), self.person)  # (母亲节 … 我妈: one mother)
            if any(p != self.person and self.met_in.get(p) == self.person_said and (
                    p.lower() in same or self.genders.get(p) == ("f" if female else "m"))
                   and KIN_KEY.get(p.lower(), p) != kin for p in self.met):
                return None  # "mum … liam is taking leave … she's 68", 我儿子…我老公说他…
                # 他平时就喜欢打篮球: two who may be "she" / "he" met together, so nobody
            return self.person
        return next((p for p in reversed(self.met) if p.lower() not in PLURAL_KIN
                     and self.genders.get(p) == ("f" if female else "m")), None)

    def entity_named(self, name: str) -> str:
        """The entity a name was given to in this episode ("Emma" → sister), else the name."""
        return self.names.get(name.lower(), name)


@dataclass(frozen=True)
class Part:
    """A stretch of a clause said about one subject: ``subjects`` is who it is about
    (several for "my wife and I"), None when that is someone the memory cannot name."""

    subjects: tuple[str, ...] | None
    text: str
    hedged: bool = False
    past: bool = False
    subject_said: bool = True  # False: the clause left it unsaid ("Love it!", "Like a pro")
    # a person said but not known (she / they with nobody named): the clauses after it
    # without a subject are about them too, not the user ("she's 68, loves gardens")
    someone: bool = False


# A value a rule cut off mid-clause ends on a word that needs one after it ("I like sharing
# what I learn" → "sharing what"): those words go (lower case only: "The Who" stays).
_DANGLING_END = re.compile(r"(?:\s+(?:what|which|that|who|whom|whose|where|when|how|why|and|"
                           r"or|but|to|of|for|with|the|a|an|my|your|our|their|i|you))+$")


# Everyone is nobody in particular: a value ending in it says nothing ("works with literally
# everyone"). "anyone" and "someone" do say something: "i don't live with anyone", "met
# someone".
_NOBODY_IN_PARTICULAR = frozenset({"everyone", "everybody"})


# A pronoun or a word standing for whatever was said before is no value: "working for
# meself", "I do enjoy myself", "i cant stand the stuff".
_REFLEXIVE = frozenset({"myself", "meself", "yourself", "himself", "herself", "itself",
                        "ourselves", "themselves", "yourselves"})  # ("enjoy myself at the club")
_STANDS_FOR_SOMETHING = _REFLEXIVE | {
    "it", "this", "that", "these", "those", "them", "him", "her", "me", "us", "you", "one",
    "stuff", "things", "thing", "something", "anything", "everything", "nothing"}


def says_nobody(value: str) -> bool:
    """Does ``value`` end in a word that names everyone, so nobody in particular — or is it
    only a pronoun or a word standing for something said before?"""
    words = value.lower().split()
    return bool(words) and (words[-1] in _NOBODY_IN_PARTICULAR or (
        len(words) == 1 and words[0] in _STANDS_FOR_SOMETHING) or words[0] in _REFLEXIVE)


class Found:
    """The candidates of one clause: ``add`` for a fact about a given entity, ``say`` for
    one about the part's subjects (nothing when they are unknown)."""

    def __init__(self, ts: datetime, evidence: str, ctx: Context) -> None:
        self.ts = ts
        self.evidence = evidence
        self.ctx = ctx
        self.items: list[Candidate] = []
        self.read = False  # a rule read the clause and found it says nothing to keep

    def add(self, entity: str, predicate: str, value: str, negated: bool = False,
            confidence: float = 0.9, kind: str = "thing", until: datetime | None = None,
            sentence: str | None = None) -> Candidate | None:
        value = _DANGLING_END.sub("", value.strip())
        if not value or not entity or says_nobody(value):
            return None
        # never surer than the rule's family was measured to be, in its language
        confidence = min(confidence, ceiling(predicate, is_chinese(self.evidence)))
        c = Candidate(entity, predicate, value, negated, confidence, self.ts, self.evidence,
                      kind, until, sentence)
        self.items.append(c)
        if predicate not in {"has_relation", "name", "date", "deadline", "budget"}:
            self.ctx.last = c
        return c

    def say(self, part: Part, predicate: str, value: str, negated: bool = False,
            confidence: float = 0.9, kind: str = "thing") -> None:
        if part.subjects is None or part.past:
            return
        if part.hedged:
            confidence -= 0.25
        for subject in part.subjects:
            self.add(subject, predicate, value, negated, confidence, kind)


@cache
def compiled(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """Rules compile once: ``re``'s own cache (512 patterns) churns with spaCy loaded."""
    return re.compile(pattern, flags)


def search(pattern: str, text: str, flags: int = 0) -> re.Match[str] | None:
    return compiled(pattern, flags).search(text)


def match(pattern: str, text: str, flags: int = 0) -> re.Match[str] | None:
    return compiled(pattern, flags).match(text)


def first_search(patterns: tuple[str, ...], text: str) -> re.Match[str] | None:
    """The match of the first pattern that matches ``text`` (the patterns in order)."""
    return next((m for p in patterns if (m := search(p, text))), None)


def mentions(patterns: Sequence[tuple[str, bool]], text: str,
             keep: Callable[[str], bool]) -> list[tuple[str, bool]]:
    """Each pattern's group-1 mentions in ``text`` that ``keep`` accepts, with the
    pattern's flag, patterns in order: a mention overlapping one already taken is not
    taken again ("stopped using Excel" is not also "using Excel")."""
    taken: list[tuple[int, int]] = []
    out: list[tuple[str, bool]] = []
    for pattern, flag in patterns:
        for m in compiled(pattern).finditer(text):
            said = m.group(1).strip()
            if any(a < m.end(1) and m.start(1) < b for a, b in taken) or not keep(said):
                continue
            taken.append(m.span(1))
            out.append((said, flag))
    return out

