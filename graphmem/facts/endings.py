"""How a current plan, class, partner or flatmate ends in a later episode, read against what
the user has — and where a transfer to a department puts them.

- **Dropped**: "I gave up on the half marathon" names the plan "run a half marathon": the
  drop takes that plan's value, so it ends that very plan (``dropped_plan``). So does a
  class or a pastime given up by a shorter name than it was stored under: "书法班我也不去了"
  ends "老年大学书法", "no more badminton" ends "play badminton" (the current value holds
  the given-up one's words).
- **Fulfilled**: a later state says what the plan was for — "准备搬家到宝安坪洲", then weeks later
  "住在坪洲"; "去知芽" (a new job), then "在知芽工作"; "planning to move to Denver", then "I
  live in Denver". The plan is no longer a plan (``fulfilled_plans``): it ends when the state
  is first said, as a version "no longer plans to …" that supersedes it. Only a state
  said in another, later episode than the plan counts (a plan and its goal said in one
  breath are still a plan), and only by a value the plan's own words hold. Only a home, a
  job or a pet: a taste or a course is not what a plan of it is for ("a fishing trip" is
  not done because the user likes fishing, nor "a vegan cooking class" by a vegan diet).
- **A move** (a new home said in a message of "moved", "shifting", "new flat", 搬:
  ``extract.candidate.HOME_MOVED``) ends the user's flatmates
  (roommate, flatmate, housemate, 室友, 舍友) known from earlier episodes —
  ``ended_flatmates``: one moves out of a shared flat, not with it.
- **A transfer** to a department (调到急诊科) is a move inside the employer the person has:
  "成都地铁" becomes "成都地铁培训中心", "贵医附院心内科" becomes "贵医附院急诊科"
  (``under_employer``); with no employer known, the department alone.
- **A job left** ("quit nero yesterday", "resigned at routely", 京东这边交了辞职, 离职提了 …
  最后一天是3月14号 — ``JOB_END``) ends the current employer it names, by its words ("nero"
  ends "caffe nero", 利群 ends 利群超市), or with none named ("my last day is friday", 我辞职了)
  each employer said in an earlier episode — not one taken up in the last 30 days: the
  resignation follows the new job's offer (``ended_jobs``); with none to end, nothing is
  stored — "quit pottery" names no employer.
- **A break-up** whose episode does not name the partner ("we broke up last night", "分手了
  她提的") ends the partner relation the user has, whichever word it was (girlfriend,
  fiancée, 对象, 老婆) — ``ended_partners``; with none current, nothing is stored.
- **An engagement** ("so now we're engaged", "MARCUS PROPOSED … I said yes", 我和林晓订婚了,
  一鸣求婚了 … 答应了 — ``ENGAGED``) makes the boyfriend or girlfriend the user has a fiancé(e):
  that relation ends (``engaged_partners``), the new one is the word for it (``fiance_for``:
  girlfriend → fiancée, 男朋友 → 未婚夫), and a plan to propose is done (``proposed``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from datetime import timedelta

from graphmem.extract.plans import names_plan
from graphmem.extract.vocab import (
    DEPARTMENT_END_ZH,
    ENGAGED_AS,
    PARTNER_WORDS,
    SCHOOL_LEVEL_ZH,
    SCHOOL_YEAR,
)
from graphmem.facts.conflict import (
    Change,
    CurrentVersion,
    NewVersion,
    decide_into,
    fact_version_id,
)
from graphmem.facts.normalize import USER_KEY, AliasTable, entity_id
from graphmem.facts.predicates import sentence
from graphmem.text.language import is_chinese

# states a plan is made for: a home, a job, a pet
FULFILLING = frozenset({"lives_in", "works_at", "works_as", "has_pet"})
# what ends by a shorter name of it: a plan, a class, a pastime
_DROPPED = frozenset({"plans_to", "studies", "likes"})
_HAN = re.compile(r"[\u4e00-\u9fff]")
_FILLER = frozenset({"the", "a", "an", "it", "that", "this", "there", "here", "more", "some",
                     "new", "one", "stuff", "things", "something"})


def dropped_plan(v: NewVersion, current: Sequence[CurrentVersion],
                 names: Mapping[str, str]) -> NewVersion:
    """A dropped plan (``v``: a negated ``plans_to``) given the value of the current plan it
    names, when it names one by other words; a class or pastime given up by a shorter name
    (书法班我也不去了 ends 老年大学书法) given the value it names; else ``v`` as it is."""
    if v.predicate not in _DROPPED or not v.negated or any(
            c.value_id == v.value_id for c in current):
        return v
    for c in sorted(current, key=lambda c: c.valid_from, reverse=True):
        plan = names.get(c.value_id)
        if not c.negated and plan and (names_plan(v.value, plan) if v.predicate == "plans_to"
                                       else _telling(v.value) and _holds(plan, v.value)):
            return replace(
                v, value_id=c.value_id, value=plan,
                fact_id=fact_version_id(v.user_id, v.entity_id, v.predicate, c.value_id,
                                        True, v.episode_id),
                sentence=v.sentence.replace(v.value, plan))
    return v


def _held_before(c: CurrentVersion, v: NewVersion) -> bool:
    """Is ``c`` a current statement (not a negation) said in an earlier episode than ``v``
    — what ``v`` may end or fulfil (a plan and its goal said in one breath are still a
    plan)?"""
    return not c.negated and v.episode_id not in c.source_episodes and (
        c.valid_from < v.observed_at)


def ended_partners(v: NewVersion, current: Sequence[CurrentVersion],
                   known_as: Mapping[str, Sequence[str]], who: str) -> list[NewVersion]:
    """A break-up with no partner named (``v``: a negated ``has_relation``) as the end of
    each current partner relation of the user (``known_as``: an entity's words, its name
    first, then its key and aliases: the boyfriend named Sam is "boyfriend" too); none when
    there is none."""
    endings = []
    for c in current:
        words = known_as.get(c.value_id, ())
        partner = next((w for w in words if w.lower() in PARTNER_WORDS), "")
        if c.negated or not partner:
            continue
        endings.append(_ending(v, "has_relation", c, partner, who, is_chinese(v.sentence)))
    return endings


def fiance_for(current: Sequence[CurrentVersion], known_as: Mapping[str, Sequence[str]]
               ) -> str:
    """The word for the fiancé(e) the newest boyfriend or girlfriend the user has becomes
    (girlfriend → fiancée, 男朋友 → 未婚夫), "" with none."""
    dating = [(c.valid_from, word) for c in current if not c.negated
              for word in known_as.get(c.value_id, ()) if word.lower() in ENGAGED_AS]
    return ENGAGED_AS[max(dating)[1].lower()] if dating else ""


def engaged_partners(v: NewVersion, current: Sequence[CurrentVersion],
                     known_as: Mapping[str, Sequence[str]], who: str) -> list[NewVersion]:
    """The endings of the user's current boyfriend / girlfriend relations that the
    engagement ``v`` (the fiancé(e) it makes, a ``has_relation``) turns into ``v``'s."""
    endings = []
    chinese = is_chinese(v.value)
    for c in current:
        word = _word_for(known_as.get(c.value_id, ()), ENGAGED_AS, chinese)
        if word and not c.negated and c.value_id != v.value_id:  # (女朋友 for a 未婚妻)
            endings.append(_ending(v, "has_relation", c, word, who, chinese))
    return endings


