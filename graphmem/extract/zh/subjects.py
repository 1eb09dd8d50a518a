"""Chinese: who a clause is about (``parts``) and its values cut clean (``clean``). A clause's
subject is what opens it: 我 / 我们 / 本人 (the user), 我妈妈 / 我爸妈 / 我和老公
(relatives, several at once), 我家狗狗 (a pet), 她 / 他 (the person last named, else
nobody). A clause that opens with none continues the previous clause's subject —
"我妈妈下个月过生日，她喜欢兰花，但是对花粉过敏" gives the mother both facts — unless it
reports someone else's words (大家都说…, 听说他…). Relatives named anywhere (给我爸买礼物)
are relations of the user, and 我同事小王 / 我女朋友叫小雨 name them."""

from __future__ import annotations

import re
from functools import cache

from graphmem.extract.candidate import (
    USER,
    Context,
    Found,
    Part,
    match,
)
from graphmem.extract.en.subjects import NOT_NAMES
from graphmem.extract.text import is_hedged, is_past, is_reported, strip_emoji
from graphmem.extract.vocab import (
    FEMALE_KIN,
    KIN_ZH,
    MALE_KIN,
    PAIRS_ZH,
    PET_PREFIX_ZH,
    PET_ZH,
    REL_ZH,
    REL_ZH_SHORT,
    SURNAMES_ZH,
)
from graphmem.extract.zh.couples import colleague
from graphmem.extract.zh.shape import handed_over, name_like

_HAN = r"[\u4e00-\u9fff]"


_LEAD = re.compile(r"^(?:但是|但|不过|可是|而且|并且|所以说|所以|因为|其实|然后|另外|还有|对了|哦|"
                   r"嗯嗯|嗯|哈哈|好的|好了|只是|就是|反正|总之|那么|那|而|还是|说实话|老实说|"
                   r"顺便|哦不对|不对|大家好|你好|您好|嗨|哈喽|"
                   # the news announced ("跟你说我现在…", "同你讲 我…", "说个事 …"): the clause
                   # after is the speaker's own words, not reported speech
                   r"(?:跟|和|同)(?:你|您)(?:说|讲)(?:个事|件事|一下|个好玩的)?(?![的过了])|"
                   r"告诉(?:你|您)(?:个事|件事|一下)?(?![的过了])|说(?:个|件)(?:事|好玩的)|"
                   # English fillers typed before Chinese words: "btw 她吃素", "ok 我…"
                   r"(?i:btw|by the way|anyway|ok|okay|lol|also|and|but|so|oh|hmm|well)(?=\s))+"
                   r"[，,!！\s]*")


_ME = r"(?:我的|我|俺|偶|本人)"


# A child called by their order in the family: 我家老二 (the second), 我家老大.
_CHILD_BY_ORDER = r"^(老大|老二|老三|老四|老幺)(?![们板师])"


# Whose relative: mine, or my family's (我们家宝宝 is the user's baby).
_MY_FAMILY = rf"(?:{_ME}|我们家的?|我家的?|咱家的?)"


# Words between "my" and a relative: 我最好的朋友, 我大学的室友, 我一个朋友 (not a name).
_KIN_MOD_ZH = (r"(?:(?:最好的|最好|很好的|好|亲|一个|一位|大学的?|高中的?|初中的?|小学的?|以前的?)"
               r"(?=[\u4e00-\u9fff]))?")


# A name said as a name after a relative: 小名糯米, 大名叫林悦, 英文名叫Kevin.
_NAME_WORDS = "小名|大名|乳名|昵称|英文名|全名"
_NAME_WORD = re.compile(rf"^(?:{_NAME_WORDS})(?:是|叫)?([\u4e00-\u9fff]{{1,3}}?|[A-Za-z]+)"
                        rf"(?=$|[\s，,。！!~～]|今年|现在|才|刚|已经|也|{_NAME_WORDS})")
_NAME_AFTER_REL = re.compile(r"^(?:叫)?(小(?!名)[\u4e00-\u9fff]|老[\u4e00-\u9fff]|阿[\u4e00-\u9fff]"
                             r"|阿[A-Za-z]+|[A-Z][a-z]+)(?![\u4e00-\u9fff]{0,1}[的们])")


