"""Pastimes: what someone does for fun, by the words that say it is theirs (plays, took up,
joined, got into, every Tuesday), and the pastime given up (quit, packed in, no more), which
ends the like it was stored as."""

from __future__ import annotations

import re

from graphmem.extract.candidate import USER, Context, Found, Part, search
from graphmem.extract.en.lexicon import is_noun
from graphmem.extract.en.shapes import lower_phrase
from graphmem.extract.en.subjects import IC
from graphmem.extract.vocab import ACTIVITIES_EN, REL_EN

# What someone does for fun, by the words that say it is theirs: "i play pickleball tuesday
# and thursday mornings", "started playing sunday soccer", "the guys from work got me into
# their tuesday night bowling league", "ive been doing aquafit mondays and wednesdays ... i
# LOVE it", "joined a running club", "went to the badminton drop-in ... it was SO fun".
_WHEN = (r"(?:(?:on\s+|every\s+)?(?:mon|tues|wednes|thurs|fri|satur|sun)days?\s+"
         r"(?:and\s+\w+days?\s+)?(?:night|nights|morning|mornings|evening|evenings)?\s*|"
         r"weekly\s+|rec\s+|coed\s+)*")
_A_SIDE = re.compile(r"(?:five|six|seven|eleven|[5-7]|11)[- ]a[- ]side\b", IC)  # football
_PLAYS = re.compile(rf"^\s*(?:'ve\s+been\s+|have\s+been\s+|been\s+|'m\s+|am\s+|just\s+|also\s+)*"
                    rf"(?:started\s+|start\s+)?(?:play|plays|playing)\s+{_WHEN}"
                    rf"({_A_SIDE.pattern}|[a-z][\w-]+)\b", IC)
_GOT_INTO = re.compile(rf"\bgot\s+(?:me|us)\s+into\s+(?:their|the|a|an|my|our)?\s*{_WHEN}"
                       r"([a-z][\w-]+(?:\s+(?:league|club|class|team|group))?)\b", IC)
_JOINED = re.compile(rf"\b(?:joined|signed\s+up\s+for)\s+(?:a|an|the|their|our)\s+{_WHEN}"
                     r"([a-z][\w-]+(?:\s+[a-z][\w-]+)?)\s+(?:league|club|team|group|class)\b"
                     r"|\b(?:joined|signed\s+up\s+for)\s+(?:a|an|the|their|our)\s+"
                     r"([a-z][\w-]+\s+(?:choir|band|orchestra))\b", IC)  # "a filipino choir"
# An activity done as a habit, by how often: "started doing the cooks river parkrun on
# saturdays", "been doing yoga at a studio on queen east, 3x a week", "i swim at the lido
# every morning", "still going to spin class twice a week".
_OFTEN = (r"(?:on\s+(?:mon|tues|wednes|thurs|fri|satur|sun)days|every\s+(?:week|weekend|morning|"
          r"evening|day|(?:mon|tues|wednes|thurs|fri|satur|sun)day)|(?:\d|two|three|four|five)\s*"
          r"(?:x|times)\s+a\s+week|(?:twice|once)\s+a\s+week|weekly|most\s+(?:mornings|days|"
          r"evenings|weekends))")
_HABIT = re.compile(rf"\b(?:started|start|been|now|still|also)\s+(?:doing|going\s+to|taking)\s+"
                    rf"(?:the\s+|a\s+|an\s+|my\s+)?([a-z][\w'-]*(?:\s+[a-z][\w'-]*){{0,3}}?)"
                    rf"\s+(?:(?:at|in|with)\s+[^,.!?]{{1,40}}?[\s,]+)?{_OFTEN}\b", IC)
# A pastime taken up, or a course of one begun: "i've taken up climbing", "took up fishing
# instead", "signed up for a beginners' watercolour class", "started a pottery course".
_TOOK_UP = re.compile(r"\b(?:took|taken|taking|take|takes)\s+up\s+(?:a\s+bit\s+of\s+|some\s+)?"
                      r"([a-z][\w-]+(?:\s+[a-z][\w-]+)?)\b"
                      r"|\b(?:signed\s+up\s+for|joined|started|enrolled\s+in)\s+"
                      r"(?:a|an|the|my)\s+(?:(?:beginners?'?|intro|introductory|adult|evening|"
                      r"weekly|\d+[- ]week|six[- ]week|new)\s+)*([a-z][\w-]+(?:\s+[a-z][\w-]+)?)\s+"
                      r"(?:class|classes|course|lessons)\b", IC)
