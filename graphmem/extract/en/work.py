"""Work and study: jobs and employers ("an ICU nurse at Mass General", "works at Google as
a PM", "I teach 3rd grade"), courses of study ("doing an MBA at Wharton")."""

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
from graphmem.extract.en.grammar import _ADV, _BE, _NEG
from graphmem.extract.en.lexicon import is_verb, is_word
from graphmem.extract.en.shapes import ORG, ORG_NAME, is_place, is_proper, lower_phrase, org
from graphmem.extract.en.subjects import IC, NOT_NAMES, singular
from graphmem.extract.vocab import (
    BUSINESS_EN,
    DEGREE_EN,
    DIET_EN,
    FIELD_EN,
    JOB_EN,
    LANGUAGE_EN,
    SCHOOL_KIND_EN,
)

# (not a judgement: "he's a very good cook", "a terrible driver" say how, not what they do)
_MODIFIER = (r"(?!(?:at|for|with|in|a|an|the|and|of|to|from|on|very|really|so|pretty|super|such|"
             r"good|great|bad|terrible|awful|excellent|brilliant|decent|natural|born|better|best|"
             r"worse|worst|lousy|fantastic|wonderful|amazing|incredible|shit|crap)\b)[\w'-]+\s+")


_JOB = rf"(?:{_MODIFIER}){{0,3}}(?:{JOB_EN})s?\b"
# A clause that is a job and nothing else ("a dentist", "she's a realtor", "retired nurse").
JOB_ONLY = re.compile(rf"(?:(?:she|he)(?:'s|\s+is)\s+)?(?:(?:an?|the|my|our|his|her|their)\s+)?"
                      rf"(?:retired\s+)?(?P<job>(?:{_MODIFIER}){{0,2}}(?:{JOB_EN}))", IC)


_SCHOOL = r"[A-Z][\w'.&-]*(?:\s+(?:of\s+|de\s+)?[A-Z][\w'.&-]*)*"


_EMPLOYER = (
    rf"\b(?i:(?:runs?|owns?|running|owning)\s+(?:an?|his|her|their|my)\s+)"
    rf"((?i:(?:[a-z]+\s+){{0,2}}(?:{BUSINESS_EN})))\b",
    rf"\b(?i:(?:new\s+job|got\s+(?:a|the)\s+(?:[a-z]+\s+)?job|(?:accepted|took|signed)\s+(?:the|an?|their)"
    rf"\s+(?:job\s+)?offer)\s+(?:at|with|from))\s+({ORG})",
    rf"\b(?i:got\s+the\s+)({ORG_NAME})\s+(?i:job|position|role|offer)\b",  # "got the Ledgerly job"
    rf"\b(?i:started\s+(?:at|with)|joined|joining|hired\s+(?:at|by))\s+({ORG_NAME})",
)


_HIRED = re.compile(r"\b(?:offer accepted|accepted (?:the|their|an?|his|her) (?:job\s+)?offer|"
                    r"got (?:the|a new) (?:[\w-]+\s+){0,2}?job|got hired|took the job|"
                    r"(?:i|we) got it|"
                    r"offered (?:me|him|her|them) (?:the|a) (?:[\w-]+\s+){0,2}?"
                    r"(?:job|position|role|post|contract))\b", IC)
# A new job said as what happened: "caledon offered me the job", "they offered me a role at
# acme health" — the user's, whoever offered it (the employer opens the clause, or follows
# "at").
_OFFERED = re.compile(r"^\s*(?:(?:so|and|but|omg|guess\s+what)\s+)?(?:(?P<by>[a-z][\w'.&-]*"
                      r"(?:\s+[a-z][\w'.&-]*){0,3}?)\s+)?(?:just\s+|finally\s+|officially\s+|"
                      r"actually\s+)?offered\s+me\s+(?:the|a)\s+(?:[\w-]+\s+){0,2}?"
                      r"(?:job|position|role|post|contract)\b(?:\s+at\s+(?P<at>.+))?", IC)
