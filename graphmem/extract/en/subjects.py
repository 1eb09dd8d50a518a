"""English: who a clause is about (``parts``), and the values said of them.

A clause is cut into parts at each subject it names — I / we (the user), "my sister
Emma" (a relative, with her name), "my cat Luna" (a pet), she / he (the person last
named, else nobody), a name that opens the clause ("Marco is allergic to nuts"). A
clause that names no subject continues the previous clause's ("My dad is from Naples,
runs a small bakery"), unless it opens with someone else ("Someone in my office is
vegan" is nobody the memory knows). Each part is then read by the rules of
``english_rules``. Values are cut where the clause moves on ("cilantro it tastes like
soap" → cilantro, "run a half marathon this spring" → run a half marathon).
"""

from __future__ import annotations

import re

from graphmem.extract.candidate import USER, Context, Found, Part, match, search
from graphmem.extract.text import is_hedged, is_past
from graphmem.extract.vocab import (
    CHANNEL_EN,
    CHANNEL_EN_CASED,
    ORG_NOUN_EN,
    PET_EN,
    REL_AS_NAME_EN,
    REL_EN,
)

IC = re.IGNORECASE
# Relatives "they" can stand for across sentences ("My parents live in Ohio. They're...").
PLURAL_KIN = frozenset({"parents", "kids", "children", "in-laws", "grandparents", "twins"})
_UPPER, _LOWER = "A-ZÀ-ÖØ-Þ", "a-zß-öø-ÿ"  # "Lucía", "Zoë", "José"
NAME = (rf"(?:(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.?\s+)?[{_UPPER}][{_LOWER}]+(?:-[{_UPPER}][{_LOWER}]+)?"
        rf"(?:\s+[{_UPPER}][{_LOWER}]+)?")
_NOT_NAMES_TEXT = """
    i im the a an and but so or my our your his her their this that these those it
    its he she they we you me monday tuesday wednesday thursday friday saturday
    sunday january february march april may june july august september october
    november december god ok okay yes no hi hey hello thanks thank lol btw fyi not
    just also still really sorry sure fine good great here there now then well oh
    anyway actually honestly today tomorrow yesterday christmas thanksgiving easter
    happy excited tired back home done going getting moving working trying ready new
    from in on at with for about american canadian british english irish scottish
    welsh australian chinese japanese korean indian mexican french german italian
    spanish brazilian russian dutch swedish nigerian filipino vietnamese thai polish
    greek turkish egyptian jewish muslim christian catholic buddhist hindu asian
    european african latino latina hispanic vegan vegetarian gay straight single
    married divorced retired pregnant free busy glad proud new name remember remind
    tell ask let please note maybe wait look listen guess apparently luckily
    unfortunately hopefully same what who where when why how which everyone everybody
    nobody someone somebody wow cool nice awesome cheers congrats looky"""
NOT_NAMES = frozenset(_NOT_NAMES_TEXT.split())
KIN_MOD = (r"(?:(?:best|older|younger|oldest|youngest|eldest|middle|little|big|baby|twin|late|"
           r"old|dear|former|favou?rite)[- ]?)?")
_NAMED_VERB = (r"(?:'s\s|\s+(?:is|was|has|lives|works|loves|likes|hates|enjoys|prefers|"
               r"studies|eats|doesn't|does not|can't|cannot|never|only|just|also|really|"
               r"uses|keeps|runs|teaches|moved|became|adopted|owns|went)\b)")
# "my horse painting", "our dog park": the animal names something else
NOT_PETS = ("painting|paintings|photo|photos|picture|pictures|food|toy|toys|park|walker|sitter|"
             "bed|hair|treats?|show|video|drawing|sculpture|costume|mug|shirt|sweater|"
             "figurine|allergy|allergies|print|poster|tattoo|book|movie")
