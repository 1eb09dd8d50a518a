"""Places: home (住在, 搬到, 在…定居) and origin (老家是, 来自, …人)."""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    USER,
    Context,
    Found,
    Part,
    first_search,
    match,
    search,
)
from graphmem.extract.vocab import (
    PLACES_ZH,
    REL_ZH,
    WELL_KNOWN_PLACES_ZH,
)
from graphmem.extract.zh.shape import _tags, noun, place
from graphmem.extract.zh.subjects import _HAN, _before

_NOT_ORIGIN_TEXT = """
    好 坏 个 一个 男 女 老实 大 小 年轻 什么 哪里 外地 本地 中国 好多 这种 那种
    文化 有钱 穷 普通 成年 聪明 急性子 慢性子"""


_NOT_ORIGIN = frozenset(_NOT_ORIGIN_TEXT.split())


# A move done: 上周搬到上海了; 搬到浑南以后上医院倒挺近 (after the move: it was made).
_MOVED = (rf"搬(?:到|去|来|回)了?({_HAN}{{2,6}}?)(?:市)?(?:去|来)?"
          rf"(?:了|$|(?:以后|之后)(?![再就才]))")


_SETTLED = (rf"在({_HAN}{{2,4}}?)(?:打拼|生活|定居)", r"base在([\u4e00-\u9fffA-Za-z]{2,8})")


_STAYED = (rf"^(?:现在|目前|已经)?在({_HAN}{{2,4}}?)(?:待了|呆了|住了|生活了|待过|住过)"
           rf"(?:[一二两三四五六七八九十几半多\d]+)(?:年|个月)",
           rf"(?:^|(?<=[，,]))(?:坐标|人在|现居|定居|base(?:在)?\s*)({_HAN}{{2,6}}?)(?:[，,。]|$)",
           rf"在({_HAN}{{2,4}}?)(?:找了|租了|买了)(?:个|一个|一套|套|间)?(?:房子?|两居|三居|一居|"
           rf"公寓|单间|房间)")


# Home said by the household or the lease: 我们家住枫树山小区7栋502, 家住铁西, 跟室友在云岩区
# 喷水池那边合租, 搬进蛇口的新家, 松江新家第一个周末.
_HOUSEHOLD = (rf"(?:^|我们|我|俺|咱们|咱|阮)(?<!老)家住(?:在)?({_HAN}{{2,10}}?(?:小区)?)"
              rf"(?=\d|这边|那边|附近|$|\s|，|,)",
              r"(?<![现正实存])在((?:(?!在)[\u4e00-\u9fff]){2,8}?)(?:那边|这边|附近)?(?:合租|租房)",
              rf"(?:搬|住)(?:进|入|咗入|了入)(?:了)?({_HAN}{{2,6}}?)(?:的|嘅)?(?:新家|新房子?|新屋|"
              rf"安置房)",
              # 租在曾厝垵旁边, 屋在汉阳四新 (a home, said by the lease or the house)
              rf"(?:^|我|我们|俺)(?:租在|屋企?(?:在|喺))({_HAN}{{2,8}}?)(?=旁边|附近|这边|那边|$|\s|，|,)",
              rf"^({_HAN}{{2,6}}?)新家",
              # 我妈88了在乐山跟我大哥住, 她在綦江老家 (一个人住), 婆婆搬到北碚小叔子家去住了
              r"(?<![现正实存])在((?:(?![在跟和同])[\u4e00-\u9fff]){2,6}?)(?:跟|和|同)"
              r"[\u4e00-\u9fff]{1,8}?(?:一起|一块儿?)?住",
              rf"^在({_HAN}{{2,4}}?)老家(?:$|\s|，|,)",
              rf"搬(?:到|去)({_HAN}{{2,8}}?)家(?:去|里)?住")


# Someone coming from where they live (others only: the user setting off is a trip): 我婆婆从
# 安庆过来, 我妈要从厦门来住一周, 我弟从广州回来了 is not one (回: a home left).
_VISITING_FROM = re.compile(rf"^(?:要|会|说要|打算|也|就|刚|已经|明天|下个月|下周|今天|昨天|上周)*"
                            rf"从({_HAN}{{2,6}}?)(?:市)?(?:专门|特意)?(?:过来|赶过来|飞过来|坐车过来|"
                            rf"上来|下来|来)")