# Cues after which a lower-case proper name is an employer ("i work part time at michaels",
# "got hired at flipkart", "offer accepted at ridgeline", "first week at alma done").
_WORKS_AT_LOWER = (
    r"\b(?:work|works|working|worked)\s+(?:(?:part\s+time|full\s+time|part-time|full-time|"
    r"nights|days|now|currently|still|there)\s+)*(?:at|for)\s+",
    r"\b(?:got\s+hired|been\s+hired|hired|offer\s+accepted|accepted\s+an?\s+offer|"
    r"started|starting)\s+(?:(?:part[\s-]time|full[\s-]time|on\s+contract|permanently|"
    r"officially)\s+)?(?:at|with|by)\s+",
    r"\bfirst\s+(?:(?:\d+|two|three|four|five|few|couple(?:\s+of)?)\s+)?(?:days?|weeks?|shifts?|"
    r"months?)\s+(?:(?:as|of)\s+[\w' -]+?\s+)?at\s+",
)
# A firm named in lower case by owning it or by years with it: "i own hill country lawn &
# landscape", "i own la palma taqueria", "been with taff valley heating 9 years now" — a
# name of two words or more (not "been with sam 3 years", "i own a house").
_FIRM_OF_MINE = re.compile(
    r"(?:\bi\s+|^\s*)own\s+(?=[a-z])(?!(?:a|an|the|my|our|two|three|\d)\b)|\b(?:been|worked|"
    r"working)\s+(?:with|for)\s+(?!(?:my|his|her|our|their|the|a|an|him|them|me|you|us|it)\b)"
    r"(?=[a-z][\w' &.-]*?\s+(?:for\s+)?(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|"
    r"ten|many|several)\s+(?:years?|yrs?|months?)\b)", IC)


_NOT_EMPLOYERS = frozenset({"home", "work", "school", "night", "nights", "church", "it",
                            "this", "that", "all", "least", "first", "last", "once", "times",
                            "reception", "lunch", "dinner", "break", "desk", "office", "hand"})
# "dinners that work for both of us", "that works for me": people, no employer
_FOR_PEOPLE = frozenset({"both", "us", "me", "you", "them", "everyone", "everybody", "each",
                         "either", "anyone", "someone", "people", "kids", "him", "her"})
_TOOK_JOB = re.compile(r"\b(?:took|got|accepted|landed|start(?:ed)?)\s+the\s+([\w' &.-]+?)\s+"
                       r"(?:job|position|role|internship|offer)\b", IC)
# A job taken, said by what it is: "got a job at St James's Hospital as hospital pharmacist",
# "my wife got a new job as a practice manager at a dental surgery", "landed a role with
# Arup as a graduate engineer".
_JOB_AS = re.compile(rf"\b(?:got|landed|accepted|started|took|found|offered\s+\w+)\s+(?:a|an|the)"
                     rf"\s+(?:new\s+|full[\s-]time\s+|part[\s-]time\s+)?(?:job|position|role|post)"
                     rf"\s+(?:(?:at|with)\s+(?P<at>[^,;]+?)\s+)?as\s+(?:an?\s+)?(?P<job>{_JOB})"
                     rf"(?:\s+(?:at|with)\s+(?P<then>[^,;]+))?", IC)
# A working life said with its length: "after 30 years as a postman", "31 years as a nurse at
# St Vincent's" — the job, whatever the clause says became of it (retired: see _RETIRED).
_YEARS_AS = re.compile(rf"\b(?:\d+|[a-z]+(?:-[a-z]+)?)\s+(?:years?|yrs?)\s+as\s+(?:an?\s+)?({_JOB})"
                       rf"(?:\s+(?:at|for|with)\s+({ORG}))?", IC)
# The speaker's (or the clause's subject's) working life is over: "I retired at the end of
# last year", "he's retired now" — not "retiring next year", not "a retired nurse" (said of
# the job itself).
_RETIRED = re.compile(rf"(?:^\s*|\b(?:i|we|he|she|they|'ve|have|has|'s|is|just|finally|"
                      rf"officially|already|now)\s+)retired\b(?!\s+{_JOB})", IC)
# Retired, said of the part's subject with no job named: "i'm retired now", "we're both
# retired", "Gary retired from the post office 2 years ago" — what they do now.
_RETIRED_NOW = re.compile(r"^\s*(?:'m|am|'re|are|'s|is|'ve|have|has)?\s*(?:been\s+)?"
                          r"(?:both\s+|now\s+|finally\s+|officially\s+|just\s+|already\s+|"
                          r"fully\s+)*retired(?=\s*$|[\s,.;!)]+(?:$|from|in|at|on|last|this|"
                          r"after|early|now|since|about|a\s+few|two|three|\d|and|but|so|lol))",
                          IC)  # (not "Curtis, retired Air Force": said of whom he was)