# What follows a name said right after a pet or a relative: when, or how it is.
_WHEN_OR_HOW = "今天|昨天|最近|又|总是|老是|特别|已经|刚|每天|居然|突然|好像|一直"


# A nickname right after a relative, then when or how (我儿子豆包今年九月上小学, 我女儿
# 糖糖最近…) — not what the relative has (我女儿成绩一直不错, 我儿子学校又…).
_NICKNAME_AFTER_KIN = re.compile(rf"^([\u4e00-\u9fff]{{2}})(?={_WHEN_OR_HOW}|今年|去年|明年|从小|"
                                 r"马上)")
# …or a name, then what they cannot eat (我儿子子豪芒果过敏, 我女儿糖糖不吃葱): a person's name
# as jieba knows one, or a doubled nickname (糖糖, 豆豆) — not a food (我儿子芒果过敏).
_NAME_THEN_TASTE = re.compile(r"^([\u4e00-\u9fff]{2})(?=对?[\u4e00-\u9fff]{1,4}?过敏|不吃|不能吃|"
                              r"吃不了|爱吃|最爱吃|特别爱吃)")
_OF_A_PERSON_TEXT = """成绩 学校 老师 班主任 同学 身体 学习 作业 考试 工作 公司 单位
    脾气 性格 个子 体重 身高 头发 眼睛 牙齿 皮肤 朋友 对象 房子 车子 手机 电脑 班上 幼儿园 婚礼
    生日 病情 血压 血糖 腰椎 膝盖 胃口 睡眠 视力 英语 数学 语文 钢琴 舞蹈 游泳
    基本 一般 平时 经常 通常 总是 几乎 偶尔 有时 常常 一向 向来 本来 原来 肯定 可能 应该"""
_OF_A_PERSON_WORDS = frozenset(_OF_A_PERSON_TEXT.split())


# A pet's name right after it: 我的金鱼泡泡今天…, 家里那只边牧旺财又… (a name, then how it is).
_NAME_AFTER_PET = re.compile(rf"^([\u4e00-\u9fff]{{2}}|[A-Z][a-z]+)(?={_WHEN_OR_HOW}|很|也|把|被|"
                             r"真|太)")


_HONORIFIC = ("阿姨|叔叔|老师|医生|大爷|大妈|奶奶|爷爷|总|哥|姐|师傅|大夫")


_BARE_KIN = re.compile(rf"(?:^|(?<=[跟和给陪带帮让替找问])|(?<=参加))({KIN_ZH})(?!的话)")


def _named_taste(rest: str) -> re.Match[str] | None:
    """``_NAME_THEN_TASTE``, when its two characters are a name (子豪, 糖糖), not a food."""
    m = _NAME_THEN_TASTE.match(rest)
    if m is None:
        return None
    word = m.group(1)
    if word in _NOT_NAMES:
        return None  # 我女儿天天不吃早饭: every day
    tags = _tags(rest)
    return m if word[0] == word[1] or (tags and tags[0] == (word, "nr")) else None


_KIN_WORD = re.compile(rf"(?:{REL_ZH}|{KIN_ZH})")  # a relative's word is no name (阿妈)


def _kin(word: str) -> tuple[str, ...]:
    return PAIRS_ZH.get(word, (word,))


def _name_said_after(word: str, rest: str, ctx: Context, found: Found) -> None:
    """A relative named right after the word for them, inside a clause (跟老公阿强去了趟成都,
    现在跟老伴顾建华住在十全街): the name is theirs. (At a clause's start ``_subject`` reads
    it.)"""
    kin = _kin(word)
    if len(kin) != 1:
        return
    named = person_named(rest, ctx)
    if not named and (latin := _NAME_AFTER_REL.match(rest)) and _names(latin.group(1), rest):
        named = latin.group(1)
    if named and named.lower() not in ctx.names and not _KIN_WORD.fullmatch(named):
        found.add(kin[0], "name", named, False, 0.9, "name")
        ctx.names[named.lower()] = kin[0]


