"""English rules: what a part says of its subjects (``english_facts``), what a clause or
a sentence says whatever its subject (``clause_facts``, ``sentence_facts``).

Names ("I'm Dana", "my name's Tom", "call me Kenji"), preferences (like / love / hate /
"a big fan of" / "my favourite band is"), diets (vegan, keto, halal…) and foods avoided,
allergies, home ("I live in", "just moved to", "she's in Phoenix") and origin ("from",
"grew up in"), work ("an ICU nurse at Mass General", "works at Google as a PM", "I teach
3rd grade"), study ("doing an MBA at Wharton"), pets ("a dog named Biscuit"), plans
("going to", "the plan is to") and their end ("gave up on", "cancelled", "not
anymore"), channels ("reach me on Slack rather than email", "don't call me"), budgets,
and corrections ("that was my brother", "it was the dust").
"""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    USER,
    Context,
    Found,
    Part,
    first_search,
    match,
    mentions,
    search,
)
from graphmem.extract.english import (
    IC,
    KIN_MOD,
    NAME,
    NOT_NAMES,
    NOT_PETS,
    ORG,
    ORG_NAME,
    PLACE,
    clean,
    normalize,
    org,
    place,
    singular,
)
from graphmem.extract.plans import dropped, plan
from graphmem.extract.vocab import (
    BUSINESS_EN,
    CHANNEL_EN,
    CHANNEL_EN_CASED,
    DEGREE_EN,
    DIET_EN,
    FIELD_EN,
    FOOD_EN,
    JOB_EN,
    LANGUAGE_EN,
    PET_EN,
    REL_EN,
    SCHOOL_KIND_EN,
)

# Adverbs between a subject and its verb. Patterns repeat one flat alternation, never a
# repetition of repetitions: nested quantifiers backtrack exponentially on long chat.
_ADV_WORD = (r"really|also|both|still|now|currently|actually|just|totally|absolutely|"
             r"definitely|so|very|pretty|super|kind of|sort of|basically|mostly|fully|"
             r"strictly|only|always|finally|already|officially|originally|recently|all")
_ADV = rf"(?:(?:{_ADV_WORD})\s+)*"
_AUX = r"(?:(?:'ve|have|has|'d|do|does|did|'ll|will)\s+)?(?:been\s+)?"
_BE = r"(?:'m|am|'s|is|are|'re)"
_NEG = r"(?:don't|do not|doesn't|does not|dont|doesnt|never|no longer|not|didn't|did not)"
_ADV_OR_NEG = rf"(?:(?:{_ADV_WORD}|{_NEG})\s+)*"


def english_facts(part: Part, ctx: Context, found: Found) -> None:
    """What one part says about its subjects."""
    t = part.text
    for rule in (_self_name, _likes, _food, _allergy, _home, _origin, _work, _study, _pets,
                 _plans, _channels, _tools):
        rule(t, part, ctx, found)


def is_name(words: str) -> bool:
    """No word of it is a common word or a nationality ("Nigerian-American", "Happy")."""
    return not any(w.lower().rstrip(".") in NOT_NAMES for w in re.split(r"[\s-]+", words))


def _self_name(t: str, part: Part, ctx: Context, found: Found) -> None:
    """"I'm Dana" (the whole part, perhaps "…here" / "…from accounting"); "my daughter's
    name is Lily"."""
    if (m := match(rf"^'s\s+(?i:(?:full\s+|real\s+)?name)(?:'s|\s+is)\s+({NAME})", t)) and (
            part.subjects is not None and m.group(1).split()[0].lower() not in NOT_NAMES):
        found.say(part, "name", m.group(1), False, 0.9, "name")
        for subject in part.subjects:
            ctx.names[m.group(1).lower()] = subject
    if (m := match(rf"^(?:is|'s)\s+({NAME})\s*(?:and\b|$)", t)) and part.subjects not in {
            None, (USER,)} and m.group(1).split()[0].lower() not in NOT_NAMES:
        found.say(part, "name", m.group(1), False, 0.9, "name")  # "my best friend is Sarah"
    if part.subjects != (USER,):
        return
    m = (match(rf"^(?:'m|am)\s+({NAME})(?:\s+(?:here|from\s+.+))?(?:\s+(?i:btw|by the way|fyi))?"
               rf"(?:\s+and|\s*,\s*(?:(?:she|he|they)/\w+|"
               rf"(?i:btw|by the way|nice to meet you)\b.*))?"
               rf"\s*$", t)
         or match(rf"^(?i:go by|usually go by)\s+({NAME})\b", t))
    if m and is_name(m.group(1)):
        found.say(part, "name", m.group(1), False, 0.9, "name")


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
    if not m:
        return
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
    if re.match(r"^(?:it|that|them)\b", raw, IC) and ctx.last is not None:
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