_ANCHOR = re.compile(
    rf"(?P<rel>\b(?i:(?:my|our)\s+{KIN_MOD})(?P<relw>(?i:{REL_EN}))\b)"
    rf"|(?P<pet>\b(?i:(?:my|our)\s+(?:(?:little|new|old|sweet)\s+)?)(?P<petw>(?i:{PET_EN}))"
    rf"(?:e?s)?\b(?!\s+(?i:{NOT_PETS})\b))"
    rf"|(?P<bare>\b(?:{REL_AS_NAME_EN})\b)"
    rf"|(?P<i>\b[Ii]\b(?!\.)|\b(?i:we)\b)"
    rf"|(?P<pron>\b(?i:she|he)\b)"
    rf"|(?P<they>\b(?i:they)\b)"
    rf"|(?P<named>^{NAME}(?=(?:\s+(?i:from|in|at|on)\s+(?:the\s+)?[\w-]+)?{_NAMED_VERB}))")
_LEAD = re.compile(
    r"^(?:(?:ok|okay|oh|so|well|yeah|yep|yes|no|hey|hi|hello|um|uh|ugh|lol|haha|honestly|please|"
    r"actually|anyway|anyways|btw|fyi|also|and|but|plus|then|quick update|update|scratch that|"
    r"turns out|fun fact|by the way|just so you know|for the record|guess what|"
    r"as of (?:this|last|next) \w+|these days|nowadays|lately|recently|today)\b"
    r"[\s,:;\-–—!.]*)+", IC)
_THIRD_PERSON_OPENING = re.compile(  # not "a master's", "today's": no one's subject
    r"^(?:[\w'’.$€£-]+\s+){0,6}?(?!(?i:master|bachelor|today|tomorrow|yesterday)'s)"
    r"[\w.$€£-]+(?:'s\s|\s+(?:is|are|was|were|has|have|does|do|did|"
    r"doesn't|don't|isn't|can't|won't|keeps|wants|says|said|tells|told|thinks|goes|gets|"
    r"makes|needs|works|seems)\b)", IC)


# Chat spellings and common typos, as words: "im alergic to walnuts, cashews r fine tho".
_CHAT_WORDS = {
    "r": "are", "u": "you", "ur": "your", "tho": "though", "bc": "because", "cuz": "because",
    "coz": "because", "liv": "live", "livin": "living", "frm": "from", "alergic": "allergic",
    "allergic": "allergic", "alergy": "allergy", "allergie": "allergy", "fav": "favourite",
    "fave": "favourite", "favorite": "favourite", "atm": "at the moment", "gf": "girlfriend",
    "bf": "boyfriend", "hubby": "husband", "bday": "birthday", "w/": "with", "wanna":
    "want to", "gonna": "going to", "prolly": "probably", "ppl": "people", "pls": "please",
    "plz": "please", "vegitarian": "vegetarian", "vegeterian": "vegetarian"}
_CHAT_WORD = re.compile(r"(?<![\w'.&/-])(?:" + "|".join(
    re.escape(w) for w in sorted(_CHAT_WORDS, key=len, reverse=True)) + r")(?![\w'.&-])", IC)


def _chat_word(m: re.Match[str]) -> str:
    word = _CHAT_WORDS[m.group(0).lower()]
    return word.capitalize() if m.group(0)[0].isupper() and len(m.group(0)) > 1 else word


def normalize(clause: str) -> str:
    """Chat spelling evened out: curly quotes, "reallly loooove" → "really loove",
    "im" / "i'm" → "I'm", "r" → "are", "alergic" → "allergic"."""
    text = clause.replace("’", "'").replace("‘", "'")
    text = re.sub(r"([a-zA-Z])\1{2,}", r"\1\1", text)
    text = _CHAT_WORD.sub(_chat_word, text)
    text = re.sub(r"\bim\b", "I'm", text, flags=IC)
    text = re.sub(r"\bive\b", "I've", text, flags=IC)
    return re.sub(r"\bi'(m|ve|ll|d)\b", r"I'\1", text)


# Capitalized adverbs that open a clause whose subject is left unsaid ("Just moved to
# Brooklyn", "Finally started at Google"): not a name, so not someone else.
_ADVERB_OPENERS_TEXT = """
    just also still really actually honestly finally recently officially currently now only
    totally basically literally definitely seriously apparently"""
_ADVERB_OPENERS = frozenset(_ADVERB_OPENERS_TEXT.split())