def parts(clause: str, ctx: Context, carry: tuple[str, ...] | None,
          found: Found) -> list[Part]:
    """The clause's subject and the rest of it; relatives named anywhere in it become
    relations of the user on the way, and the last one named is who 她 / 他 is next."""
    text = _LEAD.sub("", strip_emoji(clause).strip())
    if handed_over(ctx.message, ctx.sentence):
        return [Part(None, text, subject_said=False)]  # a text to summarize: not the user's
    mentioned: list[str] = []
    gone = bool(re.search(r"去世|过世|离世|不在了|走了", text))  # 我奶奶去年去世了: no longer
    for m in re.finditer(rf"{_MY_FAMILY}(?:和|跟)?{_KIN_MOD_ZH}"
                         rf"({REL_ZH}|{REL_ZH_SHORT})", text):
        for kin in _kin(m.group(1)):
            if not gone:
                found.add(USER, "has_relation", kin, False, 0.9, "person")
        mentioned.append(m.group(1))
        if m.start() > 0:
            _name_said_after(m.group(1), text[m.end():], ctx, found)
    for m in _BARE_KIN.finditer(text):
        for kin in _kin(m.group(1)):
            found.add(USER, "has_relation", kin, False, 0.85, "person")
        mentioned.append(m.group(1))
        if m.start() > 0:
            _name_said_after(m.group(1), text[m.end():], ctx, found)
    if len(mentioned) == 1 and len(_kin(mentioned[0])) == 1 and not match(r"^(?:她|他)", text):
        ctx.meet(_kin(mentioned[0])[0])  # 五一跟男朋友去阳朔玩 … 他叫阿杰
    part = _subject(text, ctx, carry, found)
    if part.subjects == (USER,) and (said := match(r"^说(?=我)", part.text)):
        part = _subject(part.text[said.end():], ctx, carry, found)  # 我说我现在只喝茯茶
    elif said := _DIAGNOSED_WHO.match(part.text):  # 医生说我也有点高血压了: a diagnosis
        part = _subject(part.text[said.end():], ctx, carry, found)
    if part.subjects is not None and ((is_reported(part.text) and not _DIAGNOSED.match(
            part.text)) or (part.subject_said and match(r"^(?:说|讲|觉得|以为|怀疑)(?:是|像)",
                                                          part.text))):
        part = Part(None, part.text, part.hedged, part.past, part.subject_said)
        # (我爱人说是老年痴呆的前兆: her words of someone else, not her condition)
    return [part]


# "医生说是痛风", "县医院说是白内障": a diagnosis of the clause's subject, not someone's words.
_DIAGNOSED = re.compile(r"^(?:[\u4e00-\u9fff]{0,6}?(?:医生|大夫|医院|检查|报告|结果))?"
                        r"(?:说|讲|诊断)"
                        r"(?:是|为|了)")
# …or a diagnosis of whom the doctor names: 医生说我也有点高血压了, 大夫讲他是冠心病.
_DIAGNOSED_WHO = re.compile(r"^(?:[\u4e00-\u9fff]{0,6}?(?:医生|大夫|医院|检查|体检|报告|结果))"
                            r"(?:说|讲|话)(?=我|他|她|俺|额)")


# When something happened, said before who it happened to: 昨天豆豆…, 今天6月22号 闺女…
_WHEN = re.compile(r"^(?:今天|昨天|前天|明天|后天|最近|这两天|前两天|这几天|前几天|上周末?|这周末?|"
                   r"上个月|这个月|刚才|刚刚|那天|后来|现在|今年|去年|周末|早上|晚上|中午|下午|"
                   r"今早|今晚|昨晚|平时|一般|其实|终于|(?:这|上|下)?(?:个)?(?:礼拜|星期|周)"
                   r"[一二三四五六日天])+")