_LEFT_JOB = re.compile(r"\b(?:left|leaving|quit|quitting|leave|gave\s+(?:my\s+)?notice\s+at|"
                       r"handed\s+in\s+(?:my\s+)?notice\s+at)\s+", IC)


def quits_no_employer(phrase: str) -> bool:
    """Is what someone quits or leaves (``phrase``, not empty) a habit or a diet rather than
    an employer — "quit smoking finally", "quit keto"?"""
    first = phrase.split()[0]
    return (first.lower().endswith("ing") and is_verb(first)) or match(
        rf"^(?:{DIET_EN})\b", phrase, IC) is not None


_TRADE = re.compile(rf"(?:{BUSINESS_EN}|heating|plumbing|electrical|landscaping|landscape|"
                    rf"construction|roofing|builders|motors|logistics|solutions|services)$", IC)


def _firm_like(name: str) -> bool:
    """A firm's name in lower case: a word no dictionary lists ("taqueria"), an "&", or a
    trade at its end ("taff valley heating") — not "goal lol"."""
    return "&" in name or _TRADE.search(name) is not None or any(
        not is_word(w) for w in name.split())


def _lower_employer(t: str, part: Part, ctx: Context, found: Found) -> bool:
    """Employers typed in lower case, after words that say so, and the end of a job
    ("finally left infosys", "gave my notice at michaels"); after "offer accepted!",
    "sous chef at alma cocina" is the new job."""
    if _HIRED.search(t) or _HIRED.search(ctx.sentence):
        ctx.hired = True
    if (m := _FIRM_OF_MINE.search(t)) and len(
            (at := lower_phrase(t[m.end():], 5)).split()) >= 2 and at.islower() and _firm_like(at):
        found.say(part, "works_at", at, False, 0.8, "organization")
        return True
    if (m := _OFFERED.match(t)) and (at := next((a for a in (
            lower_phrase(org(m.group("at") or "")), lower_phrase(m.group("by") or ""))
            if a and is_proper(a) and a.lower() not in _NOT_EMPLOYERS), "")):
        if not part.past:  # the job is the user's, whoever offered it ("they offered me")
            found.add(USER, "works_at", at.lower() if at.isupper() else at, False,
                      0.8 - 0.25 * part.hedged, "organization")  # "CALEDON OFFERED ME THE JOB"
        return True
    if m := _TOOK_JOB.search(t):  # "took the studio marlo job", "GOT THE CELLVERA INTERNSHIP"
        said = m.group(1).strip()
        if search(rf"^(?:{_JOB})$", said, IC):
            found.say(part, "works_as", said.lower(), False, 0.8, "job")
        elif is_proper(lower_phrase(said)) and lower_phrase(said) == said:
            found.say(part, "works_at", said.lower(), False, 0.8, "organization")
        return True
    if m := match(rf"^\s*(?i:(?:just\s+|finally\s+|officially\s+)?(?:got|landed|accepted|starting|"
                  rf"started)\s+(?:an?|the)\s+(?:new\s+)?)"
                  rf"(?i:({_JOB}))\s+(?i:job|position|role)\b(?:.*?\b(?i:at)\s+(.+))?", t):
        found.say(part, "works_as", m.group(1).lower(), False, 0.8, "job")
        if m.group(2) and is_proper(at := lower_phrase(org(m.group(2)))):
            found.say(part, "works_at", at, False, 0.8, "organization")
        return True
    if ctx.hired and not part.subject_said and (m := match(
            rf"^\s*(?:as\s+)?(?:an?\s+)?(?!(?i:like|about|around|only|just)\b|\d)(?i:({_JOB}))"
            rf"(?:\s+(?i:at|for|with)\s+(.+))?\s*$", t)):
        found.say(part, "works_as", m.group(1).lower(), False, 0.8, "job")  # "ops supervisor"
        if m.group(2) and is_proper(at := lower_phrase(org(m.group(2)))):
            found.say(part, "works_at", at, False, 0.8, "organization")
        return True
    for cue in _WORKS_AT_LOWER:  # a dictionary word too ("ridgeline", "michaels"); after
        # "the", a name only ("hired at the dublin branch library", not "at the gym")
        if not (m := search(cue, t, IC)):
            continue
        the = match(r"the\s+", t[m.end():], IC)
        at = lower_phrase(t[m.end() + (the.end() if the else 0):])
        if at and at.split()[0].lower() not in _FOR_PEOPLE and (
                is_proper(at) or (not the and at.lower() not in _NOT_EMPLOYERS)):
            found.say(part, "works_at", at, False, 0.8, "organization")
            return True
    if (m := _LEFT_JOB.search(t)) and is_proper(at := lower_phrase(t[m.end():])) and (
            not search(r"\b(?:home|town|house|the\s+country)\b", at, IC)) and not (
            quits_no_employer(at)) and search(
            r"\b(?:job|work|after\s+\d+\s+years|notice|finally|quit|resign)", t + ctx.sentence, IC):
        found.say(part, "works_at", at, True, 0.8, "organization")  # "finally left infosys"
        return True
    return False