def _food(t: str, part: Part, ctx: Context, found: Found) -> None:
    """Diets (vegan, keto, halal…) and foods someone does not eat."""
    if m := search(r"\b(?:(?:can't|cannot|can not|don't|doesn't|do not|does not|won't|never)\s+"
                   r"(?:eat|drink)|can't have|cannot have|can not have)\s+(.+)", t, IC):
        for food in _foods(m.group(1)):  # "pork or beef": each its own restriction
            found.say(part, "dietary_restriction", food, False, 0.95)
    elif m := (search(r"\b(?:stopped|quit) (?:eating|drinking)\s+(.+)", t, IC)
               or search(rf"\b(?:gave up|given up|giving up|give up|cut out|cutting out|quit|"
                         rf"stopped|avoids?|avoiding|stays? away from|staying away from)\s+"
                         rf"(?:on\s+)?(?:all\s+)?((?:[\w-]+\s+)?(?:{FOOD_EN}))\b", t, IC)):
        found.say(part, "dietary_restriction", clean(m.group(1)), False, 0.9)
    elif m := search(r"\b(lactose|gluten)[- ]intolerant\b", t, IC):
        found.say(part, "dietary_restriction", m.group(1).lower(), False, 0.9)
    elif m := search(r"\b(?:eats?|can eat|started eating)\s+(.+?)\s+(?:again|now)\b", t, IC):
        found.say(part, "dietary_restriction", clean(m.group(1)), True, 0.85)
    diet = rf"({DIET_EN})(?:\s+diet)?\b"
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
    elif m := search(r"\b(?:has|have|'ve got|got)\s+(?:an?\s+)?(?:severe\s+|bad\s+|mild\s+)?"
                     r"([\w-]+(?:\s[\w-]+)?)\s+allergy\b", t, IC):
        found.say(part, "allergic_to", clean(m.group(1)), False, 0.95)


_AREA = (r"(?:(?:rural|upstate|downstate|downtown|northern|southern|eastern|western|central|"
         r"north|south|east|west|suburban|outer|inner)\s+)?")
_LIVES = (
    rf"\b(?i:(?:live|lives|living|reside|resides|residing|based|settled)\s+"
    rf"(?:(?:now|currently|here|out|over|up|down|still|alone|together|nearby|full-time)\s+)*"
    rf"in)\s+((?i:{_AREA}){PLACE})",
    rf"\b(?i:(?:moved|relocated)\s+(?:here\s+|back\s+)?from)\s+{PLACE}\s+(?i:to)\s+({PLACE})",
    rf"(?<!got )(?<!been )(?<!was )(?<!were )\b(?i:(?:moved|relocated)\s+"
    rf"(?:(?:back|over|home|here)\s+)*to)\s+({PLACE})",
    rf"\b(?i:(?:been|lived|living|stayed)\s+in)\s+({PLACE})\s+(?i:(?:for\s+)?(?:\d+|a|an|one|"
    rf"two|three|four|five|six|seven|eight|nine|ten|many|several|a few)\s+(?:years?|months?)"
    rf"|since\b)",
    rf"\b(?i:(?:an?|officially\s+an?)\s+)({PLACE})\s+(?i:resident|local)\b",
    rf"^(?i:(?:now|currently|still|these days)\s+(?:based\s+|living\s+)?in)\s+({PLACE})"
    rf"(?!(?i:\s+for\s|\s+this\s|\s+visiting))",
    rf"\b(?i:moved\s+(?:in)?to\s+(?:an?|the|our|my)\s+(?:new\s+|bigger\s+|smaller\s+)?"
    rf"(?:apartment|house|place|flat|home|condo)\s+in)\s+({PLACE})",
    # "signed a lease on a two-bedroom in Sellwood", "bought a house in Tacoma"
    rf"\b(?i:(?:signed\s+a\s+lease\s+on|bought|closed\s+on|rented|renting|moved\s+into)\s+"
    rf"(?:an?|the|our|my)\s+(?:[\w'-]+\s+){{0,2}}?(?:apartment|house|place|flat|home|condo|"
    rf"two-bedroom|one-bedroom|three-bedroom|studio|townhouse|loft)\s+in)\s+({PLACE})",
)
_STAYING = re.compile(  # "I'm in Chicago this week for a conference" is a visit
    r"\b(?:for|on)\s+(?:a\s+|an\s+|the\s+)?(?:vacation|holiday|business|trip|work|conference|"
    r"weekend|week|visit|meeting|wedding|few)|\bvisiting\b|\bthis (?:week|weekend)\b|"
    r"\btoday\b|\btonight\b|\bright now\b", IC)


_LOWER_PLACE = re.compile(  # "i live in leeds": one place word said in lower case
    r"\b(?:live|lives|living|based)\s+(?:(?:now|currently|out)\s+)?in\s+(?!(?:a|an|the|my|"
    r"our|his|her|their|this|that|fear|denial|hope|peace|sin|poverty|luxury|comfort|harmony|"
    r"misery|style|town|the city|it|there|here|what|which)\b)([a-z]{3,})\b"
    r"(?!\s+(?:with|and|on|in|for|of)\b)", IC)