_DOING_LOVE = re.compile(rf"\b(?:been\s+)?doing\s+([a-z][\w-]+(?:\s+[a-z][\w-]+)?)\s+"
                         rf"(?:{_WHEN}|for\s+a\s+\w+\s+|at\s+the\s+)[^.!?]*?\b(?:i\s+)?(?:love|loving|enjoy|enjoying)\s+it\b",
                         IC)
_WENT_FUN = re.compile(r"\b(?:went\s+to|tried|did)\s+(?:a|an|the|my\s+first)\s+([a-z][\w-]+)\s+"
                       r"(?:drop-in|class|session|lesson|practice|game|meetup)\b[^.!?]*?\b(?:was\s+"
                       r"(?:so\s+|really\s+|super\s+)?(?:fun|great|amazing)|loved\s+it)\b", IC)
# What a pastime is taken as: "pottery wheel classes", "the rowing club", "a running group".
_CLASS_WORDS = ("class", "classes", "course", "lessons", "club", "league", "team", "group",
                "sessions")
_CLASS_WORD = "|".join(_CLASS_WORDS)
# A pastime begun, said in the past (it is theirs now until a message ends it): "started
# running again", "we started bouldering together at a gym on Belmont", "i started swimming
# at the southdale ymca", "started pottery wheel classes at clay corner", "got really into
# running", "have been going bouldering at the hive", "started going to the gym". Only an
# activity word opens what follows, and nothing but a place, a time or a companion comes
# after it ("started running the numbers" is no pastime).
_TAKE_UP = (r"(?:started|began|begun|got\s+(?:really\s+|properly\s+|totally\s+|well\s+|"
            r"super\s+|big\s+)?into|(?:been|now|also|still)\s+going)")
_BEGUN = re.compile(
    rf"\b{_TAKE_UP}\s+(?:doing\s+|going\s+to\s+|playing\s+|some\s+|a\s+bit\s+of\s+|"
    rf"(?:a|an|the|my)\s+)*((?:[a-z][\w-]*\s+){{0,2}}?[a-z][\w-]*)"
    rf"(?=\s+(?:{_CLASS_WORD})\b|\s*$|"
    rf"\s*[,.;!?)]|\s+(?:again|together|at|in|on|near|with|w|every|twice|once|\d+x|last|this|"
    rf"since|recently|lately|now|instead|and|but|lol|haha|tbh|ngl|(?:mon|tues|wed|wednes|"
    rf"thurs|fri|satur|sun)(?:day)?s?)\b)", IC)
# Someone else took the user along: "Gaurav dragged me to badminton instead", "femi dragged
# me into couch to 5k", "my sister roped me into pilates".
_TAKEN_ALONG = re.compile(
    r"\b(?:dragged|roped|talked|got)\s+me\s+(?:along\s+)?(?:in)?to\s+(?:(?:a|an|the|her|his|"
    r"their)\s+)?((?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)(?![\w-])"
    r"(?!\s+(?:the|a|an|my|his|her|our|their|this|that|some|up)\b)", IC)  # not "writing the quiz"
_NOT_YET = (r"\b(?:want|wanna|wants|going\s+to|gonna|plan|planning|plans|thinking|think|might|"
            r"maybe|should|could|would|will|'ll|hoping|hope|about\s+to|trying\s+to|try\s+to|"
            r"if|whether|how|before|never|haven't|havent|didn't|didnt)\b")


_CLASS_NEXT = re.compile(rf"\s+(?:{_CLASS_WORD})\b", IC)


