"""Chinese: who a clause is about (``parts``) and its values cut clean (``clean``). A clause's
subject is what opens it: 我 / 我们 / 本人 (the user), 我妈妈 / 我爸妈 / 我和老公
(relatives, several at once), 我家狗狗 (a pet), 她 / 他 (the person last named, else
nobody). A clause that opens with none continues the previous clause's subject —
"我妈妈下个月过生日，她喜欢兰花，但是对花粉过敏" gives the mother both facts — unless it
reports someone else's words (大家都说…, 听说他…). Relatives named anywhere (给我爸买礼物)
are relations of the user, and 我同事小王 / 我女朋友叫小雨 name them."""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    USER,
    Context,
    Found,
    Part,
    match,
)
from graphmem.extract.text import is_hedged, is_past, is_reported, strip_emoji
from graphmem.extract.vocab import (
    KIN_ZH,
    PAIRS_ZH,
    PET_PREFIX_ZH,
    PET_ZH,
    REL_ZH,
    REL_ZH_SHORT,
)

_HAN = r"[\u4e00-\u9fff]"


_LEAD = re.compile(r"^(?:但是|但|不过|可是|而且|并且|所以说|所以|因为|其实|然后|另外|还有|对了|哦|"
                   r"嗯嗯|嗯|哈哈|好的|好了|只是|就是|反正|总之|那么|那|而|还是|说实话|老实说|"
                   r"顺便|哦不对|不对|大家好|你好|您好|嗨|哈喽)+[，,!！\s]*")


_ME = r"(?:我的|我|俺|偶|本人)"


# Whose relative: mine, or my family's (我们家宝宝 is the user's baby).
_MY_FAMILY = rf"(?:{_ME}|我们家的?|我家的?|咱家的?)"


# Words between "my" and a relative: 我最好的朋友, 我大学的室友, 我一个朋友 (not a name).
_KIN_MOD_ZH = (r"(?:(?:最好的|最好|很好的|好|亲|一个|一位|大学的?|高中的?|初中的?|小学的?|以前的?)"
               r"(?=[\u4e00-\u9fff]))?")


_NAME_AFTER_REL = re.compile(r"^(?:叫)?(小[\u4e00-\u9fff]|老[\u4e00-\u9fff]|阿[\u4e00-\u9fff]"
                             r"|阿[A-Za-z]+|[A-Z][a-z]+)(?![\u4e00-\u9fff]{0,1}[的们])")


# A pet's name right after it: 我的金鱼泡泡今天…, 家里那只边牧旺财又… (a name, then how it is).
_NAME_AFTER_PET = re.compile(r"^([\u4e00-\u9fff]{2}|[A-Z][a-z]+)(?=今天|昨天|最近|又|总是|老是|"
                             r"特别|很|已经|刚|也|把|被|每天|居然|突然|好像|一直|真|太)")


_HONORIFIC = ("阿姨|叔叔|老师|医生|大爷|大妈|奶奶|爷爷|总|哥|姐|师傅|大夫")


_BARE_KIN = re.compile(rf"(?:^|(?<=[跟和给陪带帮让替找问])|(?<=参加))({KIN_ZH})(?!的话)")


def _kin(word: str) -> tuple[str, ...]:
    return PAIRS_ZH.get(word, (word,))


