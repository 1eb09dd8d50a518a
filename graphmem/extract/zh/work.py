"""Work and study: jobs and employers (在…工作, 是一名…, 在…做…), courses of study (学的是,
在…读研)."""

from __future__ import annotations

import re
from dataclasses import replace

from graphmem.extract.candidate import (
    DEPARTMENT,
    USER,
    Context,
    Found,
    Part,
    first_search,
    match,
    search,
)
from graphmem.extract.vocab import (
    DEPARTMENT_END_ZH,
    JOB_FIELD_ZH,
    JOB_SUFFIX_ZH,
    PLACES_ZH,
    SCHOOL_LEVEL_ZH,
    SCHOOL_YEAR_ZH,
)
from graphmem.extract.zh.shape import (
    INTENSIFIERS,
    _bad_token,
    _tags,
    heads,
    inside_word,
    noun,
    place,
    study_value,
    tidy,
)
from graphmem.extract.zh.subjects import _HAN, _bare

# A worker by trade: 钳工, 电工, 线路工, 水电工 — not work done (打工, 加工, 手工, 义工).
_TRADE = r"^[\u4e00-\u9fff]{1,3}(?<![打上开加手义员下收复停用分施竣旷罢做怠务])工$"


def _job_like(job: str) -> bool:
    return bool(re.search(rf"(?:{JOB_SUFFIX_ZH}|师|员)$|^(?:{JOB_FIELD_ZH})|(?:{JOB_FIELD_ZH})$",
                          job)) or bool(re.fullmatch(r"[A-Z]{2,4}", job)) or bool(
        re.search(_TRADE, job))


def _org_like(org: str) -> bool:
    return not re.match(r"^(?:家|这|那|网上|外面|路上|附近|楼下|线上|app|APP|外地|本地|老家)", org)


_WORD = r"[\u4e00-\u9fffA-Za-z0-9]"
# How many (三十, 32, 几), and a working life's length: 一辈子, 几十年, 三十多年.
_HOW_MANY = r"[一二两三四五六七八九十几\d]+"
_SPAN = rf"(?:一辈子|大半辈子|几十年|{_HOW_MANY}多?年)"


_AT_ORG_DO = (rf"(?<![现正实存好])在({_WORD}{{1,15}}?)(?:做|当|干|任|担任)"
              rf"(?P<long>了?{_SPAN})?"
              rf"({_WORD}{{1,8}}?)"
              rf"(?=$|[\s，,。！!；;]|做了|干了|当了|了|快|已经|都|有|十|[一二两三四五六七八九\d]+(?:年|个月))")


# A transfer inside the employer, to a department: 下礼拜一我就调急诊科了, 我从行车调度调到培训
# 中心了, 申请调到群力社区卫生服务中心 今天批下来了 (a wish to be moved is not one: 想调到…).
_TRANSFERRED = (rf"(?:调到|调去|调进|调入|(?<=[我就已刚也])调)了?"
                rf"({_WORD}{{1,12}}?(?:{DEPARTMENT_END_ZH}))"
                rf"(?=了|工作|上班|当|做|$|\s|，|,)")
_AT_ORG = (rf"(?<![现正实存好])在({_WORD}{{2,15}}?)(?:工作|上班|实习)",
           rf"(?<!新)入职了?({_WORD}{{2,12}}?)(?:第[一二三四五六七八九十两几\d]+|[一二三四五六七八九十两几半\d]+)"
           rf"(?:天|周|个星期|个礼拜|个月)",
           rf"(?:跳槽到|跳到|(?<!新)入职)了?({_WORD}{{2,15}}?)(?:工作|上班|$)",
           rf"跳槽(?:去了|进了|去|进)({_WORD}{{2,15}}?)(?:工作|上班|了|$)",
           _TRANSFERRED)


_IS_JOB = (rf"(不)?是(?:一名|一个|一位|个|名)?(?![在从对把被给跟和])"
           rf"({_HAN}{{0,6}}(?:{JOB_SUFFIX_ZH}|师|员))(?!大)")