def _home(t: str, part: Part, ctx: Context, found: Found) -> None:
    if (m := _LOWER_PLACE.search(t)) and m.group(1).islower():
        found.say(part, "lives_in", m.group(1).capitalize(), False, 0.8, "place")
        return
    if m := search(rf"\b(?i:moved\s+back\s+home\s+to|back\s+home\s+in)\s+({PLACE})", t):
        found.say(part, "is_from", place(m.group(1)), False, 0.8, "place")  # home is origin
    m = first_search(_LIVES, t)
    if m is None and (m := match(rf"^\s*(?i:{_BE}\s+(?:now\s+|currently\s+|still\s+)?"
                                 rf"(?:based\s+)?in)\s+({PLACE})(.*)$", t)):
        m = None if _STAYING.search(m.group(2)) else m
    if m is not None:
        found.say(part, "lives_in", place(m.group(1)), False, 0.85, "place")


def _origin(t: str, part: Part, ctx: Context, found: Found) -> None:
    if m := (match(rf"^\s*(?i:(?:{_BE}\s+)?{_ADV}(?:originally\s+)?from)\s+({PLACE})", t)
             or search(rf"\b(?i:(?:grew up|born and raised|was born|born|raised)\s+in)\s+"
                       rf"(?:(?:a|an|the)\s+(?:[a-z]+\s+){{0,3}}in\s+)?({PLACE})", t)
             or search(rf"\b(?i:hails? from|a native of)\s+({PLACE})", t)
             or search(r"\b(?i:originally from|from\s+(?=\w+\s+originally))\s*"
                    r"(?!(?:the|a|an|my|here|there|around|home|out)\b)([a-z]{3,})\b", t)):
        value = place(m.group(1))
        found.say(part, "is_from", value.capitalize() if value.islower() else value, False,
                  0.85, "place")


_MODIFIER = r"(?!(?:at|for|with|in|a|an|the|and|of|to|from|on)\b)[\w'-]+\s+"
_JOB = rf"(?:{_MODIFIER}){{0,3}}(?:{JOB_EN})s?\b"
_SCHOOL = r"[A-Z][\w'.&-]*(?:\s+(?:of\s+|de\s+)?[A-Z][\w'.&-]*)*"


_EMPLOYER = (
    rf"\b(?i:(?:runs?|owns?|running|owning)\s+(?:an?|his|her|their|my)\s+)"
    rf"((?i:(?:[a-z]+\s+){{0,2}}(?:{BUSINESS_EN})))\b",
    rf"\b(?i:(?:new\s+job|got\s+(?:a|the)\s+(?:[a-z]+\s+)?job|(?:accepted|took|signed)\s+(?:the|an?|their)"
    rf"\s+(?:job\s+)?offer)\s+(?:at|with|from))\s+({ORG})",
    rf"\b(?i:got\s+the\s+)({ORG_NAME})\s+(?i:job|position|role|offer)\b",  # "got the Ledgerly job"
    rf"\b(?i:started\s+(?:at|with)|joined|joining|hired\s+(?:at|by))\s+({ORG_NAME})",
)