def _subject(text: str, ctx: Context, carry: tuple[str, ...] | None,
             found: Found) -> Part:
    hedged, past = is_hedged(text), is_past(text)
    if (when := _WHEN.match(text)) and when.end() < len(text) and (
            person_named(text[when.end():], ctx) or match(rf"^(?:{REL_ZH}|我|她|他)",
                                                          text[when.end():])):
        part = _subject(text[when.end():], ctx, carry, found)  # 昨天豆豆… is about 豆豆
        return Part(part.subjects, when.group(0) + part.text, hedged, past, part.subject_said)
    if diagnosed := _DIAGNOSED.match(text):
        text = text[diagnosed.end():]  # 医生说是痛风: what the subject has
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
        elif len(subjects) == 1:
            ctx.meet(subjects[0])
            named = person_named(rest, ctx)
            after = len(named)
            if said := _NAME_WORD.match(rest):  # 我女儿小名糯米: her name, said as one
                named, after = said.group(1), said.end()
            if _KIN_WORD.fullmatch(named):
                named, after = "", 0  # 我爸阿妈都来了: two relatives, no name
            latin = None if named else _NAME_AFTER_REL.match(rest)
            if latin and _names(latin.group(1), rest) and not _KIN_WORD.fullmatch(
                    latin.group(1)):
                named, after = latin.group(1), latin.end()  # 我同事Kevin, 我女朋友叫小雨
            elif not named and (nick := _NICKNAME_AFTER_KIN.match(rest) or _named_taste(rest)) \
                    and name_like(nick.group(1)) and nick.group(1) not in _OF_A_PERSON_WORDS \
                    and not _WHEN.fullmatch(nick.group(1)):  # (我妈最近老是…: no name)
                named, after = nick.group(1), nick.end()  # 我儿子豆包今年九月上小学
            if named:
                found.add(subjects[0], "name", named, False, 0.9, "name")
                ctx.names[named.lower()] = subjects[0]
                rest = rest[after:]
    elif m := match(rf"^(?:我们家|我家|咱家|我的|家里的?|我家的?)(?:那|这)?(?:只|条|个)?"
                    rf"{PET_PREFIX_ZH}({PET_ZH})", text):
        pet = m.group(1)
        found.add(USER, "has_pet", pet, False, 0.85, "pet")
        subjects, rest = (pet,), text[m.end():]
        if (named := _NAME_AFTER_PET.match(rest)) and name_like(named.group(1)) and not (
                _WHEN.fullmatch(named.group(1))):
            found.add(pet, "name", named.group(1), False, 0.85, "name")
            ctx.names[named.group(1).lower()] = pet
            rest = rest[named.end():]
    elif (home := match(r"^(?:我们家|我家|咱家|俺家)的?", text)) and (
            person_named(text[home.end():], ctx) or match(_CHILD_BY_ORDER, text[home.end():])):
        # 我家小雨对坚果过敏, 我家老二也是: the one of the family named, not the user
        if order := match(_CHILD_BY_ORDER, text[home.end():]):
            ctx.meet(order.group(1))
            return Part((order.group(1),), text[home.end() + order.end():], hedged, past)
        part = _subject(text[home.end():], ctx, carry, found)
        return Part(part.subjects, part.text, hedged, past, part.subject_said)
    elif m := match(r"^(?:你|您)(?:可以|就|直接|以后|还是)?(?=(?:给我|跟我|找我|打我|发我))", text):
        return Part((USER,), text[m.end():])  # 你给我发短信吧: how to reach the user
    elif match(r"^(?:你|您)", text):
        return Part(None, text, subject_said=False)  # what the user asks of the assistant
    elif _NEWCOMER.match(text):
        return Part(None, text, hedged, past, someone=True)  # 新师傅来了: not the user
    elif m := match(rf"^([{SURNAMES_ZH}](?:{_HONORIFIC}))", text):
        subjects, rest = (m.group(1),), text[m.end():]  # 刘阿姨对猫毛过敏
        ctx.meet(m.group(1))
    elif m := match(r"^(?:(她|他)(?!们)|(?i:(she|he)(?:'s|\s+is|\s+was)?)(?=\s|[\u4e00-\u9fff]))",
                    text):  # "he's 北京人": code-mixed chat says she / he in English too
        pronoun = m.group(1) or {"she": "她", "he": "他"}[m.group(2).lower()]
        person = she_or_he(pronoun, ctx)
        subjects, rest = ((person,) if person else None), text[m.end():].lstrip()
        if m.group(1) and match(rf"^(?:的)?(?:{REL_ZH})", rest):
            return Part(None, rest, hedged, past)  # 她女儿花生过敏: her daughter's, not hers
    elif match(r"^我的", text):
        return Part(None, text)  # 我的老师…: someone of the user's the memory cannot name
    elif match(r"^(?:他们|她们|它们|他俩|她俩|大家|有人|有一个|其中|别人|人家)", text):
        return Part(None, text)  # 他们俩有一个不吃辣: one of several, or others — not the user
    elif m := match(r"^(?:我们|我|本人|偶|俺|咱们|咱)", text):
        subjects, rest = (USER,), text[m.end():]
    elif (m := match(r"^叫([\u4e00-\u9fff]{2,3}|[阿小老]?[A-Z][a-z]+)(?:[，,\s]|$)", text)) and (
            introduces(_before(text, ctx))):
        name = m.group(1)  # (朋友给我介绍了个女生) 叫周雨: who the next clauses are about
        ctx.names[name.lower()] = name
        ctx.meet(name)
        return Part((name,), text[m.end():], hedged, past)
    elif name := person_named(text, ctx):
        who = ctx.entity_named(name)  # 李婷是我们学校数学老师, 豆豆芒果过敏: that person's
        rest = text[len(name):].lstrip()
        if who == name:
            who = colleague(name, rest, ctx, found) or who
        ctx.meet(who)
        subjects = (who,)
        if rest.startswith("的") and not rest.startswith("的话"):
            subjects = None
    elif _someone_is_topic(text):
        return Part(None, text, hedged, past)  # 带我的主管林工是潮汕人: 林工's, not the user's
    else:
        implicit = None if is_reported(text) and not _DIAGNOSED.match(text) else carry
        if (implicit is not None and text.startswith("叫") and ctx.last is not None
                and ctx.last.predicate == "has_pet"):
            implicit = (ctx.last.value,)  # 我养了一只猫，叫年糕
        return Part(implicit, text, hedged, past, subject_said=False)
    return Part(subjects, rest, hedged, past)