# The job said with its place: 是郑州十九中的高中数学老师, 是协和的护士.
_IS_JOB_AT = (rf"是({_WORD}{{2,10}}?)的({_HAN}{{0,6}}(?:{JOB_SUFFIX_ZH}|师|员))(?!大)")
# A teacher by the subject taught: 在光华中学教了32年语文, 教了二十年数学, 我是教英语的.
_TEACHES = (rf"(?:在({_WORD}{{2,10}}?))?教(?:了)?(?:{_HOW_MANY}多?年)?"
            rf"(语文|数学|英语|物理|化学|生物|历史|地理|政治|音乐|美术|体育|科学|信息技术)"
            rf"(?=$|的|了|[\s，,。！!])")
_IS_RETIRED_JOB = (rf"是(?:一名|一个|一位|个|名)?(?:已经?)?退休(?:了的|的)?"
                   rf"({_HAN}{{0,6}}(?:{JOB_SUFFIX_ZH}|师|员))(?!大)")
_DOES = rf"^(?:现在|目前|如今|平时|主要)?(?:在.{{1,12}})?(?:做|当)({_WORD}{{1,8}})"


def _work(t: str, part: Part, ctx: Context, found: Found) -> None:
    """我是护士; 是做外贸的; 在杭州一家互联网公司做产品经理; 在华为上班; 跳槽到了腾讯;
    入职网易第四天; (我对象在华为上班，)做硬件工程师; 学校给我安排了初三年级组长, 不当班主任了."""
    job = org = None
    negated = retired = False
    kind = "organization"
    m = search(_AT_ORG_DO, t)
    said = _bare(m.group(3)) if m else ""
    if part.past and said and search(_HAS_RETIRED, ctx.sentence) and _job_like(said) and (
            work := _job(said)):
        # 以前在枫桥中心小学当校长当了18年 2012年退休的: a retired career, said in the past
        found.say(replace(part, past=False), "works_as", work + "（已退休）", False, 0.8, "job")
        return
    if m and _org_like(m.group(1)) and _job_like(said):
        job = said
        # 在铁路局当了一辈子工程师 退休了: the job was, the place is no longer
        retired = bool(m.group("long") and search(_HAS_RETIRED, ctx.sentence))
        org = None if m.group(1) in PLACES_ZH or retired else _org(m.group(1))
    m = None if org else first_search(_AT_ORG, t)
    if m and m.re.pattern == _TRANSFERRED and search(r"想|申请|打算|准备|考虑|要不要|能不能", t[
            :m.start()]) and not search(r"批(?:下来)?了|同意了|通过了", ctx.sentence):
        m = None  # 想调到急诊科: not (yet) moved
    if m and _org_like(m.group(1)) and m.group(1) not in PLACES_ZH:
        org = _org(m.group(1))
        kind = DEPARTMENT if m.re.pattern == _TRANSFERRED else kind  # the employer's, kept
    if job is None and (m := search(r"是做(.{1,6}?)的|^做(.{1,6}?)的$", t)):
        job = m.group(1) or m.group(2)  # 是做外贸的, (我是Kevin，)做跨境电商的
    elif job is None and (m := search(_IS_RETIRED_JOB, t)) and heads(t[:m.start()]):
        job, retired = m.group(1), True  # 我是个退休的会计, 是退休的中学物理老师
    elif job is None and (m := search(_IS_JOB_AT, t)) and heads(t[:m.start()]) and not search(
            r"退休|^[个一]", m.group(1)) and (at := _org(m.group(1))):
        job, org = m.group(2), at  # 是郑州十九中的高中数学老师
    elif job is None and (m := search(_TEACHES, t)) and heads(t[:m.start()]) and (
            m.group(1) or part.subject_said):  # (…老周 以前也是我们学校的 教物理: his)
        job = m.group(2) + "老师"  # 在光华中学教了32年语文
        retired = bool(search(_HAS_RETIRED, ctx.sentence))  # 我退休八年了: taught, not teaching
        org = org or (_org(m.group(1)) if m.group(1) and not retired else None)
    elif job is None and (m := search(_IS_JOB, t)) and heads(
            re.sub(r"^(?:退休前|退休之前)", "", t[:m.start()])):
        negated, job = bool(m.group(1)), m.group(2)  # (教我们的是个年轻老师: someone else)
    elif job is None and (m := match(_DOES, t)) and _job_like(_bare(m.group(1))):
        job = _bare(m.group(1))
    elif job is None and (m := search(_ASSIGNED, t)) and _job_like(m.group(1)):
        job = m.group(1)
    elif job is None and (m := match(_NO_LONGER, t)) and _job_like(m.group(1)):
        negated, job = True, m.group(1)
    elif job is None and part.subjects and part.subjects[0] != USER and not part.subject_said and (
            ctx.person == part.subjects[0]) and _job_like(t) and len(t) <= 6:
        job = t  # (认识了个人 叫许嘉言) 建筑师: who they are, said next
    elif job is None and (m := search(_DRIVES, t)) and not search(r"去|回|到|着|送|接|带|过来|过去",
                                                               t[m.end():m.end() + 2]):
        job = _DRIVER.get(m.group(2), m.group(2)) + "司机"  # 我爸跑长途货车, 开了好几年出租
    elif job is None and part.subject_said and part.subjects and part.subjects[0] != USER and (
            m := match(rf"^(?:是)?(退休)?({_HAN}{{0,4}}(?:{JOB_SUFFIX_ZH}|师))(?=$|[\s，,。！!])",
                       t)) and not any(f.startswith("v") for _, f in _tags(m.group(2))):
        job, retired = m.group(2), bool(m.group(1))  # 我爸退休老师, 我哥程序员 (no 是)
    job = _job(job) if job else None
    if job and (retired or search(r"^(?:退休前|退休之前)", t) or (
            search(_WORKING_LIFE, t) and search(_HAS_RETIRED, ctx.sentence))):
        job += "（已退休）"  # 我爸退休前是中学老师, 开了三十一年公交 2018年退的休
    elif job is None and search(_HAS_RETIRED, ctx.sentence) and (m := search(_RETIRED, t)) and (
            work := _job(m.group(2))) and (m.group(1) != "开" or search(_VEHICLE, work)):
        # 退休前在首钢干了一辈子电气, 开了一辈子火车 去年刚退休 (开了个缬沙坦: a prescription)
        job = ("开" if m.group(1) == "开" else "") + work + "（已退休）"
    if job is None and not negated and search(_RETIRED_NOW, t) and not search(
            r"快|要|明年|下个?月|等|准备|打算|想|如果|退休前|退休之前", t) and not search(
            _WORKING_LIFE, ctx.message):
        job = "退休"  # 我退休四年了, 老李早就退休了: what they do now (no job said)
    if job:
        found.say(part, "works_as", job, negated, 0.8, "job")
    m = match(rf"^(?:现在|目前|如今)?(?:已经)?在({_WORD}{{2,8}}?)(?:了|呢|啦|啊)?$", t)
    if org is None and m and not any(f.startswith("v") for _, f in _tags(m.group(1))) and (
            search(r"换工作|换了工作|跳槽|入职|新公司|新工作|离职|辞职", ctx.sentence)) and (
            m.group(1) not in PLACES_ZH) and not re.search(r"[市区县省路街镇村]$", m.group(1)):
        org = _org(m.group(1))  # 我换工作了 现在在阿里
    if org is None and (m := search(rf"(?:^|(?:在|喺){_HAN}{{2,6}}|是)开了?(?:一家|家|个|一个|一间|"
                                    rf"间)?(?![个家])({_HAN}{{0,6}}?(?:店|馆|厂|公司|工作室|餐厅|"
                                    rf"诊所|超市|民宿|农家乐|药房|铺子|铺|作坊|档口))", t)) and len(
            m.group(1)) >= 2:  # (开店: no shop named)
        org = _org(m.group(1))  # 在成都开火锅店, 是开米粉店的, 喺顺德开糖水铺, 在大理开民宿
    if org:
        found.say(part, "works_at", org, False, 0.8, kind)
    elif (m := search(rf"从({_WORD}{{2,12}}?)(?:离职|辞职|出来)了?", t) or search(
            rf"不在({_WORD}{{2,10}}?)(?:干|做|上班|工作)了", t)) and (org := _org(m.group(1))):
        found.say(part, "works_at", org, True, 0.8, "organization")  # 俺媳妇不在超市干了


