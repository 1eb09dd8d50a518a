"""A job left: 今天跟鹏程提了离职, 京东这边交了辞职, 离职提了！！最后一天是3月14号, 帮我写封辞职信
… 最后工作日2月28号, 奶茶店我辞了, 秀英把利群那边辞了, 今天是在海拓的last day, 我而家啱啱辞咗职 —
``works_at`` negated, of kind ``JOB_END``: consolidation ends the current employer named (by
its words: 利群 ends 利群超市), or with none named the one said in an earlier episode; with
none to end, nothing is stored (``facts.endings.ended_jobs``).

Not a job left: one thought of or still ahead (想辞职, 打算下周提离职, 不想辞职那种, 要不要辞职),
someone let go (我把刘阿姨辞了: the nanny's job, said by whoever let her go), a shop given up
(我不干了 after a landlord's price)."""

from __future__ import annotations

from graphmem.extract.candidate import JOB_END, Context, Found, Part, search
from graphmem.extract.zh.work import _org

_WORD = r"[\u4e00-\u9fffA-Za-z0-9]"
# Said only of leaving a job.
_RESIGNS = (r"(?:提|交|递)了?(?:辞职|离职|辞呈)|(?:辞职|离职|辞呈)(?:申请|报告)?(?:提|交|递)了|"
            r"(?:辞职|离职)(?:信|邮件|申请|报告|的(?=\s|$))|辞(?:咗|了|掉)职|(?:辞职|离职)(?:了|咗)|"
            r"最后(?:一个)?工作日|最后一个班|(?<![A-Za-z])last\s*day|"
            rf"辞掉了?(?:{_WORD}{{0,8}}的)?(?:工作|头路|活)")
# The employer said with it: 跟鹏程提了离职, 京东这边交了辞职, 在海拓的last day, 从恒达辞职
_NAMED = (rf"跟({_WORD}{{2,10}}?)(?:这边|那边)?(?:提|交|递)了?(?:辞职|离职)",
          rf"({_WORD}{{2,10}}?)(?:这边|那边)(?:交了|提了|递了)?(?:辞职|离职)",
          rf"在({_WORD}{{2,10}}?)的\s*(?:last\s*day|最后一天|最后一个班)")
# A workplace given up: 奶茶店我辞了, 把利群那边辞了, 把超市的工作辞了
_GIVEN_UP = (rf"(?:把)?((?:(?!把){_WORD}){{2,10}}?)(?:那边|这边|的工作|的活|的班)(?:我)?"
             rf"辞(?:了|掉了|咗)",
             rf"(?:^|把)((?:(?!把){_WORD}){{1,8}}?(?:店|公司|超市|单位|厂|医院|学校|餐厅|酒店|银行))(?:我)?"
             rf"辞(?:了|掉了|咗)")
# Not a job left yet: a thought, a question, a plan ahead, a refusal.
_UNDECIDED = (r"想|打算|准备|考虑|要不要|不想|如果|万一|是否|该不该|会不会|下(?:周|礼拜|个月|星期)|"
              r"明年|以后|将来|吗|没有?(?:提|辞)")
_ANY = frozenset({"工作", "头路", "活"})


def _left_job(t: str, part: Part, ctx: Context, found: Found) -> None:
    """The part's subjects left the job named (or the job they have, none named)."""
    if part.hedged or part.past:
        return
    for pattern in _GIVEN_UP:
        if (m := search(pattern, t)) and not search(_UNDECIDED, t[:m.start()]):
            employer = m.group(1)
            said = "工作" if employer in _ANY else (_org(employer) or "工作")
            found.say(part, "works_at", said, True, 0.8, JOB_END)
            return
    if (m := search(_RESIGNS, t)) is None or search(_UNDECIDED, t[:m.start()]):
        return
    employer = next((named for pattern in _NAMED if (n := search(pattern, t))
                     and (named := _org(n.group(1)))), None)
    found.say(part, "works_at", employer or "工作", True, 0.8, JOB_END)