# Someone named inside a clause that has no subject of its own, as what the clause is
# about: "带我的主管林工是潮汕人", "新 boss Martin 是德国人", "听说隔壁王姐对花生过敏" — not
# after a word that makes them a companion or an object (跟同事小樊打羽毛球, 给我妈买药), nor
# after 这 / 那, which point back to whoever the clauses before were about (这孩子对芒果过敏).
_TOPIC = re.compile(
    rf"(?<![跟和带给陪约找问让对与同替帮请叫这那])(?:{_ME}|我们的?)?(?:新的?|以前的?)?\s*"
    rf"(?:(?:{REL_ZH}|boss|manager|colleague|friend|roommate|bf|gf)\s*"
    rf"([A-Z][a-z]{{1,11}}|[小老阿][\u4e00-\u9fff]|[\u4e00-\u9fff]工)?|([A-Z][a-z]{{1,11}}))\s*"
    rf"(?:也|还|都|一直|从小)?(?:是[\u4e00-\u9fff]{{1,6}}人|对[\u4e00-\u9fff]{{1,8}}过敏|吃素|"
    rf"不吃|不能吃|爱吃|喜欢|讨厌|是(?:个|一个|一名|一位)?[\u4e00-\u9fff]{{1,6}}(?:师|员|生|工|家))",
    re.IGNORECASE)


def _someone_is_topic(text: str) -> bool:
    """Does a clause without a subject of its own say something of someone it names?"""
    m = _TOPIC.search(text)
    if m is None:
        return False
    latin = m.group(2)
    return latin is None or latin.lower() not in NOT_NAMES


