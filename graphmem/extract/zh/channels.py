"""Channels and tools: how to reach the user (加我微信, 别打电话) and the tools they use;
budgets (预算五百以内)."""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    USER,
    Context,
    Found,
    Part,
    mentions,
    search,
)
from graphmem.extract.vocab import (
    CHANNEL_ZH,
    REL_ZH,
    TOOL_ZH,
)
from graphmem.extract.zh.subjects import _kin

# 用微信, 发邮件, 加我微信: a channel; 打电话, 看手机 only when said as a preference (只会打电话,
# 打我电话, 打手机 alone) — "在楼梯间打电话", "一看手机" are things done, not channels.
_CHANNEL = (rf"(?P<neg>别|不要|不想|不喜欢|不愿意|不会|不用|不|没)?(?:再)?"
            rf"(?:(?:用|通过|走|加|发到|发|联系|找)我?的?|找我(?:打|发|用)"
            rf"|(?:(?<=^)|(?<=[只都就直接好是请要会欢爱别]))(?:打|看|回)我?的?|(?:打|看|回)我的?)"
            rf"(?P<ch>{CHANNEL_ZH})|(?P<on>{CHANNEL_ZH})(?:上(?:说|聊|找|联系)|(?:找我|联系我|"
            rf"最快|最方便|比较快|比较方便))"
            rf"|(?P<off>{CHANNEL_ZH})(?:消息)?我?(?:不怎么|很少|基本不|不太|几乎不|从来不|不)"
            rf"(?:看|回|用|上)")


# Words of a habit: what someone does as a rule, not for the task at hand.
_HABIT = r"平时|一般|现在|一直|在用|日常|习惯|常用|每天|天天|已经|不再|不用|弃用|卸|改用|换成"


def _channels(t: str, part: Part, ctx: Context, found: Found) -> None:
    if not part.subject_said and search(r"^(?:主要|可以|能|要|会)?(?:打电话|发短信|视频)", t):
        return  # (给老人买手机) 主要打电话 视频: what a phone is for, not how to reach the user
    for m in re.finditer(_CHANNEL, t):
        value = m.group("ch") or m.group("on") or m.group("off")
        found.say(part, "uses_channel", value, bool(m.group("neg") or m.group("off")), 0.9,
                  "channel")


_AMOUNT = r"(\d+(?:\.\d+)?)\s*(万|千|k|K)?\s*(元|块钱|块|美元|刀)?\s*"


_PER = r"(每人|人均|每个人|一人|最多|顶多|不超过|大概|大约|差不多|控制在)?"


_BUYING = r"买|换|挑|选|推荐|租|订|入手|预算|budget"


def _budget(clause: str, ctx: Context, found: Found) -> None:
    """预算五百以内 → 500以内, 预算2000元左右, 预算每周三百块 → 300块, 预算人均四千 → 人均4000;
    after a budget, "八千以内吧" or "最多十二万" alone is the new one; 三千块左右 said while
    buying is one too; 闺蜜的预算是五百 is the friend's."""
    named = "预算" in clause or bool(search(r"(?i:budget)", clause))
    if named:
        ctx.budget_said = True  # 我预算不多，五千以内的…
    elif not ((ctx.budget_said and search(r"以内|以下|之内|左右|最多|顶多|不超过", clause)) or (
            search(r"\d|[一二三四五六七八九十两百千万]", clause)
            and search(r"(?:块|元|万)(?:钱)?(?:以内|以下|之内|左右)", clause)
            and search(_BUYING, ctx.sentence))):
        return
    import cn2an

    normalized = cn2an.transform(clause, "cn2an")
    cap = "(以内|以下|之内|左右|上下)"
    m = (search(rf"(?i:预算|budget)[^\d]{{0,8}}?{_PER}{_AMOUNT}{cap}?", normalized) if named
         else None) or search(rf"{_PER}{_AMOUNT}{cap}", normalized) or (
        search(rf"(最多|顶多|不超过){_AMOUNT}()", normalized) if ctx.budget_said else None)
    if not m:
        return
    cap = "以内" if m.group(5) in {"以内", "以下", "之内"} else (m.group(5) or "")
    per = "" if m.group(1) == "控制在" else (m.group(1) or "")
    amount = per + m.group(2) + (m.group(3) or "") + (m.group(4) or "") + cap
    owner = search(rf"({REL_ZH})的预算", clause)
    event = ctx.event
    if event and event not in clause and search(r"买|挑|选|入手|推荐|想要", ctx.sentence) and (
            not search(r"^(?:聚会|派对|婚礼|旅行|旅游|聚餐|活动|项目)", event)):
        event = None  # 给老人买手机 (眼睛刚做完手术) 预算1500: the purchase's, not the surgery's
    found.add(_kin(owner.group(1))[0] if owner else event or USER, "budget", amount, False,
              0.85, "amount")


# A tool: a product named in Latin letters (Figma, Notion, VS Code) or one of the everyday
# Chinese apps (飞书文档, 多邻国); a channel (微信, 钉钉) is ``_channels``'s.
_TOOL_ZH = (rf"(?:[A-Z][A-Za-z0-9+#.-]*[A-Za-z0-9+#](?:\s[A-Z][A-Za-z0-9+#.-]*)?|{TOOL_ZH})")


_TOOL_SAID = (  # (pattern, negated): 不用Excel了 is read before 用Excel
    (rf"(?:不再用|不用|别用|没再用|弃用|卸载了|卸了)({_TOOL_ZH})", True),
    (rf"({_TOOL_ZH})(?:已经|早就|现在)?(?:不用了|不再用了|卸载了|卸了)", True),
    (rf"(?:用|使用|在用|改用|换成了?|换到了?|转到了?|切到了?)(?:的是)?\s*({_TOOL_ZH})", False),
    (rf"在({_TOOL_ZH})(?:里|上)(?:面)?(?:记|写|做|画|管|整理|打卡|规划)", False),
)


def _tools(t: str, part: Part, ctx: Context, found: Found) -> None:
    """我平时画图用Figma; 现在用随手记; 我什么都在Notion里记; Photoshop已经不用了 (no longer);
    (手写一个LRU) 用Java — a task's tool, said without anyone using it — is none."""
    if not part.subject_said and not search(_HABIT, t) and not search(_HABIT, ctx.sentence):
        return
    for tool, negated in mentions(_TOOL_SAID, t, lambda tool: not re.fullmatch(
            CHANNEL_ZH, tool, re.I) and tool.lower() not in ctx.names):
        found.say(part, "uses_tool", tool, negated, 0.8, "tool")