def _activity_of(words: str, of_class: bool = False) -> str:
    """The activity words of a phrase, first to last ("social ultimate frisbee" →
    "frisbee"), when its last word is one — or any word of it when a class of it follows
    (``of_class``: "pottery wheel classes" → "pottery"); "" otherwise."""
    said = words.lower().split()
    kept = [i for i, w in enumerate(said) if w in ACTIVITIES_EN]
    return " ".join(said[kept[0]:kept[-1] + 1]) if kept and (
        of_class or kept[-1] == len(said) - 1) else ""


def _begun(t: str, part: Part, ctx: Context, found: Found) -> bool:
    """A pastime begun (``_BEGUN``) by the part's subjects, or one the user was taken along
    to (``_TAKEN_ALONG``, the user's whoever took them); True when one is stored."""
    if (m := _TAKEN_ALONG.search(t)) and (value := _activity_of(m.group(1))) and not search(
            _NOT_YET, t[:m.start()], IC):
        found.add(USER, "likes", value, False, 0.8)
        return True
    if part.subjects is None or part.hedged or not (m := _BEGUN.search(t)) or search(
            _NOT_YET, t[:m.start()], IC) or search(_NOT_YET, ctx.sentence[:max(
                ctx.sentence.lower().find(m.group(0).lower()), 0)], IC):
        return False
    if not (value := _activity_of(m.group(1), bool(_CLASS_NEXT.match(t, m.end())))):
        return False
    for subject in part.subjects:
        found.add(subject, "likes", value, False, 0.85)
    return True


_NOT_HOBBY = frozenset({"it", "them", "that", "this", "with", "around", "along", "games", "game",
                        "some", "a", "the", "up", "out", "catch-up", "dumb", "nice", "safe"})


def _habit(t: str, sentence: str) -> re.Match[str] | None:
    """``_HABIT`` in the clause, or in its sentence when how often comes after a comma
    ("been doing yoga at a studio on queen east instead, 3x a week") — of this clause's
    activity."""
    if m := _HABIT.search(t):
        return m
    m = _HABIT.search(sentence)
    return m if m is not None and m.group(1) in t else None


def _hobby(t: str, part: Part, ctx: Context, found: Found) -> None:
    if not _habit(t, ctx.sentence) and _begun(t, part, ctx, found):
        return  # (a habit's own words name it: "the cooks river parkrun on saturdays")
    up = _TOOK_UP.search(t)
    if part.subjects is None or (part.past and not (_GOT_INTO.search(t) or (
            up and up.group(1)))):  # "took up fishing": theirs now
        return
    m = (_PLAYS.match(t) or _GOT_INTO.search(t) or _JOINED.search(t) or _DOING_LOVE.search(t)
         or _WENT_FUN.search(t) or _habit(t, ctx.sentence) or up)
    if m is None:
        value = ""
    elif m.re is _PLAYS:  # "playing acoustic guitar about five years", "playing five a side"
        side = _A_SIDE.match(t, m.start(1))
        value = side.group(0).lower() if side else lower_phrase(t[m.start(1):].lower(), 2)
    else:
        value = (m.group(1) or m.group(2)).lower()
    if m is not None and m.re is _TOOK_UP:  # "golf last year", "a weekend yoga class": the
        value = _activity_of(value, of_class=True)  # activity's own words
    if m is not None and m.re in (_HABIT, _TOOK_UP) and not set(value.split()) & ACTIVITIES_EN:
        return  # "doing my taxes every evening": a chore, not a pastime
    if value and value.split()[0] not in _NOT_HOBBY and is_noun(value.split()[-1]):
        for subject in part.subjects:  # (a taste the person shows, not said as a like)
            found.add(subject, "likes", value, False, 0.85)


# A pastime given up: "i quit yoga last month", "gave up running after my knee went",
# "finally packed in the pottery class", "stopped going to spin class", "dropped out of the
# choir", "i don't do crossfit anymore", "not playing tennis any more", "no more piano
# lessons for me", "im done with bouldering". It ends the like the pastime was stored as.
_CLASS = rf"(?:\s+(?:{_CLASS_WORD}))?"
_QUIT_OBJECT = (r"(?:(?:going|goin)\s+to\s+|doing\s+|playing\s+|with\s+)?(?:the\s+|my\s+|a\s+|"
                r"our\s+|that\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?)" + _CLASS)