# Driving for a living: 开公交(的), 跑长途货车, 开了好几年出租, 在开网约车, 跑滴滴 — the
# vehicle as a job, not a drive somewhere (开车去接她, 开出租车过来).
_DRIVES = (r"(?:^|(?<=[在还也都就]))(开|跑)了?(?:好几年|几年|[一二三四五六七八九十两\d]+年|一辈子)?"
           r"(长途货车|长途|大货车|大货|货车|大车|公交车|公交|出租车|出租|的士|网约车|滴滴|专车|"
           r"校车|救护车|卡车|挂车)(?:的)?")
_DRIVER = {"长途": "长途货车", "大货": "货车", "大货车": "货车",
           "大车": "货车", "公交车": "公交", "出租": "出租车", "的士": "出租车", "滴滴": "网约车",
           "专车": "网约车", "挂车": "货车"}


# A life's work, the job of someone retired: 退休前在首钢干了一辈子电气, (他)在机务段开了一辈子
# 火车 (去年刚退休), 退休前开公交的.
_RETIRED = (rf"(?:退休前|退休之前)?(?:在{_WORD}{{2,10}}?)?(干|开|做|当)了?"
            rf"{_SPAN}?"
            rf"((?![一二三四五六七八九十两几半多])[\u4e00-\u9fff]{{2,4}}?)(?:的|了|$)")
