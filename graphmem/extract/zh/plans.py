"""Plans (打算, 准备, 目标是) and their end (不…了, 放弃了, 取消了)."""

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
from graphmem.extract.plans import PLAN_END, dropped, plan
from graphmem.extract.text import is_hedged
from graphmem.extract.vocab import (
    PET_ZH,
)
from graphmem.extract.zh.shape import noun, place
from graphmem.extract.zh.subjects import _HAN, _TIME, _TIME_WORD, _bare

_PLAN_VERBS = "减学考买跑存攒去做拿找练读戒瘦写出搬开养换参完通结旅跳辞创"


_PET_WORDS = frozenset(re.findall(r"[\u4e00-\u9fff]+", PET_ZH))


_NOT_PLANS = re.compile(r"^(?:先|马上|现在|一会|待会|等会|睡|吃饭|休息|出门|回家|下班|洗澡|"
                        r"做饭|起床|上厕所|开会|一下|有变)")


_WHEN_WORD = (r"(?:现在|今天|那天|这天|当天|目前|如今|这次|那次|今年|明年|这周|下周|周末|最后|后来|"
              r"其实|本来|已经)")
# 去泰国玩一周大概要准备多少钱啊: a question
_ASKS = re.compile(r"多少|什么|哪|怎么|几个|吗|啥|咋|为啥")
# A plan's words that say it is done or failed (了, 去的 / 报的到: 是…的, 考…挂, 去不成), or
# that it is a piece of a clause (opens on 的, ends on 要, 去 and one more character).
_DONE_OR_CUT = re.compile(r"了|[去来回]的|的到|挂$|不成|^的|要$|^去[\u4e00-\u9fff]$")
# A date said before a plan: 8月份, 10月17号18号, 9月底.
_DATE = r"(?:\d{1,2}月(?:份|底|初|中旬|下旬)?(?:\d{1,2}[号日])*|\d{1,2}[号日])"


def _plan_value(value: str) -> str:
    """打算明年考研 → 考研, 跑个半马 → 跑半马; 准备睡觉了 is no plan to remember, nor 8月份去
    (a time and a bare verb) or 要准备啥 (a question)."""
    value = re.sub(rf"^(?:{_TIME_WORD}|{_DATE})*", "", _bare(value, 16))
    if _NOT_PLANS.match(value) or _ASKS.search(value) or re.search(
            r"(?:也行|也可以|都行|都可以|也好|也不错|也成)$", value):
        return ""  # 周末去爬山也行: an option, not a plan
    value = re.sub(rf"^({_HAN})(?:个|一个|一下)", r"\1", value)  # 跑个半马 → 跑半马
    if len(value) < 2 or (re.fullmatch(r"[去走来搬回买学考做]", value[:1]) and len(value) < 2):
        return ""
    if _DONE_OR_CUT.search(value):
        return ""  # 6月23号去报的到, 去深圳待了6天: done, no plan; 车间要, 的东西列个清单: a cut
    return value if not is_hedged(value) else ""


_GOAL = (rf"目标是([{_PLAN_VERBS}].+)",
         rf"^(?:{_TIME_WORD}|{_DATE})+(?:就|要|想|准备)?(?:开始)?((?:学|考|练|搬去|搬到|去|辞职|离职|跳槽|"
         rf"结婚|换工作){_HAN}?.{{0,12}})",
         rf"^(?:{_TIME_WORD}|{_DATE})+(?:就|要|想|准备)?((?:跟|和|带)[\u4e00-\u9fff]{{1,5}}?(?:一起)?"
         rf"去{_HAN}.{{0,10}})",  # 国庆跟阿杰去厦门
         rf"^(?:那就|还是)?(?:改|换)(?:成|为)?((?:去|学|考){_HAN}.{{0,8}})")  # 改去西安


_DROP = (r"^(.{2,14}?)(?:的计划|的打算|这件事|的事)?我?(?:就|也|还是|彻底|肯定|只能|只好)?"
         r"(?P<v>放弃了|不考了|不去了|取消了|泡汤了|黄了|作罢)|(?:放弃了?|取消了?)(.{2,8})")


# A plan done: 考研考完了, 青岛回来了 / 从云南回来了, 搬完家了, 房子租好了 — it ends the plan it
# names (去青岛 ends 带两个娃去青岛), and only that: with no such plan nothing is stored.
_DONE = (("考", r"^([\u4e00-\u9fff]{2,6}?)(?:也|都|终于)?(?:考完了|考过了|考下来了|考到了)"),
         ("去", r"^(?:从)?([\u4e00-\u9fff]{2,6}?)(?:玩)?回来了"),
         ("搬", r"^(?:终于|已经)?(?:搬完家?了|搬过来了|搬好了|搬家搞定了)()"),
         ("租", r"^(?:房子)(?:也|终于)?(?:租好了|找好了|定了)()"))


