"""Habits: what someone does regularly (每周三打羽毛球, 每天早上练八段锦, 普拉提还在上), the
classes they take (报了个陶艺课, 手机摄影班我报上了) and quit (尤克里里我不学了), and what
they drink now after a change (现在都是泡大麦茶, 咖啡都换低因了, 现在就喝柠檬水和无糖豆浆)."""

from __future__ import annotations

import re

from graphmem.extract.candidate import USER, Context, Found, Part, match, search
from graphmem.extract.vocab import ACTIVITIES_ZH, LEARNT_ZH
from graphmem.extract.zh.shape import (
    _tags,
    inside_word,
    name_of_thing,
    noun,
    nouns,
    study_value,
    word_at,
)
from graphmem.extract.zh.subjects import she_or_he

# An activity someone does: a ball game (打羽毛球), a practice (练八段锦, 练瑜伽), a board
# game (下象棋), a dance (跳广场舞), a class (上普拉提) — the verb a word of its own.
_ACTIVITY_VERBS = frozenset("打练下跳上")
# How often: 每天, 天天, 每周三, 周末, 平时, 一周两次 — or "started" (开始…了) or "still"
# (还在坚持, 还在上).
_REGULAR = (r"每天|天天|每周|每个?星期|每个?礼拜|每个?周末|周末|周[一二三四五六日天]|"
            r"星期[一二三四五六日天]|礼拜[一二三四五六天]|平时|经常|一周[一二两三四五六七]次|一般都|"
            r"雷打不动|每晚|每早")
_STARTED = r"开始"
# Sports said with 去 / 在 (每周都去游泳): the activity is the verb itself.
_SPORTS = (r"游泳|跑步|夜跑|晨跑|健身|爬山|钓鱼|滑雪|骑车|骑行|徒步|攀岩|冲浪|瑜伽|普拉提|八段锦|"
           r"太极拳|太极|潜水|划船|桨板|飞盘|骑马|射箭")
# …or learnt (跟一个老师学太极拳), or said right after when (改成周末骑行, 每周二四游泳).
_SPORT = (rf"(?:去|在|学|练|跟[\u4e00-\u9fff]{{1,6}}?学|周末|每周[一二三四五六日天]{{0,3}}|"
          rf"每天)({_SPORTS})")
# A day said as every such day: 每周三, 平时, 最近周末, 周末还是…
_EVERY = (r"每|天天|平时|经常|一周[一二两三四五六七]次|一般|雷打不动|常常|总是|老是|"
          r"(?:改成|换成|现在)(?:每个?)?(?:周末|周[一二三四五六日天])|"
          r"(?:最近|一直)(?:每个?)?(?:周末|周[一二三四五六日天])|(?:周末|周[一二三四五六日天]).{0,3}(?:还是|都|一般|固定)")
_STILL = (r"^(?P<x>[\u4e00-\u9fffA-Za-z]{2,6}?)(?:周末|每周)?(?:还在|还是在?|一直在?|依然在?)"
          r"(?:坚持|上|打|练|学|跟[\u4e00-\u9fff]{1,4}打)")
_NOT_ACTIVITY_TEXT = """
    班 课 学 网 手机 游戏 电话 车 卡 牌 工 人 架 针 疫苗 电脑 字 折 包 扮 算 卡拉 球赛"""
_NOT_ACTIVITY = frozenset(_NOT_ACTIVITY_TEXT.split())
_CLASS = (r"(?<![汇举回通预申电情简海])(?:报上了?|报名了?|报了?)(?:一个|个|了|名)?"
          r"(?P<c>(?![个了的])[\u4e00-\u9fffA-Za-z0-9]{2,10}?)"
          r"(?P<k>班|课)?(?=$|[了吧啊呢！!，,\s]|在|每|周)")
_NOT_ENROL_TEXT = """
    报告 报表 报销 报警 报价 报纸 报道 报社 报刊 报仇 报答 报复 报酬 报到 报关 报税
    报时 报废 周报 日报 海报 电报 情报 汇报 简报 预报 通报 回报 举报 申报 画报 快报
    喜报 捷报 公报 警报 月报 年报 晚报"""
_NOT_ENROL = frozenset(_NOT_ENROL_TEXT.split())
_CLASS_TOPIC = r"^(?P<c>[\u4e00-\u9fffA-Za-z0-9]{2,8}?)(?P<k>班|课)?我?(?:报上了|报了|报名了)$"
_NOT_CLASS = r"(?:团|票|险|价|销|告|表|警|案|单|号|数|名|道|仇|恩|社|纸|刊|校|志愿)$"
_QUIT = (r"^(?P<c>[\u4e00-\u9fffA-Za-z0-9]{2,8}?)"
         r"(?:(?P<k>班|课)(?:是|我|这学期)?(?:就|也|彻底|已经)?"
         r"(?:我|也|就|已经)?(?:不去了|不续了|停了|退了|退课了|退掉了|不上了|不学了|放弃了)"
         r"|我?(?:就|也|已经)?(?:不学了|不练了)|"
         r"(?<=[语琴画舞拳])我?(?:就|也|已经)?放弃了)")  # 法语我放弃了