_RETIRED_NOW = (rf"^(?:我|俺|阮)?(?:已经|早就|早|刚|都|也)?退休(?:了|{_HOW_MANY}多?年了?|"
                rf"好几年了?|多年了?|在家)")
# A message that tells the working life itself (在重型干了三十多年钳工, 教了32年语文, 退休前是会计)
# gives the job, retired; 退休 alone would only say less of it.
_WORKING_LIFE = rf"退休前|退休之前|(?:教|干|当|做|开)了(?:一辈子|大半辈子|几十年|{_HOW_MANY})"
_VEHICLE = r"车|船|机$|公交|出租|的士|地铁|货|滴滴"
_HAS_RETIRED = (rf"退休前|退休之前|已经退休|已退休|刚退休|退休了|退休好几年|退休多年|退休好多年|"
                rf"退的休|退了休|退休{_HOW_MANY}多?年|(?:\d{{4}}|{_HOW_MANY})年退休的|(?:早就|早)退休")
# 学校给我安排了初三年级组长, 升我当了主管; 不当班主任了 (no longer that job).
_ASSIGNED = (rf"(?:给我|让我|升我|提拔我|调我)?(?:安排了?|任命为?|提拔为?|升为?|当上了?|升职成?了?)"
             rf"(?:当|做)?({_HAN}{{2,8}})(?:了|$)")
_NO_LONGER = rf"^(?:就|也|已经)?不(?:当|做|干)({_HAN}{{2,8}}?)了"


# How someone works, said where a workplace goes (还在坚持上班, 在正常上班) — jieba tags
# 超市 a verb too, so the words are listed.
_MANNER = frozenset({"坚持", "继续", "努力", "准备", "开始", "打算", "正常", "照常", "按时", "认真",
                     "好好", "居家", "远程", "轮流"})


_ANY_ORG = frozenset({"公司", "单位", "学校", "医院", "工厂", "企业", "银行", "店", "厂"})


def _org(value: str) -> str | None:
    """An organization's name, or None for a clause remnant (时间定的6月9号, 第三天); 一家叫
    蓝鲸的创业公司 → 蓝鲸, 新竹的台积电 → 台积电; 上海的一家银行 stays whole."""
    value = tidy(value)
    if named := re.search(r"叫([\u4e00-\u9fffA-Za-z0-9]{2,10}?)的", value):
        value = named.group(1)
    if "的" in value:
        where, _, rest = value.partition("的")
        if not place(where) or not (org := _org(rest)) or org in _ANY_ORG:
            return None  # (深圳一家做无人机的公司: no name, no 公司 alone)
        return value if re.match(r"一家|一个|家", rest) else org
    if not value or re.search(r"[是了在讲说第天周]|\d", value):
        return None
    value = re.sub(r"^一?间(?=[\u4e00-\u9fff]{2})", "", value)  # 开间小诊所 (Cantonese 间: 家)
    if value in _MANNER or any(w in INTENSIFIERS for w, _ in _tags(value)):
        return None  # 还在坚持上班: no place; 跳舞跳到膝头好痛: no employer
    bare = re.sub(r"^(?:一家|这家|那家|一个|某家|家)", "", value)
    if len(bare) <= 3:
        return value if noun(bare) else None
    return value if not any(_bad_token(w, f) or f == "t" for w, f in _tags(bare)) else None


