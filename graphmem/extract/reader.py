"""``RuleExtractor``: reads an episode's user messages, sentence by sentence, clause by
clause, with what the episode has said so far (``Context``)."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from graphmem._models import Episode
from graphmem.extract.candidate import (
    HOME_MOVED,
    JOB_END,
    MOVED,
    USER,
    Candidate,
    Context,
    Found,
    Part,
)
from graphmem.extract.dates import dates, event_in
from graphmem.extract.en import asides as english_asides
from graphmem.extract.en import rules as english_rules
from graphmem.extract.en import spelling
from graphmem.extract.en import subjects as english
from graphmem.extract.text import clauses, is_hypothetical, is_question, sentences
from graphmem.extract.values import fits
from graphmem.extract.zh import dialect, mixed
from graphmem.extract.zh import rules as chinese_rules
from graphmem.extract.zh import subjects as chinese
from graphmem.extract.zh.shape import clauses as chinese_clauses
from graphmem.extract.zh.shape import handed_over, own_words, untitled
from graphmem.text import script
from graphmem.text.chat import summarize_goal
from graphmem.text.language import is_chinese, split_speaker


@dataclass(frozen=True)
class _Language:
    """How one language is read: its clauses (Chinese chat splits on spaces too), a
    clause's parts (who), the rules of one part and those of a whole clause (what)."""

    clauses: Callable[[str], list[str]]
    parts: Callable[[str, Context, tuple[str, ...] | None, Found], list[Part]]
    part_facts: Callable[[Part, Context, Found], None]
    clause_facts: Callable[[str, Context, Found, tuple[str, ...] | None], None]
    question_facts: Callable[[str, Context, Found], None]
    # a subject said but unknown (他 with nobody named) is who the next clauses are about
    # too, so they say nothing of the user: "他姓刘 爱拍鸟"
    unknown_carries: bool = False
    # a clause that brings someone new in: the clauses after it are not the user's
    introduces: Callable[[str], bool] | None = None


_ENGLISH = _Language(clauses, english.parts, english_rules.english_facts,
                     english_rules.clause_facts, english_rules.question_facts)
_CHINESE = _Language(chinese_clauses, chinese.parts, chinese_rules.chinese_facts,
                     chinese_rules.clause_facts, chinese_rules.question_facts,
                     unknown_carries=True, introduces=chinese.introduces)


MAX_READ_CHARS = 100_000  # of one message, for extraction (the message is stored whole)
# An episode this soon after the one before it in its session (a new topic said at once:
# "另外…", "by the way…") still knows who she / he is.
_FOLLOWS = timedelta(minutes=15)

