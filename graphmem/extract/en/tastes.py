"""Tastes: likes and dislikes (like / love / hate / "a big fan of"), diets and foods
avoided, allergies."""

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
from graphmem.extract.en.channels import _CH
from graphmem.extract.en.grammar import _ADV, _ADV_OR_NEG, _AUX, _BE, _NEG
from graphmem.extract.en.pastimes import own_ending
from graphmem.extract.en.shapes import clean
from graphmem.extract.en.subjects import IC, KIN_MOD
from graphmem.extract.vocab import (
    DIET_EN,
    FOOD_EN,
    REL_EN,
)

_LIKE_VERB = (r"(like|likes|lo+ve|lo+ves|enjoy|enjoys|prefer|prefers|adore|adores|hate|hates|"
              r"dislike|dislikes|can't stand|cannot stand|'m obsessed with|'s obsessed with|"
              r"am obsessed with|is obsessed with|'m into|'s into|am into|is into|"
              r"(?:'m|am|'s|is) (?:not )?(?:a )?(?:big |huge |massive )?fan of|"
              r"(?:not|never) (?:really )?(?:a |much of a )?(?:big |huge )?fan of|"
              r"(?:'m|am|'s|is) crazy about|(?:'m|am|'s|is) addicted to|swears? by|"
              r"(?:'m|am|'s|is|are|'re) (?:(?:really|so|totally|absolutely|just|kind of|"
              r"kinda|pretty|still|also|not|not really|obsessively|super)\s+)*(?:into|"
              r"obsessed with|crazy about|nuts about|mad about|keen on|"
              r"hooked on|addicted to|a (?:big |huge |massive )?fan of))")


_DISLIKE = ("hate", "hates", "dislike", "dislikes", "can't stand", "cannot stand")


def _no_taste_unsaid(verb: str, raw: str, part: Part) -> bool:
    """Without a subject, "like" compares ("Like a rockstar behind the wheel!", "just like
    any other relationship"), an opening "Enjoy" wishes ("Enjoy the good feels
    tomorrow!") and "Love the…" compliments what the other one just showed ("Love the
    necklace, any special meaning to it?"); "and enjoy camping" still shares the subject
    before it, and "Love camping!" is a taste."""
    if part.subject_said:
        return False
    return (verb in {"like", "likes"} or (verb in {"enjoy", "enjoys"} and part.text[:1].isupper())
            or bool(_SHOWN_THING.match(raw)))


# A thing pointed at, not a kind of thing: "the necklace", "this quote", "all the details".
_SHOWN_THING = re.compile(r"^(?:all\s+)?(?:the|this|that|these|those)\s", re.IGNORECASE)


# What follows the verb is no taste: a verb ("Love can be so powerful", "those we love is
# important", "that's what I like to hear"), a time ("a job I enjoy every day"), or the
# listener's own thing ("I love your turtles": a compliment).
_NO_TASTE = re.compile(
    r"^(?:(?:is|are|was|were|be|been|can|could|will|would|should|must|may|might|has|have|"
    r"had|does|did)\b|(?:every|each)\s+\w+|everyday\b|today\b|tonight\b|tomorrow\b|"
    r"yesterday\b|these days\b|lately\b|all the time\b|your\b|(?:to\s+)?(?:hear|see|say|"
    r"know|go|get|do|come)\s*(?:$|[,.!?]|it\b|that\b|this\b|for\b|to\b|from\b))",
    re.IGNORECASE)


# A value cut before its object ("love hearing about it", "love working on it").
_ENDS_ON_PREPOSITION = re.compile(
    r"\s(?:about|on|in|at|from|into|onto|of|for|with|to|by|over|around|through)$",
    re.IGNORECASE)