def _home(t: str, part: Part, ctx: Context, found: Found) -> None:
    """住在上海 (不住在北京了: no longer), 上周搬到上海了 (a move done; 下个月搬去广州 is a
    plan), 现在住华阳了, 新家在番禺市桥, 在深圳打拼, base在西雅图, 在上海工作, 在长沙待了五年,
    坐标西安, 人在新加坡, 回老家宜昌了 (home and origin), (我们)在成都 (a known place, said
    alone); 我婆婆从安庆过来 (where a visitor lives)."""
    if part.subjects and USER not in part.subjects and (m := _VISITING_FROM.match(t)) and (
            where := place(m.group(1))) and "回" not in where and (
            where in PLACES_ZH or any(f == "ns" for _, f in _tags(where))):  # (not 超市)
        found.say(part, "lives_in", where, False, 0.8, "place")
        return
    if (m := search(rf"(不)?住在({_HAN}{{2,8}}?)(?:市|区|了|$|附近|这边|那边|一带|里面?|"
                   rf"的?(?:老房子|房子|老房|新房|小区|公寓|出租屋|电梯房|宿舍))", t)) and (
            m.group(2) not in _NOT_WHERE):  # 住在十全街的老房子里面: 十全街 (住在学校附近: none)
        found.say(part, "lives_in", m.group(2), bool(m.group(1)), 0.85, "place")
        return
    if (m := match(rf"^(?:现在|目前|如今|一直)?(?:就|也|还)?住(?:到了|在了|到|在)?"
                   rf"({_HAN}{{2,10}}?)(?:了|这边|那边|这儿|那儿|这块|附近|$)", t)) and (
            part.subject_said or search(r"现在|目前|如今", t)) and (where := place(m.group(1)) or (
                _where_said(m.group(1)) if part.subject_said else "")):
        found.say(part, "lives_in", where, False, 0.85, "place")  # 现在住华阳了, 我住石景山古城这边
        return
    m = match(rf"^(?:现在的?|我的?)?新家(?:在|是)({_HAN}{{2,10}}?)(?:这边|那边|附近|$|的)", t)
    if m is None and (home := first_search(_HOUSEHOLD, t)):
        if where := _where_said(home.group(1)):
            found.say(part, "lives_in", where, False, 0.85, "place")  # 家住铁西
        return
    if m and (where := place(m.group(1))):
        found.say(part, "lives_in", where, False, 0.85, "place")  # 新家在番禺市桥
        return
    if (m := search(rf"回(?:到)?老家({_HAN}{{2,4}}?)(?:了|$|，)", t)) and place(m.group(1)):
        found.say(part, "lives_in", m.group(1), False, 0.8, "place")
        found.say(part, "is_from", m.group(1), False, 0.8, "place")
        return
    m = first_search(_STAYED, t) or first_search(_SETTLED, t)
    if m is None and (here := match(rf"^(?:现在|目前|如今)?(?:一个人|人)?在({_HAN}{{2,4}}?)"
                                    rf"(?:市|区)?(?:做|当|读|打工|创业|$)", t)) and (
            here.group(1) in PLACES_ZH or t.endswith(("市", "区"))):
        m = here
    if m is None and (moved := search(_MOVED, t)) and (search(
            r"了|刚|已经|上周|上个月|去年|前几天|最近", t) or moved.group(0).endswith(
            ("以后", "之后"))) and not search(r"准备|打算|计划|要搬|下个月|下周|明年|明天|后天|"
                                           r"月底|决定|想|会|等(?:我们?)?搬|如果", t) and (
            _where_said(moved.group(1))):
        m = moved  # (搬回老家了: no place said; 搬到温哥华去了: one jieba does not know)
    if m is None and (work := search(rf"(?<![现正实存])在({_HAN}{{2,4}}?)(?:工作|上班)", t)) and (
            work.group(1) in PLACES_ZH):
        m = work
    if m is not None:
        found.say(part, "lives_in", m.group(1), False, 0.85, "place")


def _no_verb_after(value: str) -> str:
    """The place without a verb the text ran on with: 湘潭躺 (国庆回湘潭躺了三天) is 湘潭."""
    tags = list(_tags(value))
    while len(tags) > 1 and tags[-1][1].startswith("v"):
        tags.pop()
    return "".join(w for w, _ in tags)


_NOT_WHERE = frozenset({"公司", "单位", "学校", "医院", "外面", "附近", "市区", "郊区", "酒店",
                        "宾馆", "民宿", "旅馆", "病房", "那边", "这边", "老家"})


_MOTION = frozenset({"住", "进", "去", "到", "回", "搬", "来", "住进", "搬进"})


