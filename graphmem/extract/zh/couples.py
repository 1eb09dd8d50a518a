"""Relationships that begin and end: 我和许嘉言在一起了 (a partner, named), 我跟陈昊分手了 (no
longer), 我们订婚了 (engaged), and people placed by where they work with the user:
李婷是我们学校数学老师 (a colleague, named)."""

from __future__ import annotations

import re

from graphmem.extract.candidate import ENGAGED, PARTNER_END, USER, Context, Found, search
from graphmem.extract.vocab import ENGAGED_ZH, PARTNERS_ZH, REL_ZH
from graphmem.extract.zh.shape import name_like

_RELATION_WORDS = frozenset(REL_ZH.replace("\\", "").split("|"))

_NAME = r"([\u4e00-\u9fff]{2,3}|[A-Z][a-z]+)"
_TOGETHER = (rf"(?:我和|我跟|和|跟){_NAME}(?:[\u4e00-\u9fff]{{0,6}})?在一起了"
             rf"|^我们(?:[\u4e00-\u9fff]{{0,8}})?在一起了")
_APART = (rf"(?:我和|我跟|和|跟)(?:我)?{_NAME}(?:已经)?(?:分手了|离婚了|分了(?![\u4e00-\u9fff]))"
          rf"|^我们(?:[\u4e00-\u9fff]{{0,6}})?(?:分手|离婚)了|^(?:已经)?(?:分手|离婚)了")


def _partner_word(name: str, ctx: Context) -> str:
    """男朋友 or 女朋友 by how the message refers to ``name`` (他 / 她), else 对象."""
    after = ctx.message[ctx.message.find(name):] if name in ctx.message else ctx.message
    pronoun = re.search(r"(?<![其])([他她])(?!们)", after) or re.search(
        r"(?<![其])([他她])(?!们)", ctx.message)
    return {"他": "男朋友", "她": "女朋友"}.get(pronoun.group(1), "对象") if pronoun else "对象"


# The user's own engagement: 我订婚了 / 我和林晓订婚了, or a proposal and its yes in one
# message (一鸣求婚了 … 答应了, 佢答應咗!!! … 戒指) — not a cousin's (表妹被求婚了), nor a yes to
# anything else (我阿妈答应九月嚟帮手)
_ENGAGED = re.compile(r"^(?:我|我们|我們|我俩|我倆|我哋|我和[^，。！？\s]{1,6}|"
                      r"我跟[^，。！？\s]{1,6})(?:也|终于|終於|正式|已经|已經|刚刚?|剛剛?|昨天|今天|前天|上周末?|上週末?|"
                      r"上个月|上個月|[\d月号號日]+){0,3}(?:订婚|訂婚)(?:了|咗)")
_YES = re.compile(r"(?<![没不未])(?:^|我|她|他|佢)(?:当场|當場|就|马上|馬上|立刻|立马|也|都|终于|"
                  r"終於|当然|當然|已经|已經|哭着|秒){0,3}(?:答应|答應)(?:了|咗)")
_PROPOSAL = re.compile(r"求婚|戒指|单膝|單膝")
_THEIR_PROPOSAL = re.compile(r"(?:姐|妹|哥|弟|表|堂|闺蜜|閨蜜|朋友|同事|儿子|兒子|女儿|女兒|侄|"
                             r"外甥)[^，。！？!?\s]{0,8}(?:被|跟|向|和)?[^，。！？!?\s]{0,4}求婚")


def engagement(clause: str, ctx: Context, found: Found) -> None:
    """我们订婚了, 答应了 after a proposal: consolidation makes the 男朋友 or 女朋友 the user has a
    未婚夫 / 未婚妻 (``ENGAGED``; 她答应了 names a 未婚妻 when there is none; ``ENGAGED_ZH``
    names no one)."""
    if _ENGAGED.search(clause):
        found.add(USER, "has_relation", ENGAGED_ZH, False, 0.85, ENGAGED)
    elif (yes := _YES.search(clause)) and _PROPOSAL.search(ctx.message) and not (
            _THEIR_PROPOSAL.search(ctx.message)):
        # (她 is a woman; 他 may be 佢, which is anyone: Cantonese is read as Mandarin)
        word = "未婚妻" if yes.group(0).startswith("她") else ENGAGED_ZH
        found.add(USER, "has_relation", word, False, 0.85, ENGAGED)