class RuleExtractor:
    """The default, offline extractor: specific rules (regular expressions) first, then,
    for English sentences no rule covered, a generic subject–verb–object reading from
    spaCy's parser (``generic=False`` keeps to the cheap rules, as the online path does).

    Messages are read whole up to ``MAX_READ_CHARS`` (a fact said after a long story
    counts; a pasted megabyte is not parsed — spaCy refuses texts over 1M characters and
    takes minutes on them)."""

    def __init__(self, generic: bool = True) -> None:
        self.generic = generic
        self.known_names: dict[str, dict[str, str]] = {}
        self.known_plans: dict[str, list[tuple[str, str]]] = {}  # made in earlier episodes

    def remember_names(self, user_id: str, names: dict[str, str]) -> None:
        """Names already given to the user's people and pets (``{"kayla": "daughter"}``),
        so that a later episode's "kayla's still vegetarian" is about the daughter
        (consolidation tells them from the user's alias table)."""
        self.known_names.setdefault(user_id, {}).update(names)

    def extract(self, episode: Episode) -> list[Candidate]:
        return self.extract_many([episode])[0]

    def extract_many(self, episodes: Sequence[Episode]) -> list[list[Candidate]]:
        """``extract`` of each episode, with the sentences of all of them parsed in one
        batch (spaCy is several times faster on one batch than on many small ones)."""
        found: list[list[Candidate]] = []
        deferred: list[list[_Deferred]] = []
        before: dict[tuple[str, str], tuple[datetime, str | None]] = {}
        for episode in episodes:  # in time order: names given carry to later episodes
            said = [a for a in episode.actions if a.role == "user"]
            # the event of the first thing said, whole (the goal may be cut: "…birthday")
            ctx = Context(event=event_in(summarize_goal(said, limit=10_000)) if said else None,
                          names=self.known_names.setdefault(episode.user_id, {}),
                          earlier_plans=self.known_plans.setdefault(episode.user_id, []))
            session = (episode.user_id, episode.session_id)
            if session in before and episode.start_time - before[session][0] <= _FOLLOWS:
                ctx.person = before[session][1]  # "另外她…": she of the episode just before
            found.append([])
            deferred.append([])
            for action in episode.actions:
                if action.role != "user":  # "ok i like the milestones": of this reply
                    ctx.heard = action.content[:MAX_READ_CHARS].lower()
                    continue
                found[-1].extend(self.extract_text(action.content[:MAX_READ_CHARS], action.ts, ctx,
                                                   deferred[-1]))
            ctx.earlier_plans.extend(ctx.plans)  # "back from cornwall!!" ends a plan of before
            before[session] = (episode.end_time, ctx.person)
        readings = _generic_each([d for episode_deferred in deferred for d in episode_deferred])
        out = []
        for episode, episode_found, episode_deferred in zip(episodes, found, deferred,
                                                            strict=True):
            for each in readings[:len(episode_deferred)]:
                episode_found.extend(each)
            readings = readings[len(episode_deferred):]
            said_in = {a.ts: a.msg_id for a in reversed(episode.actions)}  # first at ts
            out.append(settle([replace(c, msg_id=said_in.get(c.observed_at, 0))
                                for c in episode_found]))
        return out

    def extract_text(
        self, text: str, observed_at: datetime, ctx: Context | None = None,
        deferred: list[_Deferred] | None = None,
    ) -> list[Candidate]:
        """Candidates from one user message (the online path uses this directly).

        Rules read clause by clause. Each English sentence goes to the generic reader too
        (whole, so that "we explored nature, roasted marshmallows" keeps its subject),
        which skips what the rules already read; sentences wait in ``deferred`` when it is
        given (parsed later in one batch), else they are parsed here."""
        ctx = ctx or Context(event=event_in(text))
        speaker, text = split_speaker(own_words(untitled(_QUOTED.sub(_unquoted, text))))
        ctx.speaker = speaker
        ctx.message = text
        ctx.event = ctx.event or event_in(text)
        out: list[Candidate] = []
        now_deferred: list[_Deferred] = []
        generic = self.generic and not _TECH_TASK.match(text)  # (the task's data is no life)
        for said in sentences(text):
            if handed_over(text, said):
                continue  # 帮我翻译一下这段 Take one tablet…: someone else's words
            sentence, hedged, covered = self._sentence(said, observed_at, ctx, out)
            if (generic and not is_chinese(sentence)
                    and sum(b - a for a, b in covered) < len(sentence)):
                (now_deferred if deferred is None else deferred).append(_Deferred(
                    sentence, observed_at, speaker or USER, ctx.she_or_he("she"),
                    ctx.she_or_he("he"), hedged,
                    tuple(covered)))
        if MOVED.search(text):  # "we found a place in Brooklyn and moved yesterday"
            out = [replace(c, value_kind=HOME_MOVED) if c.predicate == "lives_in" and (
                c.entity == USER and not c.negated and c.value_kind == "place") else c
                for c in out]
        if speaker:  # first person is the speaker, not the memory's user
            out = [replace(c, entity=speaker) if c.entity == USER else c for c in out
                   if not (c.predicate == "name" and c.value == speaker)]
        return out + _generic(now_deferred)

    @staticmethod
    def _sentence(sentence: str, ts: datetime, ctx: Context,
                  out: list[Candidate]) -> tuple[str, bool, list[tuple[int, int]]]:
        """Read one sentence into ``out``; the sentence as read, whether it hedged, and
        the character spans of the clauses the rules read (or skipped as questions)."""
        lang = _CHINESE if is_chinese(sentence) else _ENGLISH
        typed = sentence
        if lang is _ENGLISH:
            sentence = english.merge_appositives(sentence)
        else:  # 我們準備 → 我们准备; 我系兽医 → 我是兽医, 额是 → 我是; my bf → 我男朋友
            sentence = mixed.kin_in_chinese(dialect.mandarin(plain := script.simplified(sentence)))
            typed = typed if sentence == plain else sentence  # dialect: read as Mandarin
        ctx.last, ctx.sentence = None, sentence
        carry: tuple[str, ...] | None = (USER,)  # who a clause without a subject is about
        covered: list[tuple[int, int]] = []
        hedged = False
        cursor, first = 0, len(out)
        found = Found(ts, sentence, ctx)
        if lang is _ENGLISH:  # the statements of the sentence, read whole
            stated = ", ".join(c for c in clauses(sentence) if not is_question(c))
            english_rules.sentence_facts(stated, ctx, found)
        else:
            chinese_rules.sentence_facts(sentence, ctx, found)
        out.extend(found.items)
        bracketed: list[tuple[int, int, tuple[str, ...]]] = []
        for clause in lang.clauses(sentence):
            start = sentence.find(clause, cursor)
            span = (start, start + len(clause)) if start >= 0 else (0, 0)
            cursor = max(cursor, span[1])
            if "(" in sentence and lang is _ENGLISH:  # who a name typed in lower case is
                bracketed = english_asides.asides(sentence, ctx)  # is known from here on
            aside = next((who for a, b, who in bracketed if a <= span[0] < b), None)
            if aside is None and lang is _ENGLISH and (
                    rel := english_asides.relative(sentence[:max(span[0], 0)], clause, ctx)):
                aside, clause = rel  # "my daughter Susan, who's a pharmacist": no question
            found = Found(ts, clause, ctx)
            if aside is not None and lang is _ENGLISH:
                english_asides.aside_job(clause, aside, found)
            question = is_question(clause)
            if not question:
                dates(clause, sentence, ctx, found)
            # an aside in brackets after a person is about them; the sentence goes on after
            said_of = carry if aside is None else aside
            parts = lang.parts(clause, ctx, said_of, found)
            if question or is_hypothetical(clause):  # who was named still counts
                out.extend(c for c in found.items if c.predicate == "has_relation")
                if question:  # "what do you think of my plan to...", 五千以内的…有推荐吗
                    asked = Found(ts, clause, ctx)
                    lang.question_facts(clause, ctx, asked)
                    out.extend(asked.items)
                covered.append(span)
                continue
            lang.clause_facts(clause, ctx, found, said_of)
            for part in parts:
                lang.part_facts(part, ctx, found)
                hedged = hedged or part.hedged
            named = [p.subjects for p in parts if p.subjects is not None or p.someone
                     or (lang.unknown_carries and p.subject_said)]
            if named:
                carry = named[-1]
            elif aside is not None:  # "sam (my partner) is a chef": the sentence goes on
                carry = aside  # about who the aside was about
            if lang.introduces is not None and lang.introduces(clause):
                carry = None  # 招了个厨师 (叫刘强) 济南人: the newcomer's, not the user's
            if found.read or any(c.predicate != "has_relation" and c.value_kind != JOB_END
                                 for c in found.items):
                covered.append(span)  # (the generic reader skips what a rule read; a job
                # left only ends one, so "quit the brunswick harriers" is still read)
            out.extend(found.items)
        out[first:] = _corrections(_allergen_said_before(out[first:], ctx))
        if lang is _CHINESE and typed != sentence:  # 寶安坪洲 as typed, not 宝安坪洲
            out[first:] = [replace(c, entity=script.as_typed(c.entity, sentence, typed),
                                   value=script.as_typed(c.value, sentence, typed),
                                   evidence=script.as_typed(c.evidence, sentence, typed))
                           for c in out[first:]]
        return sentence, hedged, covered