_PROPOSING = re.compile(r"(?i)求婚|\bpropos|\bmarry\b")


def proposed(v: NewVersion, plans: Sequence[CurrentVersion], names: Mapping[str, str],
             who: str) -> list[NewVersion]:
    """The user's plans to propose (七夕同阿琳求婚, "propose in coorg") that the engagement
    ``v`` did: each ends, said in an earlier episode."""
    return [_ending(v, "plans_to", c, names[c.value_id], who, is_chinese(names[c.value_id]))
            for c in plans if _held_before(c, v) and _PROPOSING.search(names.get(c.value_id, ""))]


_ANY_JOB = frozenset({"job", "工作"})
_JUST_TAKEN = timedelta(days=30)


def ended_jobs(v: NewVersion, current: Sequence[CurrentVersion], names: Mapping[str, str],
               who: str) -> list[NewVersion]:
    """The endings of the current employers of ``v``'s entity that the job left (``v``: a
    negated ``works_at`` of kind ``JOB_END``) names — by its words, or, with none named,
    each said in an earlier episode."""
    named = v.value.strip().lower() not in _ANY_JOB
    endings = []
    for c in current:
        employer = names.get(c.value_id)
        if not employer or not _held_before(c, v):
            continue
        if not named and v.observed_at - c.valid_from < _JUST_TAKEN:
            continue  # "I GOT IT!! starting at Cashmere High", then the resignation letter
            # to the old principal: the job just taken is not the one being left
        if named and c.value_id != v.value_id and not (_telling(v.value) and (
                _holds(employer, v.value) or _holds(v.value, employer))):
            continue
        endings.append(_ending(v, "works_at", c, employer, who, is_chinese(v.sentence)))
    return endings


