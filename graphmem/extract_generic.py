"""Generic English facts from a dependency parse: subject–verb–object (pipeline 3a).

A fallback for English clauses that no specific rule covers: "I went to a support
group yesterday" → (speaker, go_to, LGBTQ support group) at the date "yesterday"
resolves to; "I'm a transgender woman" → (speaker, is, transgender woman). Only
first-person, named-relation and resolved-pronoun subjects count; values are short
noun phrases. Confidence is just above the storing threshold: a generic reading is
less certain than a specific rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from spacy.tokens import Doc, Token

from graphmem.nlp import english_nlp
from graphmem.timeparse import resolve_window

GENERIC_CONFIDENCE = 0.75
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
                         "time", "way", "thing", "things", "there", "here"})
_OBJECT_DEPS = ("dobj", "attr", "oprd")


def _phrase(token: Token) -> str:
    words = [t.text for t in token.subtree if t.dep_ not in {"det", "poss", "punct", "cc",
                                                              "relcl", "advmod", "neg"}]
    words = words[:6]
    return " ".join(words).strip()


def _subject(verb: Token, first_person: str, person: str | None) -> str | None:
    subjects = [c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}]
    if not subjects:
        return None
    s = subjects[0]
    low = s.lower_
    if low in {"i", "we"}:
        return first_person
    if low in {"she", "he"}:
        return person
    return None  # other subjects ("Brave", "my work") are too often misread


def parse(clauses: Sequence[str]) -> list[Doc]:
    """Parse clauses in one batch (NER is not needed for these readings)."""
    return list(english_nlp().pipe(clauses, batch_size=64, disable=["ner"]))


def generic_candidates(doc: Doc, observed_at: datetime, first_person: str,
                       person: str | None) -> list[tuple[str, str, str, bool, str, datetime]]:
    """``(entity, predicate, value, negated, sentence, when)`` readings of a parsed clause."""
    out = []
    when = observed_at
    window = resolve_window(doc.text, observed_at)
    if window is not None and window.since is not None:
        when = window.since
    for verb in doc:
        if verb.pos_ not in {"VERB", "AUX"} or verb.dep_ not in {"ROOT", "conj", "ccomp"}:
            continue
        lemma = verb.lemma_.lower()
        subject = _subject(verb, first_person, person)
        if subject is None:
            continue
        negated = any(c.dep_ == "neg" for c in verb.children)
        objects = [c for c in verb.children if c.dep_ in _OBJECT_DEPS]
        preps = [c for c in verb.children if c.dep_ == "prep" and
                 any(g.dep_ == "pobj" for g in c.children)]
        pobj = None
        if objects:
            obj = objects[0]
            predicate = "is" if lemma == "be" else lemma
            value = _phrase(obj)
        elif preps and lemma in _KEEP_WITH_PREP | {"be"}:
            prep = preps[0]
            pobj = next(g for g in prep.children if g.dep_ == "pobj")
            predicate = f"{'is' if lemma == 'be' else lemma}_{prep.lower_}"
            value = _phrase(pobj)
        else:
            continue
        if lemma in _SKIP_VERBS and not (lemma in _KEEP_WITH_PREP and not objects):
            continue
        head = objects[0] if objects else pobj
        if (not value or value.lower() in _BAD_VALUES or len(value) > 60
                or not any(t.pos_ in {"NOUN", "PROPN"} for t in head.subtree)):
            continue
        verb_text = verb.text if lemma != "be" else "is"
        tail = f" {preps[0].text}" if not objects and preps else ""
        sentence = f"{subject} {'not ' if negated else ''}{verb_text}{tail} {value}"
        out.append((subject, predicate, value, negated, sentence, when))
    return out
