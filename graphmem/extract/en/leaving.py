"""A job left: "quit nero yesterday", "resigned at routely", "handed me notice in at taff
valley", "last day at trellis today", "can you write me a resignation letter … last day may
9", "brendas last day was the 25th" — ``works_at`` negated, of kind ``JOB_END``.

Such a candidate only ends: consolidation ends the current employer it names (by its words:
"nero" ends "caffe nero"), or, when it names none ("my last day is friday"), the employer
said in an earlier episode; with none to end, nothing is stored (``facts.endings.ended_jobs``).
So a word after "quit" that is no employer ("quit pottery", "quit the gym") ends nothing.
"""

from __future__ import annotations

import re
from dataclasses import replace

from graphmem.extract.candidate import JOB_END, USER, Context, Found, Part
from graphmem.extract.en.shapes import is_proper, lower_phrase, org
from graphmem.extract.en.subjects import IC
from graphmem.extract.en.work import quits_no_employer

# Said only of a job: a resignation, notice handed in, the last day or shift at work.
_RESIGNS = re.compile(
    r"\b(?:resignation(?:\s+(?:letter|email|e-mail|note))?|resign(?:ed|ing|s)?|"
    r"hand(?:ed|ing)?\s+(?:in\s+)?(?:my|me|his|her|their)\s+notice(?:\s+in)?|"
    r"(?:gave|give|giving|given|put\s+in|putting\s+in)\s+(?:in\s+)?(?:my|me|his|her|their)\s+"
    r"(?:notice|resignation)(?!\s+on\b)|"
    # a last day or shift when it is dated or placed: "last day july 31", "last shift at
    # kembers", "last day is this friday" (not "on our last day we swam")
    r"last\s+(?:day|shift)(?=\s+at\s+\w|\s+(?:(?:is|was|will\s+be|'s|=)\s+)?(?:today|tomorrow|"
    r"tmrw|tonight|this|next|on\s|the\s+\d|\d|(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|"
    r"sat(?:ur)?|sun)(?:day)?\b|jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)))\b",
    IC)
# Said of a job when an employer follows: "quit nero", "quitting little fig", "left the bank".
_LEAVES = re.compile(r"\b(?:quit|quitting|quits|leaving|left)\s+(?:my\s+(?:job|post|role)\s+"
                     r"(?:at|with)\s+)?", IC)
# The employer after the cue: "at kestrel", "from northway freight", "resigned at routely",
# "last shift on AMU".
_AT = re.compile(r"\b(?:at|from|with|on)\s+(?!(?:the\s+)?(?:end|least|all|home|night|nights|"
                 r"weekends?|the\s+moment|some\s+point|once|first|last)\b)", IC)
# Not said of leaving a job: an idea, a doubt, a question, a plan still open.
_UNDECIDED = re.compile(
    r"\b(?:think(?:ing)?|consider(?:ing)?|might|maybe|whether|if\s+(?:i|he|she|we)|should\s+(?:i|he|she)|"
    r"wanna|want(?:s|ed)?\s+to|not|never|don'?t|dont|didn'?t|didnt|won'?t|wont|when\s+do|"
    r"afraid|scared|nervous\s+about|tempted|dream(?:ing)?)\b", IC)
# Where "leaving" / "left" (or "quit" and a common word) goes with a job: the message
# talks of work.
_WORK_TALK = re.compile(r"\b(?:jobs?|work|notice|shifts?|resign\w*|last\s+day|boss|manager|"
                        r"colleagues|team|freelanc\w*|offer|contract|start\s+date|hired)\b", IC)
# What a last day or shift follows when it is the subject's own: nothing, "my", a pause.
_OWN_LAST = re.compile(r"(?:^|[,.;:!(]|\b(?:my|his|her|their|me|did|and|so|also|finally|"
                       r"today|today's|todays))\s*$", IC)
_MY = re.compile(r"\s*(?:(?:and|so|also|finally)\s+)?(?:my\s+)?", IC)
_NOT_EMPLOYERS = frozenset({"it", "them", "him", "her", "that", "this", "there", "here", "job",
                            "work", "home", "town", "house", "flat", "place", "country", "city",
                            "uk", "us", "room"})


def _employer(text: str) -> str:
    """The employer named first in ``text`` ("" if none)."""
    said = org(lower_phrase(text, words=3))
    return "" if said.lower() in _NOT_EMPLOYERS or len(said) < 2 else said


def _left_job(t: str, part: Part, ctx: Context, found: Found) -> None:
    """The part's subjects left the job named (or the job they have, none named)."""
    if part.hedged or part.past or (m := _RESIGNS.search(t) or _LEAVES.search(t)) is None:
        return
    said = ctx.sentence.lower().find(m.group(0).lower())  # ("thinking im | quitting rowing")
    if _UNDECIDED.search(t[:m.start()]) or (said > 0 and _UNDECIDED.search(ctx.sentence[:said])):
        return
    subjects = part.subjects
    if m.re is _RESIGNS:
        if m.group(0).lower().startswith("last") and not _OWN_LAST.search(t[:m.start()]):
            return  # "rosie last day today": someone's the clause does not make the user's
        if subjects is None and _MY.fullmatch(t[:m.start()]):
            subjects = (USER,)  # "(I quit night fill,) last shift was thursday"
        at = _AT.search(t, m.end())
        employer = _employer(t[at.end():]) if at else ""
    else:
        at = _AT.match(t, m.end() + len(lower_phrase(t[m.end():], words=3)) + 1)
        employer = _employer(t[at.end():] if at else t[m.end():].removeprefix("the "))
        if not employer or quits_no_employer(employer) or (
                (not is_proper(employer.lower()) or m.group(0).lower().startswith(
                    ("leaving", "left"))) and not _WORK_TALK.search(ctx.message or ctx.sentence)):
            return  # ("quit smoking finally", "quit keto", "leaving chicago friday")
    if subjects and not any(c.predicate == "works_at" and c.negated for c in found.items):
        found.say(replace(part, subjects=subjects), "works_at", employer or "job", True, 0.8,
                  JOB_END)
