"""Health: the conditions someone has (我妈高血压好几年了, 医生说是痛风, 体检查出甲状腺结节,
他糖尿病十几年了, 血脂偏高) — ``has_condition``, on whoever the clause is about."""

from __future__ import annotations

import re

from graphmem.extract.candidate import USER, Context, Found, Part, compiled
from graphmem.extract.vocab import REL_ZH, REL_ZH_SHORT, SURNAMES_ZH
from graphmem.extract.zh.shape import INTENSIFIERS, _tags
from graphmem.extract.zh.subjects import _kin

# What a condition's name ends with: a disease (胃炎, 糖尿病, 白内障), a finding (结节,
# 血脂偏高), an injury (半月板撕裂, 腰椎间盘突出).
_END = ("炎|病|症|癌|瘤|结节|结石|脑梗|心梗|梗塞|梗死|中风|痛风|高血压|低血压|高血脂|高血糖|偏高|"
        "偏低|过高|突出|撕裂|骨折|白内障|青光眼|哮喘|贫血|湿疹|脂肪肝|囊肿|息肉|增生|骨质疏松|"
        "抑郁|焦虑|不全|痴呆|帕金森|阿尔茨海默|甲亢|甲减")
_CONDITION = rf"(?P<c>[\u4e00-\u9fff0-9]{{0,8}}?(?:{_END}))"
# How a condition is said: diagnosed (说是, 查出, 确诊), had (得了, 患有, 有), or said
# bare after its bearer with how long (我婆婆二型糖尿病好几年了, 老伴高血压).
_SAID = (rf"(?P<no>没有|没|不是)?(?:说是|诊断(?:为|是)|确诊(?:为|了|是)?|查出(?:来)?(?:了|是)?|"
         rf"检查出(?:了|是)?|得了|患有|患上了?|有)(?:个|点)?{_CONDITION}"
         rf"(?![\u4e00-\u9fff]*(?:吗|么|没|不))(?!的(?:前兆|症状|迹象|可能|风险|表现))")
_BARE = (rf"^(?:今年|去年|前年|上个月|上周|前几天|最近|这两年|年初|年底)?{_CONDITION}"
         rf"(?:好几年|十几年|几十年|多年|很多年|好多年|几年|一直|又犯|犯了|了|也|$|"
         rf"那个|手术|的(?:老毛病|问题))")
# Words that may stand inside a condition's name (慢性, 浅表性, 二型, 轻微, 甲状腺…).
_INSIDE = ("n", "b", "a", "m", "l", "nr", "nz", "ng", "vn", "j", "q", "f", "s", "ns", "d")
_VERB_ENDS = frozenset({"突出", "撕裂", "骨折", "增生", "偏高", "偏低", "过高", "中风"})


# Who was taken to be seen: 带母亲去了记忆门诊, 陪我爸去医院, 送老伴到急诊
_TAKEN = re.compile(rf"(?:带|陪|送)(?:着)?(?:我的?)?({REL_ZH}|{REL_ZH_SHORT})"
                    rf"(?:一起)?(?:去|到|上|看)")


def condition(value: str) -> str:
    """The condition's name, its leading remnant cut off ("做了个胃镜说是胃炎" → 胃炎),
    or "" when what is left is not the name of one."""
    tags = list(_tags(value))
    keep: list[str] = []
    for word, flag in reversed(tags):
        if (keep and not (flag.startswith(_INSIDE) or word in _VERB_ENDS)) or word in {
                "的", "是", "了", "有", "个", "点", "说", "我", "她", "他", "都", "也", "还"} or (
                keep and (word in INTENSIFIERS or word.startswith("第"))):
            break  # 好焦虑: a mood; 第二天(脚上痛风): a time
        keep.insert(0, word)
    if re.match(rf"(?:老|小|阿)[{SURNAMES_ZH}]", value) and len(value) > 3:
        return ""  # 老郑腰椎间盘突出: 老郑's, not a condition named so
    name = "".join(keep)
    if name != value or name.startswith(("偏", "过")) or len(name) < 2:
        return ""  # all of it is the name (防中风: a remnant before it)
    return name


def _conditions(t: str, part: Part, ctx: Context, found: Found) -> None:
    """我妈高血压好几年了, 他糖尿病十几年了, (医生)说是慢性浅表性胃炎, 体检查出甲状腺结节,
    血脂偏高, 没有高血压 (not)."""
    if part.subjects is None or part.past:
        return
    if not part.subject_said and part.subjects == (USER,):
        before = ctx.sentence[:max(0, ctx.sentence.find(t))] or ctx.sentence
        if taken := _TAKEN.search(before):
            part = Part(_kin(taken.group(1)), part.text, part.hedged, part.past)
            # 带母亲去了记忆门诊 … 医生说是轻度阿尔茨海默病: the diagnosis of who was taken
        elif ctx.person is not None:
            return  # (我爸…) 说是轻微脑梗: whose diagnosis is not said — maybe not the user's
    for m in compiled(_SAID).finditer(t):
        if m.group("no") == "不是":
            continue
        if names := conditions(m.group("c")):
            for name in names:
                found.say(part, "has_condition", name, bool(m.group("no")), 0.85, "condition")
            return
    if m := compiled(_BARE).match(t):
        for name in conditions(m.group("c")):
            found.say(part, "has_condition", name, False, 0.85, "condition")


def conditions(said: str) -> list[str]:
    """The conditions of 糖尿病加脑梗 / 高血压和糖尿病, each named whole, else none."""
    names = [condition(p) for p in re.split(r"加|和|、|还有|以及", said)]
    return names if all(names) else []
