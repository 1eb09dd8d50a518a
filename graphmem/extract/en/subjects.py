"""English: who a clause is about (``parts``).

A clause is cut into parts at each subject it names — I / we (the user), "my sister
Emma" (a relative, with her name), "my cat Luna" (a pet), she / he (the person last
named, else nobody), a name that opens the clause ("Marco is allergic to nuts"). A
clause that names no subject continues the previous clause's ("My dad is from Naples,
runs a small bakery"), unless it opens with someone else ("Someone in my office is
vegan" is nobody the memory knows). Each part is then read by the rules of
``english_rules`` (values cut to their shape: ``graphmem.extract.en.shapes``).
"""

from __future__ import annotations

import re

from graphmem.extract.candidate import USER, Context, Found, Part, compiled, match, search
from graphmem.extract.en.names import (
    CHAT_WORDS_NOT_NAMES,
    IC,
    NOT_NAME_WORDS,
    NOT_NAMES,
    named_just_before,
)
from graphmem.extract.en.spelling import normalize
from graphmem.extract.text import is_hedged, is_past
from graphmem.extract.vocab import (
    CHANNEL_EN,
    CHANNEL_EN_CASED,
    FEMALE_KIN,
    MALE_KIN,
    PET_EN,
    PLURAL_KIN,
    REL_AS_NAME_EN,
    REL_EN,
)

_UPPER, _LOWER = "A-ZÀ-ÖØ-Þ", "a-zß-öø-ÿ"  # "Lucía", "Zoë", "José"
NAME = (rf"(?:(?:Mr|Mrs|Ms|Mx|Dr|Prof)\.?\s+)?[{_UPPER}][{_LOWER}]+(?:-[{_UPPER}][{_LOWER}]+)?"
        rf"(?:\s+[{_UPPER}][{_LOWER}]+)?")
KIN_MOD = (r"(?:(?:best|older|younger|oldest|youngest|eldest|middle|little|big|baby|twin|late|"
           r"old|dear|former|favou?rite)[- ]?)?")
_NAMED_VERB = (r"(?:'s\s|\s+(?:is|was|has|lives|works|loves|likes|hates|enjoys|prefers|"
               r"studies|eats|doesn't|does not|can't|cannot|never|only|just|also|really|"
               r"uses|keeps|runs|teaches|moved|became|adopted|owns|went|got|gets|started|"
               r"starts|landed|joined|left|quit|told|tells|said|says|texted|bought)\b)")
# "my horse painting", "our dog park": the animal names something else
NOT_PETS = ("painting|paintings|photo|photos|picture|pictures|food|toy|toys|park|walker|sitter|"
             "bed|hair|treats?|show|video|drawing|sculpture|costume|mug|shirt|sweater|"
             "figurine|allergy|allergies|print|poster|tattoo|book|movie")
_ANCHOR = re.compile(
    rf"(?P<rel>\b(?i:(?:my|our)\s+{KIN_MOD})(?P<relw>(?i:{REL_EN}))\b(?!-))"
    rf"|(?P<pet>\b(?i:(?:my|our)\s+(?:(?:little|new|old|sweet)\s+)?)(?P<petw>(?i:{PET_EN}))"
    rf"(?:e?s)?\b(?!\s+(?i:{NOT_PETS})\b))"
    rf"|(?P<bare>(?<![\w'])(?i:{REL_AS_NAME_EN})\b(?!'s))"
    rf"|(?P<kid>\b(?i:(?:my|our)\s+(?:little\s+|baby\s+|eldest\s+|youngest\s+)?(?:girl|boy))\b"
    rf"(?=\s+[A-Za-z]))"
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
    r"^(?!(?:is|are|was|were|has|have|had|does|did|can|could|will|would)\s)"
    r"(?:[\w'’.$€£-]+\s+){0,6}?(?!(?i:master|bachelor|today|tomorrow|yesterday)'s)"
    r"[\w.$€£-]+(?:'s\s|\s+(?:is|are|was|were|has|have|does|do|did|"
    r"doesn't|don't|isn't|can't|won't|keeps|wants|says|said|tells|told|thinks|goes|gets|"
    r"makes|needs|works|seems)\b)", IC)

