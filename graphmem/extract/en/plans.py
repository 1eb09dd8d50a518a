"""Plans ("going to", "the plan is to") and their end ("gave up on", "cancelled", "not
anymore")."""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    USER,
    Context,
    Found,
    Part,
    match,
    search,
)
from graphmem.extract.en.grammar import _ADV, _AUX, _BE
from graphmem.extract.en.shapes import PLACE, clean, place
from graphmem.extract.en.subjects import IC
from graphmem.extract.en.tastes import _ENDS_ON_PREPOSITION
from graphmem.extract.plans import dropped, names_plan, plan

_PLAN_VERB = (r"(?:going to|gonna|planning to|planning on|plan to|plans to|intend to|"
              r"intending to|aiming to|aim to|hoping to|about to|set to|decided to|signed up to|"
              r"decided|planning|going)(?=\s)")


_NOT_PLANS = re.compile(
    r"^(?:be|have|tell|ask|say|call|text|email|message|let|give|show|make sure|check|need|try|"
    r"see|go(?!\s+(?:back\s+to|to\s+(?:grad|graduate|law|med|medical|business|nursing)\s+"
    r"school|abroad|to\s+college|to\s+university))|get back|wait|sleep|die|cry|miss|lose|kill|"
    r"scream|throw|do it|do that|do this|think|use|look into|keep(?=\s+(?:on\s+)?\w+ing|\s+it|"
    r"\s+in\s+touch|\s+up|\s+at\s+it)|bother|stop|back and forth|"
    # "what I'm going through", "Store's going good", "going out for walks": no plan
    r"through|out|further|good|well|great|fine|okay|along|smoothly|strong|better|worse|"
    # "tom is going to LOVE a spreadsheet", "going to hate it": what someone will feel
    r"love|like|hate|enjoy|adore|be\s+fine|freak|cry|laugh|home|bed|"
    # "i'm going up 4 times a week": a trip to someone, not a plan of its own
    r"up|down|around|there)\b", IC)


_NOT_A_PLACE_TO_GO = re.compile(r"^(?:the|a|an|my|your|his|her|our|their|bed|work|school|"
                                r"church|class|sleep|be|need)\b", IC)


_DROP = (r"\b(?:gave up on|given up on|giving up on|give up on|(?:dropped|dropping|pulled|backed)"
         r" out of|bailed on|dropped|dropping|drop|"
         r"cancel(?:l)?ed|cancel(?:l)?ing|call(?:ed)? off|scrapped|ditched|abandoned|shelved|"
         r"not doing)\s+(?:on\s+)?(?:the|my|our|that|this)?\s*")


def plan_value(raw: str, clause: str) -> str:
    """"run a half marathon this spring" → "run a half marathon"; "buy one" after
    "saving up for a house" → "buy a house"; "going to the gym" is no plan."""
    if _NOT_A_PLACE_TO_GO.match(raw) or _RIGHT_NOW.search(raw) or _NOT_PLANS.match(raw):
        return ""  # "going to the gym", "going to make dinner now": no plan to remember
    value = clean(raw, words=7)
    if not value or _NOT_PLANS.match(value):
        return ""
    if " " not in value and re.match(rf"{re.escape(value)}\s+(?:it|that|this|them)\b", raw, IC):
        return ""  # "gonna make it happen", "just gonna enjoy it": no plan the word names
    if _ENDS_ON_PREPOSITION.search(value):
        return ""  # "gonna get better at it"
    before = clause[:max(clause.find(raw), 0)] or clause
    if (m := re.search(r"\s(one|it)$", value)) and (
            thing := re.findall(r"\b(?:a|an)\s+([a-z]+)\b", before, IC)):
        value = value[:m.start()] + f" a {thing[-1]}"
    return value


_RIGHT_NOW = re.compile(r"\b(?:now|tonight|today|later|this (?:evening|afternoon|morning)|"
                        r"in a (?:bit|minute|sec|second)|real quick)\b", IC)


# What can be dropped without having been planned in the episode: "the Yellowstone trip",
# "the marathon", "my MBA application" — not "my phone" or "Netflix".
_PLANNABLE = re.compile(
    r"\b(?:trip|plan|plans|idea|class|classes|course|marathon|race|move|wedding|party|"
    r"vacation|holiday|project|application|program|programme|training|diet|certification|"
    r"degree|mba|phd|master'?s|exam|tour|visit|event|launch|renovation|startup|business)\b",
    IC)