# Someone met whose name comes next: 朋友给我介绍了个女生 (叫周雨), 认识了个人 (叫许嘉言),
# 找了个大学生来店里帮忙 (叫张萌).
_INTRODUCED = re.compile(r"(?:介绍了?|认识了?|找了|招了|来了|新来了?|遇到了?|碰到了?|有)"
                         r"(?:个|一个|一位|位|个新)[\u4e00-\u9fff]{0,8}?"
                         r"(?:女生|男生|女孩子?|男孩子?|姑娘|小伙子?|人|朋友|同事|同学|大学生|学生|"
                         r"老师|阿姨|师傅|小哥|小姐姐|妹子|帅哥|美女|厨师|保姆|护工|月嫂|育儿嫂|"
                         r"司机|店员|服务员|学徒|员工|租客|室友|邻居|相亲对象)"
                         r"[\u4e00-\u9fff]{0,6}\s*$")


# …or who opens a clause as its subject, someone working for or living by the user, not a
# relative: 新师傅来了一礼拜了, 厨师找着了, 新来的保姆…
_NEWCOMER = re.compile(r"^(?:新来的|新招的|新请的|新|那个|这个)?(?:厨师|师傅|保姆|护工|月嫂|育儿嫂|"
                       r"店员|服务员|学徒|员工|租客|相亲对象)(?![证班课费岗活校学考资])")


def introduces(clause: str) -> bool:
    """Does the clause bring in someone new (店里新来了个师傅, 招了个厨师, 厨师找着了)? The
    clauses after it without a subject are about them — theirs when a name follows (叫刘强),
    nobody's the memory knows otherwise (姓何 兰州人: not the user's home town)."""
    return bool(_INTRODUCED.search(clause) or _NEWCOMER.match(clause.strip()))


def _before(text: str, ctx: Context) -> str:
    """What the sentence said before ``text``."""
    at = ctx.sentence.find(text)
    return ctx.sentence[:at] if at > 0 else ""


# Common words shaped like names (天天, 老人, 阿姨) that open clauses without naming anyone.
_NOT_NAMES_TEXT = """
    天天 刚刚 明明 常常 慢慢 好好 渐渐 人人 个个 偏偏 往往 仅仅 稍稍 悄悄 默默 统统
    大大 小小 多多 早早 久久 处处 时时 年年 月月 宝宝 狗狗 猫猫 娃娃 星星 谢谢 哈哈
    嘿嘿 呵呵 嘻嘻 嗯嗯 试试 看看 想想 聊聊 走走 等等 轻轻 静静 淡淡 满满 高高 长长
    短短 白白 乖乖 匆匆 纷纷 频频 连连 爸爸 妈妈 哥哥 姐姐 弟弟 妹妹 奶奶 爷爷 姥姥
    舅舅 叔叔 婆婆 公公 伯伯 姑姑 宝贝 老人 老师 老板 老公 老婆 老家 老妈 老爸 老乡
    老大 老二 老三 老是 老实 老早 小区 小孩 小时 小学 小心 小姐 小伙 小朋友 阿姨 阿婆
    阿公 老伴 老外 小伙伴 老年 老同学 老同事 老朋友"""
_NOT_NAMES = frozenset(_NOT_NAMES_TEXT.split())


def doubled_word(text: str) -> bool:
    """Does ``text`` open with a doubled character that names nobody: a cry (啊啊啊, 哈哈,
    呜呜) or a reduplicated word (歪歪扭扭, 高高兴兴)?"""
    if re.match(r"([啊哈呜嗯哦噢呵嘿诶哇嘻呃唉嘤])\1", text):
        return True
    first = _tags(text)[0][0]  # 歪歪扭扭 is one word (乐乐 / 天天往 are two)
    return bool(re.fullmatch(r"([\u4e00-\u9fff])\1([\u4e00-\u9fff])\2", first))