# …or said after a subordinator, someone no one named: "egg hunt ideas for kids where one kid
# is allergic to eggs", "a cake recipe because a friend is vegan"
_SOMEONE_AFTER = re.compile(
    r"\b(?:where|when|while|whereas|if|because|since|cause|cuz|coz|as)\s+"
    r"(?:one|a|an|the|some|any|another|every|each|no|this|that|his|her|their|your)\s+"
    r"(?:[\w'-]+\s+){0,2}?[\w-]+\s+(?:is|are|was|were|has|have|gets|can't|cannot|"
    r"doesn't|don't|isn't|aren't)\b", IC)


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


def _name_after(text: str, sentence: str = "", kin: bool = False) -> tuple[str, int] | None:
    if given := _name_given(text):
        return given
    m = match(rf"\s+({NAME})\b(?!')", text)
    if m and m.group(1).split()[0].lower().rstrip(".") not in NOT_NAMES:
        return m.group(1), m.end()
    return _lower_name_after(text, sentence, kin)


_GIVEN = re.compile(r"(?:'s|\s+(?:is|was))\s+(?:called|named)\s+([A-Za-z][a-z'-]{1,20})\b(?!')"
                    r"|'s\s+name\s+(?:is|was)\s+([A-Za-z][a-z'-]{1,20})\b(?!')", IC)


def _name_given(text: str) -> tuple[str, int] | None:
    """A name given in so many words after a relation or a pet: "my manager is called
    shona", "our realtor is named Sharon", "my dog's name is biscuit" — not "my boss is
    called in sick", "my dad's name is on the lease"."""
    m = _GIVEN.match(text)
    if m is None:
        return None
    name = m.group(1) or m.group(2)
    if name.lower() in NOT_NAMES or name.lower() in NOT_NAME_WORDS:
        return None
    return name.capitalize() if name.islower() else name, m.end()


# Relatives whose word is seldom the first half of a compound ("my friend group", "my work
# life" are things; "my husband daniel is a maths teacher" is a name).
_KIN_WORDS = frozenset({
    "husband", "wife", "partner", "boyfriend", "girlfriend", "fiance", "fiancee", "fiancé",
    "fiancée", "son", "daughter", "mom", "mum", "mother", "dad", "father", "brother",
    "sister", "grandma", "grandpa", "grandmother", "grandfather", "aunt", "uncle", "cousin",
    "niece", "nephew", "stepdad", "stepmom", "stepson", "stepdaughter"})


# After "my daughter kayla", what shows that a lower-case word was a name: a verb of her
# own, an aside in brackets or after a comma, "and I".
_NAME_FOLLOWS = re.compile(
    r"(?:'s\s|\s*[(,]|\s*$|\s+(?:and\s+(?:I|me)\b|(?:is|was|has|had|says|said|got|gets|"
    r"goes|went|wants|wanted|put|puts|loves|likes|hates|turns|turned|works|worked|lives|"
    r"lived|comes|came|called|calls|told|tells|thinks|made|makes|from|just|finally|still|"
    r"already|also|never|always|does|doesn't|did|didn't|can't|won't|isn't|will|would|"
    r"keeps|kept|asked|agreed|brought|took|takes|left|moved|started|passed|decided|"
    r"needs|needed|used|uses|cried|found|got|sent|sends|texted|proposed|plays|played)\b))",
    IC)