# Someone the user took on: "hired meera as junior accountant", "we brought Tom on as a
# barista" — the job is the named person's.
_TOOK_ON = re.compile(rf"\b(?:hired|hire|took\s+on|brought)\s+([A-Za-z][a-z'-]+)\s+(?:on\s+)?as\s+"
                      rf"(?:an?\s+|our\s+|my\s+|the\s+)?({_JOB})", IC)


def _took_on(t: str, part: Part, ctx: Context, found: Found) -> None:
    """(Read in the whole sentence: the name cuts the clause into parts.)"""
    if not search(r"\b(?:hired|hire|took\s+on|brought)\b", t, IC) or part.past:
        return
    if (m := _TOOK_ON.search(ctx.sentence)) and (name := m.group(1).lower()) not in NOT_NAMES \
            and name not in {"him", "her", "them", "us", "me", "someone", "somebody"} \
            and (m.group(1)[0].isupper() or not is_word(name)):
        found.add(name.capitalize(), "works_as", m.group(2).lower(), False,
                  0.8 - 0.25 * part.hedged, "job")


# Serving in the forces: "my son marcus is in the navy", "she's in the army now".
_MILITARY = re.compile(r"^\s*(?:'s|is|are|'re|'m|am)\s+(?:now\s+|still\s+)?(?:serving\s+)?in\s+"
                       r"the\s+(navy|army|air\s+force|marines|raf|royal\s+navy|coast\s+guard|"
                       r"national\s+guard)\b(?!\s+(?:cadets|reserve|surplus|museum|store)\b)", IC)
# A clause that names a job and nothing else, its subject carried from the clause before:
# "he's 61, retired bank manager in jaipur", "my sister, nurse at st james".
_JOB_CLAUSE = re.compile(rf"^\s*(?:an?\s+)?(?!(?:our|my|his|her|their|so|too)\b)((?:retired\s+)?"
                         rf"(?:(?![\d~])(?:{_MODIFIER})){{0,2}}(?:{JOB_EN})s?\b)(?<!\brn)"
                         rf"(?:\s+(?:at|for|with)\s+({ORG}))?"
                         rf"(?:\s+(?:in|near)\s+[\w' -]{{2,30}})?\s*$", IC)