def _likes(t: str, part: Part, ctx: Context, found: Found) -> None:
    m = match(rf"^\s*{_AUX}{_ADV_OR_NEG}{_LIKE_VERB}\s+(.+)", t, IC)
    if not m or match(r"^\s*(?:'ll|will|'d|would|gonna|going to)\b", t, IC):
        return  # "she'll hate the pendant", "you'd love it": a guess, not a taste
    verb = m.group(1).lower()
    negated = bool(search(rf"\b{_NEG}\b", t[:m.start(1)] + verb, IC)) or verb in _DISLIKE
    raw = m.group(2).strip()
    if _no_taste_unsaid(verb, raw, part) or _NO_TASTE.match(raw):
        return
    if search(rf"^(?:(?i:using|to use)\s+)?(?:the\s+)?{_CH}\b", raw) or search(
            rf"\b(?i:on|via|over|through)\s+(?:the\s+)?{_CH}\b", raw):
        return  # "I don't like using WeChat", "voice notes on WhatsApp": ``_channels``
    if match(r"^to\s+(?:be|say|ask|admit|bother|interrupt|break|tell|disappoint)\b", raw, IC):
        return  # "hate to be that person", "hate to say it": politeness, no taste
    if verb.startswith("swear"):
        raw = re.sub(r"^(?:his|her|their|my|our)\s+", "", raw, flags=IC)  # "swears by his desk"
    if match(r"^(?:[$€£¥]?\d|(?:the\s+|this\s+|that\s+)?(?:first|second|third|last|other|"
             r"same|latter|former|next|previous|new|old|this|that|one)\s+(?:one|ones)\b)", raw, IC):
        return  # "ideas, like 30 minutes max", "I like the second one": no taste to keep
    if (m := match(r"^(?:the|that|this|those|these)\s+([\w-]{3,})", raw, IC)) and search(
            rf"\b{re.escape(m.group(1).lower())}\b", ctx.heard):
        found.read = True  # "ok i like the milestones", the assistant's: of the reply
        return
    if re.match(r"^(?:it|that|them)\b", raw, IC):
        if ctx.last is None or ctx.last.predicate != "likes":
            return  # "…not crowded touristy stuff, i hate that": not the place said before
        value = ctx.last.value  # "my girlfriend hates seafood but I love it"
    else:
        value = clean(raw)
    if _ENDS_ON_PREPOSITION.search(value):
        return
    if value and not negated and match(rf"^(?:{DIET_EN})(?:\s+diet)?$", value, IC):
        found.say(part, "diet", value.lower(), False, 0.85)  # "swears by intermittent fasting"
    elif value:
        found.say(part, "likes", value, negated, 0.9)


# After a diet word with no subject said, a word that is not a time, an aside or the
# speaker's home ("Kosher household here"): the diet word describes a thing ("a
# gluten-free crust"), not the speaker.
_DESCRIBES_A_THING = re.compile(
    r"\s*(?!(?:now|too|again|lately|here|since|for|btw|anyway|these days|mostly|"
    r"strictly|household|family|home|house|person|girl|guy)\b)[A-Za-z]", re.IGNORECASE)


def _fan_of(before: str, ctx: Context, who: tuple[str, ...]) -> tuple[str, ...]:
    """Who "a huge Arsenal fan" is, from the words before it: the speaker ("I'm", or
    nothing: "Huge Arsenal fan here"), a relative ("my husband's"), she / he; else nobody."""
    if not before.strip() or search(r"\b(?:I|I'm|I am|we|we're|we are)\b", before):
        return who
    if m := search(rf"\b(?:my|our)\s+{KIN_MOD}({REL_EN})\b", before, IC):
        return (m.group(1).lower(),)
    if m := search(r"\b(she|he)\b", before, IC):
        person = ctx.she_or_he(m.group(1))
        return (person,) if person else ()
    return ()


# A diet ended: "officially done with keto", "i quit keto last week", "gave up on being
# vegetarian", "im off keto now", "fell off the paleo diet", "no longer vegan".
_DIET_ENDED = re.compile(
    rf"(?:\b(?:quit|quitting|gave\s+up(?:\s+on)?|given\s+up(?:\s+on)?|giving\s+up(?:\s+on)?|"
    rf"done\s+with|finished\s+with|(?:fell|came|went|am|is|are)\s+off|stopped(?:\s+doing)?|"
    rf"no\s+longer|dropped|ditched|abandoned)|'(?:m|s|re)\s+off)\s+(?:the\s+|being\s+|"
    rf"doing\s+|eating\s+)?(?:a\s+|an\s+)?({DIET_EN})(?:\s+diet)?\b", IC)


# When, not what: "quit drinking last year", "stopped eating for good".
_WHEN_SAID = (r"(?:last|this|next|in|since|for|a\s+few|a|an|two|three|\d+|cold|completely|"
              r"altogether|again|recently|finally)\b")


