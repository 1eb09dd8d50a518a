"""Generic English facts from a dependency parse: subject–verb–object (pipeline 3a).

A fallback for English sentences that no specific rule covers: "I went to a support
group yesterday" → (speaker, go_to, LGBTQ support group) at the date "yesterday"
resolves to; "I'm a transgender woman" → (speaker, is, transgender woman); "we explored
nature, roasted marshmallows" (conjoined verbs keep the subject); "I'm passionate about
dance" (an adjective's complement); "I want to open a studio" (a verb's complement);
"Still working on the studio" (chat ellipsis: an unsaid "I"). Only first-person,
named-relation and resolved-pronoun subjects count; a reading never takes a name of the
canonical vocabulary ("is_from", "date"): those belong to the specific rules. Values are
short noun phrases, but each reading's sentence keeps the speaker's own words, in the
third person ("Melanie loves camping trips with their fam") — what a reader of the memory
needs. Confidence is just above the storing threshold: a generic reading is less certain
than a specific rule."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from graphmem.extract.candidate import says_nobody
from graphmem.extract.plans import HORIZON
from graphmem.facts.predicates import PREDICATES
from graphmem.text.language import english_nlp
from graphmem.text.timeparse import resolve_date, resolve_window

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

GENERIC_CONFIDENCE = 0.75  # under the family's measured precision (calibration.GENERIC)
_SKIP_VERBS = frozenset({
    "think", "know", "guess", "mean", "say", "tell", "see", "look", "sound", "seem", "let",
    "thank", "hope", "wish", "bet", "wonder", "remember", "forget", "agree", "believe",
    "do", "can", "will", "would", "should", "could", "might", "must", "need", "ask", "talk",
    "glad", "happy", "sure", "feel", "keep", "try", "want",
})
_KEEP_WITH_PREP = frozenset({"go", "move", "travel", "work", "volunteer", "live", "join",
                             "participate", "attend", "start", "switch"})
_BAD_VALUES = frozenset({"it", "that", "this", "you", "them", "me", "him", "her", "us",
                         "something", "anything", "everything", "one", "lot", "what", "which",
                         "time", "way", "thing", "things", "there", "here", "none", "nothing"})
_OBJECT_DEPS = ("dobj", "attr", "oprd")
# Verbs skipped alone but read with a verb complement ("I want to open a studio").
_XCOMP_HEADS = frozenset({"want", "hope", "try", "need", "keep", "feel"})
MAX_PHRASE_WORDS = 16
_FIRST_PERSON_VERBS = {"am": "is", "'m": "is", "’m": "is", "have": "has", "'ve": "has",
                       "’ve": "has", "do": "does", "are": "is", "'re": "is", "were": "was"}
_PRONOUNS = {"my": "their", "me": "them", "myself": "themselves", "mine": "theirs",
             "our": "their", "us": "them", "ourselves": "themselves"}


# Dependents whose whole subtree is another clause, not part of the noun phrase ("other
# objects [that you make]", "break from pottery [which I took for a while]").
_CLAUSE_DEPS = frozenset({"relcl", "acl", "advcl", "ccomp", "xcomp", "appos", "prep"})
_WORD_DEPS_DROPPED = frozenset({"det", "punct", "cc", "advmod", "neg"})
# A value never ends on these ("sharing what", "pottery which I for"), nor starts with
# them but for a determiner ("all good vibes"): not "'s Web".
_DANGLING_POS = frozenset({"ADP", "DET", "PRON", "CCONJ", "SCONJ", "PART", "AUX", "PUNCT"})
MAX_VALUE_WORDS = 6


# A date a past verb points ahead to: "booked Oaxaca for June 20", "switched to day shift
# starting May 6".
_AHEAD = re.compile(r"\b(?:for|starting|beginning|from|until|till)\s+(?:the\s+|on\s+)?$",
                    re.IGNORECASE)


# A date that starts something lasting: "starting May 6", "from aug 1", "as of June".
_STARTS = re.compile(r"\b(?:starting|beginning|from|as\s+of|since)\s+(?:the\s+|on\s+)?$",
                     re.IGNORECASE)
# Verbs of a lasting state that begins at the date: "starting chemo next week", "joining
# the team in May", "moving to Leeds in June".
_BEGINS = frozenset({"start", "begin", "join", "move", "switch", "become", "retire", "open",
                     "launch", "enrol", "enroll", "relocate"})

_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_RECURRING = re.compile(rf"\b(?:every|each)\s+{_WEEKDAY}\b|\b{_WEEKDAY}s\b|\b{_WEEKDAY}\s+"
                        r"(?:nights|evenings|mornings|afternoons)\b", re.IGNORECASE)


def _when(verb: Token, text: str, observed_at: datetime) -> tuple[datetime, datetime | None]:
    """When ``verb``'s clause happened: its time hint resolved, else when it was said. A
    date without a year ("June 20", "on Saturday") is the last one for a verb in the past
    ("we went there on June 20") and the next one otherwise ("my race is on June 20",
    "I'm flying out Saturday", "booked it for June 20"). Second, until when the reading
    holds: a one-off ahead is over once its time is past ("my race is on June 20",
    "camping next week"); what starts then ("switched to day shift starting May 6",
    "starting chemo next week") and anything not ahead has no end (None)."""
    window = resolve_window(text, observed_at)
    if window is None or window.since is None or _RECURRING.search(text):
        return observed_at, None  # "on Thursday nights", "every Monday": no one day
    past = verb.tag_ in {"VBD", "VBN"} and not any(
        c.lower_ in {"will", "'ll", "shall"} for c in verb.children)
    before = text[:text.find(window.expression)]
    if past and not _AHEAD.search(before):
        return window.since, None
    ahead = resolve_date(text, observed_at)
    if ahead is None:
        return window.since, None
    one_off = (not _STARTS.search(before) and verb.lemma_.lower() not in _BEGINS
               and observed_at < ahead.start
               and ahead.end - observed_at < HORIZON)
    return ahead.start, ahead.end if one_off else None


def _phrase(token: Token) -> str:
    """The noun phrase of ``token`` as a short value: its own words (modifiers and a
    following "of"/"in" phrase kept, "a sunset over a lake"), without the clauses hung on
    it, articles, possessive pronouns and dangling function words; at most
    MAX_VALUE_WORDS words."""
    drop: set[int] = set()
    for t in token.subtree:
        if t.i == token.i or t.i in drop:
            continue
        clause = (t.dep_ in _CLAUSE_DEPS or (t.dep_ == "conj" and t.pos_ in {"VERB", "AUX"})
                  ) and not (t.dep_ == "prep" and t.head.i == token.i
                             and t.lower_ in {"of", "in", "over", "on", "with", "for", "from"})
        if clause or (t.dep_ == "poss" and t.pos_ == "PRON"):
            drop |= {d.i for d in t.subtree}
    words = [t for t in token.subtree
             if t.i not in drop and (t.i == token.i or t.dep_ not in _WORD_DEPS_DROPPED)]
    words = words[:MAX_VALUE_WORDS]
    while words and words[-1].i != token.i and words[-1].pos_ in _DANGLING_POS:
        words.pop()
    while words and words[0].i != token.i and words[0].pos_ in _DANGLING_POS - {"DET"}:
        words.pop(0)
    words = _hyphenated(words)
    return "".join(t.text + ("" if nxt is None or nxt.dep_ == "case" or _glued(t, nxt) else " ")
                   for t, nxt in zip(words, [*words[1:], None], strict=True)).strip()


def _glued(left: Token, right: Token) -> bool:
    """Are two tokens pieces of one hyphenated word ("co" "-" "op")?"""
    return right.i == left.i + 1 and not left.whitespace_ and "-" in {left.text, right.text}


def _hyphenated(words: list[Token]) -> list[Token]:
    """The words with each hyphenated word whole: the parser hangs "co-op" and "t-shirt"
    as separate tokens, and a value of "co" or "t shirt" names nothing."""
    if not words:
        return words
    doc, keep = words[0].doc, {t.i for t in words}
    for t in words:
        i = t.i
        while i + 2 < len(doc) and _glued(doc[i], doc[i + 1]) and _glued(doc[i + 1], doc[i + 2]):
            keep |= {i + 1, i + 2}
            i += 2
        i = t.i
        while i - 2 >= 0 and _glued(doc[i - 1], doc[i]) and _glued(doc[i - 2], doc[i - 1]):
            keep |= {i - 2, i - 1}
            i -= 2
    return [doc[i] for i in sorted(keep)]


def _subject_token(verb: Token) -> Token | None:
    """The verb's subject; a conjoined verb without one shares its head's ("we explored
    nature, roasted marshmallows")."""
    while True:
        subjects = [c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}]
        if subjects:
            return subjects[0]
        if verb.dep_ != "conj" or verb.head.i == verb.i:
            return None
        verb = verb.head