def _work(t: str, part: Part, ctx: Context, found: Found) -> None:
    """Occupation and employer: "I'm an ICU nurse at Mass General", "working as an RN at
    Toronto General", "works at Google as a PM", "I teach 3rd grade", "driving buses for
    the MTA", "he runs a small bakery"."""
    _took_on(t, part, ctx, found)
    job = at = None
    negated = False
    if search(r"\bself[- ]employed\b|\bwork(?:ing|s|ed)?\s+for\s+(?:myself|meself|"
              r"himself|herself)\b", t, IC) and not search(r"\b(?:if|whether|thinking)\b", t, IC):
        found.say(part, "works_as", "self-employed", False, 0.8, "job")  # "working for meself"
    if m := match(rf"^\s*(?i:(?:{_BE}|'ve been|have been|has been|'s been)\s+{_ADV}"
                  rf"(?:(not)\s+{_ADV})?(?:an?|the)\s+)(?i:({_JOB}))"
                  rf"(?:\s+(?i:at|for|with)\s+({ORG}))?", t):
        negated, job, at = bool(m.group(1)), m.group(2), m.group(3)
    elif m := match(rf"^\s*(?i:(?:'re|are)\s+(?:both\s+|all\s+)?)(?i:((?:{_MODIFIER}){{0,2}}"
                    rf"(?:{JOB_EN})s))\b", t):
        job = singular(m.group(1))
    elif m := search(rf"\b(?i:(?:work(?:s|ing|ed)?|freelanc(?:e|es|ing))\s+(?:(?:nights|days|"
                     rf"weekends|evenings|mornings|part-time|full-time|remotely|now|currently|"
                     rf"still|mostly|freelance)\s+)*as\s+(?:an?\s+)?|(?:just\s+)?start(?:ed|ing)\s+"
                     rf"(?:(?:a\s+new\s+job\s+|work\s+|out\s+)?)as\s+(?:an?\s+)?)"
                     rf"(?i:({_JOB}))"
                     rf"(?:\s+(?i:at|for|with)\s+({ORG}))?", t):
        job, at = m.group(1), m.group(2)
    elif m := search(rf"\b(?i:work(?:s|ing)?\s+(?:(?:nights|days|weekends|part-time|full-time|"
                     rf"remotely|there|now|currently|still)\s+)*(?:at|for))\s+({ORG})"
                     rf"(?:\s+(?i:as\s+(?:an?\s+)?)(?i:({_JOB})))?", t):
        at, job = m.group(1), m.group(2)
    elif m := _YEARS_AS.search(t):  # "i retired last month after 30 years as a postman"
        job, at = m.group(1), m.group(2)
    elif m := search(r"\bteach(?:es|ing)?\s+(\d+(?:st|nd|rd|th)\s+grade|(?i:year|grade)\s+\d+|"
                     r"kindergarten|"
                     r"(?:high|middle|elementary|primary)\s+school|(?!my\b|me\b|them\b|"
                     r"kids\b|people\b|how\b|you\b|your\b|our\b|his\b|their\b|the\b|a\b|"
                     r"an\b|others\b|about\b|class\b|classes\b|lessons?\b|things\b|stuff\b|"
                     r"everyone\b|someone\b|something\b|children\b|students\b|myself\b|"
                     r"yourself\b|himself\b|"
                     r"herself\b|themselves\b|him\b|her\b|us\b|job\b|jobs\b|position\b|"
                     r"role\b|gig\b|career\b|experience\b)[A-Za-z]+)\b", t, IC):
        job = f"{m.group(1)} teacher"
    elif m := search(rf"\b(?i:driv(?:e|es|ing)\s+(?:an?\s+)?)(?i:(bus|truck|taxi|cab|uber|"
                     rf"lyft|ambulance|forklift|train))(?:es|s)?(?:\s+(?i:for)\s+({ORG}))?", t):
        job, at = f"{m.group(1).lower()} driver", m.group(2)
    elif m := search(rf"\b(?i:(?:got\s+)?promoted\s+to\s+(?:an?\s+)?)(?i:({_JOB}))", t):
        job = m.group(1)  # "just got promoted to store manager"
    elif m := search(rf"\b(?i:(?:manage|manages|managing|lead|leads|leading)\s+(?:a|the)\s+"
                     rf"(?:[a-z]+\s+)?team)\b(?:\s+(?i:of\s+\d+))?(?:\s+(?i:at|for)\s+({ORG}))?",
                     t):
        job, at = "manager", m.group(1)  # "I manage a team of 8 at a logistics company"
    elif m := match(rf"^(?i:(?:currently|now|still)\s+(?:working\s+)?(?:at|with))\s+({ORG_NAME})",
                    t):
        at = m.group(1)  # "(I've been a paralegal for 4 years,) currently at Henderson & Voss"
    elif m := _MILITARY.match(t):  # "he's in the navy stationed in san diego"
        at = m.group(1).title()
    elif not part.subject_said and part.subjects not in (None, (USER,)) and (
            m := _JOB_CLAUSE.match(t)):
        job, at = m.group(1), m.group(2)  # "he's 61, retired bank manager in jaipur"
    elif m := _JOB_AS.search(t):  # "got a job at St James's Hospital as hospital pharmacist"
        job, at = m.group("job"), m.group("at") or m.group("then")
        at = re.split(r"\s+(?:in|near|on|at|since|from)\s+", at)[0] if at else at  # (where)
    elif m := first_search(_EMPLOYER, t):  # "he runs a small bakery", "a new job at Meta"
        at = m.group(1)
    elif m := search(rf"\b(?i:(?:laid off|fired|let go)\s+from|(?:quit|left)\s+(?:my|his|her|"
                     rf"their)\s+(?:job|position|role)\s+"
                     rf"(?:at|with))\s+({ORG})", t):
        found.say(part, "works_at", org(m.group(1)), True, 0.8, "organization")
    if job is None and at is None and not negated and _lower_employer(t, part, ctx, found):
        return
    if job and at is None and (after := search(rf"{re.escape(job)}\s+(?:at|for|with)\s+", t, IC)):
        at = lower_phrase(t[after.end():]) or None  # "the night shift lead at hallett logistics"
        at = at if at and is_proper(at) else None
    if job and (retired := match(r"(?i:retired)\s+", job)):
        job = f"{job[retired.end():]} (retired)"  # "a retired firefighter", as 退休 is read
    if job and _RETIRED.search(t) and not job.endswith("(retired)"):
        job, at = f"{job} (retired)", None  # "I retired … after 31 years teaching Year 3"
    if job and re.match(r"(?i:former|ex-|ex\s|previous|old)\b", job):
        job = None  # "my ex-boss", "a former nurse": not what they do now
    if job is None and not negated and _RETIRED_NOW.match(t):
        job = "retired"  # (a later job change or this one: the newest is what they do)
    if job and not re.match(r"(?i:student)\b", job):
        found.say(part, "works_as", job.strip(), negated, 0.8, "job")
    if at and (called := search(rf"^\s*(?i:called|named)\s+({ORG_NAME})", t[t.find(at) +
                                                                              len(at):])):
        at = called.group(1)  # "a startup called Lumen Health"
    if at and not negated and (value := org(at)):
        found.say(part, "works_at", value, False, 0.8, "organization")