# A class attended: 在老年大学上书法班, 上普拉提课.
_TAKES = (r"(?:在[\u4e00-\u9fff]{2,8}?)?(?<![晚早])上(?![午周个次回月年面下上])"
          r"(?P<c>(?![个一这那的])[\u4e00-\u9fffA-Za-z]{2,8}?)(?P<k>班|课)(?:$|了|呢|啊)")
_LANGUAGE = re.compile(r"(?:法|英|日|韩|德|俄|粤|泰|西班牙|意大利|葡萄牙|阿拉伯)语")


def _activity(t: str) -> str:
    """The activity of 打羽毛球 / 练八段锦 / 下象棋 / 跳广场舞 / 上普拉提 in ``t``: its verb
    must be a word of its own (上周末, 下周二, 手打 are not), its object a noun."""
    tags = _tags(t)
    for i, (word, flag) in enumerate(tags):
        if word[0] in "打下跳" and len(word) > 2 and flag in {"n", "vn"} and not re.search(
                r"周|午|月|年|次|回|面|班|车|楼|个|点|半", word) and noun(word, limit=6):
            return word  # 下象棋: one word
        if i > 0 and len(tags[i - 1][0]) == 1 and tags[i - 1][1] == "n":
            continue  # 手打柠檬茶: a word of two (hand-made), no activity
        if word in _ACTIVITY_VERBS and (flag.startswith("v") or (word == "上" and i > 0 and (
                tags[i - 1][0] in {"开始", "去", "在", "还在", "要", "会", "都", "也"}))):
            obj = ""
            for w, f in tags[i + 1:]:
                if f.startswith(("u", "y", "x")) or w in {"了", "呢", "啊", "吧"} or (
                        obj and f.startswith("v")):
                    break
                obj += w
            name = noun(obj, limit=6)
            if not name or name in _NOT_ACTIVITY or name.endswith(("班", "课")):
                return ""
            return name if word in {"上", "练"} or name.endswith("球") else word + name
    return ""


_ENROL = frozenset({"报", "报名", "报上", "报了"})


def _enrols(t: str, at: int) -> bool:
    """Is the 报 at ``at`` the verb "enrol" (报, 报名, 报上, 也报, 改报, 新报) and not a piece of
    another word (报名费, 报幕, 报志愿's misspelling 报志)?"""
    held = word_at(t, at)
    return held is not None and held[1].lstrip("我也又还都就已改再新") in _ENROL


def _class_name(c: str) -> str:
    """成人游泳 (班) → 成人游泳; a language class is the language (法语联盟的A1 → 法语)."""
    if language := _LANGUAGE.search(c):
        return language.group(0)
    c = re.sub(r"^(?:周末|每周[一二三四五六日天]{0,3}|周[一二三四五六日天]{1,3})在?", "",
               c.replace("的", ""))  # 周末的钢琴(课): 钢琴
    return name_of_thing(re.sub(r"(?<=[A-Za-z])网$", "", c))  # CPA的网(课): CPA


# A pastime begun or given up, by an activity word (vocab.ACTIVITIES_ZH). Begun: 最近开始打
# 羽毛球了, 最近入坑攀岩了, 改去上普拉提, 上个礼拜开始去社区活动中心学粤曲, 在学尤克里里 — a
# start word, then at most a place, a companion and a verb before the activity. Regular:
# 每朝六点半同老陈去东山湖公园打八段锦, 游泳现在一周去两次. Given up: 羽毛球不打了, 太极拳我停了,
# 古筝我决定放弃了, 冬泳俺不整了, 尤克里里已经吃灰一个月了, 决定不回去攀岩了, 不再跳广场舞了.
_ACT = "|".join(sorted(ACTIVITIES_ZH, key=len, reverse=True))
_BETWEEN = r"[^\s，。,.!！?？；;不没别想要]{0,16}?"
_BEGIN = (rf"(?:开始|入坑了?|迷上了?|爱上了?|喜欢上了?|改成|改去|换成|加入了?|学起了?|在学|"
          rf"跟[\u4e00-\u9fff]{{1,6}}?学){_BETWEEN}(?P<a>{_ACT})(?![课班])")
_OFTEN_ZH = (r"每天|天天|每周|每个?星期|每个?礼拜|每朝|每晚|每早|逢礼拜|逢星期|逢周|"
             r"一周[一两二三四五六七几]次|一个?星期[一两二三四五六七几]次|一个?礼拜[一两二三四五六七几]次")