def _subject(token: Token | None, first_person: str, she: str | None,
             he: str | None) -> str | None:
    low = token.lower_ if token is not None else ""
    if low in {"i", "we"}:
        return first_person
    if low in {"she", "he"}:
        return she if low == "she" else he
    return None  # other subjects ("Brave", "my work") are too often misread


def _third_person(verb: Token) -> str:
    """``verb`` as said after "she": "love" → "loves", "'m" → "is" (first person only)."""
    low = verb.lower_
    if verb.tag_ != "VBP" and low not in _FIRST_PERSON_VERBS:
        return verb.text
    if low in _FIRST_PERSON_VERBS:
        return _FIRST_PERSON_VERBS[low]
    if low.endswith(("s", "sh", "ch", "x", "o")):
        return verb.text + "es"
    if low.endswith("y") and low[-2:-1] not in set("aeiou"):
        return verb.text[:-1] + "ies"
    return verb.text + "s"


def _subtree_text(token: Token) -> str:
    return token.doc[token.left_edge.i:token.right_edge.i + 1].text


def _leading(verb: Token, subject: Token | None) -> list[Token]:
    """The verb's dependents before its subject (or before it, when it has none) —
    "On another note,", "Yesterday," — auxiliaries and negation aside."""
    start = subject.i if subject is not None and subject.head.i == verb.i else verb.i
    return [c for c in verb.children
            if c.i < start and c.dep_ not in {"aux", "auxpass", "neg", "nsubj", "nsubjpass"}]