def _where_said(value: str) -> str:
    """A place a frame of home says is one (家住铁西, 在光谷合租): a known place, or a short
    noun jieba does not know for a place (蛇口, 铁西) — not a workplace (在公司附近合租)."""
    value = re.sub(r"(?:老房子|老楼|房子)?[一二两三四五六七八九十\d]+楼$", "", value)  # 家住六楼
    value = re.sub(rf"(?:{REL_ZH}|小叔子|小姑子|大伯子)$", "", value)  # 北碚小叔子(家): 北碚
    if not value or search(r"^(?:现在|目前|如今|以前|之前|原来)", value):
        return ""
    if (tags := list(_tags(value))) and tags[0][0] in _MOTION and not place(value):
        return ""  # 住进(新家), 进养老院: how one got there
    if where := place(value):
        return where
    value = noun(value, limit=6)
    return value if value and value not in _NOT_WHERE and not re.match(
        rf"[这那我你他她]|(?:{REL_ZH})$", value) else ""  # (搬完了 累死 老公这边…: nobody's home)


_ORIGIN = (rf"老家(?:就|也)?(?:是|在)?({_HAN}{{2,6}}?)(?:的|人|$)",
           rf"(?<![回出过起进])来自({_HAN}{{2,6}})",
           rf"(?:^是?在?|在)({_HAN}{{2,4}}?)(?:出生|长大)")