_REGULARLY = (rf"(?:{_OFTEN_ZH}){_BETWEEN}(?P<a>{_ACT})(?![课班])|"
              rf"(?P<b>{_ACT})[我俺]?(?:现在|还是|都)?(?:一周|每周|一个?星期|一个?礼拜)去?[一两二三四五六七几]次|"
              rf"(?P<c>{_ACT})(?:真的|太|有点|彻底|完全)?(?:上头|上瘾)")
# Not (yet) a pastime: a plan, a question, a wish — or one of old (以前天天跟隔壁的人下象棋).
_NOT_NOW = (r"下周|下个?月|明天|明年|下次|打算|准备|计划|想|要不要|能不能|可不可以|考虑|如果|可能|"
            r"以前|之前|原来|小时候|当年|那时")
_QUIT_VERB = "打练跳跑游整玩弹学去搞上唱下做爬骑滑钓弄"
_GIVEN_UP = (rf"(?P<a>{_ACT})(?:[我俺也就都已经决定彻底暂时先算是]|估计|还是|应该){{0,6}}"
             rf"(?:不想?[{_QUIT_VERB}]了|停了|放弃了|戒了|退了|拉倒了|不干了|吃灰|"
             rf"坚持不下去了|坚持不了了)|"
             rf"(?:决定|再也|以后|从此|彻底|已经)(?:不再|不)(?:回去|去)?[{_QUIT_VERB}]?"
             rf"(?P<b>{_ACT})(?:了|$)|"
             rf"(?:不再|放弃了?|退出了?)[{_QUIT_VERB}]?(?P<c>{_ACT})")
_JUST_THEN = r"今天|今晚|明天|这周|这次|那天|这回"


def _activity_in(m: re.Match[str]) -> tuple[str, int]:
    """The activity a pastime match names (its one group a / b / c that took part) and
    where it stands."""
    group = next(g for g in ("a", "b", "c") if g in m.re.groupindex and m.group(g))
    return m.group(group), m.start(group)


def _pastime(t: str, part: Part, ctx: Context, found: Found) -> bool:
    """A pastime of ``_ACT`` begun, done regularly or given up by the part's subjects:
    stored as a like (given up: no longer liked, and no longer studied when it is learnt);
    True when one is."""
    if part.subjects is None or part.hedged:
        return False
    if (m := search(_GIVEN_UP, t)) and not search(_JUST_THEN, t):
        activity, _ = _activity_in(m)
        # 古筝我决定放弃了: the speaker's own, whoever the clause before was about
        for subject in (USER,) if search(r"[我俺]", m.group(0)) else part.subjects:
            found.add(subject, "likes", activity, True, 0.8)
            if activity in LEARNT_ZH:
                found.add(subject, "studies", activity, True, 0.8)
        return True
    if (bare := _given_up_before(t, ctx)) and not search(_JUST_THEN, ctx.sentence):
        for subject in part.subjects:
            found.add(subject, "likes", bare, True, 0.8)  # 别打羽毛球了 那就不打了呗
        return True
    if not (m := search(_BEGIN, t) or search(_REGULARLY, t)) or search(_NOT_NOW, t[:m.start()]):
        return False
    activity, at = _activity_in(m)
    if inside_word(t, at):
        return False  # 天天半夜跑酷: no 夜跑
    for subject in part.subjects:
        found.add(subject, "likes", activity, False, 0.8)
    return True


_BARE_QUIT = (rf"^(?:那|就|那就|算了|我|俺|也|以后|干脆|索性|还是)*不想?[{_QUIT_VERB}]了"
              rf"(?:吧|呗|啊|哈)?$")


def _given_up_before(t: str, ctx: Context) -> str:
    """The pastime a bare "不打了" gives up when the sentence named it just before (大夫说别打
    羽毛球了 那就不打了呗, 攀岩馆离家都挺远的 算了不爬了), or "" — not a single outing
    given up (本来想去游泳 算了不去了)."""
    if not match(_BARE_QUIT, t) or (at := ctx.sentence.find(t)) <= 0:
        return ""
    before = ctx.sentence[:at]
    said = [m for m in re.finditer(_ACT, before) if not inside_word(before, m.start())]
    return said[-1].group(0) if said and not search(_NOT_NOW + "|本来", before) else ""