def _verb_phrase(verb: Token, subject: Token | None) -> str:
    """What the speaker said the subject did, in their words: the verb's subtree without
    the subject, without conjoined verbs (each is its own reading), interjections and
    what led up to the subject ("On another note, I adopted a pup" → "adopted a pup"; a
    date there is already the reading's date); first person becomes third ("I've" →
    "has", "my" → "their"), at most MAX_PHRASE_WORDS."""
    drop = {t.i for child in _leading(verb, subject) for t in child.subtree}
    if subject is not None and subject.head.i == verb.i:
        drop |= {t.i for t in subject.subtree}
    for child in verb.children:
        conjoined_verb = child.dep_ == "conj" and child.pos_ in {"VERB", "AUX"}
        if conjoined_verb or child.dep_ in {"intj", "discourse"}:
            drop |= {t.i for t in child.subtree}
    kept = [t for t in verb.subtree if t.i not in drop][:MAX_PHRASE_WORDS]
    while kept and kept[0].pos_ in {"PUNCT", "CCONJ"}:
        kept.pop(0)
    while kept and kept[-1].pos_ in {"PUNCT", "CCONJ"}:
        kept.pop()
    words: list[str] = []
    for token, following in zip(kept, [*kept[1:], None], strict=True):
        auxiliary = token.head.i == verb.i and token.dep_ in {"aux", "auxpass"}
        words.append(_third_person(token) if token.i == verb.i or auxiliary
                     else _PRONOUNS.get(token.lower_, token.text))
        if following is not None:  # the space the text had before the next kept word
            words.append(token.doc[following.i - 1].whitespace_ or token.whitespace_)
    return "".join(words).strip(" ,;:-—.!?")


def _pobj(prep: Token) -> Token | None:
    """The noun after a preposition, or the object of its verb ("on opening a studio")."""
    for child in prep.children:
        if child.dep_ == "pobj":
            return child
        if child.dep_ == "pcomp" and (found := _object_of(child)) is not None:
            return found
    return None