_AFTER = r"(?=\s*$|\s*[,.;!?]|\s+(?:after|because|bc|cos|cause|since|in|last|this|for|when|too|"  \
         r"anymore|any\s+more|lol|haha|tbh|now|altogether|completely|though|and|but)\b)"
_QUIT = re.compile(
    rf"\b(?:quit|quitting|quits|gave\s+up|given\s+up|giving\s+up|give\s+up|packed\s+in|"
    rf"packing\s+in|dropped\s+out\s+of|dropping\s+out\s+of|stopped|stopping|done\s+with|"
    rf"finished\s+with|dropped|(?:decided|had|have|needed)\s+to\s+stop|"
    rf"(?:decided\s+)?not\s+(?:to\s+)?go(?:ing)?\s+back\s+to|won't\s+be\s+going\s+back\s+to)"
    rf"\s+{_QUIT_OBJECT}{_AFTER}"
    rf"|\b(?:don't|dont|do\s+not|doesn't|doesnt|does\s+not|not|no\s+longer)\s+(?:do|doing|play|"
    rf"playing|go\s+to|going\s+to)\s+(?:the\s+|my\s+|any\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
    rf"{_CLASS}\s+(?:anymore|any\s+more)\b"
    rf"|\bno\s+longer\s+(?:do|play|go\s+to)\s+(?:the\s+|my\s+)?([a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
    rf"{_CLASS}{_AFTER}"
    rf"|^\s*(?:(?:so|and|but|oh|also)\s+)*no\s+more\s+([a-z][\w-]*(?:\s+[a-z][\w-]*)?){_CLASS}"
    rf"{_AFTER}", IC)


# What may come before the quitting in a clause of the part's own subject ("i had to give
# up", "my wife finally quit"); another word there is someone else ("manaia quit netball").
_QUIT_LEAD_TEXT = """i i've ive im i'm 'm 've 's 're we we've weve she he they she's he's
    has have had am is are was were to just finally also so and but oh honestly basically
    officially already then well now totally kinda sort of eventually my our his her sadly
    decided"""
_QUIT_LEAD = frozenset(_QUIT_LEAD_TEXT.split())


def own_ending(t: str, m: re.Match[str], part: Part, ctx: Context) -> bool:
    """Is the ending ``m`` (a pastime given up, a diet ended) said of the part's own
    subjects, as done? Not when hedged, asked or under way ("think im quitting rowing
    club"), nor when another word leads the clause ("manaia quit netball")."""
    if part.subjects is None or part.hedged:
        return False
    lead = re.sub(rf"\b(?:{REL_EN})\b", " ", t[:m.start()].lower(), flags=IC).split()
    if any(w not in _QUIT_LEAD for w in lead):
        return False
    before = ctx.sentence[:max(ctx.sentence.lower().find(m.group(0).lower()), 0)]
    if search(r"\b(?:might|maybe|probably|considering|debating|should|wondering|if|"
              r"thinking\s+(?:of|about))\b", before, IC):
        return False  # "thinking of packing in football", "should i quit yoga"
    # "i think im quitting rowing club" is under way; "i think im done with climbing" is done
    under_way = m.group(0).split()[0].endswith("ing")
    return not (under_way and search(r"\bthink(?:ing)?\b", before, IC))


def _quit_pastime(t: str, part: Part, ctx: Context, found: Found) -> None:
    if not (m := _QUIT.search(t)) or not own_ending(t, m, part, ctx):
        return
    words = next(g for g in m.groups() if g).lower().split()
    kept = [w for w in words if w in ACTIVITIES_EN]
    if len(kept) == 1 and (words[-1] == kept[0] or m.group(0).lower().endswith(
            _CLASS_WORDS)):  # "running" but not "running the numbers"
        for subject in part.subjects:  # the like ends; it was not disliked ("sad news i
            # packed in pottery ... i liked the people")
            found.add(subject, "likes", kept[0], True, 0.85,
                      sentence=f"{subject} no longer does {kept[0]}")
