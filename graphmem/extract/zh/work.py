"""Work and study: jobs and employers (在…工作, 是一名…, 在…做…), courses of study (学的是,
在…读研)."""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    Context,
    Found,
    Part,
    first_search,
    match,
    search,
)
from graphmem.extract.vocab import (
    JOB_FIELD_ZH,
    JOB_SUFFIX_ZH,
    PLACES_ZH,
)
from graphmem.extract.zh.subjects import _HAN, _bare


def _job_like(job: str) -> bool:
    return bool(re.search(rf"(?:{JOB_SUFFIX_ZH}|师|员)$|^(?:{JOB_FIELD_ZH})|(?:{JOB_FIELD_ZH})$",
                          job)) or bool(re.fullmatch(r"[A-Z]{2,4}", job))


def _org_like(org: str) -> bool:
    return not re.match(r"^(?:家|这|那|网上|外面|路上|附近|楼下|线上|app|APP)", org)


_WORD = r"[\u4e00-\u9fffA-Za-z0-9]"


_AT_ORG_DO = rf"(?<![现正实存好])在({_WORD}{{1,15}}?)(?:做|当|干|任|担任)({_WORD}{{1,8}})"


_AT_ORG = (rf"(?<![现正实存好])在({_WORD}{{2,15}}?)(?:工作|上班|实习)",
           rf"(?:跳槽到|跳到|入职)了?({_WORD}{{2,15}}?)(?:工作|上班|$)",
           rf"跳槽(?:去了|进了|去|进)({_WORD}{{2,15}}?)(?:工作|上班|了|$)")


_IS_JOB = (rf"(不)?是(?:一名|一个|一位|个|名)?(?![在从对把被给跟和])"
           rf"({_HAN}{{0,6}}(?:{JOB_SUFFIX_ZH}|师|员))(?!大)")


_DOES = rf"^(?:现在|目前|如今|平时|主要)?(?:在.{{1,12}})?(?:做|当)({_WORD}{{1,8}})"


def _work(t: str, part: Part, ctx: Context, found: Found) -> None:
    """我是护士; 是做外贸的; 在杭州一家互联网公司做产品经理; 在华为上班; 跳槽到了腾讯;
    (我对象在华为上班，)做硬件工程师."""
    job = org = None
    negated = False
    m = search(_AT_ORG_DO, t)
    if m and _org_like(m.group(1)) and _job_like(_bare(m.group(2))):
        job = _bare(m.group(2))
        org = None if m.group(1) in PLACES_ZH else m.group(1)
    m = None if org else first_search(_AT_ORG, t)
    if m and _org_like(m.group(1)) and m.group(1) not in PLACES_ZH:
        org = m.group(1)
    if job is None and (m := search(r"是做(.{1,6}?)的|^做(.{1,6}?)的$", t)):
        job = m.group(1) or m.group(2)  # 是做外贸的, (我是Kevin，)做跨境电商的
    elif job is None and (m := search(_IS_JOB, t)):
        negated, job = bool(m.group(1)), m.group(2)
    elif job is None and (m := match(_DOES, t)) and _job_like(_bare(m.group(1))):
        job = _bare(m.group(1))
    if job:
        found.say(part, "works_as", job, negated, 0.8, "job")
    if org is None and (m := search(rf"(?:^|在{_HAN}{{2,3}})开了?(?:一家|家|个|一个)?"
                                    rf"({_HAN}{{1,6}}?(?:店|馆|厂|公司|工作室|餐厅|诊所))", t)):
        org = m.group(1)  # 在成都开火锅店
    if org:
        found.say(part, "works_at", org, False, 0.8, "organization")
    elif m := search(rf"从({_WORD}{{2,12}}?)(?:离职|辞职|出来)了?", t):
        found.say(part, "works_at", m.group(1), True, 0.8, "organization")


_STUDY_AT = (rf"在({_WORD}{{2,10}}?)(?:读|念)(博|研)(?:士|究生)?(?:$|[了中呢])",
             rf"在({_WORD}{{2,10}}?)(?:读|念)(?!书|的)({_WORD}{{2,10}})",
             rf"在({_WORD}{{2,10}}?)学(?!习|校)({_WORD}{{2,10}})")


_STUDY = (r"(?:学的是|专业是|主修)(.{2,10})", r"^学(.{2,8}?)的", r"^(?:正)?在学(?!校|习)(.{2,8})",
          r"^(?:在|正在|还在)?自学(.{2,10})",
          r"^(?:在职|正在|在)?读(MBA|EMBA|MPA|研究生|研|博士|博|硕士|硕|本科)(?:中)?$")


def _study(t: str, part: Part, ctx: Context, found: Found) -> None:
    """在复旦读计算机 (复旦计算机), 学的是软件工程, 学临床医学的, 在学法语."""
    value = None
    if m := first_search(_STUDY_AT, t):
        value = m.group(1) + {"博": "博士", "研": "研究生"}.get(m.group(2), _bare(m.group(2)))
    elif m := first_search(_STUDY, t):
        value = _bare(m.group(1))
        value = {"研": "研究生", "博": "博士", "硕": "硕士"}.get(value, value)  # 在读研
    if value:
        found.say(part, "studies", value, False, 0.8)