def _reading(verb: Token, lemma: str) -> tuple[str, Token] | None:
    """``(predicate, value head)`` of a verb: its object ("made a bowl" → make; "gave up
    pickleball" → give_up); a place after a motion or state verb ("went to Rome" →
    go_to); an adjective's complement ("I'm passionate about dance" →
    is_passionate_about); or a verb complement's object ("I want to open a studio" →
    want_open); "had to give up pickleball", "I have to take a break from pottery" are
    giving it up, taking a break. None when there is no such reading."""
    children = list(verb.children)
    if lemma == "have" and (must := next((c for c in children if c.dep_ == "xcomp" and any(
            a.lower_ == "to" for a in c.children)), None)) and (
            reading := _reading(must, must.lemma_.lower())):
        return reading
    name = "is" if lemma == "be" else lemma
    if particle := next((c.lower_ for c in children if c.dep_ == "prt"), None):
        name = f"{name}_{particle}"  # "give up", "find out": not "give", "find"
    objects = [c for c in children if c.dep_ in _OBJECT_DEPS]
    preps = [(c, head) for c in children if c.dep_ == "prep" and (head := _pobj(c)) is not None]
    if objects:
        return None if lemma in _SKIP_VERBS else (name, objects[0])
    if preps and lemma in _KEEP_WITH_PREP | {"be"}:
        prep, head = preps[0]
        return f"{name}_{prep.lower_}", head
    for child in children:
        if child.dep_ == "acomp" and child.pos_ == "ADJ" and lemma == "be":
            for prep in (g for g in child.children if g.dep_ == "prep"):
                if (head := _pobj(prep)) is not None:
                    return f"is_{child.lemma_.lower()}_{prep.lower_}", head
            for xcomp in (g for g in child.children if g.dep_ == "xcomp"):
                if found := _object_of(xcomp):
                    return f"is_{child.lemma_.lower()}_{xcomp.lemma_.lower()}", found
        complement = child.dep_ == "xcomp" and child.pos_ == "VERB"
        if (complement and (lemma not in _SKIP_VERBS or lemma in _XCOMP_HEADS)
                and (found := _object_of(child))):
            return f"{name}_{child.lemma_.lower()}", found
    return None


def _object_of(verb: Token) -> Token | None:
    """The object of a verb, or the noun after its preposition."""
    for child in verb.children:
        if child.dep_ in _OBJECT_DEPS:
            return child
    for child in verb.children:
        if child.dep_ == "prep" and (head := _pobj(child)) is not None:
            return head
    return None


def _leads_unsaid_i(verb: Token) -> bool:
    """A subjectless past or ongoing verb opening a chat sentence ("Went to Rome", "Still
    working on it") has an unsaid "I"."""
    if verb.dep_ != "ROOT" or verb.tag_ not in {"VBD", "VBG", "VBN"}:
        return False
    return all(t.pos_ in {"ADV", "INTJ", "PUNCT"} for t in verb.doc[:verb.i])


# Values that say nothing of a person on their own: the time of day, a while, a thing,
# the listener's advice ("went to bed", "took your advice", "have about 6 weeks").
_VAGUE_HEADS = frozenset({
    "bed", "sleep", "nap", "advice", "offer", "hold", "timing", "thing", "stuff", "people",
    "bit", "lot", "question", "questions", "help", "time", "times", "day", "days", "week",
    "weeks", "month", "months", "year", "years", "hour", "hours", "minute", "minutes",
    "idea", "ideas", "tip", "tips",
    "list", "lineup", "point", "chance", "kind", "sort", "end", "rest", "part", "side",
    "moment", "sec", "second", "luck", "fun", "mess", "deal", "word", "words", "sense",
    "one", "ones", "guy", "guys", "way", "look", "number", "numbers", "square",
    "column", "row", "rows", "tab", "file", "version", "data", "dataframe", "dataframes",
    "function", "formula", "email", "letter", "text", "thanks", "bridges",
    # idioms' nouns: "I don't have a clue", "I'm at a loss", "going to lose my mind"
    "clue", "loss", "mind"})
# Chat fillers: a value holding one is a clause remnant ("phd candidate lol").
_FILLERS = frozenset({"lol", "lmao", "haha", "hahaha", "bc", "tho", "though", "btw", "pls",
                      "please", "omg", "idk", "ngl", "tbh", "rn", "kinda", "sorta", "obv",
                      "etc", "ok", "okay", "yeah", "yes", "no", "nah"})


_QUANTITIES = frozenset({"much", "many", "most", "more", "enough", "too", "less", "fewer"})
_PREPOSITIONS = frozenset({"to", "in", "at", "on", "with", "for", "from", "about", "of", "into",
                           "over", "by", "without", "like", "after", "around", "through"})


_MODALS = frozenset({"should", "might", "may", "must", "shall", "ought"})  # not "could", "'d"
# Verbs whose clause is someone's words or thoughts, not what the speaker states.
_REPORTING = frozenset({"say", "tell", "think", "believe", "guess", "suppose", "reckon",
                        "wonder", "ask", "hope", "wish", "worry", "fear", "doubt", "claim",
                        "suggest", "feel", "imagine", "pretend", "dream", "insist"})