_STUDIES = (  # (field or degree, school)
    rf"\b(?i:(?:studying|study|studies|majoring in|major in|majors in)\s+)"
    rf"((?!(?i:for|to|hard|real|really|very|super|abroad|like|so|all|late|again|now|a lot|"
    rf"with|at|in|and|or|but|up|on|into|schedule|plan|plans|time|session|sessions|habits|"
    rf"group|routine|buddy|partner|break|breaks)\b)"
    rf"[\w&'-]+(?:\s+[\w&'-]+){{0,3}}?)"
    rf"(?:\s+(?i:at)\s+((?:the\s+)?{_SCHOOL}))?(?=\s*$|\s+(?:and|but|while|,))",
    rf"\b(?i:(?:learning|studying)\s+)((?i:{LANGUAGE_EN}))\b"
    rf"(?:\s+(?i:at)\s+((?:the\s+)?{_SCHOOL}))?",
    rf"\b(?i:(?:doing|pursuing|getting|working on|finishing|starting|started|began|"
    rf"beginning|enrolled in)\s+"
    rf"(?:an?|my|his|her|their)\s+)((?i:{DEGREE_EN})(?:\s+(?i:in)\s+[\w&' -]+?)?)"
    rf"(?:\s+(?i:at)\s+((?:the\s+)?{_SCHOOL}))?"
    # where the field ends: the clause's end or a word that begins something else — not the
    # field's own next word ("a master's in public health", not "in public")
    rf"(?=\s*(?:$|[,.;!?)])|\s+(?:and|but|while|so|since|this|next|for|part-time|"
    rf"full-time|online|now|right|at\s+night)\b)",
    rf"\b(?i:(?:taking|take|takes|doing|enrolled in|signed up for)\s+(?:an?|some)\s+"
    rf"(?:(?:night|evening|online|weekend|weekly|beginner|beginners|intro|intensive|"
    rf"community)\s+)*(?:class|classes|course|courses|lessons)\s+(?:in|on))\s+"
    rf"([\w&'-]+(?:\s+[A-Z][\w&'-]*)?)(?:\s+(?i:at)\s+({_SCHOOL}))?",
    rf"\b(?i:(?:in|at|attending|going to)\s+)((?i:(?:{SCHOOL_KIND_EN})\s+school))"
    rf"(?:\s+(?i:at)\s+({_SCHOOL}))?",
)