# A life event done, the verb and its object apart or together: 我而家啱啱辞咗职 (辞了职), 上个月
# 领证了, 房子买了, 婚结了 — it ends the plan it names (辞职, 在东升那边买房), and only that.
_EVENTS = ("辞职", "离职", "结婚", "离婚", "买房", "买车", "领证", "求婚", "订婚", "跳槽", "同居",
           "装修", "搬家")
_EVENT_DONE = re.compile(
    "|".join(rf"{v}了{o}|{v}{o}了|{o}(?:也|都|终于|已经)?{v}了(?!吗)" for v, o in _EVENTS))
_NOT_DONE = re.compile(r"打算|准备|想|要|决定|计划|会|快|如果|吗|没|不|别|等|还")


def _event_done(t: str, part: Part, found: Found) -> bool:
    if not (m := _EVENT_DONE.search(t)) or _NOT_DONE.search(t[:m.start()]):
        return False
    said = next(v + o for v, o in _EVENTS if v in m.group(0) and o in m.group(0))
    for subject in part.subjects or ():
        found.add(subject, "plans_to", said, True, 0.8, PLAN_END)
    return True


def _done(t: str, part: Part, found: Found) -> bool:
    if _event_done(t, part, found):
        return True
    for verb, pattern in _DONE:
        if not (m := search(pattern, t)):
            continue
        said = m.group(1)
        if verb == "去" and not place(said):
            continue  # 下班回来了: no trip
        if said and not said.startswith(verb):
            said = verb + said  # 青岛回来了 → 去青岛
        for subject in part.subjects or ():
            found.add(subject, "plans_to", said or verb, True, 0.8, PLAN_END)
        return True
    return False


def _plans(t: str, part: Part, ctx: Context, found: Found) -> None:
    """打算明年考研, 目标是减肥二十斤, 下个月开始学游泳, 下个月搬去广州; dropped: 考研我放弃了,
    不搬了, 不打算出国了."""
    if part.subjects is not None and (m := search(
            rf"(?:本来|原本|原来|之前|以前)(?:想|打算|准备|计划)(?:着)?{_TIME}(.+)", t)):
        value = _plan_value(m.group(1))  # 本来想这个暑假去西藏: a plan a drop may end
        ctx.plans.extend((s, value) for s in part.subjects if value)
        return
    if part.subjects is None or part.past:
        return
    if any(c.predicate == "studies" and c.negated for c in found.items):
        return  # 尤克里里我不学了: a class quit (habits)
    if _done(t, part, found):
        return
    if m := search(_DROP, t):
        said = re.sub(rf"^{_TIME}", "", _bare(m.group(1) or m.group(3)))
        said = re.sub(r"(?:就|也|都|是|还|彻底)+$", "", said)  # 日本就不去了 → 日本
        if said in {"只能", "只好", "看来", "可能", "估计", "应该", "肯定", "结果"}:
            said = ""  # 只能黄了: no plan named here
        if re.fullmatch(_WHEN_WORD, said):
            said = ""  # 现在不考了: the plan is the one said before (below)
        if not said and (bare := match(rf"^{_WHEN_WORD}*不({_HAN})了$", t)) and ctx.plans:
            for entity, value in reversed(ctx.plans):
                if value.startswith(bare.group(1)):
                    found.add(entity, "plans_to", value, True, 0.8)  # 现在不考了
                    return
        if not said or (m.group(3) and not noun(said)) or (
                not re.match(rf"[{_PLAN_VERBS}]", said) and not noun(said)):
            return  # 那天就不去了, 放弃感觉好可惜: no plan named
        if len(said) < 2:
            return
        if m.group("v") in {"不去了", "不考了"} and not re.match(rf"[{_PLAN_VERBS}]", said):
            said = m.group("v")[1] + said  # 阳朔不去了 → 去阳朔, 驾照不考了 → 考驾照
        plan(part, dropped(said, part, ctx), True, ctx, found)
    elif m := search(rf"(?<!在)(不)?(?:打算|准备|计划|想要|决定){_TIME}(.+)", t):
        if not search(r"帮我|给我|替我|帮忙|你", t[:m.start()]):  # 帮我准备…: a request
            value, negated = m.group(2), bool(m.group(1))
            if re.match(r"不(?!错|少|久|同|管|但|到)", value):  # 决定不要二胎了
                value, negated = value[1:], True
            plan(part, _plan_value(value), negated, ctx, found)
    elif m := first_search(_GOAL, t):
        plan(part, _plan_value(m.group(1)), False, ctx, found)
    elif match(r"^(?:后来|那就|还是)?算了吧?$", t) and ctx.plans:  # 我原本打算买车，后来算了
        entity, value = ctx.plans[-1]
        found.add(entity, "plans_to", value, True, 0.8)
    elif (m := match(rf"^不({_HAN})了$", t)) and ctx.plans:
        for entity, value in reversed(ctx.plans):
            if value.startswith(m.group(1)):
                found.add(entity, "plans_to", value, True, 0.8)
                break

