"""Tastes: likes and dislikes (喜欢, 讨厌, 最爱…), diets and foods avoided (不吃辣, 吃素),
allergies (对…过敏)."""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    Context,
    Found,
    Part,
    search,
)
from graphmem.extract.vocab import (
    CHANNEL_ZH,
    DIET_ZH,
)
from graphmem.extract.zh.shape import _tags, heads, nouns
from graphmem.extract.zh.subjects import _HAN, _TRAIL, clean

_LIKE = (r"(迷上了|爱上了|喜欢上了|沉迷于|沉迷|热爱|超爱|最爱|特别爱|很爱|讨厌|不喜欢|不太喜欢|"
         r"不是很喜欢|不怎么喜欢|不怎么爱|不太爱|不是很爱|不大爱|没那么爱|不爱|并不喜欢|最喜欢|喜欢|喜爱|偏爱|钟爱|(?:^|(?<=[都也还就最很超真级]))爱(?!人))")


_DISLIKE = frozenset({"讨厌", "不喜欢", "不太喜欢", "不是很喜欢", "不怎么喜欢", "不爱", "并不喜欢",
                      "不怎么爱", "不太爱", "不是很爱", "不大爱", "没那么爱"})


def _likes(t: str, part: Part, ctx: Context, found: Found) -> None:
    if m := search(rf"最喜欢的{_HAN}{{1,6}}是(.+)", t):
        _say_likes(part, found, m.group(1), False, 0.9)
    elif m := search(rf"无({_HAN})不欢", t):
        found.say(part, "likes", m.group(1), False, 0.9)
    elif m := search(rf"^({_HAN}{{2,6}}?)(?:我|也|都|早就|已经|真的|彻底|有点)*(?:被我)?"
                     rf"(?:喝|吃)(?:腻|够)了", t):
        _say_likes(part, found, m.group(1), True, 0.8)  # 冰美式也被我喝腻了: no longer
    elif m := search(rf"吃({_HAN}{{1,3}}?)(?:没在怕的|从来不怕|不在话下)", t):
        found.say(part, "likes", m.group(1), False, 0.85)  # 吃辣没在怕的
    elif m := search(r"每天(?:早上|晚上|中午)?都(?:要|会|得)?(?:来|喝|吃)(?:一|两)?"
                     r"(?:杯|碗|份|个|顿)?(.+)", t):
        _say_likes(part, found, m.group(1), False, 0.85)
    elif (m := search(_LIKE + r"(.*)", t)) and not search(rf"^(?:用|打|发|看)?({CHANNEL_ZH})",
                                                           m.group(2)) and not search(
            r"^(?:咋|干嘛|怎么|谁|啥|去不去|来不来|信不信|理不理)", m.group(2)) and heads(
            t[:m.start()]):  # 爱咋咋地; 学生娃都爱买盲盒 (the students')
        negated = m.group(1) in _DISLIKE or bool(search(_NOT_BEFORE, t[:m.start()]))
        said = _activity_of(m.group(2))
        if not clean(said) and not _TRAIL.sub("", said).strip("吃喝看听玩 ") and ctx.last and (
                ctx.last.predicate in {"likes", "dietary_restriction", "allergic_to"}):
            found.say(part, "likes", ctx.last.value, negated, 0.9)  # 他爱吃卤煮，我是真的不喜欢
        else:
            _say_likes(part, found, said, negated, 0.9)


# A like's negation said before its verb: 不怎么爱吃甜, 一点都不喜欢, 没那么爱.
_NOT_BEFORE = r"(?:不|没)(?:怎么|太|是很|是特别|大|那么|咋)?$|一点(?:都|也)不$|从来不$|并不$"


def _activity_of(said: str) -> str:
    """What follows the like verb, as an activity: 跟邻居打打小麻将 → 打小麻将."""
    said = re.sub(r"^(?:跟|和|陪)[\u4e00-\u9fff]{1,5}?(?:一起)?(?=[打下玩看跳去逛唱])", "", said)
    return re.sub(r"^([\u4e00-\u9fff])\1", r"\1", said)  # 打打 → 打


def _say_likes(part: Part, found: Found, said: str, negated: bool, confidence: float) -> None:
    said = re.sub(r"^(?:一)?点(?=[\u4e00-\u9fff]{2})", "", said)  # (喝)点茯茶: 茯茶
    for value in nouns(clean(said, limit=24), activity=True):
        found.say(part, "likes", value, negated, confidence)


