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
from graphmem.extract.zh.subjects import _HAN, _TRAIL, clean

_LIKE = (r"(迷上了|爱上了|喜欢上了|沉迷于|沉迷|热爱|超爱|最爱|特别爱|很爱|讨厌|不喜欢|不太喜欢|"
         r"不是很喜欢|不怎么喜欢|不爱|并不喜欢|最喜欢|喜欢|喜爱|偏爱|钟爱|(?:^|(?<=[都也还就最很超真级]))爱(?!人))")


_DISLIKE = frozenset({"讨厌", "不喜欢", "不太喜欢", "不是很喜欢", "不怎么喜欢", "不爱", "并不喜欢"})


def _likes(t: str, part: Part, ctx: Context, found: Found) -> None:
    if m := search(rf"最喜欢的{_HAN}{{1,6}}是(.+)", t):
        found.say(part, "likes", clean(m.group(1)), False, 0.9)
    elif m := search(rf"无({_HAN})不欢", t):
        found.say(part, "likes", m.group(1), False, 0.9)
    elif m := search(rf"吃({_HAN}{{1,3}}?)(?:没在怕的|从来不怕|不在话下)", t):
        found.say(part, "likes", m.group(1), False, 0.85)  # 吃辣没在怕的
    elif m := search(r"每天(?:早上|晚上|中午)?都(?:要|会|得)?(?:来|喝|吃)(?:一|两)?"
                     r"(?:杯|碗|份|个|顿)?(.+)", t):
        found.say(part, "likes", clean(m.group(1)), False, 0.85)
    elif (m := search(_LIKE + r"(.*)", t)) and not search(rf"^(?:用|打|发|看)?({CHANNEL_ZH})",
                                                           m.group(2)) and not search(
            r"^(?:咋|干嘛|怎么|谁|啥|去不去|来不来|信不信|理不理)", m.group(2)):  # 爱咋咋地
        value = clean(m.group(2))
        if not value and not _TRAIL.sub("", m.group(2)).strip("吃喝看听玩 ") and ctx.last:
            value = ctx.last.value  # 我男朋友特别爱吃卤煮，我是真的不喜欢
        if value:
            found.say(part, "likes", value, m.group(1) in _DISLIKE, 0.9)


def _food(t: str, part: Part, ctx: Context, found: Found) -> None:
    for word, diet in DIET_ZH.items():
        if word in t and not search(rf"不{word}|{word}(?:餐厅|菜谱|店)", t):
            found.say(part, "diet", diet, False, 0.9)
            break
    else:
        if m := search(r"(?<![A-Za-z])(vegan|vegetarian|keto|halal|kosher)(?![A-Za-z])", t, re.I):
            found.say(part, "diet", m.group(1).lower(), False, 0.9)
        elif (m := search(rf"(?:是|在|开始|坚持|改成|换成|采用|吃)({_HAN}{{2,4}}?)饮食", t)) and (
                m.group(1) not in {"健康", "正常", "日常", "平时", "合理", "均衡"}):
            found.say(part, "diet", m.group(1) + "饮食", False, 0.85)  # 地中海饮食
    if m := search(rf"^(?:现在|已经|从今年开始|开始)?戒(?!烟|指|了)({_HAN}{{1,3}}?)(?:了|$)", t):
        found.say(part, "dietary_restriction", m.group(1), False, 0.9)  # 戒糖了
    elif m := search(r"^([\u4e00-\u9fffA-Za-z]{1,6}?)(?:也|都|就|再也)?不(?:吃|喝)了$", t):
        found.say(part, "dietary_restriction", clean(m.group(1)), False, 0.85)  # 奶茶也不喝了
    elif m := search(r"([\u4e00-\u9fff]{1,6}?)一(?:吃|喝|碰)就(?:拉肚子|胃疼|肚子疼|难受|吐|不舒服|"
                     r"起疹子|长痘|头疼)", t):
        found.say(part, "dietary_restriction", clean(m.group(1)), False, 0.85)  # 牛奶一喝就拉肚子
    elif m := search(r"(?:不吃|不能吃|吃不了|忌口|不碰|不可以吃|不喝|不能喝|喝不了|不沾)(.+)", t):
        found.say(part, "dietary_restriction", clean(m.group(1)), False, 0.95)
    elif m := search(r"一点(.{1,6}?)都(?:不吃|吃不了|不能吃|不碰|受不了)", t):
        found.say(part, "dietary_restriction", clean(m.group(1)), False, 0.9)
    elif (m := search(r"(?:现在|又|开始|可以|能)吃(.+?)了", t)) and m.group(1) not in {"素", "斋"}:
        found.say(part, "dietary_restriction", clean(m.group(1)), True, 0.85)


def _allergy(t: str, part: Part, ctx: Context, found: Found) -> None:
    if m := search(r"过敏原是(.+)", t) or search(r"^(.+?)是(?:我的?|她的?|他的?)?过敏原", t):
        found.say(part, "allergic_to", clean(m.group(1)), False, 0.95)
    elif m := (search(r"(不)?对(.+?)(不)?过敏(?!原)", t)
               or search(r"^(?:有)?(不)?(.+?)(不)?过敏(?!原)", t)):
        found.say(part, "allergic_to", clean(m.group(2)), bool(m.group(1) or m.group(3)), 0.97)
