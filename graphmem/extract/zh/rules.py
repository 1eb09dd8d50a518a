"""Chinese rules: what a part says of its subjects (``chinese_facts``), what a clause or a
sentence says whatever its subject (``clause_facts``, ``sentence_facts``), what a question
still says (``question_facts``). Each family of predicates has its module: ``people``,
``tastes``, ``places``, ``work``, ``plans``, ``channels``; who a clause is about is
``subjects``."""

from __future__ import annotations

import re
from dataclasses import replace

from graphmem.extract.candidate import (
    UNNAMED,
    USER,
    Context,
    Found,
    Part,
    search,
)
from graphmem.extract.text import strip_emoji
from graphmem.extract.vocab import (
    REL_ZH,
    REL_ZH_SHORT,
)
from graphmem.extract.zh.channels import _budget, _channels, _tools
from graphmem.extract.zh.couples import couples, engagement
from graphmem.extract.zh.habits import _habits, _switched
from graphmem.extract.zh.health import _conditions
from graphmem.extract.zh.leaving import _left_job
from graphmem.extract.zh.people import _PET_NAMED, _name, _pets, _who, pets_said
from graphmem.extract.zh.places import _home, _origin, moved_here
from graphmem.extract.zh.plans import _plans
from graphmem.extract.zh.shape import handed_over
from graphmem.extract.zh.subjects import _HAN, _kin
from graphmem.extract.zh.tastes import _allergy, _food, _likes
from graphmem.extract.zh.work import _offer, _study, _work, announced


def chinese_facts(part: Part, ctx: Context, found: Found) -> None:
    t = part.text
    first = len(found.items)
    for rule in (_name, _likes, _food, _allergy, _conditions, _home, _origin, _work, _left_job,
                 _study, _habits, _switched, _pets, _plans, _channels, _tools):
        rule(t, part, ctx, found)
    if part.subjects not in (None, (USER,)) and (not part.subject_said or (
            _PRONOUN.match(found.evidence) and ctx.person_said not in ctx.message)):
        # someone else's, by a clause that did not name them (…她不吃香菜 特别喜欢猫) or by a
        # pronoun for someone named in an earlier message: never sure enough to be certain
        found.items[first:] = [replace(c, confidence=min(c.confidence, UNNAMED))
                               for c in found.items[first:]]


# Confidence is each family's measured precision (Chinese labelled sets and zh-dev, 12/2025):
# relations, names, allergies, pets, homes, origins, jobs and employers 0.97–1.00 (rules at
# 0.8–0.97); likes 0.98 (0.9; habits 0.8); foods avoided 0.95 (0.85–0.95); conditions 0.92
# (0.85); studies 0.89 and plans 0.88 (0.8); budgets and deadlines 0.88 (0.85); dates 0.79:
# a date is kept at 0.8. The most a fact about someone else is trusted when its clause did
# not name them: 0.85 (``UNNAMED``).
_DATED = 0.8
_PRONOUN = re.compile(r"^(?:[^\u4e00-\u9fff]*|对了|哦对了|而且|但是|不过|然后)*[她他](?!们)")


def clause_facts(clause: str, ctx: Context, found: Found, carry: tuple[str, ...] | None) -> None:
    """Rules whose subject the words themselves say: "过敏的是我弟弟" (the fact just denied
    belongs to the brother); "巧克力除外" (the exception to a dislike is a like)."""
    if handed_over(ctx.message, ctx.sentence):
        return
    found.items[:] = [replace(c, confidence=min(c.confidence, _DATED)) if c.predicate == "date"
                      else c for c in found.items  # the clause's date, read before
                      if c.predicate not in {"date", "deadline"} or not _said_after(c.entity,
                                                                                   clause, ctx)]
    _budget(clause, ctx, found)
    _who(clause, ctx, found)
    _offer(clause, ctx, found)
    engagement(clause, ctx, found)
    couples(clause, ctx, found)
    last = ctx.last
    if last is None:
        return
    m = search(rf"^(?:但是?|不过|可是)?({_HAN}{{1,6}}?)(?:可以吃|可以喝|可以|没事|没问题|"
               rf"不过敏|能吃|还行|倒是可以|倒没事)(?:的|吧|啊)?$", clause)
    if m and not last.negated and (
            last.predicate in {"allergic_to", "dietary_restriction"}) and m.group(1) not in {
            "其他", "别的", "其它", "都", "这个", "那个"} and not re.match(
            r"[说讲他她都也还就]", m.group(1)):  # (他…说没事没事: his words, no food)
        found.add(last.entity, last.predicate, m.group(1), True, last.confidence)  # 但姜可以
        return
    if (m := search(rf"^(?:过敏|不吃|喜欢|讨厌)的(?:人)?是(?:我的?)?({REL_ZH}|{REL_ZH_SHORT})",
                    clause)) and last.negated:
        for kin in _kin(m.group(1)):
            found.add(kin, last.predicate, last.value, False, last.confidence)
    elif (m := search(rf"^(?:但是?)?({_HAN}{{1,8}})除外", clause)) and last.negated and (
            last.predicate == "likes"):
        found.add(last.entity, "likes", m.group(1), False, last.confidence)


def _said_after(event: str, clause: str, ctx: Context) -> bool:
    """Is ``event`` named only after ``clause`` in its sentence (7月9号到13号 … 老王说项目上
    请不了假): a date is not that of an event said after it."""
    at = ctx.sentence.lower().find(clause.lower())
    said = ctx.sentence.lower()
    return at >= 0 and event not in said[:at + len(clause)] and event in said[at + len(clause):]


def question_facts(clause: str, ctx: Context, found: Found) -> None:
    """What a question still says: (我预算不多，)五千以内的笔记本有推荐吗."""
    _budget(clause, ctx, found)


def sentence_facts(sentence: str, ctx: Context, found: Found) -> None:
    """What a whole sentence says across its clauses: 煤球（我家黑猫）…, 毛星球 市场总监
    7月7号入职."""
    if handed_over(ctx.message, sentence):
        return
    announced(sentence, found)
    pets_said(sentence, ctx, found)
    moved_here(sentence, ctx, found)
    if m := _PET_NAMED.search(strip_emoji(sentence)):
        found.add(USER, "has_pet", m.group(2), False, 0.85, "pet")
        found.add(m.group(2), "name", m.group(1), False, 0.85, "name")
        ctx.names[m.group(1).lower()] = m.group(2)