# What a drop of an activity names: "gave up on learning the guitar" (not "on everything").
_ACTIVITY = re.compile(r"^(?!(?:nothing|something|anything|everything|morning|evening|thing|"
                       r"spring|string|ceiling|building|king|ring|sibling)\b)[a-z]{3,}ing\s+\w",
                       IC)


_CHANGED_MIND = re.compile(r"\bbut\b|\bhold(?:ing)? off\b|changed (?:my|our) minds?|not anymore|"
                           r"\binstead\b|decided (?:not|against)|fell through|\bdidn't\b|"
                           r"\bwon't\b|\bnot (?:now|any ?more)\b", IC)


_CALLED_OFF = re.compile(r"^(?:cancel(?:l)?ed|call(?:ed)? off|scrapped)\b", IC)
# A plan made in place of another: "we're doing gatlinburg labor day weekend instead",
# "going with a staycation instead"; "replaced japan with a long weekend in leura",
# "swapped the cruise for a road trip".
_INSTEAD = re.compile(r"^\s*(?:'re|are|'m|am|'ll|will)?\s*(?:\w+ly\s+)?(?:doing|going\s+with|"
                      r"booking|booked|taking|having)\s+(?!it\b|that\b|this\b)(.+?)\s+instead\b",
                      IC)
_REPLACED = re.compile(r"\b(?:I|we)(?:\s*'ve|\s+have)?\s+(?:replaced|swapped)\s+(?:the\s+|our\s+|"
                       r"my\s+)?([\w' -]+?)\s*(?:[,(][\w ]{1,15}[,)])?\s*\b(?:with|for)\s+(.+)",
                       IC)
# "tenerife is officially cancelled", "the wedding's been called off": that plan, ended.
_IS_OFF = re.compile(r"(?:^|[,.;!?]\s*)(?:(?:so|ok|and|well)\s+)*(?:the\s+|our\s+|my\s+)?"
                     r"([\w -]{2,40}?)(?:\s+(?:is|was|got|has\s+been)|'s(?:\s+been)?)\s+"
                     r"(?:officially\s+|now\s+|definitely\s+|just\s+)?(?:cancel(?:l)?ed|"
                     r"called\s+off|scrapped)\b", IC)
_NOT_A_PLAN_OFF = re.compile(r"\b(?:flight|train|class|appointment|order|subscription|meeting|"
                             r"shift|it|that|this|school|work|practice|game)s?\b", IC)


# A trip taken: "back from cornwall!!", "just got home from calgary!" — not from work.
_BACK_FROM = re.compile(r"^(?:(?:ok|so|well|just|finally|we're|were|we are|i'm|im|i am|got|"
                        r"made it)\s+)*(?:back|home)\s+from\s+(?:the\s+|our\s+|my\s+)?"
                        r"([\w' -]{2,30}?)\s*(?:[!.,]|$)", IC)


def plans_changed(sentence: str, ctx: Context, found: Found) -> None:
    """Plans ended or replaced, said of the plan itself: "tenerife is officially
    cancelled" (the user's plan of that name ends), "we've replaced japan (for now) with
    a long weekend in leura" (that one ends, the new one starts), "back from cornwall!!"
    (a plan made before that names it is done)."""
    part = Part((USER,), sentence)
    if (m := _BACK_FROM.match(sentence)) and (said := clean(m.group(1))) and (done := next((
            v for e, v in reversed([*ctx.earlier_plans, *ctx.plans])
            if e == USER and names_plan(said, v)), None)):
        plan(part, done, True, ctx, found)
    if (m := _IS_OFF.search(sentence)) and (said := clean(m.group(1), words=6)) and not (
            _NOT_A_PLAN_OFF.search(said)):
        plan(part, dropped(said, part, ctx), True, ctx, found)
    if (m := _REPLACED.search(sentence)) and (new := clean(m.group(2).split(",")[0], words=6)):
        old = clean(m.group(1), words=6)
        plan(part, dropped(old, part, ctx) if old else "", True, ctx, found)
        plan(part, new, False, ctx, found)