def _lower_name_after(text: str, sentence: str, kin: bool = False) -> tuple[str, int] | None:
    """A name typed in lower case after a relation or a pet ("my daughter kayla is 15",
    "our cat pickle (9, ginger)", "my buddy dale wants"): one word that is not a word of
    the sentence's grammar, followed by what a name is followed by — and, when a
    dictionary lists it ("dale", "pickle"), not at the clause's end unless the sentence
    sets it apart ("pickle (9", "marlene, love it"), nor before "is a" unless it follows a
    relative's word (``kin``: "my husband daniel is a maths teacher", not "my friend group
    is a mess")."""
    m = match(r"\s+([a-z][a-z'-]{1,20})\b(?!')", text)
    if not m:
        return None
    word = m.group(1)
    rest = text[m.end():]
    if word in NOT_NAMES or word in NOT_NAME_WORDS or not _NAME_FOLLOWS.match(rest):
        return None
    from graphmem.extract.en.lexicon import is_irregular_past, is_word

    if is_word(word):
        if word.endswith(("ing", "ed")) or (word.endswith("ly") and len(word) > 5) or (
                is_irregular_past(word) and not match(r"\s+(?:is|was|has|had)\b", rest)):
            return None  # "my mom literally", "my dad passed", "my mum rang" ("my aunt rose is")
        if match(r"\s*$", rest) and not search(rf"\b{re.escape(word)}\s*[(,]", sentence):
            return None
        if not kin and match(r"\s+(?:is|was|has|had)\s+(?:a|an|the|so|too|very|really|not|"
                             r"no)\b", rest, IC) and not search(
                rf"\b{re.escape(word)}\s*[(,]", sentence):
            return None  # "my friend group is a mess": a thing, not a name
    return word.capitalize(), m.end()


def singular(word: str) -> str:
    low = word.lower()
    if low.endswith("ies"):
        return low[:-3] + "y"
    if low.endswith(("sses", "ches", "shes", "xes")):
        return low[:-2]
    return low[:-1] if low.endswith("s") and not low.endswith("ss") else low


# A spouse or a boss opening a clause without "my" is the speaker's: "wife carol says i need
# a hobby", "Wife Meera is a pharmacist", "hubby and I" (read as "my wife carol …").
_BARE_SPOUSE = re.compile(r"^(?=(?:wife|husband|hubby|missus|fianc[ée]e?|boss|girlfriend|"
                          r"boyfriend)\s+(?:[A-Za-z]|&))", re.I)
_OWNED = re.compile(r"\b(?:his|her|their|your|our|my|its|a|an|the|[a-z]+'s)[\s/]*$", re.I)


# The speaker and someone by name, opening the clause: "me and daniel are officially in the
# catford flat", "me n meg have got a van booked" — what they say of both is said of "we"
# (a relative's word stays its own subject: "me and mum are going").
_ME_AND_NAME = re.compile(r"^(?:me|i)\s+(?:and|n|&|\+)\s+(?P<name>[A-Za-z][\w'-]*)\s+(?=(?:are|"
                          r"were|have|'ve|had|got|just|finally|officially|both|will|'ll|moved|"
                          r"went|decided|signed|found|bought)\b)", re.I)


def _me_and_name(text: str) -> str:
    """``text`` with "me and <name>" opening it read as "we"."""
    m = _ME_AND_NAME.match(text)
    if m is None or re.fullmatch(REL_EN, m.group("name"), re.I):
        return text
    return "we " + text[m.end():]


def _my_spouse_unsaid(clause: str, text: str, ctx: Context) -> bool:
    """Does the clause open with the speaker's spouse or boss, "my" left out? As typed
    ("GF or she wont get a slice" is gluten-free, whatever chat spelling makes of it), and
    not after a possessive the line before ends with ("…with his [line break] wife Priya":
    David's)."""
    return bool(_BARE_SPOUSE.match(_LEAD.sub("", clause.lstrip())) and _BARE_SPOUSE.match(text)
                and not _OWNED.search(ctx.message[:max(ctx.message.find(clause), 0)]))


