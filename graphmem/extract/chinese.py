"""Chinese: who a clause is about (``parts``) and what it says of them (``chinese_facts``,
``clause_facts``).

A clause's subject is what opens it: 我 / 我们 / 本人 (the user), 我妈妈 / 我爸妈 / 我和老公
(relatives, several at once), 我家狗狗 (a pet), 她 / 他 (the person last named, else
nobody). A clause that opens with none continues the previous clause's subject —
"我妈妈下个月过生日，她喜欢兰花，但是对花粉过敏" gives the mother both facts — unless it
reports someone else's words (大家都说…, 听说他…). Relatives named anywhere (给我爸买礼物)
are relations of the user, and 我同事小王 / 我女朋友叫小雨 name them.
"""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    USER,
    Context,
    Found,
    Part,
    first_search,
    match,
    mentions,
    search,
)
from graphmem.extract.plans import dropped, plan
from graphmem.extract.text import is_hedged, is_past, is_reported, strip_emoji
from graphmem.extract.vocab import (
    CHANNEL_ZH,
    COUNT_ZH,
    DIET_ZH,
    JOB_FIELD_ZH,
    JOB_SUFFIX_ZH,
    KIN_ZH,
    PAIRS_ZH,
    PET_PREFIX_ZH,
    PET_ZH,
    PLACES_ZH,
    REL_ZH,
    REL_ZH_SHORT,
    TOOL_ZH,
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


# -- values ------------------------------------------------------------------------------

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


# -- rules -------------------------------------------------------------------------------

_SURNAMES = ("王李张刘陈杨黄赵周吴徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾"
             "肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏"
             "韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴"
             "莫孔向汤欧")
_TIME_WORD = (r"(?:今年|明年|后年|下半年|上半年|年底|年后|下个月|这个月|月底|下周|下星期|这周|周末|"
              r"明天|后天|以后|将来|毕业后|过完年|这个暑假|这个寒假|暑假|寒假|国庆|五一|春节|元旦|"
              r"过年|开春|年初)")
_TIME = rf"{_TIME_WORD}*"
_NOT_ORIGIN_TEXT = """
    好 坏 个 一个 男 女 老实 大 小 年轻 什么 哪里 外地 本地 中国 好多 这种 那种
    文化 有钱 穷 普通 成年 聪明 急性子 慢性子"""
_NOT_ORIGIN = frozenset(_NOT_ORIGIN_TEXT.split())


def chinese_facts(part: Part, ctx: Context, found: Found) -> None:
    t = part.text
    for rule in (_name, _likes, _food, _allergy, _home, _origin, _work, _study, _pets,
                 _plans, _channels, _tools):
        rule(t, part, ctx, found)


def _name(t: str, part: Part, ctx: Context, found: Found) -> None:
    """我叫李明, 叫我小陈就行, 我女朋友叫小雨, (我养了一只猫，)叫年糕, 我是李明."""
    if part.subjects is None:
        return
    value = None
    if m := match(rf"^(?:的?(?:中文|英文)?名字?)?叫(?:我)?"
                  rf"({_HAN}{{2,4}}?(?=$|[就吧啦哈呢在是的今住做从来]|\W)|[A-Za-z][A-Za-z'-]{{1,20}})",
                  t):
        value = _bare(m.group(1), 4)
    elif part.subjects == (USER,) and (m := match(rf"^是([{_SURNAMES}]{_HAN}{{1,2}}|[A-Z][a-z]+)$",
                                                  t)):
        value = None if _job_like(m.group(1)) else m.group(1)  # 我是李明, 我是Kevin (not 程序员)
    elif part.subjects == (USER,) and (
            m := match(rf"^(?:姓|的?全名是?|全名叫)({_HAN}{{1,4}}?)$", t)):
        value = m.group(1)  # 我姓张 (a surname is how the user is addressed), 全名欧阳靖
    if value and part.subjects == (USER,) and re.match(r"叫(?!我)", _LEAD.sub("", found.evidence)):
        value = None  # 叫外卖吧: a clause that opens with 叫 names nobody
    if value:
        found.say(part, "name", value, False, 0.9, "name")
        for subject in part.subjects:
            ctx.names[value.lower()] = subject
    if m := search(rf"叫({_HAN}{{2,3}}|[A-Z][a-z]+)的(?:人|女生|男生|女孩|男孩|朋友|同事|同学|"
                   rf"姑娘|小伙|阿姨|大哥|大姐)", t):
        ctx.person = m.group(1)  # 认识了一个叫Lisa的女生


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


_MOVED = rf"搬(?:到|去|来|回)了?({_HAN}{{2,6}}?)(?:市)?(?:了|$)"
_SETTLED = (rf"在({_HAN}{{2,4}}?)(?:打拼|生活|定居)", r"base在([\u4e00-\u9fffA-Za-z]{2,8})")


_STAYED = (rf"^(?:现在|目前|已经)?在({_HAN}{{2,4}}?)(?:待了|呆了|住了|生活了|待过|住过)"
           rf"(?:[一二两三四五六七八九十几半多\d]+)(?:年|个月)",
           rf"(?:^|(?<=[，,]))(?:坐标|人在|现居|定居|base(?:在)?\s*)({_HAN}{{2,6}}?)(?:[，,。]|$)",
           rf"在({_HAN}{{2,4}}?)(?:找了|租了|买了)(?:个|一个|一套|套|间)?(?:房子?|两居|三居|一居|"
           rf"公寓|单间|房间)")


def _home(t: str, part: Part, ctx: Context, found: Found) -> None:
    """住在上海 (不住在北京了: no longer), 上周搬到上海了 (a move done; 下个月搬去广州 is a
    plan), 在深圳打拼, base在西雅图, 在上海工作, 在长沙待了五年, 坐标西安, 人在新加坡,
    回老家宜昌了 (home and origin), (我们)在成都 (a known place, said alone)."""
    if m := search(rf"(不)?住在({_HAN}{{2,8}}?)(?:市|区|了|$)", t):
        found.say(part, "lives_in", m.group(2), bool(m.group(1)), 0.85, "place")
        return
    if m := search(rf"回(?:到)?老家({_HAN}{{2,4}}?)(?:了|$|，)", t):
        found.say(part, "lives_in", m.group(1), False, 0.8, "place")
        found.say(part, "is_from", m.group(1), False, 0.8, "place")
        return
    m = first_search(_STAYED, t) or first_search(_SETTLED, t)
    if m is None and (here := match(rf"^(?:现在|目前|如今)?(?:一个人|人)?在({_HAN}{{2,4}}?)"
                                    rf"(?:市|区)?(?:做|当|读|打工|创业|$)", t)) and (
            here.group(1) in PLACES_ZH or t.endswith(("市", "区"))):
        m = here
    if m is None and (moved := search(_MOVED, t)) and search(
            r"了|刚|已经|上周|上个月|去年|前几天|最近", t) and not search(
            r"准备|打算|计划|要搬|下个月|下周|明年", t):
        m = moved
    if m is None and (work := search(rf"(?<![现正实存])在({_HAN}{{2,4}}?)(?:工作|上班)", t)) and (
            work.group(1) in PLACES_ZH):
        m = work
    if m is not None:
        found.say(part, "lives_in", m.group(1), False, 0.85, "place")


_ORIGIN = (rf"老家(?:是|在)({_HAN}{{2,6}}?)(?:的|人|$)", rf"来自({_HAN}{{2,6}})",
           rf"(?:^是?在?|在)({_HAN}{{2,4}}?)(?:出生|长大)")


def _origin(t: str, part: Part, ctx: Context, found: Found) -> None:
    """老家是安徽的, 是潮汕人, 哈尔滨长大的, 在美国长大, 我是广东的 (a known place),
    土生土长的重庆妹儿; 不是北京人 (not from there)."""
    m = first_search(_ORIGIN, t) or search(
        rf"土生土长的?({_HAN}{{2,4}}?)(?:人|妹儿|妹子|姑娘|小伙|娃|$)", t)
    if m is None and (said := search(rf"(?<![老总还就可但于只要真倒算像或硬])(不)?是"
                                     rf"(?![被把给让])({_HAN}{{2,4}}?)人", t)) and (
            said.group(2) not in _NOT_ORIGIN) and not re.match(r"[我你他她这那一每谁个半]",
                                                               said.group(2)):
        found.say(part, "is_from", said.group(2), bool(said.group(1)), 0.85, "place")
        return
    if m is None and (said := search(rf"^是({_HAN}{{2,3}})的", t)) and (
            said.group(1) in PLACES_ZH):
        m = said
    if m is None and (said := match(rf"^({_HAN}{{2,3}})人$", t)) and (
            said.group(1) in PLACES_ZH):
        m = said  # 我是90后，福建人: a known place, said alone after a comma
    if m is not None:
        found.say(part, "is_from", m.group(1), False, 0.85, "place")


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


def _pets(t: str, part: Part, ctx: Context, found: Found) -> None:
    if part.subjects and part.subjects[0] in _PET_WORDS and search(
            r"^(?:上个月|上周|去年|前几天|昨天|今天|已经|刚)?(?:走了|去世了|死了|没了|离开了|去了?喵星|去了?汪星|"
            r"去天堂了)", t):
        found.add(USER, "has_pet", part.subjects[0], True, 0.85, "pet")  # 我们家狗狗上个月走了
        return
    m = search(rf"(?:养了|养着|家里?有|^有|新添了|添了|领养了|收养了|捡了|捡到|新养了){COUNT_ZH}"
               rf"{PET_PREFIX_ZH}({PET_ZH})(?:叫({_HAN}{{2,3}}|[A-Za-z]+))?", t)
    if not m or part.subjects is None or part.past:
        return
    pet = m.group(1)
    found.say(part, "has_pet", pet, False, 0.85, "pet")
    if m.group(2):
        found.add(pet, "name", m.group(2), False, 0.9, "name")
        ctx.names[m.group(2).lower()] = pet


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


# 用微信, 发邮件, 加我微信: a channel; 打电话, 看手机 only when said as a preference (只会打电话,
# 打我电话, 打手机 alone) — "在楼梯间打电话", "一看手机" are things done, not channels.
_CHANNEL = (rf"(?P<neg>别|不要|不想|不喜欢|不愿意|不会|不用|不|没)?(?:再)?"
            rf"(?:(?:用|通过|走|加|发到|发|联系|找)我?的?|找我(?:打|发|用)"
            rf"|(?:(?<=^)|(?<=[只都就直接好是请要会欢爱别]))(?:打|看|回)我?的?|(?:打|看|回)我的?)"
            rf"(?P<ch>{CHANNEL_ZH})|(?P<on>{CHANNEL_ZH})(?:上(?:说|聊|找|联系)|(?:找我|联系我|"
            rf"最快|最方便|比较快|比较方便))"
            rf"|(?P<off>{CHANNEL_ZH})(?:消息)?我?(?:不怎么|很少|基本不|不太|几乎不|从来不|不)"
            rf"(?:看|回|用|上)")


def _channels(t: str, part: Part, ctx: Context, found: Found) -> None:
    for m in re.finditer(_CHANNEL, t):
        value = m.group("ch") or m.group("on") or m.group("off")
        found.say(part, "uses_channel", value, bool(m.group("neg") or m.group("off")), 0.9,
                  "channel")


def clause_facts(clause: str, ctx: Context, found: Found, carry: tuple[str, ...] | None) -> None:
    """Rules whose subject the words themselves say: "过敏的是我弟弟" (the fact just denied
    belongs to the brother); "巧克力除外" (the exception to a dislike is a like)."""
    _budget(clause, ctx, found)
    _who(clause, ctx, found)
    last = ctx.last
    if last is None:
        return
    m = search(rf"^(?:但是?|不过|可是)?({_HAN}{{1,6}}?)(?:可以吃|可以喝|可以|没事|没问题|"
               rf"不过敏|能吃|还行|倒是可以|倒没事)(?:的|吧|啊)?$", clause)
    if m and not last.negated and (
            last.predicate in {"allergic_to", "dietary_restriction"}) and m.group(1) not in {
            "其他", "别的", "其它", "都", "这个", "那个"}:
        found.add(last.entity, last.predicate, m.group(1), True, last.confidence)  # 但姜可以
        return
    if (m := search(rf"^(?:过敏|不吃|喜欢|讨厌)的(?:人)?是(?:我的?)?({REL_ZH}|{REL_ZH_SHORT})",
                    clause)) and last.negated:
        for kin in _kin(m.group(1)):
            found.add(kin, last.predicate, last.value, False, last.confidence)
    elif (m := search(rf"^(?:但是?)?({_HAN}{{1,8}})除外", clause)) and last.negated and (
            last.predicate == "likes"):
        found.add(last.entity, "likes", m.group(1), False, last.confidence)


def _who(clause: str, ctx: Context, found: Found) -> None:
    """People introduced by name: 大家都叫我阿杰 (the user), 小林是我室友, 我有个同学叫陈默."""
    t = _LEAD.sub("", strip_emoji(clause).strip())
    m = search(rf"(?<!别)(?<!不要)(?:都|就|可以|你就|你可以)?叫我({_HAN}{{2,3}}?|[A-Za-z]+)"
               rf"(?=$|[就吧好哈啊呀，,。!！]|\W)", t)
    if m and not search(r"什么|啥|怎么", m.group(1)) and not match(r"^叫我", t):
        # (a clause that opens with 叫我 is read with its part's subject)
        found.add(USER, "name", m.group(1), False, 0.85, "name")
        ctx.names[m.group(1).lower()] = USER
    if m := match(rf"^(小{_HAN}|老{_HAN}|阿{_HAN}|阿[A-Za-z]+|[{_SURNAMES}]{_HAN}{{1,2}}"
                  rf"|[A-Z][a-z]+)是我的?({REL_ZH})", t):
        rel = _kin(m.group(2))[0]
        found.add(USER, "has_relation", rel, False, 0.9, "person")
        found.add(rel, "name", m.group(1), False, 0.9, "name")
        ctx.names[m.group(1).lower()] = rel
        ctx.meet(rel)
    elif m := search(rf"我有(?:个|一个|一位|位|个好)({REL_ZH})(?:叫({_HAN}{{2,3}}|[A-Za-z]+))?", t):
        rel = _kin(m.group(1))[0]
        found.add(USER, "has_relation", rel, False, 0.9, "person")
        if m.group(2):
            found.add(rel, "name", m.group(2), False, 0.9, "name")
            ctx.names[m.group(2).lower()] = rel
        ctx.meet(rel)


_PET_NAMED = re.compile(rf"({_HAN}{{2,3}}|[A-Z][a-z]+)[（(](?:我家|我们家|我的)的?(?:那只|这只)?"
                        rf"{PET_PREFIX_ZH}({PET_ZH})(?:[）)]|$)")


def question_facts(clause: str, ctx: Context, found: Found) -> None:
    """What a question still says: (我预算不多，)五千以内的笔记本有推荐吗."""
    _budget(clause, ctx, found)


def sentence_facts(sentence: str, ctx: Context, found: Found) -> None:
    """What a whole sentence says across its clauses: 煤球（我家黑猫）…"""
    if m := _PET_NAMED.search(strip_emoji(sentence)):
        found.add(USER, "has_pet", m.group(2), False, 0.85, "pet")
        found.add(m.group(2), "name", m.group(1), False, 0.85, "name")
        ctx.names[m.group(1).lower()] = m.group(2)


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
    found.add(_kin(owner.group(1))[0] if owner else ctx.event or USER, "budget", amount, False,
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
    """我平时画图用Figma; 现在用随手记; 我什么都在Notion里记; Photoshop已经不用了 (no longer)."""
    for tool, negated in mentions(_TOOL_SAID, t, lambda tool: not re.fullmatch(
            CHANNEL_ZH, tool, re.I) and tool.lower() not in ctx.names):
        found.say(part, "uses_tool", tool, negated, 0.8, "tool")