def merge_appositives(sentence: str) -> str:
    """"My manager, Mr. Thompson, is from St. Louis" → "My manager Mr. Thompson is from
    St. Louis": the name stays with the relation when the sentence is cut at commas."""
    return re.sub(
        rf"(\b(?i:my|our)\s+{KIN_MOD}(?i:{REL_EN}|{PET_EN})),\s+({NAME}),\s*", r"\1 \2 ",
        sentence)


def _name_after(text: str) -> tuple[str, int] | None:
    m = match(rf"\s+({NAME})\b(?!')", text)
    if m and m.group(1).split()[0].lower().rstrip(".") not in NOT_NAMES:
        return m.group(1), m.end()
    return None


def singular(word: str) -> str:
    low = word.lower()
    if low.endswith("ies"):
        return low[:-3] + "y"
    if low.endswith(("sses", "ches", "shes", "xes")):
        return low[:-2]
    return low[:-1] if low.endswith("s") and not low.endswith("ss") else low


def parts(clause: str, ctx: Context, carry: tuple[str, ...] | None,
          found: Found) -> list[Part]:
    """The clause cut at the subjects it names; mentions of relatives and pets (and the
    names given to them) become facts on the way."""
    text = _LEAD.sub("", normalize(clause))
    anchors: list[tuple[int, int, tuple[str, ...] | None]] = []
    for m in _ANCHOR.finditer(text):
        if anchors and m.start() < anchors[-1][1]:
            continue  # inside the previous anchor's words ("my wife and I")
        if m.group("named") and m.group("named").split()[0].lower() in _ADVERB_OPENERS:
            continue  # "Just moved to Brooklyn": an adverb, the subject left unsaid
        subjects, end = _subjects(m, text, ctx, found)
        anchors.append((m.start(), end, subjects))
    hedged, past = is_hedged(text), is_past(text)  # "maybe I like jazz": the whole clause
    out: list[Part] = []
    head = text[:anchors[0][0]] if anchors else text
    if head.strip():
        subjectless = not _THIRD_PERSON_OPENING.match(head.strip())
        out.append(Part(carry if subjectless else None, head.strip(), hedged, past,
                        subject_said=not subjectless))
    for i, (_start, end, subjects) in enumerate(anchors):
        stop = anchors[i + 1][0] if i + 1 < len(anchors) else len(text)
        if end < stop:
            out.append(Part(subjects, text[end:stop].strip(), hedged, past))
    return out


def _subjects(m: re.Match[str], text: str, ctx: Context,
              found: Found) -> tuple[tuple[str, ...] | None, int]:
    """Who an anchor names, and where its words end."""
    end = m.end()
    if m.group("rel") or m.group("bare"):
        rel = (m.group("relw") or m.group("bare")).lower()
        found.add(USER, "has_relation", rel, False, 0.9, "person")
        subjects: tuple[str, ...] = (rel,)
        if (named := _name_after(text[end:])) is not None:
            found.add(rel, "name", named[0], False, 0.9, "name")
            ctx.names[named[0].lower()] = rel
            end += named[1]
        if both := match(r"\s+and\s+(?:I|me)\b", text[end:]):
            subjects, end = (rel, USER), end + both.end()
        else:
            ctx.meet(rel)
        return subjects, end
    if m.group("pet"):
        pet = singular(m.group("petw"))
        found.add(USER, "has_pet", pet, False, 0.85, "pet")
        introduced = ctx.introduced
        if introduced and match(r"^(?:he|she|it|this|that)\s*(?:'s|is)\s+$", text[:m.start()], IC):
            found.add(pet, "name", introduced, False, 0.9, "name")  # "Meet Waffles! he's our pup"
            ctx.names[introduced.lower()] = pet
            ctx.introduced = None
        if (named := _name_after(text[end:])) is not None:
            found.add(pet, "name", named[0], False, 0.9, "name")
            ctx.names[named[0].lower()] = pet
            end += named[1]
        return (pet,), end
    if m.group("i"):
        return (USER,), end
    if m.group("pron"):
        person = ctx.she_or_he(m.group("pron"))
        return ((person,) if person else None), end
    if m.group("they"):  # a partner named in this sentence; parents, kids said before
        if ctx.person and (ctx.person_said == ctx.sentence or ctx.person in PLURAL_KIN):
            return (ctx.person,), end
        return None, end
    if m.group("named"):
        name = m.group("named")
        if name.split()[0].lower() in NOT_NAMES or search(
                rf"^(?:{CHANNEL_EN}|{CHANNEL_EN_CASED})$", name, IC):
            return None, end
        ctx.meet(ctx.entity_named(name))
        return (ctx.person,), end
    return None, end


