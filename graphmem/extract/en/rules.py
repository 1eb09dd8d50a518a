"""English rules: what a part says of its subjects (``english_facts``), what a clause or a
sentence says whatever its subject (``clause_facts``, ``sentence_facts``), what a
question still says (``question_facts``). Each family of predicates has its module:
``people``, ``tastes``, ``places``, ``work``, ``plans``, ``channels``, ``money``."""

from __future__ import annotations

import re
from dataclasses import replace

from graphmem.extract.candidate import (
    UNNAMED,
    USER,
    Context,
    Found,
    Part,
    compiled,
    match,
    search,
)
from graphmem.extract.en.asides import WHO_OPENS
from graphmem.extract.en.channels import _CH, _channels, _tools, channel
from graphmem.extract.en.grammar import is_name
from graphmem.extract.en.health import _health
from graphmem.extract.en.leaving import _left_job
from graphmem.extract.en.money import _budget
from graphmem.extract.en.pastimes import _hobby, _quit_pastime
from graphmem.extract.en.people import (
    _BARE_KIN,
    _correction,
    _exception,
    _pets,
    _self_name,
    breakup,
    engagement,
    signed,
)
from graphmem.extract.en.places import _home, _home_of, _origin
from graphmem.extract.en.plans import _plans, plan_value, plans_changed
from graphmem.extract.en.shapes import clean
from graphmem.extract.en.subjects import IC, KIN_MOD, NAME, NOT_NAMES, normalize
from graphmem.extract.en.tastes import (
    MY_THING,
    _allergy,
    _changes,
    _fan_of,
    _food,
    _likes,
)
from graphmem.extract.en.work import _study, _work
from graphmem.extract.vocab import (
    FOOD_EN,
    KIN_LEXICON,
    PET_EN,
    REL_EN,
)


def english_facts(part: Part, ctx: Context, found: Found) -> None:
    """What one part says about its subjects."""
    t = part.text
    if part.subjects not in (None, (USER,)) and (m := WHO_OPENS.match(t)):
        t = t[m.end():]  # "my friend who's a nurse": what follows is the friend's
    first = len(found.items)
    for rule in (_self_name, _likes, _changes, _hobby, _quit_pastime, _food, _allergy, _health,
                 _home, _origin, _work, _left_job, _study, _pets, _plans, _channels, _tools):
        rule(t, part, ctx, found)
    if part.subjects not in (None, (USER,)) and not any(
            _named_in(who, found.evidence, ctx) for who in part.subjects):
        # someone else's, by a clause that names them only as "he" / "she" / "they" (or not
        # at all): right 33 times in 39 on the English chat sets, never certain
        found.items[first:] = [replace(c, confidence=min(c.confidence, UNNAMED))
                               for c in found.items[first:]]


def _named_in(who: str, clause: str, ctx: Context) -> bool:
    """Does ``clause`` name ``who`` — by their key ("sister"), a word for it ("mum" for
    "mother"), or a name the episode gave them?"""
    words = {who, *KIN_LEXICON.get(who, ()), *(n for n, key in ctx.names.items() if key == who)}
    return any(re.search(rf"(?<![\w']){re.escape(w)}", clause, IC) for w in words if w)


# A food kept out of everything: "and no coriander in anything pls", "no onions in it",
# "oh and nothing spicy please i cant handle any heat".
_NONE_OF_IT = re.compile(r"^(?:(?:and|so|oh|also|but)\s+)*(?:no\s+([a-z][\w-]+(?:\s+[a-z][\w-]+)?)"
                         r"\s+in\s+(?:anything|it|them)|nothing\s+(spicy|sweet|fried|raw|hot))"
                         r"(?:\s+(?:please|pls|plz|for\s+me)\b.*)?\s*[.!]*$", IC)