def parts(clause: str, ctx: Context, carry: tuple[str, ...] | None,
          found: Found) -> list[Part]:
    """The clause cut at the subjects it names; mentions of relatives and pets (and the
    names given to them) become facts on the way."""
    text = _LEAD.sub("", normalize(clause))
    if _my_spouse_unsaid(clause, text, ctx):
        text = "my " + text
    text = _me_and_name(text)
    anchors: list[tuple[int, int, tuple[str, ...] | None]] = []
    someone: set[int] = set()  # where a person nobody knows is the subject
    for m in _ANCHOR.finditer(text):
        if anchors and m.start() < anchors[-1][1]:
            continue  # inside the previous anchor's words ("my wife and I")
        if m.group("named") and m.group("named").split()[0].lower() in _ADVERB_OPENERS:
            continue  # "Just moved to Brooklyn": an adverb, the subject left unsaid
        if m.group("bare") and (search(r"\b(?:a|an|the|his|her|their|your|any|every|some|"
                                       r"other|'s|single|new|great|good)\s+$|-\w+\s+$",
                                       text[:m.start()], IC) or _of_someone_known(
                                           text[:m.start()], ctx)):
            continue  # "a mum of two", "the dad stuff", "kayleighs dad": not the user's own
        subjects, end = _subjects(m, text, ctx, found, clause)
        anchors.append((m.start(), end, subjects))
        if subjects is None and (m.group("pron") or m.group("they")):
            someone.add(m.start())
    anchors = _known_names(text, ctx, _new_name(text, ctx, anchors))
    anchors = _others_kin(text, ctx, anchors, someone)
    for start, end, subjects in anchors:
        if subjects is not None and len(subjects) == 1:
            _learn_gender(subjects[0], text[start:end], ctx)
    hedged, past = is_hedged(text), is_past(text)  # "maybe I like jazz": the whole clause
    out: list[Part] = []
    head = text[:anchors[0][0]] if anchors else text
    other = _SOMEONE_AFTER.search(head)  # "…for kids where one kid is allergic": theirs
    own = head[:other.start()] if other else head
    if own.strip():
        subjectless = not _THIRD_PERSON_OPENING.match(own.strip())
        out.append(Part(carry if subjectless else None, own.strip(), hedged, past,
                        subject_said=not subjectless))
    if other:
        out.append(Part(None, head[other.start():].strip(), hedged, past))
    for i, (start, end, subjects) in enumerate(anchors):
        stop = anchors[i + 1][0] if i + 1 < len(anchors) else len(text)
        alone = len(anchors) == 1 and not head.strip()  # a clause that is only its subject
        if end < stop or alone:  # ("sam (my partner)"), not "with my friend marlene" at the end
            out.append(Part(subjects, text[end:stop].strip(), hedged, past,
                            someone=start in someone))
    return out


# Someone else's relative: "Barb's husband Don", "my sister's boyfriend", "kavya's mum" —
# after a name or a relation word, not "she's", "it's", "let's".
_OTHERS_KIN = re.compile(
    rf"(?P<owner>\b(?:{NAME}|[a-z][a-z-]+))'s\s+{KIN_MOD}(?P<kin>(?i:{REL_EN}))\b"
    # typed without the apostrophe ("kayleighs dad ron", "carols mum"): of a name known
    rf"|(?P<bare>\b[A-Za-z][a-z-]+?)s\s+{KIN_MOD}(?P<kin2>(?i:{REL_EN}))\b", )
_NOT_OWNERS = frozenset({"she", "he", "it", "that", "what", "who", "there", "here", "let",
                         "where", "how", "one", "everyone", "today", "tonight", "tomorrow",
                         "yesterday", "week", "year", "month", "day", "master", "bachelor"})


def _of_someone_known(before: str, ctx: Context) -> bool:
    """Does ``before`` end with a known name's possessive typed without its apostrophe
    ("kayleighs ", "carols ")?"""
    m = re.search(r"\b([A-Za-z][a-z-]+)s\s+$", before)
    if m is None:
        return False
    from graphmem.extract.en.lexicon import is_word

    stem = m.group(1).lower()  # ("kayleighs": a name no dictionary lists, either way)
    return stem in ctx.names or (len(stem) > 2 and not is_word(stem) and not is_word(stem + "s")
                                 and stem not in NOT_NAMES)