def person_named(text: str, ctx: Context) -> str:
    """The person's name ``text`` opens with: one named in this episode, 小X / 老X / 阿X,
    a full name jieba reads as one (李婷, 林国强, 马欣怡), or a doubled nickname (豆豆,
    糖糖) — when a predicate follows it; else ""."""
    for name in sorted(ctx.names, key=len, reverse=True):
        if text.lower().startswith(name) and len(name) >= 2:
            return text[:len(name)]
    if latin := _latin_name(text):
        return latin
    if not re.match(r"[\u4e00-\u9fff]{3}", text):
        return ""
    tags = _tags(text)
    m = match(r"^([\u4e00-\u9fff])\1", text)
    if m and m.group(0) not in _NOT_NAMES and not tags[0][1].startswith(
            ("d", "t", "m", "v", "y", "e", "o")) and not doubled_word(text):
        return m.group(0)
    first, flag = tags[0]
    if first in _NOT_NAMES or len(tags) < 2:
        return ""
    if flag.startswith("nr") and 2 <= len(first) <= 3 and (
            first[0] in SURNAMES_ZH or first[0] in "小老阿") and _follows(tags[1][0]):
        return first
    if (first in SURNAMES_ZH and len(tags) > 2 and len(tags[1][0]) == 2
            and tags[1][1] in {"i", "nr", "nrfg", "nz", "n", "a"} and _follows(tags[2][0])):
        return first + tags[1][0]  # 马欣怡: jieba cuts 马 / 欣怡; 段 / 志强
    return ""


_PET_WORDS = frozenset(re.findall(r"[\u4e00-\u9fff]+", PET_ZH))


def she_or_he(pronoun: str, ctx: Context) -> str | None:
    """Who 她 / 他 is (``Context.she_or_he``) — nobody when the person was met in an earlier
    message and someone else of the episode could be meant too (豆豆 and 老王 both met: "跟他
    聊了 他是真的不喜欢" is not surely either)."""
    person = ctx.she_or_he(pronoun)
    if person is None or ctx.person_said in ctx.message:
        return person
    other = MALE_KIN if pronoun == "她" else FEMALE_KIN
    rivals = [p for p in ctx.met if p != person and p.lower() not in other
              and p not in _PET_WORDS]
    return None if rivals else person


def _names(name: str, text: str) -> bool:
    """Is ``name`` (小周, 老王, 阿May, Kevin), opening ``text``, a name — not a word cut in two
    (老板老混着用: 老混 is no name)?"""
    if re.search(r"[A-Za-z]", name):
        return True
    tags = _tags(text)
    if tags[0][0] == name:
        return True
    return len(tags) > 1 and tags[0][0] + tags[1][0][:1] == name and (
        tags[1][1].startswith(("nr", "n")) and name_like(name))


# A name in Latin letters opening a Chinese clause (code-mixed chat): "Leo 对虾过敏",
# "Martin 是德国人", "Cindy 吃素" — before what is said of a person only ("Offer 拿到了",
# "Photoshop已经不用了" are things).
_LATIN_NAME = re.compile(r"([A-Z][a-z]{1,11})\s*(?=[\u4e00-\u9fff])")
_OF_A_PERSON = re.compile(r"(?:超级?|特别|很|最|也|还|一直|从来|从小|都|真的?)?"
                          r"(?:是|对|不吃|不喝|不爱|吃素|爱吃|爱喝|喜欢|讨厌|老家|今年|也是|还是|"
                          r"在[\u4e00-\u9fff]{1,8}(?:工作|上班|上学|读书))")


def _latin_name(text: str) -> str:
    m = _LATIN_NAME.match(text)
    if m is None or m.group(1).lower() in NOT_NAMES or not _OF_A_PERSON.match(text[m.end():]):
        return ""
    return m.group(1)


def _follows(word: str) -> bool:
    """Does a predicate open with ``word`` (a name is followed by what is said of it)?"""
    return not re.match(r"[的们和跟与、]", word)


@cache
def _tags(text: str) -> tuple[tuple[str, str], ...]:
    from graphmem.extract.zh.shape import _tags as tags

    return tags(text[:12])


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



_TIME_WORD = (r"(?:今年|明年|后年|下半年|上半年|年底|年后|下个月|这个月|月底|下周|下星期|这周|周末|"
              r"明天|后天|以后|将来|毕业后|过完年|这个暑假|这个寒假|暑假|寒假|国庆|五一|春节|元旦|"
              r"过年|开春|年初)")


_TIME = rf"{_TIME_WORD}*"