def _work(t: str, part: Part, ctx: Context, found: Found) -> None:
    """Occupation and employer: "I'm an ICU nurse at Mass General", "working as an RN at
    Toronto General", "works at Google as a PM", "I teach 3rd grade", "driving buses for
    the MTA", "he runs a small bakery"."""
    job = at = None
    negated = False
    if m := match(rf"^\s*(?i:(?:{_BE}|'ve been|have been|has been)\s+{_ADV}(?:(not)\s+{_ADV})?"
                  rf"(?:an?)\s+)(?i:({_JOB}))"
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
    elif m := search(r"\bteach(?:es|ing)?\s+(\d+(?:st|nd|rd|th)\s+grade|kindergarten|"
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
    elif m := first_search(_EMPLOYER, t):  # "he runs a small bakery", "a new job at Meta"
        at = m.group(1)
    elif m := search(rf"\b(?i:(?:laid off|fired|let go)\s+from|(?:quit|left)\s+(?:my|his|her|"
                     rf"their)\s+(?:job|position|role)\s+"
                     rf"(?:at|with))\s+({ORG})", t):
        found.say(part, "works_at", org(m.group(1)), True, 0.8, "organization")
    if job and re.match(r"(?i:retired|former|ex-|ex\s|previous|old)\b", job):
        job = None  # "my dad's a retired firefighter": not what he does now
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


def _study(t: str, part: Part, ctx: Context, found: Found) -> None:
    """"Studying CS at Georgia Tech", "doing an MBA at Wharton", "a Ph.D. student in
    chemistry at U. of Michigan", "in med school at Johns Hopkins"."""
    value = None
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


def _pets(t: str, part: Part, ctx: Context, found: Found) -> None:
    if part.subjects and re.fullmatch(PET_EN, part.subjects[0], IC) and search(
            r"^\s*(?:just\s+|sadly\s+)?(?:died|passed away|passed|is gone|was put down|"
            r"crossed the rainbow bridge)\b", t, IC):
        found.add(USER, "has_pet", part.subjects[0], True, 0.85, "pet")  # "my cat died"
        return
    m = search(rf"\b(?i:(?:have|has|'ve got|got|adopted|own|owns|just got)\s+(?:an?|two|three|"
               rf"four|\d+)\s+(?:little\s+|new\s+|old\s+|rescue\s+)?)(?P<pet>(?i:{PET_EN}))"
               rf"(?:e?s)?\b(?!\s+(?i:{NOT_PETS})\b)(?:\s+(?i:named|called)\s+(?P<name>{NAME}))?",
               t)
    if not m or part.subjects is None or part.past:
        return
    pet = singular(m.group("pet"))
    found.say(part, "has_pet", pet, False, 0.85, "pet")
    if m.group("name"):
        found.add(pet, "name", m.group("name"), False, 0.9, "name")
        ctx.names[m.group("name").lower()] = pet


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
    r"through|out|further|good|well|great|fine|okay|along|smoothly|strong|better|worse)\b", IC)
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
        if value != said or _PLANNABLE.search(said) or _ACTIVITY.match(said):
            plan(part, value, True, ctx, found)
    elif match(r"^(?:(?:honestly|actually|yeah|well|ok)\s+)*(?:not anymore|no longer|"
               r"not happening|not doing (?:that|it) anymore)\s*$", t, IC) and ctx.plans:
        entity, value = ctx.plans[-1]
        found.add(entity, "plans_to", value, True, 0.8)


_CH = rf"(?:(?i:{CHANNEL_EN})|{CHANNEL_EN_CASED})"
_CHANNEL_WORDS = {"texting": "text", "text message": "text", "phone call": "phone",
                  "call": "phone", "ring": "phone", "e-mail": "email", "dm": "message"}


def channel(word: str) -> str:
    low = word.lower()
    return _CHANNEL_WORDS.get(low, low)


def _channels(t: str, part: Part, ctx: Context, found: Found) -> None:
    """"reach me on Slack rather than email", "don't message me on WhatsApp", "only uses
    Viber", "refuses to use anything but the landline", "don't call me"."""
    if m := search(rf"\b(?i:(?:only\s+)?(?:checks?|checking|reads?|reply on|replies on|"
                   rf"respond on|responds on|lives on|(?:'m|am|'s|is|are|'re)\s+(?:only\s+)?on)\s+"
                   rf"(?:(?:facebook|fb)\s+)?(?:the\s+)?({_CH})\b)", t):
        found.say(part, "uses_channel", channel(m.group(1)), bool(search(
            rf"\b(?:{_NEG}|rarely|hardly|barely|seldom)\b", t[:m.start()], IC)), 0.85, "channel")
    elif m := search(r"\b(?i:(?:stop|don't|do not|never|no more|quit)\s+)(?i:(emailing|texting|"
                     r"calling|messaging|dming|ringing|phoning))\s+(?i:me)\b", t):
        found.say(part, "uses_channel", channel(m.group(1)[:-3].replace("messag", "message")
                                                .replace("phon", "phone")), True, 0.9, "channel")
    elif m := match(r"^\s*(?:only\s+|just\s+|mostly\s+)?(texts|emails|calls)\b"
                    r"(?!\s+(?:from|about))", t, IC):
        found.say(part, "uses_channel", channel(m.group(1)[:-1]), False, 0.85, "channel")
    elif m := match(r"^\s*(?:never|doesn't|does not|won't|rarely|hardly ever)\s+(text|texts|email|"
                    r"emails|call|calls)\b", t, IC):
        found.say(part, "uses_channel", channel(m.group(1).rstrip("s")), True, 0.85, "channel")
    elif m := search(rf"\b(?i:prefers?|preferably)\s+(?:(?!{_CH}\b)[\w-]+\s+){{0,3}}?"
                     rf"(?i:on|via|over|through)\s+(?:the\s+)?({_CH})\b", t):
        found.say(part, "uses_channel", channel(m.group(1)), False, 0.85, "channel")
    elif m := search(rf"\b(?i:use|uses|using|via|through|answers? on|answers?|reach me "
                   rf"(?:on|via|by|at)|message me on|text me on|"
                   rf"contact me (?:on|via|by|through)|add me on|ping me on|find me on|"
                   rf"dm me on|chat on|talk on|call me on|get me on|"
                   rf"prefer|prefers)\s+(?:(?i:anything but|nothing but|only)\s+)?(?:the\s+|"
                   rf"(?i:my)\s+(?:(?i:work|personal|private|school|old|new)\s+)?)?"
                   rf"({_CH})\b", t):
        before = t[:m.start(1)]
        negated = bool(search(rf"\b(?:{_NEG}|stop|refuses? to|hate|dislike)\b", before, IC))
        negated ^= bool(search(r"\b(?:anything but|nothing but)\b", before, IC))
        found.say(part, "uses_channel", channel(m.group(1)), negated, 0.9, "channel")
        if other := search(rf"\b(?i:rather than|instead of|not|over|than)\s+(?:(?i:by|via|on)\s+)?"
                           rf"(?:the\s+)?({_CH})\b", t[m.end():]):
            found.say(part, "uses_channel", channel(other.group(1)), not negated, 0.9,
                      "channel")
    elif m := search(r"\b(?:don't|do not|never|stop)\s+(call|phone|ring|text|email|e-mail|"
                     r"message|dm)(?:\s+me\b|\s*(?:[.,;!]|$))", t, IC):
        found.say(part, "uses_channel", channel(m.group(1)), True, 0.9, "channel")
    elif m := match(r"^(?i:(?:just\s+)?(text|email|e-mail|message|dm|call|ring)\s+me)\b"
                    r"(?!\s+[A-Z])(?!\s+(?i:when|if|back|later|tomorrow))", t):
        found.say(part, "uses_channel", channel(m.group(1)), False, 0.85, "channel")
        if other := search(r"\b(?:instead of|rather than|not)\s+(call|text|email|messag)",
                           t[m.end():], IC):
            found.say(part, "uses_channel", channel(other.group(1).replace("messag", "message")),
                      True, 0.85, "channel")


def clause_facts(clause: str, ctx: Context, found: Found, carry: tuple[str, ...] | None) -> None:
    """Rules whose subject the words themselves say: "my name is", "call me", "her name's",
    "my favourite band is", "the plan is to", "best way to reach me is", "Telegram works",
    "that was my brother", budgets; and the person a clause introduces ("Talked to Tom")."""
    t = normalize(clause)
    who = carry or (USER,)
    if m := search(rf"(?:\b(?i:my\s+(?:full\s+|real\s+|first\s+|legal\s+)?name(?:'s|\s+is)|"
                   rf"call\s+me|(?:address|refer\s+to)\s+me\s+as|mi\s+nombre\s+es|me\s+llamo|"
                   rf"je\s+m'appelle|ich\s+heiße|ich\s+heisse|meu\s+nome\s+é|mi\s+chiamo)|"
                   rf"^(?i:name's))\s+({NAME})", t):
        if is_name(m.group(1)):
            found.add(USER, "name", m.group(1), False, 0.9, "name")
    elif (m := match(rf"^((?i:(?:hey|hi|hello|yo)\s+))?(?i:it's|it is|this is)\s+({NAME})"
                     rf"(?:\s+(?i:again|here|speaking|from\s+.+))?\s*$", t)) and is_name(
            m.group(2)) and m.group(2).lower() not in ctx.names and (
            m.group(1) or search(r"\b(?i:again|here|speaking|from)\b", t)):
        found.add(USER, "name", m.group(2), False, 0.85, "name")  # "hey it's Priyanka again"
    elif (m := match(rf"^(?i:(?:hey|hi|hello|yo)\W+)?({NAME})\s+(?i:here)\s*$", t)) and is_name(
            m.group(1)) and m.group(1).lower() not in ctx.names:
        found.add(USER, "name", m.group(1), False, 0.85, "name")  # "Hey, Marcus here."
    elif (m := search(rf"\b(?i:(his|her)\s+name(?:'s|\s+is))\s+({NAME})", t)) and (
            person := ctx.she_or_he("he" if m.group(1).lower() == "his" else "she")):
        found.add(person, "name", m.group(2), False, 0.9, "name")
        ctx.names[m.group(2).lower()] = person
    m = search(rf"\b(?i:talked to|talking to|met|meeting|chatted with|spoke (?:to|with)|"
               rf"hung out with|ran into|texted|went out with)\s+({NAME})\b", t)
    if m and m.group(1).split()[0].lower() not in NOT_NAMES:
        ctx.meet(ctx.entity_named(m.group(1)))
    if (m := match(rf"^(?i:meet|say hi to|this is|introducing)\s+({NAME})\s*$", t)) and is_name(
            m.group(1)):
        ctx.introduced = m.group(1)  # "Meet Waffles 🐕" — "he's our new beagle puppy"
        ctx.meet(m.group(1))
    if m := match(rf"^(?i:(?:ok|okay|so|well|and)\s+)*(?:the\s+)?(?i:({_BARE_KIN}))\s+"
                  rf"(?i:says|said|thinks|wants|told me|agreed|insists|agrees|reckons)\b", t):
        found.add(USER, "has_relation", m.group(1).lower(), False, 0.85, "person")  # "wife says"
    if m := match(rf"^(?:the\s+)?({_CH})\s+(?i:only)(?:\s+(?i:please|pls|from now on))?$|"
                  rf"^(?i:only)\s+({_CH})(?:\s+(?i:please|pls|from now on))?$", t):
        for subject in who:  # "new rule: Discord only"
            found.add(subject, "uses_channel", channel(m.group(1) or m.group(2)), False, 0.85,
                      "channel")
    if (m := match(rf"^(?:so\s+)?no\s+((?:[\w-]+\s+)?(?:{FOOD_EN}))\b(?!.*\ballerg)", t, IC)) and (
            not search(r"\b(?:left|more)\b", t, IC)):
        for subject in who:  # "(she's diabetic) so no sugary desserts please"
            found.add(subject, "dietary_restriction", m.group(1), False, 0.85)
    elif m := match(r"^no\s+([\w' -]{2,30}?)\s+for\s+me\b.*\ballerg", ctx.sentence, IC):
        found.add(USER, "allergic_to", m.group(1), False, 0.9)  # "No peanuts for me, allergy"
    if m := search(rf"\b(?i:in|on|into)\s+(?:the|our|my)\s+({_CH})\s+(?i:channel|group|chat|"
                   rf"thread|workspace)\b", t):
        for subject in who:  # "just drop them in the Teams channel"
            found.add(subject, "uses_channel", channel(m.group(1)), False, 0.8, "channel")
    _exception(t, ctx, found)
    _home_of(t, ctx, found)
    if m := search(r"\b(my|her|his)\s+(?:all-time\s+|absolute\s+)?favou?rite\s+[\w ]{1,40}?\s+"
                   r"(?:is|are)\s+(?:to\s+)?(?:go(?:ing)?\s+to\s+|doing\s+|do\s+)?(.+)", t, IC):
        owner = USER if m.group(1).lower() == "my" else ctx.person
        if owner and (value := clean(m.group(2))):
            found.add(owner, "likes", value, False, 0.9)
    elif m := search(r"\b(?:(?i:a|an)\s+)?(?i:huge|big|massive|die-hard|diehard|lifelong|loyal)\s+"
                     r"((?:[A-Z][\w'.&-]*\s+){0,3}[A-Z][\w'.&-]*)\s+(?i:fan|supporter)\b", t):
        for subject in _fan_of(t[:m.start()], ctx, who):  # "I'm a huge Arsenal fan"
            found.add(subject, "likes", m.group(1), False, 0.85)
    m = search(r"\b(?:my|our|the)\s+(?:\w+\s+)?(?:goal|plan|resolution|dream|aim)"
               r"(?:\s+(?:this|for|next)\s+\w+)?\s+is\s+to\s+(.+)", t, IC)
    if m and (value := plan_value(m.group(1), ctx.sentence)):
        found.add(USER, "plans_to", value, False, 0.8)
        ctx.plans.append((USER, value))
    if m := (search(rf"\b(?i:best\s+(?:way|place)\s+to\s+(?:reach|contact|get hold of|get)\s+me"
                    rf"\s+is)\s+(?:(?i:by|via|on|through)\s+)?(?:the\s+)?({_CH})\b", t)
             or search(rf"^(?:the\s+)?({_CH})(?i:ing)?\s+(?i:works|is fine|is ok|is okay|is good|"
                       rf"is best|is better|is preferred|works better|works best|is great)\b", t)
             or search(rf"\b(?i:switch (?:that|it|this) to)\s+({_CH})\b", t)):
        for subject in who:
            found.add(subject, "uses_channel", channel(m.group(1)), False, 0.9, "channel")
    _correction(t, ctx, found)


_BARE_KIN = "wife|husband|mom|mum|dad|boss|girlfriend|boyfriend|partner|fiancée|fiancé|fiance"


def _exception(t: str, ctx: Context, found: Found) -> None:
    """After "allergic to walnuts" / "I don't eat pork", "cashews are fine" is one thing
    that is not avoided."""
    last = ctx.last
    if last is None or last.negated or last.predicate not in {"allergic_to",
                                                              "dietary_restriction"}:
        return
    m = match(r"^(?:but\s+)?([\w' -]{2,30}?)\s+(?:is|are|'s|'re)\s+(?:totally\s+|perfectly\s+|"
              r"actually\s+|still\s+)?(?:fine|ok|okay|no problem|safe|not a problem)"
              r"(?:\s+though)?$", t, IC)
    if m and (value := clean(m.group(1))) and value.lower() not in {"everything", "rest",
                                                                    "else"}:
        found.add(last.entity, last.predicate, value, True, last.confidence)


_HOME_NOUN = r"apartment|flat|house|place|condo|home|studio"


def _home_of(t: str, ctx: Context, found: Found) -> None:
    """"out of my apartment in Queens", "at her place in Savannah": where someone lives."""
    m = search(rf"\b(my|our|her|his)\s+(?!(?:vacation|holiday|summer|beach|lake|second|old|"
               rf"parents'?|work)\s)(?:[a-z]+\s+)?(?:{_HOME_NOUN})\s+in\s+({PLACE})", t, IC)
    if m is None or not m.group(2)[0].isupper():
        return
    owner = USER if m.group(1).lower() in {"my", "our"} else ctx.person
    if owner and (value := place(m.group(2))):
        found.add(owner, "lives_in", value, False, 0.8, "place")


def question_facts(clause: str, ctx: Context, found: Found) -> None:
    """What a question still says: "what do you think of my plan to move to Spain?"."""
    m = search(r"\bmy\s+(?:\w+\s+)?(?:plan|plans|goal|dream)\s+(?:is\s+)?(?:to|of)\s+(.+?)\s*\??$",
               normalize(clause), IC)
    if m and (value := plan_value(m.group(1), ctx.sentence)):
        found.add(USER, "plans_to", value, False, 0.8)
        ctx.plans.append((USER, value))


_LIST = re.compile(r"^(?:[\w' -]{2,30},\s*)+(?:and\s+|&\s+)?[\w' -]{2,30}$")


def sentence_facts(sentence: str, ctx: Context, found: Found) -> None:
    """Rules that read a whole sentence: a budget ("laptop budget: $1200"); the list that
    follows "allergic to like half the planet"; "tried oysters ... never again"; "my name
    isn't Jon, it's Jonah"."""
    t = normalize(sentence)
    _budget(t, ctx, found)
    if ctx.listing and _LIST.match(t.strip()):
        predicate, subjects = ctx.listing
        for item in re.split(r",\s*(?:and\s+|&\s+)?|\s+and\s+", t.strip()):
            if value := clean(item):
                for subject in subjects or ():
                    found.add(subject, predicate, value, False, 0.9)
        ctx.listing = None
    if m := search(r"(?:^|\b(?:I|we)\s+)(?:finally\s+|just\s+)?tried\s+(.+?)\s+(?:for the first "
                   r"time|once|yesterday|last \w+|recently)\b", ctx.sentence, IC):
        ctx.tried = clean(m.group(1))  # "Tried oysters for the first time... never again"
    if ctx.tried and search(r"\bnever again\b", ctx.sentence, IC):
        found.add(USER, "likes", ctx.tried, True, 0.85)
        ctx.tried = None
    m = search(rf"\b(?i:my name)\s*(?i:isn't|is not|'s not|ain't)\s+{NAME}\W+(?i:it's|it is|"
               rf"but|actually)\s+({NAME})\b", t)
    if m and is_name(m.group(1)):
        found.add(USER, "name", m.group(1), False, 0.9, "name")


_CURRENCY = {"dollar": "$", "usd": "$", "buck": "$", "euro": "€", "eur": "€", "pound": "£",
             "gbp": "£", "yuan": "¥", "rmb": "¥", "yen": "¥"}
_MONEY = re.compile(
    r"([$€£¥])?\s?(\d[\d,]*(?:\.\d+)?)\s*(k\b|thousand\b)?\s*"
    r"(dollars?|usd|bucks|euros?|eur|pounds?|gbp|yuan|rmb|yen)?(?![\w%])", IC)
_CAP = re.compile(r"\b(under|below|within|up to|at most|max|no more than|less than|around|about|"
                  r"approx\.?|approximately|roughly)\s*$", IC)


_UPPER_CAPS = frozenset({"under", "below", "within", "up to", "at most", "max", "no more than",
                         "less than"})  # "under $300 for groceries" is a budget by itself


def _budget(t: str, ctx: Context, found: Found) -> None:
    """"laptop budget: $1200", "under $300 for groceries", "my limit is approx. $40": an
    amount of money (a currency, or a budget named) — never "under 20g of carbs"."""
    budget = search(r"\b(?:budget|limit)\b|\b(?:can|could|want to|willing to|plan to|planning "
                    r"to|able to|afford to|trying to|try to|hoping to)\s+(?:only\s+)?spend\b|"
                    r"\bkeep(?:ing)?\b(?=(?:\s+[\w'-]+){0,3}\s+(?:under|below|around|about|"
                    r"within|at)\s*[$€£¥]?\d)", t, IC) or (ctx.budget_said and search(
        r"\b(?:stretch(?:ed)?|make (?:it|that)|bump(?:ed)?|raise[ds]?|increase[ds]?|up to|"
        r"go(?:ing)? up to|can do|tops|max|lower(?:ed)?|drop(?:ped)?)\b", t, IC))  # "...to 11k"
    amounts = list(_MONEY.finditer(t))
    if budget:  # the amount after the word first, then the nearest before it
        amounts = ([m for m in amounts if m.start() >= budget.start()]
                   + [m for m in reversed(amounts) if m.start() < budget.start()])
    for m in amounts:
        has_currency = bool(m.group(1) or m.group(4) or (budget and m.group(3)))
        cap = _CAP.search(t[:m.start()])
        if not has_currency and not (budget and budget.end() <= m.start()):
            continue
        if not (budget or (cap and cap.group(1).lower() in _UPPER_CAPS)):
            continue  # "I take home about $4,600", "spending like $300 a month": no budget
        symbol = m.group(1) or _CURRENCY.get((m.group(4) or "").lower().rstrip("s"), "")
        amount = symbol + m.group(2).replace(",", "") + ("k" if m.group(3) else "")
        qualifier = cap.group(1).lower() if cap else ""
        qualifier = {"below": "under", "less than": "under", "no more than": "under",
                     "at most": "under", "max": "under", "within": "under",
                     "up to": "under"}.get(qualifier, qualifier)
        found.add(ctx.event or USER, "budget", f"{qualifier} {amount}".strip(), False, 0.85,
                  "amount")
        ctx.budget_said = True
        return


def _correction(t: str, ctx: Context, found: Found) -> None:
    """After a negated fact, "that was my brother" gives it to the brother and "it was the
    dust" to its true value."""
    last = ctx.last
    if last is None or not last.negated or last.predicate not in {
            "allergic_to", "likes", "dietary_restriction", "diet"}:
        return
    if m := match(rf"^(?:that|it|this)(?:\s+(?:was|is)|'s)\s+(?:actually\s+|really\s+)?my\s+"
                  rf"{KIN_MOD}({REL_EN})\b", t, IC):
        found.add(m.group(1).lower(), last.predicate, last.value, False, last.confidence)
    elif m := match(r"^(?:that|it|this)(?:\s+(?:was|is)|'s)\s+(?:actually\s+|just\s+|really\s+)?"
                    r"(?:the\s+)?([\w -]{2,30})$", t, IC):
        found.add(last.entity, last.predicate, clean(m.group(1)), False, last.confidence)


# A tool is named as a product: "Figma", "VS Code", "Google Docs" — capitalized words (a
# channel is ``_channels``'s, a place is nobody's tool, nor "Sarah's" car).
_TOOL = (r"(?!(?:I|I'm|The|A|An|My|It)\b)[A-Z][\w+#.-]*[\w+#]"
         r"(?:\s+(?:[A-Z][\w+#.-]*[\w+#]|\d+)){0,2}(?!['’]s\b)(?![\w+#-]|\.\w)")
_TOOL_USE = (  # (pattern, negated): "stopped using X" is read before "using X"
    (rf"\b(?i:(?:stopped|quit|stop)\s+using|no\s+longer\s+using?|(?:don't|do not|never)\s+use|"
     rf"uninstalled|ditched|dropped)\s+({_TOOL})", True),
    (rf"\b(?i:use|uses|using|switched\s+(?:over\s+)?to|migrated\s+to|moved\s+over\s+to)\s+"
     rf"(?i:(?:mostly|only|just|both|a\s+lot\s+of)\s+)?({_TOOL})", False),
    (rf"\b(?i:(?:code|coding|write|writing|draw|drawing|design|designing|edit|editing|"
     rf"sketch|sketching|making|make|made|track|tracking|keep|keeping|plan|planning)\s+"
     rf"(?:(?:the|my|all|everything|our)\s+)?(?:[a-z]+\s+){{0,2}}?(?:in|on|with))\s+({_TOOL})",
     False),
    (rf"\b(?i:work|working)\s+(?i:in)\s+({_TOOL})\s+(?i:for|all|every)\b", False),
    (rf"\b(?i:learning|studying|practicing|practising)\s+[\w-]+(?:\s+[\w-]+)?\s+(?i:on|with)\s+"
     rf"({_TOOL})", False),
)
_NOT_TOOLS = re.compile(rf"^(?:{CHANNEL_EN}|{CHANNEL_EN_CASED})$|^(?:Google\s+Meet|Monday|"
                        r"Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|"
                        r"March|April|May|June|July|August|September|October|November|"
                        r"December|English|Spanish|French|German|Chinese|Japanese|Korean)$", IC)


def _tools(t: str, part: Part, ctx: Context, found: Found) -> None:
    """"I use Figma all day", "code in VS Code", "making the slides in Keynote", "switched
    to Cursor", "stopped using Excel" (no longer)."""
    for tool, negated in mentions(_TOOL_USE, t, lambda tool: not _NOT_TOOLS.match(tool)
                                  and tool.lower() not in ctx.names and is_name(tool)):
        found.say(part, "uses_tool", tool, negated, 0.8, "tool")