def _food(t: str, part: Part, ctx: Context, found: Found) -> None:
    for word, diet in DIET_ZH.items():
        # (去吃素食, 素食餐厅: an outing or a place, no diet)
        if word in t and not search(rf"不{word}|去吃?{word}|{word}(?:餐厅|菜谱|店|馆)", t):
            when = search(rf"((?:初一十五|每周[一二三四五六日天]?|周[一二三四五六日天]|每月|"
                          rf"逢年过节|偶尔|有时候?)){word}", t) if word == "吃素" else None
            found.say(part, "diet", when.group(1) + "吃素" if when else diet, False, 0.9)
            break
    else:
        if m := search(r"(?<![A-Za-z])(vegan|vegetarian|keto|halal|kosher)(?![A-Za-z])", t, re.I):
            found.say(part, "diet", m.group(1).lower(), False, 0.9)
        elif (m := search(rf"(?:是|在|开始|坚持|改成|换成|采用|吃)({_HAN}{{2,4}}?)饮食", t)) and (
                m.group(1) not in {"健康", "正常", "日常", "平时", "合理", "均衡"}):
            found.say(part, "diet", m.group(1) + "饮食", False, 0.85)  # 地中海饮食
    _avoids(t, part, found)


# How a food or drink is avoided, its name before the verb or after it.
_AVOIDED_BEFORE = (  # (pattern, confidence): the food is group 1
    (r"^(?!从今天|今天起|从现在|从此|以后|现在)([\u4e00-\u9fffA-Za-z]{1,6}?)我?"
     r"(?:也|都|就|再也|早就|已经|彻底|完全|基本|根本|压根)*(?:不吃|不喝|不碰|不沾)了$", 0.85),
    (r"^(?:从今天起|今天起|从现在起|现在|已经)?把?(?!把)([\u4e00-\u9fff]{2,6}?)(?:也|都|已经|早就)?"
     r"戒了$", 0.85),
    (r"^([\u4e00-\u9fff]{2,6}?)我?(?:已经)?(?:[\u4e00-\u9fff0-9]{1,6})?没(?:沾|碰|喝|吃)(?:过)?"
     r"了$", 0.85),
    (r"^我?([\u4e00-\u9fff]{1,6}?)(?:一点|一口)(?:都|也)(?:不吃|吃不了|不能吃|不碰|碰不了|不能碰|受不了)",
     0.9),
    (r"([\u4e00-\u9fff]{1,6}?)一(?:吃|喝|碰)就(?:拉肚子|胃疼|肚子疼|难受|吐|不舒服|起疹子|长痘|头疼)",
     0.85),
)


def _avoids(t: str, part: Part, found: Found) -> None:
    """戒糖了, 奶茶也不喝了, 从今天起奶茶戒了, 二锅头我已经一个多月没沾了, 香菜一点都碰不了,
    牛奶一喝就拉肚子, 不吃辣 (only when 不吃 is the part's own: 脚不沾地 is not), 现在又能吃
    辣了 (no longer)."""
    if m := search(rf"^(?:现在|已经|从今年开始|开始)?戒(?!烟|指|了)({_HAN}{{1,3}}?)(?:了|$)", t):
        _say_avoids(part, found, m.group(1), False, 0.9)  # 戒糖了
        return
    for pattern, confidence in _AVOIDED_BEFORE:
        if m := search(pattern, t):
            _say_avoids(part, found, m.group(1), False, confidence)
            return
    # (not 不能吃坏肚子, 吃不饱: the verb's result, no food)
    m = search(r"(?:不吃|不能吃|吃不了|忌口|不碰|不可以吃|不喝|不能喝|喝不了|不沾)"
               r"(?![坏饱撑多胖完够])(.+)", t)
    if m and heads(t[:m.start()]):
        _say_avoids(part, found, m.group(1), False, 0.95)
    elif m := search(r"一点(.{1,6}?)都(?:不吃|吃不了|不能吃|不碰|受不了)", t):
        _say_avoids(part, found, m.group(1), False, 0.9)
    elif (m := search(r"(?:现在|又|开始|可以|能)吃(.+?)(?<![少多])了", t)) and (
            m.group(1) not in {"素", "斋"}):  # (吃辣少了: less of it, not again)
        _say_avoids(part, found, m.group(1), True, 0.85)