def _others_kin(text: str, ctx: Context, anchors: list[tuple[int, int, tuple[str, ...] | None]],
                someone: set[int]) -> list[tuple[int, int, tuple[str, ...] | None]]:
    """``anchors`` with the relatives of others the clause names: their name when said
    (who "he" / "she" is next), else someone the memory cannot name — never the user's."""
    found_ = list(anchors)
    for m in _OTHERS_KIN.finditer(text):
        owner = m.group("owner") or m.group("bare")
        low = owner.lower()
        if m.group("bare") and low not in ctx.names:
            continue  # ("his dad", "the kids mum": no name the memory knows)
        if low in _NOT_OWNERS or (low in NOT_NAMES and low not in ctx.names):
            continue
        if not (owner[0].isupper() or low in ctx.names or re.fullmatch(REL_EN, low, IC)):
            continue
        start = (m.start("owner") if m.group("owner") else m.start("bare")) + len(owner)
        end = m.end()
        if any(a < end and start < b for a, b, _ in found_):
            continue
        named = _name_after(text[end:], ctx.sentence)
        if named is not None and named[0].lower() not in ctx.names:
            person = named[0]
            ctx.names[person.lower()] = person
            ctx.meet(person)
            found_.append((start, end + named[1], (person,)))
        else:
            ctx.person, ctx.person_said = None, ctx.sentence  # "he" is nobody known
            someone.add(start)
            found_.append((start, end, None))
    return sorted(found_)


# A word no dictionary lists opening a clause, followed by what says something of a
# person: a name typed in lower case ("maisie has a peanut allergy", "priya is vegetarian").
_NEW_NAME = re.compile(r"^(?:(?:and|but|so|also|oh|ok|plus|then|now|well|btw)\s+)*"
                       r"([a-z][a-z'-]{2,15})(?=\s+(?:is|has|was|had|loves|likes|hates|wants|works|lives|"
                       r"'s\s+(?:got|a|an|been|still|so|really|vegetarian|vegan|allergic))\b)")


def _new_name(text: str, ctx: Context, anchors: list[tuple[int, int, tuple[str, ...] | None]]
              ) -> list[tuple[int, int, tuple[str, ...] | None]]:
    m = _NEW_NAME.match(text)
    if m is None or any(a <= m.start(1) < b for a, b, _ in anchors):
        return anchors
    word = m.group(1)
    from graphmem.extract.en.lexicon import is_word

    if (word in NOT_NAMES or word in CHAT_WORDS_NOT_NAMES or word in ctx.names or is_word(word)
            or not re.search(r"[aeiouy]", word)):
        return anchors
    entity = ctx.names[word] = word.capitalize()
    ctx.meet(entity)
    return sorted([*anchors, (m.start(1), m.end(1), (entity,))])


def _known_names(text: str, ctx: Context, anchors: list[tuple[int, int, tuple[str, ...] | None]]
                 ) -> list[tuple[int, int, tuple[str, ...] | None]]:
    """``anchors`` with the names already given to people and pets ("kayla" → daughter)
    where they stand as a subject, in any case ("kayla's still vegetarian", "renee is
    TERRIFIED of heights") — in order."""
    names = [n for n in ctx.names if n.isalpha() and n not in NOT_NAMES]
    if not names:
        return anchors
    found = list(anchors)
    pattern = r"\b(" + "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) + r")\b"
    for m in compiled(pattern, IC).finditer(text):
        if any(a < m.end() and m.start() < b for a, b, _ in found):
            continue
        rest = text[m.end():]
        possessive = match(r"'s\s", rest) and not match(
            r"'s\s+(?:still|not|been|got|a|an|the|so|very|really|always|never|also|just|now|"
            r"in|at|from|vegetarian|vegan|allergic|\d)", rest, IC)
        verb = match(r"\s+([a-z]+)", rest)
        acts = bool(verb) and any(form in _verbs() for form in _lemma_forms(verb.group(1)))
        entity = ctx.names[m.group(1).lower()]
        if possessive:  # "kayla's volleyball season": hers, not her as a subject — but
            ctx.meet(entity)  # she is who "she" is next ("kavya's clinic … she is a dentist")
            continue
        if not (_NAME_FOLLOWS.match(rest) or acts) or match(r"\s*$", rest):
            continue
        ctx.meet(entity)
        found.append((m.start(), m.end(), (entity,)))
    return sorted(found)


_SHE = re.compile(r"\b(?:she|her|hers|herself|she's|shes)\b", IC)
_HE = re.compile(r"\b(?:he|him|his|himself|he's|hes)\b", IC)
_PRONOUN = re.compile(r"^(?:i|we|she|he|they|you|it)$", IC)


