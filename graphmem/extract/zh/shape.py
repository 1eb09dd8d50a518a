"""Chinese chat as people type it: clauses without punctuation (``clauses``) and values cut
to the shape of what they name (``noun``, ``place``, ``activity``).

People typing to an assistant run clauses together with spaces instead of commas
("我在拾光科技做后端 主要负责订单系统"), and a rule that reads to the end of its clause then
takes in the rest of the message ("猫 我预算人均200以内"). A clause here ends at
punctuation, at a space next to a Chinese character, and before 但是 / 然后 / 不过 / 可是.

A value is checked against its kind with jieba's part-of-speech tags: what a person likes,
avoids or is allergic to is a noun phrase (or an activity), with no pronoun, adverb,
particle or conjunction in it and no verb or number at its end — "就是太贵", "也行",
"那边有", "辣也难受" are clause remnants, not values. "那种 / 那些 / 之类的" are dropped
("汪曾祺那种散文" → 汪曾祺散文); "A和B" is two values.
"""

from __future__ import annotations

import re
from functools import lru_cache

from graphmem.extract.text import clauses as punctuated
from graphmem.extract.text import strip_emoji
from graphmem.extract.vocab import SURNAMES_ZH

_HAN = r"[\u4e00-\u9fff]"
# A space next to a Chinese character ends a clause; "TI-RADS 4a类" keeps its space.
_SPACE = re.compile(rf"(?<={_HAN})\s+|\s+(?={_HAN})|(?<=[！!？?。~～])\s+")
# Connectives open a new clause: 但是, 然后, 不过 (not 不过敏, 过不过来), 可是.
_CONNECTIVE = re.compile(rf"(?<={_HAN})(?=但是|然后|不过(?![敏来去])|可是)")
# Dictated or typed without a stop, one statement runs into the next after its 了 or 的: "今年
# 七十三岁了以前在…当校长…退休的现在跟老伴…住在…". A time or a new topic after 了 / 的 opens a
# clause in a long run (RUN_ON characters or more), and so do a new matter (还有一件事, 另外,
# 对了) and a doctor's words (医生说) after anything.
_RUN_ON_BREAK = re.compile(r"(?<=\w{3}[了的])(?=现在|以前|后来|今年|去年|明年|前两天|"
                           r"上个月|下个月|上礼拜|上周|还有|另外|对了|我(?![们的])|俺|额(?!度))"
                           # …and after anything, a new matter or a doctor's words
                           r"|(?<=\w{3})(?=还有一件事|还有件事|还有个事|另外|对了|(?:医生|大夫)(?:说|讲))")
RUN_ON = 16


# A name in Latin letters before Chinese words ("Martin 是德国人", "boss Martin 是德国人") or
# an English she / he ("dinner he's 北京人"), at the end of a Latin run: it opens that clause.
_LATIN_OPENER = re.compile(r"^(?:(?i:boss|manager|colleague|friend|roommate|bf|gf)\s+)?"
                           r"[A-Z][a-z]{1,11}$|(?:^|(?<=\s))(?i:she|he)(?:'s|\s+is|\s+was)?$")


def clauses(sentence: str) -> list[str]:
    """The clauses of a Chinese sentence: punctuation, spaces and connectives end them, and
    in a long run without them, a time or a new topic after 了 / 的 (``_RUN_ON_BREAK``)."""
    out: list[str] = []
    for clause in punctuated(sentence):
        for piece in _SPACE.split(clause):
            for part in _CONNECTIVE.split(piece):
                pieces = _RUN_ON_BREAK.split(part) if len(part) >= RUN_ON else [part]
                out.extend(p.strip() for p in pieces if p.strip())
    joined: list[str] = []
    for clause in out:
        if joined and re.match(_HAN, clause) and (
                opener := _LATIN_OPENER.search(joined[-1])):
            before = joined[-1][:opener.start()].strip()  # "dinner he's": "he's" opens
            joined[-1:] = [*([before] if before else []), f"{opener.group(0)} {clause}"]
        else:
            joined.append(clause)
    return joined


# -- the shape of a value -----------------------------------------------------------------

_FILLER = re.compile(r"那种|这种|那些|这些|之类的?|什么的|啥的|一类的?|这类|那类|类型的|系列")
_TRAIL = re.compile(r"(?:的|了|呢|吧|啊|呀|哦|啦|嘛|哈+|而已|就行|就好|～|~|！|!|。)+$")
# Tags no value holds anywhere: pronouns (r), adverbs (d), particles (u, y), prepositions
# (p), conjunctions (c), onomatopoeia / punctuation (o, x, w), question words.
_NEVER = ("r", "d", "u", "y", "p", "c", "o", "x", "w", "e")
_NEVER_WORDS = frozenset({"啥", "什么", "怎么", "哪", "哪里", "多少", "几", "谁", "咋", "咋办",
                          "有点", "太", "也", "都", "就", "还", "很", "超", "挺", "不", "没", "别"})