def _job(value: str) -> str | None:
    """A job, its owner's words off (我们学校数学老师 → 数学老师), or None for a remnant."""
    value = re.sub(r"^(?:还是|还|也|就)?干(?=[\u4e00-\u9fff]{2})", "", value.strip())  # 还是干会计
    value = re.sub(r"^(?:我们|咱们|我|他们|她们)?"
                   r"(?:学校|公司|单位|医院|科室|部门|厂里|店里|这边|那边)?"
                   r"的?", "", value.strip())
    if not value or len(value) > 10 or re.search(r"[的是了在得很超太]", value):
        return None
    if value.startswith("老") and len(value) > 2 and _job_like(value[1:]):
        value = value[1:]  # 急诊的老护士: a nurse (老板娘, 老师 stay)
    return None if any(f.startswith(("r", "u", "y", "c", "x")) for _, f in _tags(value)) else value


_STUDY_AT = (rf"在({_WORD}{{2,10}}?)(?:读|念)(博|研)(?:士|究生)?(?:$|[了中呢])",
             rf"在({_WORD}{{2,10}}?)(?:读|念)(?!书|的)({_WORD}{{2,10}})",
             rf"在({_WORD}{{2,10}}?)(?<![大中小])学(?!习|校)({_WORD}{{2,10}})")


_STUDY = (r"(?:学的是|专业是|主修)(.{2,10})", r"^学(.{2,8}?)的", r"^(?:正)?在学(?!校|习)(.{2,8})",
          r"^(?:在|正在|还在)?自学(.{2,10})",
          r"^(?:在职|正在|在)?读(MBA|EMBA|MPA|研究生|研|博士|博|硕士|硕|本科)(?:中)?$")


_TWO_CHAR_VERBS = frozenset({"自学", "主修"})


# A school year, of anyone: 今年高三, 下个礼拜开学就高二了, 九月上小学, 读二年级, 在成都川大读研一,
# 幼儿园读大班 (the year itself, with the school when 在… says it).
_GRADE_SAID = re.compile(
    r"^(?:\d{1,2}岁|[一二三四五六七八九十]{1,2}岁)?"
    r"(?:.{0,5}?(?:今年|现在|目前|已经|马上|明年|九月|9月|秋季|下学期|开学))?(?:就|也|才|都|还)?(?:要)?"
    rf"(?:在(?P<at>{_WORD}{{2,8}}?))?(?:(?P<verb>在读|读|上|念|升|转去读|转过去读|转学到|转到)(?:的)?)?"
    rf"(?:附近)?(?:一间|一所)?(?P<grade>{SCHOOL_YEAR_ZH}|{SCHOOL_LEVEL_ZH})"
    r"(?!的时候|时|那会|同学|的同学|老师|的老师|毕业|就|没|生活|十五|那天|拜年)")  # 初一十五: date


# A place at a school won: 考上重庆医科大学了, 考上岳阳一中, 被大连理工录取,
# 录取了武汉理工大学车辆工程.
_ADMITTED = (rf"^(?:也|已经|终于|顺利|真)?(?:考上|考进|考到)了?({_WORD}{{2,16}}?)(?:了|啦|$|的)",
             rf"^(?:也|已经|终于|顺利)?被({_WORD}{{2,12}}?)录取",
             rf"^(?:也|已经|终于|顺利)?录取(?:了|到)?({_WORD}{{2,16}}?)(?:了|啦|$)")
# … said of someone named in the clause only (铁一中录取通知书到了 alone is no one's)
_ADMITTED_SAID = (rf"^(?:这礼拜|这周|下周|明天|今天|昨天|已经)?去({_WORD}{{2,12}}?)报到",
                  rf"^({_WORD}{{2,12}}?)的?录取通知书(?:到了|来了|下来了|收到了)")  # 九中…
# 小欣录取了 重庆医科大学 护理学: the school in the words after the clause
_ADMITTED_THEN = re.compile(r"录取(?:了|啦)$")
_SCHOOL_NAME = re.compile(r"大学|学院|中学|[一二三四五六七八九十]中|附中|小学|大|理工|师范|交大|"
                          r"医科|财经|政法|研究生|博士")


def _school(value: str) -> str:
    """``value`` when it names a school (a university, 一中, 大连理工), else ""."""
    value = tidy(value)
    return value if _SCHOOL_NAME.search(value) and not re.search(r"[了吗呢吧啊的]$", value) else ""


