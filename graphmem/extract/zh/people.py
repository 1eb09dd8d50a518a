"""People: names (我叫…, 我女朋友叫小雨), who a clause introduces (``_who``), pets."""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    USER,
    Context,
    Found,
    Part,
    match,
    search,
)
from graphmem.extract.text import strip_emoji
from graphmem.extract.vocab import (
    COUNT_ZH,
    PET_PREFIX_ZH,
    PET_ZH,
    REL_ZH,
    SURNAMES_ZH,
)
from graphmem.extract.zh.plans import _PET_WORDS
from graphmem.extract.zh.shape import _tags, heads, name_like
from graphmem.extract.zh.subjects import _HAN, _LEAD, _bare, _kin, she_or_he
from graphmem.extract.zh.work import _job_like


def _name(t: str, part: Part, ctx: Context, found: Found) -> None:
    """我叫李明, 叫我小陈就行, 我女朋友叫小雨, (我养了一只猫，)叫年糕, 我是李明."""
    if part.subjects is None:
        return
    value = None
    if m := match(rf"^(?:的?(?:中文|英文)?名字?)?叫(?:我)?"
                  rf"({_HAN}{{2,4}}?(?=$|[就吧啦哈呢在是的今住做从来]|\W)|[A-Za-z][A-Za-z'-]{{1,20}})",
                  t):
        value = _bare(m.group(1), 4)
    elif part.subjects == (USER,) and (
            m := match(rf"^是([{SURNAMES_ZH}]{_HAN}{{1,2}}|[A-Z][a-z]+)"
                       rf"(?:$|(?=今年|[一二两三四五六七八九十\d]+岁))", t)):
        # 我是李明, 我是Kevin (not 程序员), 我是沈惠芬今年七十三岁了 (not 是高血压: one word
        # jieba knows, and not as a name)
        said = m.group(1)
        one_word = len(tags := _tags(said)) == 1 and tags[0][1] not in ("nr", "nrfg", "eng")
        value = None if _job_like(said) or one_word else said
    elif part.subjects == (USER,) and part.subject_said and (
            m := match(rf"^(?:姓|的?全名是?|全名叫)({_HAN}{{1,4}}?)$", t)):
        value = m.group(1)  # 我姓张 (a surname is how the user is addressed), 全名欧阳靖
        if full := search(rf"姓{value}\s*({value}{_HAN}{{1,2}})(?=\s|$|[，,。！!])", ctx.sentence):
            value = full.group(1)  # 我姓马 马建军
    if value and re.match(r"叫(?!我)", _LEAD.sub("", found.evidence)) and not (
            part.subjects and (part.subjects[0] in _PET_WORDS or (
                part.subjects[0] in _KIN_WORDS and value not in _NOT_CALLED))):
        value = None  # 叫外卖吧: a clause that opens with 叫 names nobody — but the pet or
        # relative just said (我女儿今年上一年级 叫朵朵)
    if value and not name_like(value):
        value = None  # 老板老混着用
    if value and part.subjects == (USER,) and not part.subject_said and match(
            r"^的?(?:中文|英文)?名字", t) and (pets := re.findall(
            rf"{PET_PREFIX_ZH}(?:{PET_ZH})", ctx.sentence[:max(ctx.sentence.find(t), 0)])):
        pet = max(reversed(pets), key=len)  # 一只小橘猫 … 可以养猫了 名字叫芒果: whose name
        found.add(pet, "name", value, False, 0.85, "name")  # nobody says, the pet's said
        ctx.names[value.lower()] = pet  # before (the fullest word for it, else the last)
        return
    if value:
        found.say(part, "name", value, False, 0.9, "name")
        for subject in part.subjects:
            ctx.names[value.lower()] = subject
    if m := search(rf"叫({_HAN}{{2,3}}|[A-Z][a-z]+)的(?:人|女生|男生|女孩|男孩|朋友|同事|同学|"
                   rf"姑娘|小伙|阿姨|大哥|大姐)", t):
        ctx.person = m.group(1)  # 认识了一个叫Lisa的女生


_KIN_WORDS = frozenset(REL_ZH.replace("\\", "").split("|")) | {
    "妈妈", "爸爸", "姐姐", "妹妹", "哥哥", "弟弟"}
_NOT_CALLED = frozenset({"外卖", "车", "醒", "人", "救护车", "滴滴", "快递", "师傅"})