# How much (好焦虑, 膝头好痛): a feeling said, not a condition or a place.
INTENSIFIERS = frozenset({"好", "很", "超", "太", "特别", "有点", "挺", "蛮", "巨", "贼", "非常",
                          "超级"})
# Characters no short value holds: pronouns, question words, adverbs, particles.
_JUNK = re.compile(r"[啥么咋我你他她它也都就还很太了呢吧啊嘛呀是不没别这那哪谁几得着过]")
# Words jieba tags oddly that are fine inside a value (无糖 乌龙, 不锈钢…).
_FINE = frozenset({"无", "低", "因", "不锈钢", "非", "的"})


@lru_cache(maxsize=8192)
def _tags(text: str) -> tuple[tuple[str, str], ...]:
    from graphmem.text.language import jieba

    jieba()  # dictionary loaded, quiet
    import jieba.posseg as posseg

    return tuple((w.word, w.flag) for w in posseg.cut(text))


# A word of jieba's dictionary this common is a word, not a verb and its object: 同学, 放学
# (the 学 of 学法语 is not there), 学校, 学费, 学位, 上班 (the 上 of 上书法班 is not).
_COMMON = 100


def word_at(text: str, at: int) -> tuple[int, str] | None:
    """The word of jieba's cut of ``text`` that holds position ``at``, with where it starts."""
    start = 0
    for word, _ in _tags(text):
        if start <= at < start + len(word):
            return start, word
        start += len(word)
    return None


def inside_word(text: str, at: int) -> bool:
    """Is position ``at`` of ``text`` inside a common word (it starts before ``at`` and
    ends after it)? A verb read at ``at`` (学, 报, 上) is then a piece of that word: the 学 of
    同学生日会 or 学校发的, the 上 of 上班要轮班 — no class, no study."""
    import jieba as jieba_module

    held = word_at(text, at)
    return held is not None and held[0] < at and (
        jieba_module.get_FREQ(held[1]) or 0) >= _COMMON


def study_value(value: str) -> bool:
    """Can ``value`` be what someone learns or enrols in (书法, 尤克里里, 法语A1, 游泳)? No
    amount (报13000), question word (报多少合适) or pronoun in it, no verb at its end (报名费白
    交了) — jieba's tags of a loan word are guesses, so its letters are not asked further."""
    if _NOT_STUDIED.search(value) or value in _KIND_OF_SCHOOL:
        return False  # 报了绍兴的半马 (a race), 报公办 (which school), 报税的时候, 报名费
    tags = _tags(value)
    if any(w in _NEVER_WORDS or f.startswith("r") or (f == "m" and w.isdigit()) for w, f in tags):
        return False
    return len(value) < 3 or len(tags) < 2 or not tags[-1][1].startswith("v") or (
        tags[-1][0] in _ACTIVITY_ENDS)


# Entered but not studied: a race, a tax, a fee, a time; the kind of school or class chosen.
_NOT_STUDIED = re.compile(r"(?:半马|全马|马拉松|越野跑|比赛|大赛)$|税|费|价|钱|时候")
_KIND_OF_SCHOOL = frozenset({"正式", "公办", "民办", "私立", "公立", "全日制", "试听"})


def tidy(value: str) -> str:
    """Emoji, fillers (那种, 之类的) and trailing particles off."""
    value = strip_emoji(value).strip(" ：:、，,。.!！~～")
    value = _FILLER.sub("", value)
    return _TRAIL.sub("", value).strip()


def _bad_token(word: str, flag: str) -> bool:
    if word in _FINE:
        return False
    return word in _NEVER_WORDS or (flag != "eng" and flag.startswith(_NEVER)) or (
        flag == "m" and not re.search(r"[a-zA-Z\u4e00-\u9fff]", word))


def noun(value: str, limit: int = 10, activity: bool = False) -> str:
    """``value`` as a noun phrase (what someone likes, avoids, is allergic to, owns) — or
    an activity (徒步, 开长会) when ``activity`` — or "" when it is a clause remnant."""
    value = tidy(value)
    if not value or len(value) > limit or re.search(r"\s|[，,。；;：:!！?？]", value):
        return ""
    if len(value) <= 3:  # jieba's tags of a word alone are guesses (徒步 d, 律所 nr+u)
        return "" if _JUNK.search(value) or value.isdigit() else value
    tags = _tags(value)
    if any(_bad_token(w, f) for w, f in tags):
        return ""
    if tags[-1][1] == "m" or (len(tags) > 1 and tags[-1][1] in {"v", "vd"} and not activity
                              and tags[-1][0] not in _ACTIVITY_ENDS):
        return ""
    return value


