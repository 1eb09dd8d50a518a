"""The last check of every candidate: is its value of a shape its predicate can hold?

Rules read up to a boundary, and chat has few boundaries, so a value is sometimes the
rest of a clause, a time, a count or the subject again. What no predicate holds, in
either language:

- **a time or an amount alone** where a thing is meant: "plans to tuesday", "went up on
  sunday", "got 20 mins", 在一礼拜工作, 来自五个, 在学十节 (kept: a recurring part of the
  week for a verb of doing — "works saturdays", "runs early mornings" —, a time for a verb
  of beginning — "started running in feb", "switched to tuesdays" — and the predicates of
  time and amount: date, budget, age…);
- **the subject itself**: "mentor is mentor"; a name denied to the one it names
  ("周扬不叫周扬"); **a job, school or plan of a pet** (someone's, read as the pet's);
- **a value cut mid-phrase**: an English value ending on a preposition ("works at startup
  in"), a plan that opens with a preposition or adverb ("plans to via port augusta",
  "since hokkaido");
- in Chinese (jieba's part-of-speech tags), **a value that ends on a numeral** (滨江一家,
  加到两分钟, 酸奶少喝一点 — a clause remnant, not a thing), **a plan that opens with what no
  plan opens with** (a pronoun, numeral, adjective, adverb, classifier or direction:
  那种慢悠悠的感觉, 一小节目, 间书房, 清新一点的配色), **a hometown that is no place** (负责,
  介绍), an allergen with a verb in it (带豆包去浙大儿院).
"""

from __future__ import annotations

import re

from graphmem.extract.candidate import Candidate
from graphmem.extract.vocab import PET_EN, PET_PREFIX_ZH, PET_ZH
from graphmem.text.language import is_chinese

# Predicates whose value is a time or an amount.
_OF_TIME_OR_AMOUNT = frozenset({"date", "birthday", "budget", "age", "salary", "income",
                                "weighs", "height", "costs", "price", "rent"})

_WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|"
          r"sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_UNIT = r"(?:min(?:ute)?s?|hours?|hrs?|days?|weeks?|months?|years?|yrs?|secs?|seconds?)"
# A time alone: a day, a month, a part of the day or week, "ages", an amount of time.
_TIME_ALONE = re.compile(
    rf"^(?:(?:this|next|last|every|on|the|a|an|few|couple|of)\s+)*(?:{_WEEKDAY}|{_MONTH}|"
    rf"weekend|tonight|today|tomorrow|yesterday|morning|evening|night|afternoon|ages|"
    rf"(?:\d+|a|an|one|two|three|four|five|six|ten|few|couple)(?:\s+of)?\s*{_UNIT})$",
    re.IGNORECASE)
# …said as a recurring part of the week, the time of a habit ("works saturdays").
_RECURRING = re.compile(rf"^(?:early\s+|late\s+)?(?:{_WEEKDAY}s|weekends|mornings|evenings|"
                        rf"nights|afternoons)$", re.IGNORECASE)
_ZH_AMOUNT = re.compile(r"^[一二两三四五六七八九十百几半多\d]+(?:个|只|条|件|次|节|口|家|位|天|周|"
                        r"礼拜|星期|个月|月|年|小时|分钟|块|岁)?(?:半)?$")
_ZH_NUMERAL = re.compile(r"[一二两三四五六七八九十百千万几半\d]")  # not 多: 拼多多
_ZH_TIME = re.compile(r"^(?:周末|早上|晚上|中午|下午|上午|平时|每天|今天|明天|昨天|最近|以后|之前|"
                      r"周[一二三四五六日天]|星期[一二三四五六日天])$")
_DANGLING = re.compile(r"\s(?:in|at|on|for|with|of|to|from|by|about|into|as|than)$",
                       re.IGNORECASE)
_PLAN_OPENING = re.compile(r"^(?:via|since|until|till|from|at|in|on|by|with|as|than|of|"
                           r"yet|so|then|na|nah|too)\b", re.IGNORECASE)
# Verbs whose time is when something begins: "started running in feb", "switched to
# tuesdays".
_BEGINS = frozenset({"start", "begin", "switch", "return", "retire", "resume"})


def fits(c: Candidate) -> bool:
    """Could ``c``'s value be what its predicate holds? (See the module docstring.)"""
    value = c.value.strip()
    if not value:
        return False
    if c.predicate in _OF_TIME_OR_AMOUNT:
        return True
    if c.predicate in _PEOPLES_ONLY and _PET.fullmatch(c.entity):
        return False  # "佢做设计成日熬夜" read of the cat: a pet has no job, school or plan
    if c.predicate == "name":  # "周扬不叫周扬": a name denied to the one it names
        return not (c.negated and value.lower() == c.entity.lower())
    if value.lower() == c.entity.lower():
        return False  # "mentor is mentor"
    if is_chinese(value):
        return _fits_chinese(c.predicate, value)
    recurring = _RECURRING.match(value)  # "saturdays": the time of a habit, for a verb of doing
    time_alone = (c.predicate in _TYPED) if recurring else _TIME_ALONE.match(value)
    if time_alone and c.predicate.partition("_")[0] not in _BEGINS:
        return False
    if _DANGLING.search(value):
        return False
    return not (c.predicate == "plans_to" and (_PLAN_OPENING.match(value)
                                               or _TIME_ALONE.match(value.split()[0])))


# What only a person has: a pet said to have one was taken for someone else.
_PEOPLES_ONLY = frozenset({"works_as", "works_at", "studies", "plans_to", "is_from",
                           "speaks", "uses_tool", "uses_channel"})
_PET = re.compile(rf"(?:{PET_EN})s?|{PET_PREFIX_ZH}(?:{PET_ZH})", re.IGNORECASE)


# The typed predicates of people's lives: none holds a time of the week.
_TYPED = frozenset({"plans_to", "works_at", "works_as", "lives_in", "is_from", "studies",
                    "likes", "allergic_to", "dietary_restriction", "has_pet", "has_relation",
                    "uses_tool", "uses_channel", "has_condition", "diet"})
# What no plan opens with: pronouns (r), numerals (m), adjectives (a), adverbs (d),
# classifiers (q), directions (f).
_NO_PLAN_OPENS = ("r", "m", "a", "d", "q", "f")


def _fits_chinese(predicate: str, value: str) -> bool:
    from graphmem.extract.zh.shape import _tags, place

    if _ZH_AMOUNT.match(value) or _ZH_TIME.match(value):
        return False  # 在一礼拜工作, 来自五个, 在学十节, 不吃一口
    said = _tags(value)
    if len(said) > 1 and said[-1][1] == "m" and _ZH_NUMERAL.match(said[-1][0]):
        return False  # 滨江一家, 加到两分钟, 酸奶少喝一点: the clause ran on
    if predicate == "plans_to" and said[0][1].startswith(_NO_PLAN_OPENS) and (
            said[0][1] != "ad"):
        return False
    if predicate == "is_from":
        return bool(place(value))
    return not (predicate == "allergic_to" and len(value) > 3
                and any(flag == "v" for _, flag in said))