# Words in quotes, a clause or longer: someone else's ("kayla was like "dad this is why we
# cant have nice things"", "the doctors are saying he shouldnt go home without "more
# support"") or a text pasted to be edited, translated or summarized — not what the user
# says of themselves. A short quote stays ("sam asked if he can make a "renal jus"").
_QUOTED = re.compile(r'"([^"]*)"|“([^”]*)”')


def _unquoted(m: re.Match[str]) -> str:
    quoted = m.group(1) or m.group(2) or ""
    return m.group(0) if is_chinese(quoted) or len(quoted.split()) < 5 else '""'


def _allergen_said_before(found: list[Candidate], ctx: Context) -> list[Candidate]:
    """"no eggs in the house, my son's allergic": the food the sentence kept from the
    user is the allergen of whoever it then says is allergic — not the user's diet."""
    who, ctx.allergic = ctx.allergic, None
    kept = [i for i, c in enumerate(found) if c.entity == USER and not c.negated
            and c.predicate == "dietary_restriction"]
    if who is None or not kept:
        return found
    avoided = found[kept[-1]]
    found[kept[-1]] = replace(avoided, entity=who, predicate="allergic_to",
                              confidence=min(avoided.confidence, 0.85), sentence=None)
    return found


_CORRECTED = frozenset({"works_as", "works_at", "is_from", "lives_in", "name", "diet"})


def _corrections(found: list[Candidate]) -> list[Candidate]:
    """"I'm not a nurse, I'm a doctor" / "我不是医生，我是药剂师" say what someone is: the
    value denied was someone's assumption, not a fact to keep. (A job left, then the new
    one, is no correction: "提了离职 … 入职海拓".)"""
    return [c for i, c in enumerate(found)
            if not (c.negated and c.predicate in _CORRECTED and c.value_kind != JOB_END and any(
                d.entity == c.entity and d.predicate == c.predicate and not d.negated
                for d in found[i + 1:]))]