def _origin(t: str, part: Part, ctx: Context, found: Found) -> None:
    """老家是安徽的, 是潮汕人, 哈尔滨长大的, 在美国长大, 我是广东的 (a known place),
    土生土长的重庆妹儿; 不是北京人 (not from there)."""
    m = first_search(_ORIGIN, t)
    if m and not place(m.group(1)):
        m = None  # (我妹在)老家照顾她: no place said
    m = m or search(
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
    if m is None and (said := match(rf"^(?:(?:那个|这个)({_HAN}{{2,3}})人"
                                    rf"|({_HAN}{{2,3}})人(?:$|嘛|啊|呢))", t)) and (
            (said.group(1) or said.group(2)) in WELL_KNOWN_PLACES_ZH or (
                place(said.group(1) or said.group(2)) and (
                    part.subjects != ("user",) or match(r"(?:我|本人)", found.evidence)))):
        m = said  # 我是90后，福建人; 阿杰那个温州人; 我烟台人: a place, said alone after who it is
        # (小马师傅 天水人: a smaller place, said alone, is the one just talked of, not the user)
    if m is None and part.subjects not in (None, ("user",)) and (
            said := match(rf"^({_HAN}{{2,4}})(?:人|的)$", t)) and place(said.group(1)) and (
            said.group(1) not in _NOT_ORIGIN) and not _someone_else_just_named(t, part, ctx):
        m = said  # 同事李娟 教数学的 贵州遵义人, 王阿姨 安徽六安的: theirs, said alone
    if m is not None:
        found.say(part, "is_from", m.group(1) or m.group(2), False, 0.85, "place")
    elif (part.subjects == ("user",) or (part.subjects is None and match(_HOLIDAY, t))) and (
            back := first_search(_GOING_HOME, t)) and (
            where := place(_no_verb_after(back.group(1) or back.group(2)))):
        found.add("user", "is_from", where, False, 0.8, "place")  # 过年回株洲, 过年回泉州跟家里说了
    elif part.subject_said and part.subjects and all(
            who == "user" or who in _OWN_FAMILY for who in part.subjects) and (
            home := search(_FAMILY_HOME, t)) and (where := _where_said(home.group(1))):
        found.add("user", "is_from", where, False, 0.8, "place")  # 她在湄潭老家开个茶叶店


def _someone_else_just_named(t: str, part: Part, ctx: Context) -> bool:
    """Does the words right before ``t`` end on a name that is not the part's subject
    (随她嘛 … 新招了个阿梅 贵州遵义的: 阿梅's place, not the daughter's)?"""
    before = re.split(r"[\s，,。！!～~；;]+", _before(t, ctx).rstrip(" ，,"))
    if not before[-1]:
        return False
    last = list(_tags(before[-1]))[-1][0]
    named = re.fullmatch(r"[阿小老][\u4e00-\u9fff]{1,2}", last) or any(
        f == "nr" for w, f in _tags(before[-1]) if w == last)
    return bool(named) and not any(last in who or who in last or ctx.names.get(last) == who
                                   for who in part.subjects or ())


# The family's 老家 is the speaker's: 媳妇和俩孩子在周口老家, (我妈) 她在湄潭老家开个茶叶店 — said
# of the speaker's own family by name in the clause; not someone's own (他的老家), an
# in-law's (婆婆在仙桃老家), nor a going back of someone the clause does not name (老周… 回孝感
# 老家开了个小卖部).
_FAMILY_HOME = rf"(?<!的)在({_HAN}{{2,3}}?)老家"
_OWN_FAMILY = frozenset({"妈妈", "爸爸", "父母", "爸妈", "弟弟", "哥哥", "姐姐", "妹妹", "爷爷",
                         "奶奶", "外公", "外婆", "姥姥", "姥爷", "儿子", "女儿", "孩子", "媳妇",
                         "老婆", "老公", "家里", "全家"})


# Going back to where one's parents are, for the holidays: 过年回株洲, 国庆想回乐山给我妈过70岁
# 生日, 带周雨回株洲见爸妈 — home is where one comes from; a self-introduction by the place
# (湘潭妹子一枚).
_HOLIDAYS = "过年|春节|国庆|中秋|端午|清明|元旦|放假|寒假|暑假"
_GOING_HOME = (rf"(?:{_HOLIDAYS}|母亲节|父亲节)"
               rf"(?:[\u4e00-\u9fff\s\d/]{{0,10}}?)回(?:到)?({_HAN}{{2,4}}?)"
               rf"(?:$|\s|，|过年|待|看|陪|见|给|跟|和|天天|住|玩|一趟|了)()",
               rf"({_HAN}{{2,3}}?)(?:妹子|妹儿|姑娘|小伙|伢子|人)一枚()")  # 湘潭妹子一枚
_HOLIDAY = rf"^(?:{_HOLIDAYS})"


# A move done (or the home settled: 房子定了！滨江长河这边, 房子找好了 张江), then where, perhaps
# after a word or two of how it went: 搬过来了 文艺路这边挺方便,
# 搬完家了 累屁了 (line break) 香坊这边, 阮搬进来了，翔安新城的安置房, 搬完了 累死 街道口这个
# 一室一厅, 搬完了！7月26号搬的 通州 离医院走路十五分钟 (a known place, said alone); or the
# new home lived in already: 新家第一周过完了 花果园R区, 住进新家了 (not 新家具, 新家电).
_MOVED_DONE = re.compile(r"搬(?:过来|过去|完|好|进来|进去)(?:家|屋)?(?:了|啦|咯)|"
                         r"房子(?:定了|找好了|租好了|租到了|签了)|"
                         r"(?:住进|搬进)了?新(?:家|房子?)了?|新家(?![具电伙])(?=第|住|这边|挺|很|真|"
                         r"的(?:第|感觉|环境|采光))")
_MOVED_HERE = re.compile(
    rf"^(?:现在|依家)?(?:住在?|在)?({_HAN}{{2,8}}?)(?:这边|那边|这儿|附近|的?(?:新家|安置房|新房)|"
    rf"(?:这个?|的)(?:一室一厅|两室一厅|三室|两居|三居|一居室?|两房|三房|房子)|[那这]套)")
_CHUNK = re.compile(r"[^\s，,。！!～~；;]+")
_ESTATE = re.compile(r"(?:区|园|苑|城|小区|公寓|花园|路|街|镇|村|湾|府)[A-Za-z0-9]{0,3}"
                     r"(?:区|栋|座|号)?$")  # where a home is: 花果园R区


def moved_here(sentence: str, ctx: Context, found: Found) -> None:
    """搬过来了 文艺路这边挺方便: the user lives where they just moved — said in one of the
    three pieces of the message after the move (a line break or a 。 may come between)."""
    if not (done := _MOVED_DONE.search(sentence)):
        return
    at = ctx.message.find(sentence)
    after = ctx.message[at + done.end():] if at >= 0 else sentence[done.end():]
    for chunk in _CHUNK.findall(after)[:3]:
        if (m := _MOVED_HERE.match(chunk)) and (where := _where_said(m.group(1))):
            found.add("user", "lives_in", where, False, 0.85, "place")
            return
        if (bare := re.sub(r"^(?:现在|依家)?(?:住在?|在)?", "", chunk)) and "的" not in bare and (
                place(bare) == bare or (_ESTATE.search(bare) and _where_said(bare) == bare)):
            found.add("user", "lives_in", bare, False, 0.85, "place")  # (花果园R区: an estate)
            return