# Verbs an activity may end on (跳广场舞, 下象棋喝茶, 练八段锦): jieba tags some as verbs.
_ACTIVITY_ENDS = frozenset({"舞", "喝茶", "钓鱼", "游泳", "跑步", "爬山", "唱歌", "跳舞", "画画",
                            "旅游", "旅行", "散步", "骑车", "滑雪", "露营", "徒步", "写字", "拉坯"})


def name_of_thing(value: str, limit: int = 8) -> str:
    """``value`` as the name of a class, a sport, a brand (尤克里里, 普拉提, 法语联盟A1):
    letters only, no pronoun, adverb or particle in it — jieba's tags of a loan word are
    guesses (尤克里里: 尤 d / 克里 nrt / 里 f), so they are not asked."""
    value = tidy(value)
    if not 2 <= len(value) <= limit or not re.fullmatch(r"[\u4e00-\u9fffA-Za-z0-9]+", value):
        return ""
    return "" if _JUNK.search(value) else value


def nouns(value: str, limit: int = 10, activity: bool = False) -> list[str]:
    """The noun phrases of "A和B" / "A、B" / "A或者B" (each checked), else of ``value``."""
    parts = [p for p in re.split(r"和|、|或者|或是|跟|及|以及|还有|/", tidy(value)) if p]
    if len(parts) > 1 and all(noun(p, limit, activity) for p in parts):
        return [noun(p, limit, activity) for p in parts]
    one = noun(value, limit, activity)
    return [one] if one else []


_PLACE_END = re.compile(r"(?:省|市|区|县|镇|乡|村|路|街|道|里|湾|岛|新区|新城|小区|花园|公寓|"
                        r"广场|大厦|大道|社区|片区|地铁站)$")


def place(value: str) -> str:
    """``value`` as a place (华阳, 海淀田村, 番禺市桥, 碑林区文艺路), or "": a place name
    jieba knows (ns), a known place word at its end (区, 路, 村…), or a known place."""
    from graphmem.extract.vocab import PLACES_ZH

    value = re.sub(r"(?:这边|那边|这块|那块|这里|那里|附近|一带|周边|本地|老家)$", "", tidy(value))
    if not 2 <= len(value) <= 10 or not re.fullmatch(rf"{_HAN}+", value):
        return ""
    if value in PLACES_ZH or _PLACE_END.search(value):
        return value
    tags = _tags(value)
    if any(_bad_token(w, f) for w, f in tags):
        return ""
    return value if any(f == "ns" for _, f in tags) else ""


def name_like(value: str) -> bool:
    """Could ``value`` be what someone or some pet is called (李明, 小雨, 阿杰, 可乐, Kevin)?
    Not a verb phrase (去喝酒), a pronoun or a remnant (老混着用)."""
    if re.fullmatch(r"[阿小老]?[A-Za-z][A-Za-z' -]{0,20}", value):
        return True
    if not re.fullmatch(rf"{_HAN}{{1,4}}", value):
        return False
    if len(value) == 1 or re.fullmatch(r"([\u4e00-\u9fff])\1", value):
        return not re.match(r"[啊哈呜嗯哦噢呵嘿诶哇嘻呃唉嘤]", value)  # 我姓张; 朵朵 (哈哈: none)
    tags = _tags(value)
    if len(tags) == 1 or all(f.startswith("nr") for _, f in tags):
        return not _bad_token(*tags[0]) and not tags[0][1].startswith(("v", "t", "m", "q"))
    if len(value) == 3 and value[0] in SURNAMES_ZH and len(given := _tags(value[1:])) == 1:
        # a surname and a given name jieba does not know as one (顾建华: 顾 / 建华)
        return not _bad_token(*given[0]) and given[0][1].startswith(("n", "a", "i", "j"))
    return not any(_bad_token(w, f) or f.startswith(("v", "t", "m", "u")) for w, f in tags)


# -- text handed over --------------------------------------------------------------------

_ASKER = r"^(?:帮我|麻烦|请|你)?"
_TASK = (r"总结|翻译|翻成|译成|润色|改写|修改|校对|概括|精简|缩写|扩写|看看|解释|整理|提炼|瞅瞅|"
         r"瞧瞧|改改|批改")