_FLATMATES = frozenset({"roommate", "flatmate", "housemate", "room mate", "flat mate",
                        "室友", "舍友"})


def ended_flatmates(v: NewVersion, relations: Sequence[CurrentVersion],
                    known_as: Mapping[str, Sequence[str]], who: str) -> list[NewVersion]:
    """The endings of the user's current flatmate relations (``relations``: their current
    ``has_relation`` versions) that the move ``v`` (a new ``lives_in``) leaves behind: only
    those said in an earlier episode."""
    endings = []
    for c in relations:
        word = _word_for(known_as.get(c.value_id, ()), _FLATMATES, is_chinese(v.sentence))
        if not word or not _held_before(c, v):
            continue
        endings.append(_ending(v, "has_relation", c, word, who, is_chinese(v.sentence)))
    return endings


def fulfilled_plans(v: NewVersion, plans: Sequence[CurrentVersion],
                    names: Mapping[str, str], who: str) -> list[NewVersion]:
    """The endings ("no longer plans to …") of the current ``plans`` of ``v``'s entity that
    the later state ``v`` fulfils; ``who`` names the entity in their sentences."""
    if v.negated or v.predicate not in FULFILLING or not _telling(v.value):
        return []
    endings = []
    for c in plans:
        plan = names.get(c.value_id)
        if not plan or not _held_before(c, v) or not _holds(plan, v.value):
            continue
        endings.append(_ending(v, "plans_to", c, plan, who, is_chinese(plan)))
    return endings


_A_SCHOOL = re.compile(r"大学|学院|中学|[一二三四五六七八九十]中|附中|附小|小学|(?i:university|"
                       r"college|high\s+school|\buni\b)")


def next_school_year(v: NewVersion, current: Sequence[CurrentVersion],
                     names: Mapping[str, str], who: str) -> list[NewVersion]:
    """The endings of the school years ``v``'s entity was in before (高二 then 高三, 初中
    then 初一, "year 8" then "year 9"), ``v`` being a new school year of theirs or a school
    they go to now (高三, then 重庆医科大学护理学)."""
    year, school = SCHOOL_YEAR.match(v.value), _A_SCHOOL.search(v.value)
    if v.predicate != "studies" or v.negated or not (year or school):
        return []
    level_only = year and not school and not re.fullmatch(SCHOOL_LEVEL_ZH, v.value)
    # (初一 is in 初中: the level stays)
    return [_ending(v, "studies", c, names[c.value_id], who, is_chinese(names[c.value_id]))
            for c in current if c.value_id != v.value_id and not c.negated
            and SCHOOL_YEAR.match(names.get(c.value_id, "")) and _held_before(c, v)
            and not (level_only and re.fullmatch(SCHOOL_LEVEL_ZH, names[c.value_id]))]


def _ending(v: NewVersion, predicate: str, c: CurrentVersion, value: str, who: str,
            chinese: bool) -> NewVersion:
    """A version said in ``v``'s episode that the current version ``c`` (of ``predicate``,
    its value ``value``) no longer holds; ``who`` names the entity in its sentence."""
    return replace(
        v, predicate=predicate, value_id=c.value_id, value=value, negated=True,
        fact_id=fact_version_id(v.user_id, v.entity_id, predicate, c.value_id, True,
                                v.episode_id),
        valid_until=None, sentence=sentence(who, predicate, value, True, chinese))


def _word_for(words: Sequence[str], kinds: Collection[str], chinese: bool) -> str:
    """The entity's word of ``kinds`` in the language asked (室友 in a Chinese sentence,
    "roommate" in an English one; 女朋友 beside a 未婚妻), else in any; "" with none."""
    said = [w for w in words if w.lower() in kinds]
    return next((w for w in said if is_chinese(w) == chinese), "") or next(iter(said), "")