def parts(clause: str, ctx: Context, carry: tuple[str, ...] | None,
          found: Found) -> list[Part]:
    """The clause's subject and the rest of it; relatives named anywhere in it become
    relations of the user on the way."""
    text = _LEAD.sub("", strip_emoji(clause).strip())
    for m in re.finditer(rf"{_MY_FAMILY}(?:和|跟)?{_KIN_MOD_ZH}"
                         rf"({REL_ZH}|{REL_ZH_SHORT})", text):
        for kin in _kin(m.group(1)):
            found.add(USER, "has_relation", kin, False, 0.9, "person")
    for m in _BARE_KIN.finditer(text):
        for kin in _kin(m.group(1)):
            found.add(USER, "has_relation", kin, False, 0.85, "person")
    subjects: tuple[str, ...] | None
    rest = text
    if m := match(rf"^{_ME}(?:和|跟)(?:我的?)?({REL_ZH}|{REL_ZH_SHORT})(?!的)(?:都|一起)?", text):
        subjects, rest = (USER, *_kin(m.group(1))), text[m.end():]
    elif m := (match(rf"^{_MY_FAMILY}{_KIN_MOD_ZH}({REL_ZH}|{REL_ZH_SHORT})",
                     text)
               or match(rf"^({REL_ZH})", text)):
        subjects, rest = _kin(m.group(1)), text[m.end():]
        if rest.startswith("的") and not rest.startswith("的话"):
            subjects = None  # 我妈妈的生日…: about something of hers
        else:
            ctx.person = subjects[0] if len(subjects) == 1 else ctx.person
            if len(subjects) == 1 and (named := _NAME_AFTER_REL.match(rest)):
                found.add(subjects[0], "name", named.group(1), False, 0.9, "name")
                ctx.names[named.group(1).lower()] = subjects[0]
                rest = rest[named.end():]
    elif m := match(rf"^(?:我们家|我家|咱家|我的|家里的?|我家的?)(?:那|这)?(?:只|条|个)?"
                    rf"{PET_PREFIX_ZH}({PET_ZH})", text):
        pet = m.group(1)
        found.add(USER, "has_pet", pet, False, 0.85, "pet")
        subjects, rest = (pet,), text[m.end():]
        if named := _NAME_AFTER_PET.match(rest):
            found.add(pet, "name", named.group(1), False, 0.85, "name")
            ctx.names[named.group(1).lower()] = pet
            rest = rest[named.end():]
    elif m := match(r"^(?:你|您)(?:可以|就|直接|以后|还是)?(?=(?:给我|跟我|找我|打我|发我))", text):
        return [Part((USER,), text[m.end():])]  # 你给我发短信吧: how to reach the user
    elif match(r"^(?:你|您)", text):
        return [Part(None, text)]  # what the user asks of the assistant
    elif m := match(rf"^([{_SURNAMES}](?:{_HONORIFIC}))", text):
        subjects, rest = (m.group(1),), text[m.end():]  # 刘阿姨对猫毛过敏
        ctx.meet(m.group(1))
    elif m := match(r"^(?:她|他)(?!们)", text):
        person = ctx.she_or_he(m.group(0))
        subjects, rest = ((person,) if person else None), text[m.end():]
    elif match(r"^我的", text):
        return [Part(None, text)]  # 我的老师…: someone of the user's the memory cannot name
    elif match(r"^(?:他们|她们|它们|他俩|她俩|大家|有人|有一个|其中|别人|人家)", text):
        return [Part(None, text)]  # 他们俩有一个不吃辣: one of several, or others — not the user
    elif m := match(r"^(?:我们|我|本人|偶|俺|咱们|咱)", text):
        subjects, rest = (USER,), text[m.end():]
    elif (m := match(rf"^({_HAN}{{2,3}}|[A-Z][a-z]+)", text)) and m.group(1).lower() in ctx.names:
        subjects, rest = (ctx.names[m.group(1).lower()],), text[m.end():]
    else:
        implicit = None if is_reported(text) else carry
        if (implicit is not None and text.startswith("叫") and ctx.last is not None
                and ctx.last.predicate == "has_pet"):
            implicit = (ctx.last.value,)  # 我养了一只猫，叫年糕
        return [Part(implicit, text, is_hedged(text), is_past(text))]
    if is_reported(rest):
        subjects = None
    return [Part(subjects, rest, is_hedged(text), is_past(text))]


_TRAIL = re.compile(r"(?:了|的|呢|吧|啊|呀|哦|啦|就行|就好|哈哈|哈|嘛|滴|而已|罢了|～|~|！|!|。)+$")


_LEAD_VERB = re.compile(r"^(?:吃|喝|看|听|玩|去|用|买|收到|养|追)")


def clean(value: str, limit: int = 16) -> str:
    value = _TRAIL.sub("", _LEAD_VERB.sub("", strip_emoji(value).strip()))
    value = value.strip(" ：:、，,")
    if not value or len(value) > limit or value[0] in "你您他她它的我":
        return ""
    return value


def _bare(value: str, limit: int = 16) -> str:
    """Trailing particles off, nothing else (plans and names keep their verbs); a Latin
    word ("Lucky", "Grace") may be longer than ``limit``."""
    value = _TRAIL.sub("", strip_emoji(value).strip()).strip(" ：:、，,")
    latin = bool(re.fullmatch(r"[A-Za-z][A-Za-z' -]{0,20}", value))
    return value if 0 < len(value) <= (24 if latin else limit) else ""


_SURNAMES = ("王李张刘陈杨黄赵周吴徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾"
             "肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏"
             "韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴"
             "莫孔向汤欧")


_TIME_WORD = (r"(?:今年|明年|后年|下半年|上半年|年底|年后|下个月|这个月|月底|下周|下星期|这周|周末|"
              r"明天|后天|以后|将来|毕业后|过完年|这个暑假|这个寒假|暑假|寒假|国庆|五一|春节|元旦|"
              r"过年|开春|年初)")


_TIME = rf"{_TIME_WORD}*"