_PARTICLES = frozenset({"up", "out", "off", "down", "back", "over", "away", "on", "in", "together",
                        "through", "around", "about", "apart", "ahead", "forward", "along", "by"})
# What is asked of the assistant ("draft an email saying...", "can you write me..."): its
# clauses are the text to write, not what the speaker states.
_ASKED = frozenset({"draft", "write", "make", "help", "give", "tell", "summarize", "summarise",
                    "translate", "rewrite", "edit", "proofread", "fix", "tidy", "reword", "check",
                    "suggest", "recommend", "list", "create", "compose", "explain", "find", "show",
                    "plan", "turn", "polish", "shorten"})
_REQUESTED = _ASKED | {"send"}  # for me / us, conjoined: "…and send me the list"
_LEARNING = frozenset({"find_out", "figure_out", "point_out", "make_sure", "look_up"})


def _states(verb: Token) -> bool:
    """Does ``verb``'s clause state something? Not advice or a guess ("he shouldn't go
    home": a modal), not a question put ("asked if he can make"), not what someone else
    says or thinks ("the doctors are saying he...", "she thinks she can never eat"), not
    the words of a request ("draft an email saying I'm moving to...", "can you write...")."""
    if any(c.dep_ == "aux" and c.lower_ in _MODALS for c in verb.children) or any(
            c.dep_ == "mark" and c.lower_ in {"if", "whether"} for c in verb.children):
        return False
    clause = verb
    while clause.dep_ == "conj" and clause.head.i != clause.i:
        clause = clause.head
    while clause.dep_ in {"ccomp", "xcomp", "advcl", "acl", "relcl"} and clause.head.i != clause.i:
        teller, said_by = _subject_token(clause.head), clause.head
        while teller is None and said_by.dep_ in {"xcomp", "conj", "acomp"} and (
                said_by.head.i != said_by.i):
            said_by = said_by.head  # "I'm so excited to tell you I started...": I tell
            teller = _subject_token(said_by)
        if clause.dep_ == "ccomp" and clause.head.lemma_.lower() in _REPORTING and (
                teller is None or teller.lower_ not in {"i", "we", "me", "us"}):
            return False
        clause = clause.head
    root = verb.sent.root
    asker = _subject_token(root)
    return root.i == verb.i or not (root.tag_ == "VB" and root.lemma_.lower() in _ASKED and (
        asker is None or asker.lower_ == "you") and not _leads_unsaid_i(root))


_INVERTING = frozenset({"do", "does", "did", "am", "is", "are", "was", "were", "have", "has",
                        "had", "can", "could", "will", "would", "should", "shall", "may",
                        "might", "must", "'m", "’m"})


def _asks(verb: Token) -> bool:
    """Is ``verb``'s clause a question? An auxiliary or a form of "be" before the subject
    ("what cut of beef do I buy", "am I being an old fool", "how long am I out", "which gym
    do I join") asks what the speaker states nowhere; a verb conjoined to a question shares
    it ("…do I buy and give me the recipe") unless it has an auxiliary of its own ("what do
    I need to buy, dont wanna waste money": an unsaid "I")."""
    while not any(c.dep_ in {"nsubj", "nsubjpass", "aux", "neg"} for c in verb.children) and (
            verb.dep_ == "conj" and verb.head.i != verb.i):
        verb = verb.head
    subject = next((c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}), None)
    if subject is None:
        return False
    before = [c for c in verb.children if c.dep_ in {"aux", "auxpass"} and c.i < subject.i]
    if verb.lemma_.lower() in {"be", "do", "have"} and verb.i < subject.i:
        before.append(verb)
    return any(t.lower_ in _INVERTING for t in before)


def _asks_for_me(verb: Token) -> bool:
    """A verb without a subject of its own, of the kind asked of an assistant, for the
    speaker ("…and give me the recipe", "then send us the list"): a request, not what
    the speaker did."""
    if any(c.dep_ in {"nsubj", "nsubjpass"} for c in verb.children):
        return False
    return verb.lemma_.lower() in _REQUESTED and any(
        c.dep_ in {"dative", "iobj", "dobj"} and c.lower_ in {"me", "us"} for c in verb.children)