# What a text handed over is called on the line before it (作文, 邮件, 这段…)
_TEXT_NAMED = (r"作文|文章|邮件|稿子|简历|日记|论文|文案|短文|小诗|诗歌|这段|这篇|这封|这首|"
               r"下面|以下")
_TEXT_TASK = re.compile(rf"{_ASKER}(?:{_TASK}|分析)")
# a looser ask, a text handed over only where the line names one: 帮我看下这篇作文咋个改
_LOOK = r"看下|看一下|改一下|改一改|改下|咋个改|怎么改|咋改"
# The text follows on the same line, after saying so: 我念给你听…, 信是这么写的：…
_TEXT_FOLLOWS = re.compile(r"(?:念|读)给你听|(?:是)?(?:这样|这么)写的[：:]?"
                           r"|(?:内容|原文)如下[：:]?")
# …or after what it is, once a task was asked: 帮我把这段话翻成英文 … 内容是 关于…
_TEXT_IS = re.compile(r"(?<!工作)(?:内容|原文|全文)(?:是|为)[：:]?")
# A title is a name, not something said of anyone: 题目是我的外婆, 原标题是 秋季外套推荐
_TITLE = re.compile(r"((?:原)?(?:题目|标题|题为)(?:是|叫|为)?[：:]?\s?)[^\s，。,.!！?？、；;]+")


def own_words(text: str) -> str:
    """``text`` up to where it says a text follows on the same line (…给他改一改 我念给你听
    春天来了…; 帮我把这段话翻成英文 内容是 …): what follows is someone else's words."""
    if follows := _TEXT_FOLLOWS.search(text):
        return text[:follows.start()]
    if (said := _TEXT_IS.search(text)) and re.search(_TASK, text[:said.start()]):
        return text[:said.start()]
    return text


def untitled(text: str) -> str:
    """``text`` with the titles it gives left out (题目是我的外婆 → 题目是…): a title is a
    name for a text, not something said of the user or their grandmother."""
    return _TITLE.sub(r"\1…", text)


# The task said on the text's own line: 帮我翻译一下这段 Take one…, 润色下面这段话：…
_TEXT_TASK_INLINE = re.compile(
    rf"{_ASKER}(?:帮我)?(?:{_TASK})(?:一下|下)?(?:下面|以下)?(?:这|那)?(?:一)?(?:段|句|篇|封)?"
    r"(?:话|内容|文字|英文|中文|邮件|原文)?[：:，,]?\s*(?=[A-Za-z\"“])")


def handed_over(message: str, sentence: str) -> bool:
    """Is ``sentence`` part of a text the user hands over to be summarized, translated or
    polished ("总结下这段 300字以内\n近日，国家卫健委…", "原文：…") — someone else's words?"""
    first, _, rest = message.strip().partition("\n")
    at = message.find(sentence)
    if (quoted := re.search(r"原文[：:]", message)) and at >= quoted.start():
        return True
    if (task := _TEXT_TASK_INLINE.match(message.strip())) and at >= task.end() - 1:
        return True  # 帮我翻译一下这段 Take one tablet twice daily…
    if not rest or at <= len(first):
        return False
    first = first.strip()  # the task said last, after what the text is: 儿子英语作文 你给瞅瞅
    return bool(_TEXT_TASK.search(first)) or bool(
        re.search(rf"(?:{_TASK})(?:一下|下)?[\s，,。.!！~～吧呗啊呀呢]*$", first)
        and re.search(_TEXT_NAMED, first)) or bool(
        re.search(_LOOK, first) and re.search(_TEXT_NAMED, first))


# -- whose verb --------------------------------------------------------------------------

def heads(before: str) -> bool:
    """Is the like verb the part's own (only adverbs and time words before it)? "学生娃现在都
    爱买盲盒" is the students' liking, "改作业不喝撑不住" no liking at all."""
    before = re.sub(r"^(?:这人|这个人|本人|自己)", "", before)
    if not before:
        return True
    return not any(f.startswith(("n", "v", "r")) and w not in _ADVERBIAL
                   for w, f in _tags(before))


_ADVERBIAL_TEXT = """
    平时 现在 一直 从小 天天 每天 其实 真的 本来 最近 向来 特别 尤其 超级
    还是 也 都 就 很 最 不 没 怎么 太 那么 是 一点 从来
    并 这人 挺 比较 倒是 蛮 贼 巨 好 老 一般 平常 每次 一向
    开始 从 今年 以后 起 从此 如今 目前 在家 家里 在 家"""
_ADVERBIAL = frozenset(_ADVERBIAL_TEXT.split())