@dataclass(frozen=True)
class _Deferred:
    """A sentence waiting for the generic reader, with who "I" and "she" were then and
    the character spans of its clauses that specific rules already read."""

    clause: str
    observed_at: datetime
    first_person: str
    she: str | None
    he: str | None
    hedged: bool
    covered: tuple[tuple[int, int], ...] = ()


def _generic(deferred: Sequence[_Deferred]) -> list[Candidate]:
    return [c for readings in _generic_each(deferred) for c in readings]


def _generic_each(deferred: Sequence[_Deferred]) -> list[list[Candidate]]:
    """The generic readings of each deferred sentence, all parsed in one batch; sentences
    no reading can come from (nobody the memory knows as their subject) are not parsed."""
    out: list[list[Candidate]] = [[] for _ in deferred]
    todo = [i for i, d in enumerate(deferred) if _may_read(d)]
    if not todo:
        return out
    from graphmem.extract.generic import GENERIC_CONFIDENCE, generic_candidates, parse

    # chat spelling spelled out first ("im", "shes", "dont"): spaCy reads "im" as "i" + "m"
    normalized = [spelling.normalize_mapped(deferred[i].clause) for i in todo]
    for i, doc, (_, where) in zip(todo, parse([text for text, _ in normalized]), normalized,
                                  strict=True):
        item = deferred[i]
        confidence = GENERIC_CONFIDENCE - (0.25 if item.hedged else 0.0)
        covered = [(bisect_left(where, a), bisect_left(where, b)) for a, b in item.covered]
        out[i] = [
            Candidate(entity, predicate, value, negated, confidence, item.observed_at,
                      item.clause.strip(), valid_until=until,
                      sentence=f"{sentence} ({when:%-d %b %Y})")
            for entity, predicate, value, negated, sentence, when, until in generic_candidates(
                doc, item.observed_at, item.first_person, item.she, item.he, covered)]
    return out


_FIRST_PERSON = re.compile(r"\b(?:i|we)\b", re.IGNORECASE)
_THIRD_PERSON = re.compile(r"\b(?:she|he)\b", re.IGNORECASE)
# Openings that cannot be chat ellipsis ("Went to Rome", "Still working on it"): the
# sentence has some other subject, or asks.
_NO_ELLIPSIS = re.compile(
    r"^\W*(?:(?:ok|okay|so|oh|well|hey|hi|hello|lol|haha|um|uh|also|btw|and|but|yeah|yes|no)"
    r"\W+)*(?:the|a|an|this|that|these|those|it|its|it's|there|there's|here|my|our|your|his|"
    r"her|their|you|you're|they|they're|what|what's|how|how's|why|where|when|which|who|"
    r"can|could|would|should|is|are|do|does|will|please|thanks|thank|any|some|every|each|"
    r"if|[A-Z][a-z]+'s)\b", re.IGNORECASE)


# A message that opens by naming a technical task ("sql question for work.", "pandas q.",
# "python: i have a csv of…", "excel formula.", "regex for uk postcodes?"): what it goes on
# to say is the task's data ("i have a df of transactions"), not the user's life — the
# generic reader reads none of it (the rules still do).
_TECH_TASK = re.compile(
    r"^\W*(?:(?:ok|okay|so|hi|hey|quick|another|random|also|new)\W+)*(?:sql|postgres|mysql|"
    r"python|pandas|numpy|excel|google\s+sheets|sheets|spreadsheet|vba|regex|dax|power\s*bi|"
    r"javascript|js|typescript|java|kotlin|swift|c#|c\+\+|bash|shell|css|html|react|git|docker|"
    r"playwright|selenium|pytest|jest|r|matlab|latex|kubernetes|k8s|aws|terraform|"
    r"github\s+actions|yaml|json|api)\b[\w\s/+#-]{0,25}?(?:question|q|help|query|problem|"
    r"issue|bug|thing|pls|please|formula|script|code)?\s*[:.?!\-–—]", re.IGNORECASE)


def _may_read(item: _Deferred) -> bool:
    """Could the generic reader find a subject it knows in this sentence?"""
    text = item.clause
    return bool(_FIRST_PERSON.search(text) or ((item.she or item.he) and _THIRD_PERSON.search(text))
                or not _NO_ELLIPSIS.match(text))


def settle(found: Sequence[Candidate]) -> list[Candidate]:
    """What an episode's reading keeps: the candidates whose value fits their predicate
    (``values.fits``), one per (entity, predicate, value, negated) — the most confident,
    latest."""
    best: dict[tuple[str, str, str, bool], Candidate] = {}
    for c in filter(fits, found):
        key = (c.entity, c.predicate, c.value.lower(), c.negated)
        if key not in best or c.confidence >= best[key].confidence:
            best.pop(key, None)
            best[key] = c
    return list(best.values())