def _says_something(lemma: str, predicate: str, head: Token, value: str) -> bool:
    """A reading worth keeping: its verb is an English verb (not "pilsen people now"
    or "86d the elote" misread), its value has no chat filler in it, and names a thing
    rather than an amount of time, a vague noun, a date or the listener's words."""
    from graphmem.extract.en.lexicon import is_adjective, is_verb

    if not is_verb(lemma) or not lemma.isalpha() or predicate in _LEARNING or any(
            not (is_verb(word) or is_adjective(word) or word in _PREPOSITIONS | _PARTICLES
                 or word == "is") for word in predicate.split("_")[1:]):
        return False  # "start_bouldere", "drive_lake": a misread; "found out": news
    if head.pos_ in {"VERB", "AUX"} and head.tag_ in {"VBN", "VBD"}:
        return False  # "fixed mon-wed": a past verb misread as the object
    words = value.lower().split()
    if any(w.strip(".,!?()") in _FILLERS for w in words) or words[0] in _QUANTITIES:
        return False  # "have too much parsley", "get most groceries": an amount
    if predicate.count("_") == 1 and predicate.startswith("is_") and head.pos_ == "NOUN" and (
            predicate[3:] in {"on", "at", "in"}) and (
            not any(c.dep_ in {"det", "poss", "compound", "amod", "nummod", "prep"}
                    for c in head.children)):
        return False  # "i'm on break", "at work", "in bed": the moment's state
    if head.lemma_.lower() in _VAGUE_HEADS or head.lower_ in _VAGUE_HEADS:
        return False
    if any(c in value for c in "$€£¥%") or any(ch.isdigit() for ch in head.text):
        return False  # "is on £23k", "go like 3x": an amount, not a thing
    return not all(t.like_num or t.pos_ in {"NUM", "SYM"} or t.lower_ in _VAGUE_HEADS
                   for t in head.subtree if not t.is_punct and t.pos_ != "DET")


def parse(clauses: Sequence[str]) -> list[Doc]:
    """Parse clauses in one batch (NER is not needed for these readings)."""
    return list(english_nlp().pipe(clauses, batch_size=64, disable=["ner"]))


def generic_candidates(
    doc: Doc, observed_at: datetime, first_person: str, she: str | None, he: str | None,
    covered: Sequence[tuple[int, int]] = (),
) -> list[tuple[str, str, str, bool, str, datetime, datetime | None]]:
    """``(entity, predicate, value, negated, sentence, when, until)`` readings of a parsed
    sentence; verbs inside ``covered`` character spans (read by a specific rule) are
    skipped. ``sentence`` is the subject's name and the verb phrase as said."""
    out = []
    for verb in doc:
        if verb.pos_ not in {"VERB", "AUX"} or verb.dep_ not in {"ROOT", "conj", "ccomp"}:
            continue
        if any(a <= verb.idx < b for a, b in covered):
            continue
        lemma = verb.lemma_.lower()
        subject_token = _subject_token(verb)
        subject = _subject(subject_token, first_person, she, he)
        if subject is None and subject_token is None and _leads_unsaid_i(verb):
            subject = first_person  # chat ellipsis: "Still working on the studio."
        if subject is None:
            continue
        if _asks(verb) or _asks_for_me(verb):
            continue
        reading = _reading(verb, lemma) if _states(verb) else None
        if reading is None:
            continue
        predicate, head = reading
        if predicate in PREDICATES:  # "I'm from the future": the specific rules own these
            continue
        value = _phrase(head)
        if (not value or value.lower() in _BAD_VALUES or len(value) > 60 or says_nobody(value)
                or not any(t.pos_ in {"NOUN", "PROPN"} for t in head.subtree)
                or not _says_something(lemma, predicate, head, value)):
            continue
        dets = [c.lower_ for c in head.children if c.dep_ == "det"]
        negated = any(c.dep_ == "neg" for c in verb.children) or (
            dets == ["no"] and head.dep_ == "dobj")  # "i have no car", not "a no-nuts rule"
        phrase = _verb_phrase(verb, subject_token)
        lead = " ".join(_subtree_text(c) for c in _leading(verb, subject_token))
        # the time of this verb, not another's
        when, until = _when(verb, f"{lead} {phrase}", observed_at)
        sentence = f"{subject} {phrase}"
        out.append((subject, predicate, value, negated, sentence, when, until))
    return out