def couples(clause: str, ctx: Context, found: Found) -> None:
    """我和许嘉言在一起了 / (周雨也说…) 我们五月初已经在一起了: a partner, named; 我跟陈昊分手了:
    that person is no longer one (and is still called 陈昊)."""
    if not search(r"在一起|分手|离婚|分了", clause):
        return
    clause = re.sub(r"^(?:其实|但是|不过|然后|而且|哈哈|跟你说|告诉你|对了|另外)+", "",
                    clause.strip())
    if search(r"吗|么|要不要|该不该|会不会|想|如果|是不是", clause):
        return
    if m := search(_TOGETHER, clause):
        name = m.group(1) or _named_person(ctx)
        if name in _RELATION_WORDS:
            found.add(USER, "has_relation", name, False, 0.85, "person")  # 我和男朋友在一起了
        elif name and name_like(name):
            word = _partner_word(name, ctx)
            found.add(USER, "has_relation", word, False, 0.85, "person")
            found.add(word, "name", name, False, 0.85, "name")
            ctx.names[name.lower()] = word
            ctx.meet(word)
        return
    if (m := search(_APART, clause)) and m.group(0).endswith("分了") and not re.fullmatch(
            r"(?:[\d\s月号日年]|昨天|今天|前天|上周|上个月|晚上|早上|那天|刚刚?|已经|终于)*",
            clause[:m.start()]):
        return  # (蛋糕我和她分了: a cake shared, no break-up)
    if m:
        name = m.group(1) or _named_person(ctx)
        if not name and not m.group(1):  # 我们分手了 / 分手了: the partner the user has
            found.add(USER, "has_relation", "对象", True, 0.85, PARTNER_END)
            return
        if not name or not name_like(name):
            return
        who = name if name in _RELATION_WORDS else ctx.names.get(name.lower(), name)
        if who == name and name in _RELATION_WORDS:  # 我和男朋友分手了: that relation ends
            found.add(USER, "has_relation", name, True, 0.85, "person")
        elif who in PARTNERS_ZH:  # named earlier in the episode: the relation is that word
            found.add(USER, "has_relation", who, True, 0.85, "person")  # (still their name)
        elif search(r"^(?:我和|我跟|和|跟)", clause[m.start():]) and (
                m.start() == 0 or clause[m.start()] == "我"):
            # 我跟陈浩分手了, the name alone: consolidation ends the partner the user has (a
            # name it knows is that partner's; one it does not is, when the user has one)
            found.add(USER, "has_relation", name, True, 0.85, PARTNER_END)


def _named_person(ctx: Context) -> str | None:
    """The person last named in the episode, when a name (not a relative's word)."""
    person = ctx.person
    if person and re.fullmatch(r"[\u4e00-\u9fff]{2,3}|[A-Z][a-z]+", person) and (
            person not in _RELATION_WORDS) and name_like(person):
        return person
    return None


_WORKPLACE = "学校|公司|单位|医院|科室|部门|组|团队|店|厂|院|系|办公室"


def colleague(name: str, rest: str, ctx: Context, found: Found) -> str | None:
    """``name`` said to be of the user's workplace (李婷是我们学校数学老师) is a colleague:
    the entity the clause is about."""
    if not re.match(rf"^是我们(?:{_WORKPLACE})", rest) or not name_like(name):
        return None
    found.add(USER, "has_relation", "同事", False, 0.85, "person")
    found.add("同事", "name", name, False, 0.85, "name")
    ctx.names[name.lower()] = "同事"
    return "同事"