def _pets(t: str, part: Part, ctx: Context, found: Found) -> None:
    if part.subjects and part.subjects[0] in _PET_WORDS and search(
            r"^(?:上个月|上周|去年|前几天|昨天|今天|已经|刚)?(?:走了|去世了|死了|没了|离开了|去了?喵星|去了?汪星|"
            r"去天堂了)", t):
        found.add(USER, "has_pet", part.subjects[0], True, 0.85, "pet")  # 我们家狗狗上个月走了
        return
    m = search(rf"(?:养了|养着|家里?有|^有|新添了|添了|领养了|收养了|捡了|捡到|新养了|^店里有|"
               rf"^(?:家里|家)?(?:还|也)有|(?<![想要会])养(?=[^，,\s]{{0,3}}(?:{PET_ZH})(?:啦|了|呢|！|!|$))"
               rf"|^(?:我)?养的(?:那|这)?){COUNT_ZH}([\u4e00-\u9fff]{{0,2}}?{PET_PREFIX_ZH}(?:{PET_ZH}))"
               rf"(?:叫)?({_HAN}{{2,3}}|[A-Za-z]+)?", t)
    given = search(rf"给(他|她)养(?:了)?{COUNT_ZH}([\u4e00-\u9fff]{{0,2}}?(?:{PET_ZH}))", t)
    if given and (whose := she_or_he(given.group(1), ctx)):
        found.add(whose, "has_pet", given.group(2), False, 0.85, "pet")  # 给他养个仓鼠
        return
    if not m or part.subjects is None or part.past or search(
            r"想|打算|准备|要不要|能不能|没法|不能|不让|不敢|不许|同意", t) or (
            not heads(t[:m.start()])):
        return  # (想养只猫: a wish; 房东同意养狗: someone else's word)
    pet = m.group(1)
    found.say(part, "has_pet", pet, False, 0.85, "pet")
    name = m.group(2)
    if name and name_like(name) and not search(r"叫", t[:m.start(2)]) and not _tags(name)[0][
            1].startswith("nr"):
        name = None  # 一只橘猫今天…: no name unless 叫 or a name's shape
    if name and name_like(name):
        found.add(pet, "name", name, False, 0.9, "name")
        ctx.names[name.lower()] = pet


# A pet taken in, said apart from the verb: 救助站领的 一只小橘猫, 取名叫可乐 (its name).
_TAKEN_IN = re.compile(rf"(?:领养?|收养|买|抱|捡)(?:了|的|回来的?)\s*[^\s]{{0,8}}?\s*"
                       rf"(?:一|两)?(?:只|条)"
                       rf"([\u4e00-\u9fff]{{0,2}}?{PET_PREFIX_ZH}(?:{PET_ZH}))")
_NAMED = re.compile(rf"(?:取名|起名|起了个名字?|名字)(?:叫|为|是)?({_HAN}{{2,3}}|[A-Za-z]+)")


def pets_said(sentence: str, ctx: Context, found: Found) -> None:
    """A pet and its name said across a sentence's clauses: 昨天去救助站领的 一只小橘猫 …
    取名叫可乐 (the user's), 周末在花鸟市场买的 金丝熊 他取名叫芝麻 (the pet had just before)."""
    pet = None
    if (m := _TAKEN_IN.search(sentence)) and not search(r"想|打算|准备|朋友|同事", sentence):
        pet = m.group(1)
        found.add(USER, "has_pet", pet, False, 0.85, "pet")
    elif ctx.last is not None and ctx.last.predicate == "has_pet" and not ctx.last.negated:
        pet = ctx.last.value
    if pet and (m := _NAMED.search(sentence)) and name_like(m.group(1)):
        found.add(pet, "name", m.group(1), False, 0.85, "name")
        ctx.names[m.group(1).lower()] = pet


def _who(clause: str, ctx: Context, found: Found) -> None:
    """People introduced by name: 大家都叫我阿杰 (the user), 小林是我室友, 我有个同学叫陈默."""
    t = _LEAD.sub("", strip_emoji(clause).strip())
    m = search(rf"(?<!别)(?<!不要)(?:都|就|可以|你就|你可以)?叫我({_HAN}{{2,3}}?|[A-Za-z]+)"
               rf"(?=$|[就吧好哈啊呀，,。!！]|\W)", t)
    if m and not search(r"什么|啥|怎么", m.group(1)) and not match(r"^叫我", t) and (
            name_like(m.group(1))):  # (老王还)叫我去喝酒: no name
        # (a clause that opens with 叫我 is read with its part's subject)
        found.add(USER, "name", m.group(1), False, 0.85, "name")
        ctx.names[m.group(1).lower()] = USER
    # 老 + a surname is a nickname (老何, 老郑); 老板, 老师 are no one's name
    if m := match(rf"^(小{_HAN}|老[{SURNAMES_ZH}]|阿{_HAN}|阿[A-Za-z]+|[{SURNAMES_ZH}]{_HAN}{{1,2}}"
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