def _habits(t: str, part: Part, ctx: Context, found: Found) -> None:
    """周三晚上要跟同事打羽毛球, 每天早上在小区里练八段锦, 这周三开始跟同事打羽毛球了,
    普拉提还在上 (likes); 报了个陶艺课, 给她报了个中国舞 (studies, of whom it is for);
    尤克里里我不学了, 书法班这学期就不续了 (no longer)."""
    if _pastime(t, part, ctx, found) or part.subjects is None or part.past:
        return
    if m := match(_QUIT, t):
        if name := _class_name(m.group("c")):
            found.say(part, "studies", name, True, 0.8)
        return
    if (m := search(_TAKES, t)) and (name := _class_name(m.group("c"))):
        if not inside_word(t, m.start("c")) and study_value(name):  # (上班要轮班)
            found.say(part, "studies", name, False, 0.8)  # 在老年大学上书法班
        return
    topic = match(_CLASS_TOPIC, t)  # 手机摄影班我报上了
    if (m := topic or search(_CLASS, t)) and any(
            "报" in w and w not in _NOT_ENROL for w, _ in _tags(t)):  # (周报, 报告: no class)
        name = _class_name(m.group("c"))
        if m.group("k") and search(r"想|打算|准备|考虑|要不要", t[:m.start()]):
            return  # 想存点钱报CPA的网课: no class taken yet (他想报兰州理工的机械: the choice)
        if name and not search(_NOT_CLASS, name) and name not in _NOT_ACTIVITY and (
                topic or _enrols(t, m.start())) and study_value(name):
            whom = search(r"给(?P<w>她|他|[\u4e00-\u9fff]{2})(?:再|又|也|还|改)?报", t)
            if whom and whom.group("w") in {"她", "他"}:
                person = she_or_he(whom.group("w"), ctx)
                if person:
                    found.add(person, "studies", name, False, 0.8)
                return
            if whom:
                found.add(ctx.entity_named(whom.group("w")), "studies", name, False, 0.8)
                return
            found.say(part, "studies", name, False, 0.8)
        return
    if m := search(_STILL, t):
        if (name := noun(m.group("x"), limit=6)) and name not in _NOT_ACTIVITY:
            found.say(part, "likes", name, False, 0.8)
        return
    if not (search(_REGULAR, t) or (search(_STARTED, t) and t.endswith("了"))):
        return
    if not search(_EVERY, t) and not (search(_STARTED, t) and t.endswith("了")):
        return  # 周末带儿子去打篮球: this weekend, not every one
    if (activity := _activity(t)) or ((sport := search(_SPORT, t)) and (
            activity := sport.group(1))):
        found.say(part, "likes", activity, False, 0.8)


# -- what someone drinks now --------------------------------------------------------------

_NOW = r"现在|如今|目前|从此|以后|改喝|改成|换成"
_SWITCHED = (r"^(?:(?:现在|如今|目前)(?:我)?)?(?P<obj>(?![只就都天每一基也全是改换喝泡点])"
             r"[\u4e00-\u9fff]{2,6}?)?"
             r"(?:天天|每天|都|就|只|一般|基本上?|也|全)*(?:是)?"
             r"(?P<v>改喝|改成|换成了?|换了?|喝|泡|点)(?P<val>[\u4e00-\u9fff]{1,10}?)(?:的)?(?:了|的了|了吧)?$")
_MODIFIER = re.compile(r"^(?:低因|无糖|少糖|半糖|去冰|少冰|三分糖|五分糖|七分糖|脱脂|零度|无咖啡因|"
                       r"低脂|全脂|燕麦奶|热的|冰的)$")


def _switched(t: str, part: Part, ctx: Context, found: Found) -> None:
    """A changed habit says what is taken now: (以前…美式 现在…)都是泡大麦茶 (或者无糖乌龙),
    现在就喝柠檬水和无糖豆浆, 我现在只喝茯茶, 现在咖啡都换低因了 (低因咖啡)."""
    if part.subjects is None or part.past:
        return
    last = ctx.last
    if (m := match(r"^(?:或者|或是|还有)(?P<val>[\u4e00-\u9fff]{2,8})$", t)) and last and (
            last.predicate == "likes" and last.confidence == 0.8 and not last.negated):
        for value in nouns(m.group("val")):
            found.add(last.entity, "likes", value, False, 0.8)
        return
    m = match(_SWITCHED, t)
    if not m or not (search(_NOW, t) or (t.startswith("都是") and search(
            _NOW, ctx.sentence[:max(0, ctx.sentence.find(t))]))):
        return
    obj, value = m.group("obj") or "", m.group("val")
    if obj and search(r"^(?:现在|如今|目前|我|天天|每天|一般)", obj):
        obj = ""
    if _MODIFIER.match(value) and obj and noun(obj):
        value = value + obj  # 咖啡都换低因了: 低因咖啡
    elif _MODIFIER.match(value) or (obj and not noun(obj)):
        return
    value = re.sub(r"^(?:(?:一|两|几)?(?:杯|碗|瓶|罐|壶|份|盒)|一?点(?=[\u4e00-\u9fff]{2}))", "",
                   value)  # 一杯豆浆 → 豆浆, (喝)点茯茶 → 茯茶
    if re.search(r"外卖|快递|单$", value):
        return  # 现在都是点外卖: a habit of ordering, not a taste
    for each in nouns(value):
        found.say(part, "likes", each, False, 0.8)