def _telling(value: str) -> bool:
    """A value that can tell one plan from another: two Chinese characters, or a word of
    three letters that is not a filler."""
    value = value.strip().lower()
    if _HAN.search(value):
        return len(_HAN.findall(value)) >= 2
    words = [w for w in re.findall(r"[a-z0-9']+", value) if w not in _FILLER]
    return any(len(w) >= 3 for w in words)


def _holds(plan: str, value: str) -> bool:
    """The plan's words hold the value: 搬家到宝安坪洲 holds 坪洲; "move to denver" holds
    "Denver" (whole words), not "den"."""
    plan, value = plan.lower(), value.strip().lower()
    if _HAN.search(value):
        return value in plan
    return re.search(rf"(?<![\w]){re.escape(value)}(?![\w])", plan) is not None


_DEPARTMENT_END = re.compile(rf"(?:{DEPARTMENT_END_ZH})$")
_EMPLOYER_END = re.compile(r"医院|附院|院|公司|集团|银行|学校|大学|中学|小学|局|所|厂|地铁|铁路|"
                           r"超市")


def under_employer(department: str, employer: str) -> str:
    """The department moved to, under the employer said before: 成都地铁 + 培训中心 →
    成都地铁培训中心; 贵医附院心内科 + 急诊科 → 贵医附院急诊科 (the old department off); the
    department alone when the employer is unknown (心内科) or is already that one."""
    if not employer or department in employer or not _HAN.search(employer):
        return department
    if _DEPARTMENT_END.search(employer):
        ends = [m.end() for m in _EMPLOYER_END.finditer(employer) if m.end() < len(employer) - 1]
        employer = employer[:ends[-1]] if ends else ""
    return employer + department


def decide_in_order(user_id: str, table: AliasTable, versions: list[NewVersion],
                    stored: dict[tuple[str, str, str], list[CurrentVersion]],
                    closing: Collection[str] = (), moves: Collection[str] = (),
                    engaged: Collection[str] = ()) -> list[Change]:
    """The user's new versions decided one after another, each against the current
    versions as the ones before it left them (``stored`` is updated; ``table``: the user's
    entities), with what they end: plans, partners, jobs, the flatmates of a move
    (``closing``: versions that only end something; ``moves``: new homes moved into;
    ``engaged``: fiancé(e)s an engagement made)."""
    names = table.names_by_id()
    me = entity_id(user_id, USER_KEY)
    changes: list[Change] = []
    known_as = table.words_by_id() if any(  # (only where a relation may end)
        v.fact_id in closing or v.fact_id in moves or v.fact_id in engaged
        for v in versions) else {}
    for new in versions:
        current = stored.setdefault((user_id, new.entity_id, new.predicate), [])
        who = new.entity if new.entity_id != me else (
            "用户" if is_chinese(new.sentence) else "the user")
        if new.fact_id in closing and new.predicate == "has_relation":
            decided = ended_partners(new, current, known_as, who)  # "he dumped me"
        elif new.fact_id in closing and new.predicate == "works_at":
            decided = ended_jobs(new, current, names, who)  # "quit nero yesterday"
        elif new.fact_id in engaged:  # "SHE SAID YES … so now we're engaged"
            decided = [*engaged_partners(new, current, known_as, who), new, *proposed(
                new, stored.get((user_id, me, "plans_to"), []), names, who)]
        else:
            v = dropped_plan(new, current, names)
            if new.fact_id in closing and v is new and not any(
                    c.value_id == v.value_id and not c.negated for c in current):
                continue  # "考完了" with no plan of it to end: nothing to store
            plans = stored.get((user_id, v.entity_id, "plans_to"), [])
            decided = [v, *fulfilled_plans(v, plans, names, who),
                       *next_school_year(v, current, names, who)]
            if new.fact_id in moves:  # "we moved into a flat in Ancoats"
                decided += ended_flatmates(v, stored.get((user_id, me, "has_relation"), []),
                                           known_as, who)
        for one in decided:
            changes += decide_into(one, stored.setdefault(
                (user_id, one.entity_id, one.predicate), []))
    return changes