# -- values ------------------------------------------------------------------------------

_CUT = re.compile(
    r"\s+(?:and|but|because|so|since|though|although|when|if|as|which|that|who|where|while|"
    r"too|anymore|any more|again|now|either|at all|these days|lately|right now|btw|fyi|lol|"
    r"haha|lmao|tbh|after all|esp|especially|e\.g\.|like|i think|honestly|really|a lot|"
    r"very much|so much|all the time|it|i|she|he|they|we|you|instead|for now|"
    r"every day|everyday|recently|already|originally|mostly|part-time|over|"
    r"rather than|instead of|than|"
    r"full-time|for (?:the )?(?:past |last )?(?:\d+|a|an|one|two|three|few|several|many) "
    r"\w+|this (?:week|month|year|spring|summer|fall|autumn|winter)|next \w+|last \w+|"
    r"in (?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december)|by \d{4}|before the \w+|someday|soon|tomorrow|today|tonight|a while ago|"
    r"yesterday|(?:\w+ )?ago)\b.*$", IC)
_LEAD_VALUE = re.compile(r"^(?:to use|using|to|the|a|an|some|also|eating|to eat|having|drinking|"
                         r"to drink|any|all|more)\s+", IC)
_NOT_A_VALUE = frozenset({"to", "for", "and", "or", "it", "that", "this", "them", "those",
                          "these", "you", "him", "her", "me", "us", "what", "how", "when",
                          "if", "everything", "something", "anything", "being", "having",
                          "with", "of", "in", "on", "at", "who", "which", "so", "as", "a",
                          "an", "the", "your", "my", "his", "their", "our", "about", "why"})
PLACE = r"(?:the\s+)?[A-Z][\w'.&-]*(?:\s+(?:of\s+|de\s+|la\s+)?[A-Z][\w'.&-]*)*"


def clean(value: str, words: int = 4) -> str:
    """A value as said, without what follows it in the clause or leads into it; "" when
    that leaves nothing, too much, or a word that is no value ("it", "how")."""
    value = _CUT.sub("", value.strip())
    for _ in range(2):
        value = _LEAD_VALUE.sub("", value)
    parts_ = value.strip(" .,'\"!?").split()
    if not 0 < len(parts_) <= words or parts_[0].lower() in _NOT_A_VALUE:
        return ""
    return " ".join(parts_)


_NOT_PLACES = re.compile(
    r"^(?:january|february|march|april|may|june|july|august|september|october|november|"
    r"december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|monday|tuesday|wednesday|"
    r"thursday|friday|saturday|sunday|i|the)\b", IC)


def place(value: str) -> str:
    value = re.sub(r"^the\s+", "", value.strip(), flags=IC).strip(" ,")
    return "" if _NOT_PLACES.match(value) else value


# An employer: a name ("Mass General", "St. Mary's hospital", "the U.S. Postal Service")
# or a kind of place ("a consulting firm in Philly", "a little café downtown").
ORG_NAME = rf"{PLACE}(?:\s+(?i:{ORG_NOUN_EN}))?"
ORG = (rf"(?:{ORG_NAME}"
       rf"|(?:a|an|the)\s+(?:[a-z'-]+\s+){{0,3}}?(?i:{ORG_NOUN_EN})"
       rf"(?:\s+(?:in|downtown)\s*(?:[A-Z][\w'.-]*(?:\s+[A-Z][\w'.-]*)*)?)?)")


def org(value: str) -> str:
    return re.sub(r"^(?:a|an|the)\s+", "", value.strip(), flags=IC).strip(" ,")