# A course said by its year or its field, of anyone: "shes in her 3rd year of vet school in
# bristol", "he's in final year medicine at university of ibadan", "he is in 5th year
# medicine at UI", "priya does pharmacy", "she does law at leeds", "my lil sis jo is at
# angelo state doin nursing", "(she's at NAU doing nursing)".
_YEAR = r"(?:first|second|third|fourth|fifth|final|last|1st|2nd|3rd|4th|5th)\s+year"
_FIELD = rf"(?:(?:[a-z]+\s+)?(?:{FIELD_EN}))"
_COURSE = (
    rf"^\s*(?i:(?:'s|is|'m|am|are|'re)\s+(?:in\s+)?(?:(?:her|his|their|my|the)\s+)?{_YEAR}\s+"
    rf"(?:of\s+|doing\s+|studying\s+)?)(?P<field>(?i:{_FIELD}))\b",
    rf"^\s*(?i:(?:does|do|is\s+doing|'s\s+doing|studies)\s+)(?P<field>(?i:{_FIELD}))"
    rf"(?=\s*$|\s*[,.;!?)]|\s+(?i:at|in|and|but|so|now)\b)",
    rf"^\s*(?i:(?:'s|is|are|'re)\s+at\s+)(?P<school_first>[\w'&.-]+(?:\s+[\w'&.-]+){{0,2}}?)\s+"
    rf"(?i:doing|doin|studying)\s+(?P<field>(?i:{_FIELD}))\b",
)
_AT_SCHOOL = re.compile(r"^\s*(?:at|in)\s+", IC)


def _course(t: str, part: Part, found: Found) -> bool:
    """A course of anyone's said by its year or field (``_COURSE``), with its school when
    one follows ("at leeds", "at University of Ibadan") or came first."""
    m = first_search(_COURSE, t)
    if m is None or part.subjects is None:
        return False
    field, school, word = m.group("field"), m.groupdict().get("school_first"), "at"
    if school is None and (at := _AT_SCHOOL.match(t[m.end():])):
        word = at.group(0).strip().lower()  # "vet school in bristol"
        rest = t[m.end() + at.end():]
        named = re.match(_SCHOOL, rest)
        school = named.group(0) if named else lower_phrase(rest, 3)
    if school and not (school[0].isupper() or is_place(school.lower())
                       or school.lower().split()[0] in {"university", "uni", "college"}):
        school = None
    found.say(part, "studies", f"{field} {word} {school}" if school else field, False, 0.8)
    return True


def _study(t: str, part: Part, ctx: Context, found: Found) -> None:
    """"Studying CS at Georgia Tech", "doing an MBA at Wharton", "a Ph.D. student in
    chemistry at U. of Michigan", "in med school at Johns Hopkins"."""
    value = None
    if _course(t, part, found):
        return
    if m := match(rf"^\s*(?i:{_BE}\s+{_ADV}an?\s+)(?:(?i:({DEGREE_EN}))\s+|(?i:(?:first|second|"
                  rf"third|fourth|final|1st|2nd|3rd|4th)[- ]year)\s+)?(?:(?i:({FIELD_EN}))\s+)?"
                  rf"(?i:student)(?:\s+(?i:in|of)\s+"
                  rf"([\w&' -]+?))?(?:\s+(?i:at)\s+((?:the\s+)?{_SCHOOL}))?\s*$", t):
        degree, field, school = m.group(1), m.group(2) or m.group(3), m.group(4)
        value = " ".join(filter(None, [degree, f"in {field}" if field and degree else field,
                                       f"at {school}" if school else None]))
    elif m := first_search(_STUDIES, t):
        value = m.group(1) + (f" at {m.group(2)}" if m.group(2) else "")
    if value:  # "I'm not studying Spanish anymore": no longer
        negated = bool(search(rf"\b(?:{_NEG}|stopped|quit)\b", t[:m.start()], IC)
                       or search(r"\b(?:anymore|any more)\b", t[m.start():], IC))
        value = re.sub(r"\s+(?:anymore|any more)$", "", value.strip(), flags=IC)
        found.say(part, "studies", value, negated, 0.8)