def _food(t: str, part: Part, ctx: Context, found: Found) -> None:
    """Diets (vegan, keto, halal…) and foods someone does not eat."""
    if m := search(r"\b(?:(?:can't|cannot|can not|don't|doesn't|do not|does not|won't|never)\s+"
                   r"(?:eat|drink)|can't have|cannot have|can not have)\s+(.+)", t, IC):
        for food in _foods(m.group(1)):  # "pork or beef": each its own restriction
            found.say(part, "dietary_restriction", food, False, 0.95)
    elif (m := search(r"\b(?:stopped|quit|gave\s+up|given\s+up|giving\s+up)\s+drinking\b"
                      r"(?!\s+(?!" + _WHEN_SAID + r")[a-z])", t, IC)):
        found.say(part, "dietary_restriction", "alcohol", False, 0.9)  # "quit drinking last year"
    elif m := (search(r"\b(?:stopped|quit) (?:eating|drinking)\s+(?!" + _WHEN_SAID + r")(.+)",
                      t, IC)
               or search(rf"\b(?:gave up|given up|giving up|give up|cut out|cutting out|quit|"
                         rf"stopped|avoids?|avoiding|stays? away from|staying away from)\s+"
                         rf"(?:on\s+)?(?:all\s+)?((?:[\w-]+\s+)?(?:{FOOD_EN}))\b", t, IC)):
        found.say(part, "dietary_restriction", clean(m.group(1)), False, 0.9)
    elif m := search(r"\b(lactose|gluten)[- ]intolerant\b", t, IC):
        found.say(part, "dietary_restriction", m.group(1).lower(), False, 0.9)
    elif m := search(r"\b(?:eats?|can eat|started eating)\s+(.+?)\s+(?:again|now)\b", t, IC):
        found.say(part, "dietary_restriction", clean(m.group(1)), True, 0.85)
    diet = rf"({DIET_EN})(?:\s+diet)?\b"
    if (m := _DIET_ENDED.search(t)) and own_ending(t, m, part, ctx):
        for subject in part.subjects:  # "officially done with keto": said as done
            found.add(subject, "diet", m.group(1).lower().replace("low carb", "low-carb"),
                      True, 0.9)
        return
    said = match(rf"^\s*{_AUX}{_BE}?\s*{_ADV}(?:(not|no longer)\s+{_ADV})?(?:a\s+|an\s+)?"
                 rf"{diet}", t, IC)
    if said and not part.subject_said and _DESCRIBES_A_THING.match(t[said.end():]):
        said = None  # "…and a gluten-free crust", "it's rich, dairy-free and new": a dish
    if m := (said
             or search(rf"\b(?:went|gone|going|turned|became|become|switched to|on|follow|"
                       rf"follows|following|keep|keeps|eat|eats|eating)\s+(not\s+)?"
                       rf"(?:a\s+|the\s+|strictly\s+|fully\s+|mostly\s+)?{diet}", t, IC)
             or match(rf"^(){diet}\s+here\b", t, IC)
             or search(rf"\b(?:technically|basically|more like|so)\s+(?:a\s+|an\s+)?(){diet}"
                       rf"\s*$", t, IC)):
        found.say(part, "diet", m.group(2).lower().replace("low carb", "low-carb"),
                  bool(m.group(1)), 0.9)
    elif m := search(r"\b(?i:doing|on|following|follow|started|starting|trying|switched to)\s+"
                     r"(?i:the|a|an)\s+(?!New\b|Healthy\b|Balanced\b|Strict\b)([A-Z][a-z]+|"
                     r"(?i:atkins|dash|mediterranean|carnivore))\s+(?i:diet)\b", t):
        found.say(part, "diet", m.group(1), False, 0.85)  # "doing the Mediterranean diet"


_FOOD_LIST = re.compile(r"\s*(?:,\s*(?:or\s+|and\s+)?|\s+or\s+|\s+and\s+|\s+nor\s+)\s*", IC)


def _foods(raw: str) -> list[str]:
    """The foods of "pork or beef", "nuts, eggs and dairy" — one value each, when every
    one is a short phrase; else the value as ``clean`` gives it."""
    value = clean(raw, words=8)
    items = [clean(i) for i in _FOOD_LIST.split(value)] if value else []
    if len(items) > 1 and all(len(i.split()) <= 2 for i in items) and any(items):
        return [i for i in items if i]  # "red meat or anything spicy": red meat
    return [clean(raw)]


_VAGUE = re.compile(r"\b(?:half|everything|anything|lots|a lot|a bunch|a ton|many|several|"
                    r"few|planet|world|stuff|things)\b", IC)


def _allergy(t: str, part: Part, ctx: Context, found: Found) -> None:
    if m := search(r"\b(not |no longer |isn't |aren't |'m not |is not |am not |never )?"
                   r"(?:\w+\s+)?allergic to\s+(?:like\s+)?(.+)", t, IC):
        if _VAGUE.search(m.group(2)):  # "allergic to like half the planet: dust, ..."
            ctx.listing = ("allergic_to", part.subjects) if part.subjects else None
            return
        found.say(part, "allergic_to", clean(m.group(2)), bool(m.group(1)), 0.97)
    elif (m := search(r"\b(?:has|have|'ve got|got)\s+(?:an?\s+)?(?:severe\s+|bad\s+|mild\s+)?"
                      r"([\w-]+(?:\s[\w-]+)?)\s+allergy\b", t, IC)) and not (
            _NO_ALLERGEN.match(m.group(1)) or search(rf"\b{_NEG}\b", t[:m.start()], IC)):
        found.say(part, "allergic_to", clean(m.group(1)), False, 0.95)
    elif part.subjects and part.subjects != (USER,) and search(
            r"^\s*(?:'s|is|are|'re)\s+(?:very\s+|severely\s+|deathly\s+|so\s+)?allergic\s*[.!]*$",
            t, IC):
        ctx.allergic = part.subjects[0]  # "no eggs in the house, my son's allergic"