_MEALS = frozenset({"饭", "东西", "早饭", "午饭", "晚饭", "早餐", "午餐", "晚餐", "夜宵", "主食"})


def _say_avoids(part: Part, found: Found, said: str, negated: bool, confidence: float) -> None:
    said = re.split(r"只能|只|就|但是?|可以|还是", said)[0]  # 喝不了奶茶(只能喝燕麦奶)
    for value in nouns(clean(said, limit=24)):
        if value in _MEALS or value in {"烟", "香烟"}:
            continue  # 晚上不吃饭: a meal skipped, not a food avoided; 烟就戒了: no food
        if value in {"素", "斋", "素食"}:  # 我不吃素: not a vegetarian, no food avoided
            found.say(part, "diet", "素食", not negated, min(confidence, 0.9))
            continue
        found.say(part, "dietary_restriction", value, negated, confidence)


# 过敏 naming a thing, not saying one (过敏原, 过敏科, 过敏说明卡, 过敏那张纸)
_NOT_AN_ALLERGY = r"(?!原|源|科|门诊|说明|卡|那张|的那张|单)"


def _allergy(t: str, part: Part, ctx: Context, found: Found) -> None:
    """对虾过敏, 他有青霉素过敏, 芒果过敏, 过敏原是尘螨, 不对花粉过敏 (not), 乳糖不耐."""
    if m := search(r"过敏原是(.+)", t) or search(r"^(.+?)是(?:我的?|她的?|他的?)?过敏原", t):
        _say_allergy(part, found, m.group(1), False, 0.95)
    elif m := (search(rf"(不)?对(.+?)(不)?过敏{_NOT_AN_ALLERGY}", t)
               or search(rf"^(?:有)?(不)?(.+?)(不)?过敏{_NOT_AN_ALLERGY}", t)):
        if _SOMEONE.match(t[:m.start()]):
            return  # 那个姑娘对花生过敏: someone unnamed's
        _say_allergy(part, found, m.group(2), bool(m.group(1) or m.group(3)), 0.97)
    elif m := search(r"(?:^|我|她|他|有)([\u4e00-\u9fff]{2,4}?)不耐(?:受)?", t):
        _say_avoids(part, found, m.group(1), False, 0.9)  # 乳糖不耐: avoids it


# Someone said before what they are allergic to (同行的女生奇异果过敏, 有个同事对猫过敏): theirs,
# and nobody the memory can name.
_SOMEONE = re.compile(r"^(?:[\u4e00-\u9fff]{0,8}的|有个|有一个|一个|那个|这个|那位|这位|个|位)?"
                      r"(?:女生|男生|女孩子?|男孩子?|朋友|同事|同学|孩子|小孩|宝宝|老人|客人|室友|"
                      r"邻居|姑娘|小伙子?|大姐|大哥|阿姨|叔叔|大爷|大妈|老太太|老头|病人|患者|顾客|"
                      r"学生|家长)")
# What no one is allergic to by name: a kind of thing (医生说是食物过敏).
_NOT_ALLERGENS = frozenset({"食物", "东西", "食品", "什么", "啥", "很多", "好多", "一些", "有些"})


def _say_allergy(part: Part, found: Found, said: str, negated: bool, confidence: float) -> None:
    # 本来就鸡肉过敏, 从小就对牛奶过敏: how long or how surely, not what; 虽然我自己不过敏: none
    said = re.sub(r"^(?:虽然|但是|而且|因为|所以|不过|可是|反正|本来|原来|其实|从小|一直|天生|打小|"
                  r"早就|好像|可能|还在|正在|也|都|还|就)+", "", said)
    said = re.split(r"我|你|他|她|一[吃喝碰用]就|就|都|也", said)[0]  # 头孢类的药(我一碰就)过敏
    said = re.sub(r"^(?:吃|喝|碰|闻|用|接触)(?=[\u4e00-\u9fff]{2})", "", said)  # 吃海鲜过敏
    if _SOMEONE.match(said):
        return
    for value in nouns(clean(said, limit=24)):
        tags = _tags(value)
        if value in _NOT_ALLERGENS or tags[0][1] == "v" or all(f == "t" for _, f in tags):
            continue  # 带豆包去浙大儿院(过敏科): a deed; 当时: a time
        found.say(part, "allergic_to", value, negated, confidence)
