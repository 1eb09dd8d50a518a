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
from graphmem.extract.plans import dropped, plan
from graphmem.extract.text import is_hedged
from graphmem.extract.vocab import (
    PET_ZH,
)
from graphmem.extract.zh.subjects import _HAN, _TIME, _TIME_WORD, _bare

_PLAN_VERBS = "减学考买跑存攒去做拿找练读戒瘦写出搬开养换参完通结旅跳辞创"


_PET_WORDS = frozenset(re.findall(r"[\u4e00-\u9fff]+", PET_ZH))


_NOT_PLANS = re.compile(r"^(?:先|马上|现在|一会|待会|等会|睡|吃饭|休息|出门|回家|下班|洗澡|"
                        r"做饭|起床|上厕所|开会|一下|有变)")


_ASKS = re.compile(r"多少|什么|哪|怎么|几个|吗")  # 去泰国玩一周大概要准备多少钱啊: a question


def _plan_value(value: str) -> str:
    """打算明年考研 → 考研, 跑个半马 → 跑半马; 准备睡觉了 is no plan to remember."""
    value = re.sub(rf"^{_TIME}", "", _bare(value, 12))
    if _NOT_PLANS.match(value) or _ASKS.search(value):
        return ""
    value = re.sub(rf"^({_HAN})(?:个|一个|一下)", r"\1", value)  # 跑个半马 → 跑半马
    return value if value and not is_hedged(value) else ""


_GOAL = (rf"目标是([{_PLAN_VERBS}].+)",
         rf"^{_TIME_WORD}+(?:就|要)?(?:开始)?((?:学|考|练|搬去|搬到|去|辞职|离职|跳槽|结婚|换工作)"
         rf"{_HAN}?.{{0,8}})",
         rf"^(?:那就|还是)?(?:改|换)(?:成|为)?((?:去|学|考){_HAN}.{{0,8}})")  # 改去西安


_DROP = (r"^(.{2,14}?)(?:的计划|的打算|这件事|的事)?我?"
         r"(?:放弃了|不考了|不去了|取消了|泡汤了|黄了|作罢)|(?:放弃了?|取消了?)(.{2,8})")


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
    if m := search(_DROP, t):
        said = re.sub(rf"^{_TIME}", "", _bare(m.group(1) or m.group(2)))
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