def _learn_gender(entity: str, said: str, ctx: Context) -> None:
    """The gender of someone named or of a pet, when the rest of the sentence speaks of
    them with one gender's pronouns only ("marlene has a sleeve thing, i'll ask her
    where she got it"; "my cat tinker ... is that normal at his age")."""
    if entity == USER or _PRONOUN.match(said.strip()) or entity.lower() in (
            MALE_KIN | FEMALE_KIN | PLURAL_KIN):
        return
    at = ctx.sentence.lower().find(said.strip().lower())
    after = ctx.sentence[at + len(said.strip()):] if at >= 0 else ""
    if other := search(rf"\b(?:{REL_EN})\b", after, IC):
        after = after[:other.start()]  # "liam is taking leave to be with dad so she…": hers?
    she, he = _SHE.search(after), _HE.search(after)
    if bool(she) != bool(he):
        ctx.genders.setdefault(entity, "f" if she else "m")


def _verbs() -> frozenset[str]:
    from graphmem.extract.en.lexicon import verbs

    return verbs()


def _lemma_forms(word: str) -> set[str]:
    from graphmem.extract.en.lexicon import lemmas

    return {w for w in lemmas(word) if w.endswith(("s", "ed")) or w != word} if word.endswith(
        ("s", "ed")) else set()


def _subjects(m: re.Match[str], text: str, ctx: Context, found: Found,
              clause: str) -> tuple[tuple[str, ...] | None, int]:
    """Who an anchor names, and where its words end."""
    end = m.end()
    if m.group("rel") or m.group("bare"):
        word = (m.group("relw") or m.group("bare")).lower()
        # "my late wife": a relation the user had, not one they have
        rel = f"late {word}" if m.group("rel") and search(r"\blate\b", m.group("rel"), IC) else word
        found.add(USER, "has_relation", rel, False, 0.9, "person")
        subjects: tuple[str, ...] = (rel,)
        if (named := _name_after(text[end:], ctx.sentence, word in _KIN_WORDS)) is not None:
            end += named[1]
            if any(owner == rel and name != named[0].lower() for name, owner in ctx.names.items()
                   ) and named[0].lower() not in ctx.names:
                rel = named[0]  # "my friend donna", Marlene being the friend: someone else
                subjects = (rel,)
            else:
                found.add(rel, "name", named[0], False, 0.9, "name")
            ctx.names[named[0].lower()] = rel
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
        if (named := _name_after(text[end:], ctx.sentence)) is not None:
            found.add(pet, "name", named[0], False, 0.9, "name")
            ctx.names[named[0].lower()] = pet
            end += named[1]
        ctx.see(pet)
        return (pet,), end
    if m.group("kid"):  # "my girl Hui Min", "my boy kauri": a child, or a partner — the
        # name says who, the relation stays unsaid
        if (named := _name_after(text[end:], ctx.sentence, kin=True)) is None:
            return None, end
        ctx.names[named[0].lower()] = named[0]
        ctx.meet(named[0])
        return (named[0],), end + named[1]
    if m.group("i"):
        return (USER,), end
    if m.group("pron"):
        pronoun = m.group("pron")
        person = (named_just_before(text[:m.start()], pronoun, ctx, clause)
                  or ctx.she_or_he(pronoun))
        return ((person,) if person else None), end
    if m.group("they"):  # a partner named in this sentence; parents, kids said before
        named_here = sum(1 for p in ctx.met if ctx.met_in.get(p) == ctx.sentence)
        if ctx.person and ((ctx.person_said == ctx.sentence and named_here <= 1)
                           or ctx.person in PLURAL_KIN):
            return (ctx.person,), end
        return None, end  # (several named in the sentence: which of them, or all, is not said)
    if m.group("named"):
        name = m.group("named")
        if name.split()[0].lower() in NOT_NAMES or search(
                rf"^(?:{CHANNEL_EN}|{CHANNEL_EN_CASED})$", name, IC):
            return None, end
        ctx.meet(ctx.entity_named(name))
        return (ctx.person,), end
    return None, end