def _plans(t: str, part: Part, ctx: Context, found: Found) -> None:
    if part.subjects is None or part.past:
        return
    if search(r"\bdecided\s+against\s+(?:it|that|this)\b", t, IC):
        if ctx.plans:  # "I was going to apply to law school … nah, I've decided against it"
            entity, value = ctx.plans[-1]
            found.add(entity, "plans_to", value, True, 0.8)
        return
    if m := match(rf"^\s*{_AUX}(?i:(?:{_BE}|(was|were))\s+)?{_ADV}(?:(not|no longer)\s+{_ADV})?"
                  rf"(?:(?:'ve|have)\s+)?(?:been\s+)?{_PLAN_VERB}\s+(not\s+to\s+)?(.+)", t, IC):
        # "I was going to apply to grad school, but I'm holding off": a plan given up
        if search(r"\bbeen\s+going\s+\w+ing\b", m.group(0), IC):
            return  # "have been going bouldering 3x a week": a habit, not a plan
        value = plan_value(m.group(4), ctx.sentence)
        if not value and (thing := match(r"^(?:a|an|our|my|the)\s+(.+)", m.group(4), IC)) and (
                _PLANNABLE.match(thing.group(1))
                and search(r"\b(?:planning|planning on|plan|plans)\s*$", t[:m.start(4)], IC)):
            value = clean(thing.group(1), words=6)  # "we're planning a trip to Iceland"

        undone = bool(m.group(1) and _CHANGED_MIND.search(ctx.sentence))
        if value and (m.group(2) or m.group(3)):  # "not going to Peru anymore": the plan
            value = dropped(value, part, ctx)   # made before ("visit Peru"), if one was
        plan(part, value, bool(undone or m.group(2) or m.group(3)), ctx, found)
        if undone and value and part.subjects:  # a later "we cancelled it" names it
            ctx.plans.extend((s, value) for s in part.subjects)
    elif (m := match(rf"^\s*{_BE}\s+(?:not|no longer)\s+(?:going\s+to\s+)?(\w+?)(?:ing)?\b", t,
                     IC)) and ctx.plans:
        stem = m.group(1).lower()[:4]  # "we're not adopting after all" ends "adopt a cat"
        for entity, value in reversed(ctx.plans):
            if len(stem) >= 3 and value.lower().startswith(stem):
                found.add(entity, "plans_to", value, True, 0.8)
                break
    elif m := search(r"\b(?:saving|trying to save|want to save|need to save)\s+(?:up\s+)?for\s+"
                     r"((?:a|an|our|my)\s+.+)", t, IC):
        goal = clean(m.group(1), words=5)  # "saving up for a house": the goal is the thing
        plan(part, f"save up for {goal}" if goal else "", False, ctx, found)
    elif m := (search(r"\b(?:signed up|registered|enrolled)\s+for\s+(?:the\s+|a\s+|an\s+)?"
                      r"(?!(?:one|it|that|this)\b)(.+)", t, IC)
               or search(r"\b(?:saving|saving up|putting money aside)\s+(?:to|for)\s+(.+)", t, IC)):
        plan(part, plan_value(m.group(1), ctx.sentence), False, ctx, found)
    elif (m := match(r"^\s*(?:'m|am|'re|are|'s|is)?\s*(?:starting|beginning|taking|joining)\s+"
                     r"(?:a|an|my|the)\s+(.+)", t, IC)) and _PLANNABLE.search(m.group(1)) and (
            search(r"\b(?:next|soon|this coming|tomorrow|in (?:a|two|few))\b",
                   ctx.sentence, IC)):
        plan(part, clean(m.group(1), words=5), False, ctx, found)  # "next month I'm starting..."
    elif m := search(rf"(?i:{_BE}\s+)(not\s+)?(?i:(?:moving|relocating)\s+(?:back\s+)?to)\s+"
                     rf"({PLACE})(.*)", t):
        plan(part, f"move to {place(m.group(2))}", bool(m.group(1) or search(
            r"\banymore\b|\bany more\b", m.group(3), IC)), ctx, found)
    elif m := search(rf"{_DROP}(.+)", t, IC):
        said = clean(m.group(1), words=6)
        value = dropped(said, part, ctx)
        if value != said or _PLANNABLE.search(said) or _ACTIVITY.match(said) or (
                _CALLED_OFF.match(m.group(0).strip()) and said):  # "we cancelled japan"
            plan(part, value, True, ctx, found)
    elif m := _INSTEAD.match(t):  # "so we're doing camping in cornwall instead"
        plan(part, clean(m.group(1), words=6), False, ctx, found)

    elif match(r"^(?:(?:honestly|actually|yeah|well|ok)\s+)*(?:not anymore|no longer|"
               r"not happening|not doing (?:that|it) anymore)\s*$", t, IC) and ctx.plans:
        entity, value = ctx.plans[-1]
        found.add(entity, "plans_to", value, True, 0.8)