# "didn't have a single allergy issue", "any allergy problems": no allergen named
_NO_ALLERGEN = re.compile(r"^(?:single|any|one|no|real|major|minor|slight|big|small|little|"
                          r"serious|new|weird|random|food|seasonal|bad|mild|severe)$", IC)


# What someone drinks, eats or does instead now: "switched from coffee to green tea",
# "athletic run wild is my thing now", "true crime is my comfort genre", "on sparkling
# water w lime now", "sticking to kombucha"; and what they gave up: "quit the monsters
# cold turkey", "not going back to wine", "dont even miss modelo", "done with soccer".
_SWITCHED = re.compile(r"\bswitched\s+(?:over\s+)?from\s+(?:the\s+)?(.+?)\s+to\s+(.+)", IC)
MY_THING = re.compile(r"^(?:and\s+|also\s+|so\s+)*(.+?)\s+(?:is|are)\s+(?:my|our)\s+(?:new\s+)?"
                      r"(?:thing|go-to|jam|drink|order|comfort\s+\w+|favou?rite(?:\s+\w+)?)"
                      r"(?:\s+now)?(?:\s+(?:which|and|but|lol|haha)\b.*)?$", IC)
_ON_NOW = re.compile(r"^(?:(?:I'm|I am|we're|'m|am|'re|are)\s+)?(?:just\s+)?on\s+(.+?)\s+"
                     r"(?:right\s+)?now$", IC)
# What is had now, said alone ("its just black coffee in the morning and la croix now",
# "it's all oat milk now"); fear said as a dislike ("is TERRIFIED of heights").
_JUST_NOW = re.compile(r"^(?:it's|its|it is)\s+(?:just|all|only)\s+(.+?)\s+now\b", IC)
_AFRAID = re.compile(r"^\s*(?:'s|is|'m|am|'re|are)\s+(?:so\s+|really\s+|absolutely\s+|still\s+)?"
                     r"(?:terrified|scared|afraid|frightened)\s+of\s+(.+)", IC)
_STICKING = re.compile(r"^(?:(?:I'm|I am|we're|'m|am|'re|are)\s+)?sticking\s+(?:to|with)\s+(.+)$",
                       IC)
# (Quitting a class or a drink is no dislike: "packed in pottery", "quit the monsters".)
_GAVE_UP = re.compile(r"^(?:(?:I'm|I am)\s+)?(?:(?:so|also|honestly|basically)\s+)*(?:"
                      r"(?:not\s+going\s+back\s+to)|(?:don't\s+even\s+miss))"
                      r"\s+(?:the\s+|my\s+)?(.+)$", IC)


def _changes(t: str, part: Part, ctx: Context, found: Found) -> None:
    if part.subjects is None or part.past:
        return
    if m := _SWITCHED.search(t):
        old, new = clean(m.group(1)), clean(m.group(2))
        if old and new:
            found.say(part, "likes", new, False, 0.85)
            found.say(part, "likes", old, True, 0.85)
    elif (m := _ON_NOW.match(t) or _STICKING.match(t)) and (value := clean(m.group(1))) and not (
            match(rf"^(?:an?\s+)?(?:{DIET_EN})(?:\s+diet)?$", value, IC)):  # "on keto now": a diet
        found.say(part, "likes", value, False, 0.85)
    elif (m := _JUST_NOW.match(t)) and (value := clean(m.group(1), words=6)) and not match(
            r"^(?:me|us|him|her|them|you|the\s+two\s+of\s+us)$", value, IC):
        found.say(part, "likes", value, False, 0.85)  # "its just black coffee ... now"
    elif m := _AFRAID.match(t):
        if value := clean(m.group(1)):
            found.say(part, "likes", value, True, 0.85)  # "renee is TERRIFIED of heights"
    elif (m := _GAVE_UP.match(t)) and (value := clean(re.sub(
            r"\s+(?:cold turkey|for (?:real|good)|this week|anyway|completely)\b.*$", "",
            m.group(1), flags=IC))) and not match(r"^(?:it|that|this|them|everything|work)$",
                                                   value, IC):
        for subject in part.subjects:  # given up, not disliked ("don't even miss the beer")
            found.add(subject, "likes", value, True, 0.85 - 0.25 * part.hedged,
                      sentence=f"{subject} has given up {value}")