def clause_facts(clause: str, ctx: Context, found: Found, carry: tuple[str, ...] | None) -> None:
    """Rules whose subject the words themselves say: "my name is", "call me", "her name's",
    "my favourite band is", "the plan is to", "best way to reach me is", "Telegram works",
    "that was my brother", budgets; and the person a clause introduces ("Talked to Tom")."""
    t = normalize(clause)
    who = carry if carry is not None else ()  # None: someone unknown, not the user
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
    elif (m := search(rf"\b(?i:(his|her)\s+name(?:'s|\s+is))\s+({NAME}|[a-z][a-z'-]+\b(?!\s+\w))",
                      t)) and m.group(2).lower() not in NOT_NAMES and (
            person := ctx.she_or_he("he" if m.group(1).lower() == "his" else "she")):
        found.add(person, "name", m.group(2).capitalize() if m.group(2).islower() else m.group(2),
                  False, 0.9, "name")
        ctx.names[m.group(2).lower()] = person
    elif (m := match(rf"^(?:so\s+|and\s+)?([a-z][a-z'-]+)\s+(?:is|'s)\s+(?:an?|my|our)\s+"
                     rf"(?:[\w-]+\s+){{0,3}}?((?i:{PET_EN}))\b", t)) and (
            m.group(1) not in NOT_NAMES):
        pet = m.group(2).lower()  # "biscuit is a cockapoo, 3": the pet and its name
        found.add(USER, "has_pet", pet, False, 0.85, "pet")
        found.add(pet, "name", m.group(1).capitalize(), False, 0.9, "name")
        ctx.names[m.group(1).lower()] = pet
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
            not search(r"\b(?:left|more)\b", t, IC)) and not search(
            rf"\bwith\s+[\w' -]{{1,30}},\s*no\s+{re.escape(m.group(1))}", ctx.sentence, IC):
        for subject in who:  # "(she's diabetic) so no sugary desserts please"
            found.add(subject, "dietary_restriction", m.group(1), False, 0.85)
    elif m := _NONE_OF_IT.match(t):  # "no coriander in anything pls", "nothing spicy please"
        for subject in who:
            found.add(subject, "dietary_restriction", m.group(1) or m.group(2), False, 0.85)
    elif m := match(r"^no\s+([\w' -]{2,30}?)\s+for\s+me\b.*\ballerg", ctx.sentence, IC):
        found.add(USER, "allergic_to", m.group(1), False, 0.9)  # "No peanuts for me, allergy"
    if m := search(rf"\b(?i:in|on|into)\s+(?:the|our|my)\s+({_CH})\s+(?i:channel|group|chat|"
                   rf"thread|workspace)\b", t):
        for subject in who:  # "just drop them in the Teams channel"
            found.add(subject, "uses_channel", channel(m.group(1)), False, 0.8, "channel")
    _exception(t, ctx, found)
    _home_of(t, ctx, found)
    breakup(t, ctx, found)
    engagement(t, ctx, found)
    signed(t, found)
    if (m := MY_THING.match(t)) and (value := clean(m.group(1))) and not match(
            r"^(?:it|this|that|which|what|there|here)$", value, IC):
        for subject in who:  # "athletic run wild is my thing now", "true crime is my comfort genre"
            found.add(subject, "likes", value, False, 0.85)
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


def question_facts(clause: str, ctx: Context, found: Found) -> None:
    """What a question still says: "what do you think of my plan to move to Spain?"."""
    m = search(r"\bmy\s+(?:\w+\s+)?(?:plan|plans|goal|dream)\s+(?:is\s+)?(?:to|of)\s+(.+?)\s*\??$",
               normalize(clause), IC)
    if m and (value := plan_value(m.group(1), ctx.sentence)):
        found.add(USER, "plans_to", value, False, 0.8)
        ctx.plans.append((USER, value))


_LIST = re.compile(r"^(?:[\w' -]{2,30},\s*)+(?:and\s+|&\s+)?[\w' -]{2,30}$")


_NAMED_IN_BRACKETS = (
    # "sam (my partner) is a chef", "kelly (my daughter out in calgary, shes a teacher)"
    # "lena (partner) is vegetarian": without "my", the bracket holds the relation alone
    rf"(?:^|(?<=[\s,.!]))(?P<name>[A-Za-z][a-z'-]+)\s*\(\s*(?:(?i:my|our)\s+{KIN_MOD}"
    rf"(?P<rel>(?i:{REL_EN}))\b|(?P<relb>(?i:{REL_EN}))\s*\))",
    # "mum (judith) will be there", "my brother (tom) is in perth"
    rf"\b(?P<rel2>(?i:{REL_EN}))\s*\(\s*(?P<name2>[A-Za-z][a-z'-]+)\s*\)",
)


def _named_in_brackets(t: str, ctx: Context, found: Found) -> None:
    """A name and a relation said together in brackets: the relative, and the name given."""
    for pattern in _NAMED_IN_BRACKETS:
        for m in compiled(pattern).finditer(t):
            rel = (m.groupdict().get("rel") or m.groupdict().get("rel2")
                   or m.groupdict().get("relb") or "").lower()
            name = m.groupdict().get("name") or m.groupdict().get("name2") or ""
            if not rel or name.lower() in NOT_NAMES or not is_name(name) or (
                    name.lower() in ctx.names and ctx.names[name.lower()] != rel):
                continue
            found.add(USER, "has_relation", rel, False, 0.9, "person")
            found.add(rel, "name", name.capitalize(), False, 0.9, "name")
            ctx.names[name.lower()] = rel


# What someone has now, said first and then called theirs: "steeped tea with milk, no
# sugar, that's my order now", "oat flat white - that's my go-to".
_MY_ORDER = re.compile(r"^(?:[\w' -]+\s+)??((?:[\w'-]+\s+){0,5}?[\w'-]+)(?:,[^,]{1,20})?\s*"
                       r"(?:,|-|–|—)\s*(?:that's|that is|it's|its)\s+(?:my|our)\s+(?:new\s+)?"
                       r"(?:order|go-to|usual|drink|thing|jam)\b", IC)


def sentence_facts(sentence: str, ctx: Context, found: Found) -> None:
    """Rules that read a whole sentence: a budget ("laptop budget: $1200"); the list that
    follows "allergic to like half the planet"; "tried oysters ... never again"; "my name
    isn't Jon, it's Jonah"; names in brackets ("sam (my partner)")."""
    t = normalize(sentence)
    _named_in_brackets(normalize(ctx.sentence), ctx, found)
    _budget(t, ctx, found)
    plans_changed(t, ctx, found)
    if (m := _MY_ORDER.match(t)) and (value := clean(m.group(1), words=6)):
        found.add(USER, "likes", value, False, 0.85)  # "steeped tea with milk, thats my order"
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