def _study(t: str, part: Part, ctx: Context, found: Found) -> None:
    """在复旦读计算机 (复旦计算机), 学的是软件工程, 学临床医学的, 在学法语; a school year
    (``_GRADE_SAID``)."""
    if (grade := _GRADE_SAID.match(t)) and part.subjects is not None and part.subject_said and (
            not search(r"[啥吗？?]|什么|怎么", t)) and (  # (那我大四上还要准备啥: a question)
            grade.group("verb") or not re.fullmatch(SCHOOL_LEVEL_ZH, grade.group("grade"))) and (
            # a level is a year only after a verb (not 高中的时候); 高二升高三 is no one's
            not any(re.search(SCHOOL_YEAR_ZH, subject) for subject in part.subjects)):
        year = grade.group("grade")
        at = re.sub(r"^(?:这边|那边|这里|那里)", "", grade.group("at") or "")
        found.say(part, "studies", f"{at}{year}", False, 0.8)
        return
    value, at = None, 0
    if m := first_search(_STUDY_AT, t):
        value = m.group(1) + {"博": "博士", "研": "研究生"}.get(m.group(2), _bare(m.group(2)))
        at = m.start(2)
    elif m := first_search(_STUDY, t):
        value = _bare(m.group(1))
        value = {"研": "研究生", "博": "博士", "硕": "硕士"}.get(value, value)  # 在读研
        at = m.start(1)
    # the verb a word of its own (同学生日会, 学校发的, 买套学位房: no study; 自学 is one) and
    # the value a thing one learns (no amount, no clause)
    verb_start = at - 2 if t[max(0, at - 2):at] in _TWO_CHAR_VERBS else at - 1
    if value and not inside_word(t, at) and not inside_word(t, verb_start) and study_value(
            value):
        found.say(part, "studies", value, False, 0.8)
    elif part.subjects is not None and (m := first_search(_ADMITTED, t) or (
            first_search(_ADMITTED_SAID, t) if part.subject_said else None)) and (
            school := _school(m.group(1))):
        found.say(part, "studies", school, False, 0.8)  # 考上重庆医科大学了, 被大连理工录取
    elif part.subjects is not None and part.subject_said and _ADMITTED_THEN.search(t) and (
            (at := ctx.sentence.find(t)) >= 0) and (
            after := re.match(r"\s*([^\s，,。！!～~；;]{2,16})", ctx.sentence[at + len(t):])) and (
            school := _school(after.group(1).rstrip("！!"))):
        found.say(part, "studies", school, False, 0.8)


# -- a new job ------------------------------------------------------------------------------

_OFFER = (rf"({_WORD}{{2,15}}?)(?:的)?offer(?:下来了|到了|来了|发了|发过来了)",
          rf"({_WORD}{{2,15}}?)给(?:了)?我(?:发了?)?(?:个|一个)?offer",
          rf"拿到(?:了)?({_WORD}{{2,15}}?)(?:的)?offer")
_TAKEN = r"(?:已经|我)?(?:接了|接受了|签了|accepted|答应了)|入职"


def _offer(clause: str, ctx: Context, found: Found) -> None:
    """An offer taken is a new employer: 网易的offer下来了 … 我已经接了 / 入职时间定的6月9号,
    市桥街社区卫生服务中心给我offer了 … 8月18号入职; an offer alone (拿到了两个offer, still
    choosing) is not."""
    text = clause.strip()
    m = next((m for p in _OFFER if (m := search(p, text, re.IGNORECASE))), None)
    if m and (org := _org(re.sub(r"^(?:我|终于|啊+|哈+)", "", m.group(1)))):
        ctx.offer_from = org
        if not search(_TAKEN, text[m.end():], re.IGNORECASE):
            return
    org = ctx.offer_from
    if org and search(_TAKEN, text, re.IGNORECASE) and not search(r"不|没|还没|要不要|吗", text):
        found.add(USER, "works_at", org, False, 0.85, "organization")
        ctx.offer_from = None


def announced(sentence: str, found: Found) -> None:
    """"毛星球 市场总监 7月7号入职": an employer, a job and a start, said in a row."""
    m = match(rf"^(?:offer\s*accepted\W*)?({_WORD}{{2,12}})\s+({_HAN}{{2,8}})\s+\S{{0,10}}入职\W*$",
              sentence.strip(), re.IGNORECASE)
    if m and (org := _org(m.group(1))) and _job_like(m.group(2)) and (job := _job(m.group(2))):
        found.add(USER, "works_at", org, False, 0.85, "organization")
        found.add(USER, "works_as", job, False, 0.85, "job")
