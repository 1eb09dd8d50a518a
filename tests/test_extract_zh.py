"""Chinese chat as people type it to an assistant (issue 29) — pure, no Neo4j.

Tables of messages in both directions: what must be read (who a fact is about, its
polarity, a clean value, clauses run together with spaces, plans and states that end,
the user's job and home, the names of people and pets, relatives' own facts, a changed
preference) and what must not be (a remnant of the clause as the value, someone else's
liking given to the user, a maybe as a date, a text handed over to be summarized)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem._models import Action, Episode
from graphmem.extract import RuleExtractor
from graphmem.extract.candidate import ENGAGED, JOB_END
from graphmem.extract.plans import PLAN_END
from graphmem.extract.zh.shape import clauses, noun, place

TS = datetime(2025, 3, 12, 20, 0, tzinfo=UTC)  # a Wednesday
X = RuleExtractor(generic=False)


def read(*messages: str) -> set[tuple[str, str, str, bool]]:
    """What one episode of these user messages says, at consolidation's confidence."""
    return {(c.entity, c.predicate, c.value, c.negated) for c in candidates(*messages)
            if c.confidence >= 0.7}


def candidates(*messages: str):
    actions = tuple(Action(role="user", content=m, ts=TS, msg_id=i + 1)
                    for i, m in enumerate(messages))
    episode = Episode(event_id="e", user_id="u", session_id="s", start_time=TS, end_time=TS,
                      participants=("u",), goal=messages[0][:40], actions=actions, result="",
                      raw_span=(1, len(messages)))
    return X.extract(episode)


def test_clauses_end_at_spaces_and_connectives_not_inside_latin_text():
    assert clauses("我在拾光科技做后端 主要负责订单系统") == [
        "我在拾光科技做后端", "主要负责订单系统"]
    assert clauses("我喜欢火锅但是太辣了") == ["我喜欢火锅", "但是太辣了"]
    assert clauses("报告上写TI-RADS 4a类") == ["报告上写TI-RADS 4a类"]
    assert clauses("我对花生不过敏") == ["我对花生不过敏"]  # 不过 of 不过敏 joins nothing


@pytest.mark.parametrize(("value", "shaped"), [
    ("汪曾祺那种散文", "汪曾祺散文"), ("金庸古龙那些武侠", "金庸古龙武侠"), ("猫", "猫"),
    ("就是太贵", ""), ("也行", ""), ("那边有", ""), ("辣也难受", ""), ("摸它", ""),
    ("猫 我预算人均200以内", ""), ("啥", ""),
])
def test_a_value_is_a_noun_phrase_not_a_clause_remnant(value, shaped):
    assert noun(value) == shaped


def test_a_place_is_known_by_its_shape():
    assert place("海淀田村这边") == "海淀田村" and place("番禺市桥") == "番禺市桥"
    assert place("碑林区文艺路") and not place("照顾她") and not place("一周了")


@pytest.mark.parametrize(("messages", "said", "not_said"), [
    # who a fact is about: the person named in the clause, not the user
    (["我爸对花生过敏 我倒是啥都吃"], {("爸爸", "allergic_to", "花生", False)},
     {("user", "allergic_to", "花生", False)}),
    # how long or how surely is not what: 本来就鸡肉过敏, 一直对鸡蛋过敏
    (["豆豆本来就鸡肉过敏 这次又吃了鸡肉零食"], {("豆豆", "allergic_to", "鸡肉", False)},
     {("豆豆", "allergic_to", "本来", False)}),
    (["我女儿一直对鸡蛋过敏"], {("女儿", "allergic_to", "鸡蛋", False)},
     {("女儿", "allergic_to", "一直", False)}),
    (["豆豆还在过敏 这几天都没出门"], set(), {("豆豆", "allergic_to", "在", False)}),
    # a name nobody's said after a pet just mentioned is the pet's, not the user's
    (["今天把团子接回家了 一只两个月的小橘猫 终于可以养猫了 名字叫团子 虽然我自己不过敏"],
     {("小橘猫", "name", "团子", False)},
     {("user", "name", "团子", False), ("user", "allergic_to", "虽然", True)}),
    (["我同事老王是重庆人"], {("同事", "name", "老王", False), ("同事", "is_from", "重庆", False)},
     {("user", "is_from", "重庆", False)}),
    (["李婷是我们学校数学老师 重庆人"],
     {("user", "has_relation", "同事", False), ("同事", "name", "李婷", False),
      ("同事", "works_as", "数学老师", False), ("同事", "is_from", "重庆", False)},
     {("user", "works_as", "我们学校数学老师", False), ("user", "is_from", "重庆", False)}),
    (["豆豆芒果过敏 糖糖倒是啥水果都吃 就是不吃葱"],
     {("豆豆", "allergic_to", "芒果", False), ("糖糖", "dietary_restriction", "葱", False)},
     {("user", "dietary_restriction", "葱", False)}),
    (["朋友给我介绍了个女生 叫小雨 做设计的 她不吃香菜 特别喜欢猫"],
     {("小雨", "works_as", "设计", False), ("小雨", "dietary_restriction", "香菜", False),
      ("小雨", "likes", "猫", False)},
     {("朋友", "name", "小雨", False), ("user", "likes", "猫", False)}),
    (["想送他一首诗 他姓刘 爱拍鸟"], set(), {("user", "likes", "拍鸟", False)}),
    (["学生娃现在都爱买盲盒 我打算进点盲盒"], {("user", "plans_to", "进点盲盒", False)},
     {("user", "likes", "盲盒", False)}),
    (["教我们的是个年轻老师 姓郑"], set(),
     {("user", "works_as", "年轻老师", False), ("user", "name", "郑", False)}),
    (["我妈高血压好几年了", "另外她对虾过敏"],
     {("妈妈", "has_condition", "高血压", False), ("妈妈", "allergic_to", "虾", False)},
     {("user", "allergic_to", "虾", False)}),
    # polarity
    (["我不怎么爱吃甜"], {("user", "likes", "甜", True)}, {("user", "likes", "甜", False)}),
    (["我这人不爱吃甜口的 就爱吃面"],
     {("user", "likes", "甜口", True), ("user", "likes", "面", False)}, set()),
    # values cut clean, clauses split without punctuation
    (["我喜欢吃火锅 就是太贵"], {("user", "likes", "火锅", False)},
     {("user", "likes", "火锅 就是太贵", False)}),
    (["天天忙得脚不沾地 实在没精力"], set(), {("user", "dietary_restriction", "地", False)}),
    (["我就爱看纪录片和那种文艺片"],
     {("user", "likes", "纪录片", False), ("user", "likes", "文艺片", False)}, set()),
    (["老王还叫我去喝酒"], set(), {("user", "name", "去喝酒", False)}),
    (["周末去爬山也行"], set(), {("user", "plans_to", "去爬山也行", False)}),
    (["要准备啥"], set(), {("user", "plans_to", "啥", False)}),
    # the user's job and employer, a new one
    (["我在拾光科技做后端 主要负责订单系统"],
     {("user", "works_at", "拾光科技", False), ("user", "works_as", "后端", False)}, set()),
    (["网易的offer下来了！！ 月薪涨了不少 我已经接了"], {("user", "works_at", "网易", False)},
     set()),
    (["美团给我offer了！！合同制 下周一入职"], {("user", "works_at", "美团", False)}, set()),
    (["拿到了两个offer 还在纠结"], set(), {("user", "works_at", "两个", False)}),
    (["入职网易第四天 人还是懵的"], {("user", "works_at", "网易", False)}, set()),
    (["入职第三天 社区这边真的好不一样"], set(), {("user", "works_at", "第三天", False)}),
    (["毛星球 市场总监 7月7号入职"],
     {("user", "works_at", "毛星球", False), ("user", "works_as", "市场总监", False)}, set()),
    (["我换工作了 现在在阿里"], {("user", "works_at", "阿里", False)}, set()),
    (["新学期学校给我安排了初三年级组长 不当班主任了"],
     {("user", "works_as", "初三年级组长", False), ("user", "works_as", "班主任", True)}, set()),
    (["给新入职护士讲心电监护"], set(), {("user", "works_at", "护士讲心电监护", False)}),
    # where they live, a move
    (["终于搬完家了 现在住华阳了"], {("user", "lives_in", "华阳", False)}, set()),
    (["搬过来了 文艺路这边挺方便"], {("user", "lives_in", "文艺路", False)}, set()),
    (["新家在番禺市桥 晚上直接去我爸妈那吃饭"], {("user", "lives_in", "番禺市桥", False)}, set()),
    # home said by the household, the lease, the move (a place jieba may not know)
    (["我们家住桂花苑小区3栋 楼下老是吵"], {("user", "lives_in", "桂花苑小区", False)}, set()),
    (["家住沙坪坝 离学校近"], {("user", "lives_in", "沙坪坝", False)}, set()),
    (["我家住五楼 没电梯"], set(), {("user", "lives_in", "五楼", False)}),
    (["现在跟同学在五道口合租"], {("user", "lives_in", "五道口", False)}, set()),
    (["在公司附近合租"], set(), {("user", "lives_in", "公司", False)}),
    (["上周末搬进了滨江的新房子"], {("user", "lives_in", "滨江", False)}, set()),
    (["搬完家了 腰都断了 龙华这边 生活挺方便"], {("user", "lives_in", "龙华", False)}, set()),
    (["终于搬进来了，南沙的新房，二十楼"], {("user", "lives_in", "南沙", False)}, set()),
    (["新家第一周过完了 花果园R区 32楼 就是电梯要等好久"],
     {("user", "lives_in", "花果园R区", False)}, set()),  # the new home lived in, an estate
    # the home settled, then where; the lease or the house (租在, 屋在); a Cantonese move in
    (["房子定了！青山湖这边 两室一厅 下周六搬"], {("user", "lives_in", "青山湖", False)}, set()),
    (["房子找好了 光谷的三居 5000一个月"], {("user", "lives_in", "光谷", False)}, set()),
    (["房子定了！莘庄那套 上礼拜签的合同"], {("user", "lives_in", "莘庄", False)},
     {("user", "lives_in", "上礼拜签的合同", False)}),
    (["搬好啦 在新会展附近 两室一厅"], {("user", "lives_in", "新会展", False)}, set()),
    (["租在曾厝垵旁边 一室一厅带个小阳台"], {("user", "lives_in", "曾厝垵", False)}, set()),
    (["屋在汉阳四新 跑长途的"], {("user", "lives_in", "汉阳四新", False)}, set()),
    (["上个月搬咗入沙田嘅新屋"], {("user", "lives_in", "沙田", False)}, set()),
    (["住进新家了 光谷这边 离公司近"], {("user", "lives_in", "光谷", False)},
     {("user", "lives_in", "住进", False)}),  # (a verb is no place)
    (["我妈住进养老院了"], set(), {("妈妈", "lives_in", "进养老院", False)}),
    (["给新家具选个颜色 米白还是浅灰"], set(), {("user", "lives_in", "米白", False)}),
    # where a relative lives: with whom, their hometown, a move to someone's home
    (["我姥姥在德州跟我舅舅住"], {("姥姥", "lives_in", "德州", False)}, set()),
    (["我妈在桐庐老家 一个人住"], {("妈妈", "lives_in", "桐庐", False)}, set()),
    (["我公公搬到仙桃小姑子家去住了"], {("公公", "lives_in", "仙桃", False)}, set()),
    (["我姐 她住回龙观 离这远"], {("姐姐", "lives_in", "回龙观", False)}, set()),
    (["我表哥从多伦多搬到卡尔加里去了"], {("表哥", "lives_in", "卡尔加里", False)}, set()),
    (["明天搬回宿舍了"], set(), {("user", "lives_in", "宿舍", False)}),
    (["搬回老家了"], set(), {("user", "lives_in", "老家", False)}),
    (["我爸生日过完了 跟你说我现在每周二去打乒乓球"],
     {("user", "likes", "乒乓球", False)}, {("爸爸", "likes", "乒乓球", False)}),
    (["我决定搬去番禺了"], set(), {("user", "lives_in", "番禺", False)}),
    (["国庆想回乐山给我妈过70岁生日"], {("user", "is_from", "乐山", False)}, set()),
    # back home for a holiday, the family's 老家, a city jieba does not know, said by "我"
    (["我寒假回绵阳天天抱着它睡"], {("user", "is_from", "绵阳", False)}, set()),
    (["国庆回湘潭躺了三天"], {("user", "is_from", "湘潭", False)},
     {("user", "is_from", "湘潭躺", False)}),
    (["过年回泉州跟家里说了想辞职"], {("user", "is_from", "泉州", False)}, set()),
    (["媳妇和俩孩子在周口老家 大的12小的7岁"], {("user", "is_from", "周口", False)}, set()),
    (["我妈还天天打电话问 她在湄潭老家开个茶叶店"], {("user", "is_from", "湄潭", False)}, set()),
    (["婆婆说要回诸暨老家参加婚礼"], set(), {("user", "is_from", "诸暨", False)}),
    (["老周腰不行了 回孝感老家开了个小卖部"], set(), {("user", "is_from", "孝感", False)}),
    (["我烟台人 从小海鲜当饭吃"], {("user", "is_from", "烟台", False)}, set()),
    (["后厨是小马师傅 天水人 手艺好"], set(), {("user", "is_from", "天水", False)}),
    (["本人大三 湘潭妹子一枚"], {("user", "is_from", "湘潭", False)}, set()),
    (["我老家就岐山的"], {("user", "is_from", "岐山", False)}, set()),
    # names of people and pets, relatives' own facts
    (["我妹林悦也从长沙回来 她在中南读护理"],
     {("妹妹", "name", "林悦", False), ("妹妹", "studies", "中南护理", False)}, set()),
    (["我爸林国强今天下午住院了", "他有青霉素过敏"],
     {("爸爸", "name", "林国强", False), ("爸爸", "allergic_to", "青霉素", False)}, set()),
    (["老板老混着用"], set(), {("老板", "name", "老混", False)}),
    (["我养猫啦！！！ 昨天去救助站领的 一只小橘猫 取名叫可乐"],
     {("user", "has_pet", "猫", False), ("user", "has_pet", "小橘猫", False),
      ("小橘猫", "name", "可乐", False)}, set()),
    (["店里有只柯基叫豆豆"], {("user", "has_pet", "柯基", False), ("柯基", "name", "豆豆", False)},
     set()),
    (["房东同意养狗"], set(), {("user", "has_pet", "狗", False)}),
    (["我对猫毛过敏 所以没法养猫"], {("user", "allergic_to", "猫毛", False)},
     {("user", "has_pet", "猫", False)}),
    # health
    (["昨天做了个胃镜 说是慢性浅表性胃炎"],
     {("user", "has_condition", "慢性浅表性胃炎", False)}, set()),
    (["我爸林国强住院了", "说是轻微脑梗"], set(), {("user", "has_condition", "轻微脑梗", False)}),
    (["楼下有人推销保健品 说能防中风"], set(), {("user", "has_condition", "中风", False)}),
    # habits, classes, a changed preference
    (["每周三晚上跟同事打羽毛球"], {("user", "likes", "羽毛球", False)}, set()),
    (["面试是下周二"], set(), {("user", "likes", "下周二", False)}),
    (["现在每天全靠一杯全糖手打柠檬茶续命"], set(), {("user", "likes", "柠檬茶", False)}),
    (["最近报了个陶艺课 周六下午"], {("user", "studies", "陶艺", False)}, set()),
    (["给她报了个中国舞"], set(), {("user", "studies", "中国舞", False)}),
    (["写周报要用"], set(), {("user", "studies", "要用", False)}),
    (["尤克里里我不学了"], {("user", "studies", "尤克里里", True)}, set()),
    # a plan said done or failed, or cut from its clause, is no plan
    (["上个月去深圳待了6天"], set(), {("user", "plans_to", "去深圳待了6天", False)}),
    (["6月23号去报的到"], set(), {("user", "plans_to", "去报的到", False)}),
    (["科目二考了两次都挂"], set(), {("user", "plans_to", "考科目二挂", False)}),
    (["打算下个月去青岛"], {("user", "plans_to", "去青岛", False)}, set()),
    # entered, not studied: a race, the kind of school, a tax; a class's time is not its name
    (["报了杭州的半马 11月跑"], set(), {("user", "studies", "杭州半马", False)}),
    (["幼儿园那我就先报公办"], set(), {("user", "studies", "公办", False)}),
    (["五月报个税的时候再说"], set(), {("user", "studies", "个税时候", False)}),
    (["最近报了个CFA的网课"], {("user", "studies", "CFA", False)}, set()),
    (["想存点钱报CFA的网课"], set(), {("user", "studies", "CFA", False)}),
    # a pastime begun, done regularly, given up (vocab.ACTIVITIES_ZH)
    (["最近开始练瑜伽了 感觉腰好多了"], {("user", "likes", "瑜伽", False)}, set()),
    (["上个月入坑飞盘了 认识了好多人"], {("user", "likes", "飞盘", False)}, set()),
    (["我现在跟着视频在学吉他"], {("user", "likes", "吉他", False)}, set()),
    (["每周六早上跟邻居去河边公园打太极拳"], {("user", "likes", "太极拳", False)}, set()),
    (["游泳我现在一周去三次"], {("user", "likes", "游泳", False)}, set()),
    (["网球真的上头了"], {("user", "likes", "网球", False)}, set()),
    (["跟你说我最近开始学书法了"], {("user", "likes", "书法", False)}, set()),
    (["网球我不打了 肩膀受不了"], {("user", "likes", "网球", True)}, set()),
    (["钢琴我决定放弃了"],
     {("user", "likes", "钢琴", True), ("user", "studies", "钢琴", True)}, set()),
    (["我决定不再去跳广场舞了"], {("user", "likes", "广场舞", True)}, set()),
    (["以前天天跟邻居下象棋"], set(), {("user", "likes", "象棋", False)}),
    (["下个月打算开始学游泳"], set(), {("user", "likes", "游泳", False)}),
    (["半夜跑酷"], set(), {("user", "likes", "夜跑", False)}),
    (["今天羽毛球不打了 下雨"], set(), {("user", "likes", "羽毛球", True)}),
    (["我不喝咖啡了 改喝大麦茶"],
     {("user", "dietary_restriction", "咖啡", False), ("user", "likes", "大麦茶", False)}, set()),
    (["我现在咖啡都换低因了"], {("user", "likes", "低因咖啡", False)}, set()),
    (["从今天起奶茶戒了"], {("user", "dietary_restriction", "奶茶", False)}, set()),
    # relationships that begin and end
    (["我和小林在一起了！！他说周末来帮我搬家"],
     {("user", "has_relation", "男朋友", False), ("男朋友", "name", "小林", False)}, set()),
    (["我和小林在一起了"],
     {("user", "has_relation", "对象", False), ("对象", "name", "小林", False)}, set()),
    (["我跟陈昊分手了"], {("user", "has_relation", "陈昊", True)}, set()),
    (["我跟我老公离婚了"], {("user", "has_relation", "老公", True)}, set()),
    # who 他 is when two were met in earlier messages: nobody sure
    (["豆豆学围棋两年了 最近不想学了", "老王在电话里说随他",
      "跟他聊了 他是真的不喜欢 给他报了篮球"], set(), {("老王", "studies", "篮球", False)}),
    # a home left, a move done, a meal is no food
    (["我已经不住在北京了 搬回老家了"], {("user", "lives_in", "北京", True)},
     {("user", "lives_in", "老家", False)}),
    (["我最近在减肥 晚上不吃饭"], set(), {("user", "dietary_restriction", "饭", False)}),
    (["孩子他爸在外地上班"], set(), {("孩子", "works_at", "外地", False)}),
    (["我每周二四晚上上游泳课"], {("user", "studies", "游泳", False)}, set()),
    (["我爸前年中风了 现在半身不遂"], {("爸爸", "has_condition", "中风", False)}, set()),
    (["我退休前在首钢干了一辈子电气"], {("user", "works_as", "电气（已退休）", False)}, set()),
    (["我在这家公司干了五年了 下个月准备退休"], set(),
     {("user", "works_as", "五年（已退休）", False)}),
    # a job with its place, by trade, by subject taught; how long is no part of it
    (["我在城南一家物流公司做调度做了快三年了"],
     {("user", "works_as", "调度", False), ("user", "works_at", "城南一家物流公司", False)}, set()),
    (["在机务段干电工 十来年了"], {("user", "works_as", "电工", False)}, set()),
    (["我是市一中的语文老师"],
     {("user", "works_as", "语文老师", False), ("user", "works_at", "市一中", False)}, set()),
    (["我是个退休的会计"], {("user", "works_as", "会计（已退休）", False)},
     {("user", "works_at", "个退休", False)}),
    (["在实验小学教了二十年数学"], {("user", "works_as", "数学老师", False)}, set()),
    (["我早就退休了 在纺织厂当了一辈子会计"], {("user", "works_as", "会计（已退休）", False)},
     {("user", "works_at", "纺织厂", False)}),
    (["我儿子在广州一家做游戏的公司当程序员"], {("儿子", "works_as", "程序员", False)},
     {("儿子", "works_at", "公司", False)}),
    (["医生给开了个降压药 我退休三年了"], {("user", "works_as", "退休", False)},
     {("user", "works_as", "降压药（已退休）", False)}),
    (["我爸退休好几年了 天天钓鱼"], {("爸爸", "works_as", "退休", False)}, set()),
    (["等我退休了就去云南住"], set(), {("user", "works_as", "退休", False)}),
    (["我在纺织厂干了三十年挡车工 退休五年了"], {("user", "works_as", "挡车工（已退休）", False)},
     {("user", "works_as", "退休", False)}),
    # dates only when said, of the event they are said with, and not as a maybe
    (["单身派对可能9月底搞"], set(), {("派对", "date", "2025-09-30", False)}),
    (["暑假想带娃去青岛 7月9号到13号 老王说项目上请不了假"], set(),
     {("项目", "date", "2025-07-09", False)}),
    # someone named inside a clause without a subject of its own owns what it says
    (["入职第一周 带我的主管林工是潮汕人 人很好"], set(),
     {("user", "is_from", "潮汕", False)}),
    (["新 boss Martin 是德国人 超级 direct"], set(), {("user", "is_from", "德国", False)}),
    (["听说隔壁王姐对花生过敏"], set(), {("user", "allergic_to", "花生", False)}),
    # …but not a companion, and 这 / 那 point back to the one the clauses were about
    (["跟同事小樊每周打羽毛球"], {("user", "likes", "羽毛球", False)}, set()),
    (["乐乐天天往我这跑 对了这孩子对芒果过敏"], {("乐乐", "allergic_to", "芒果", False)},
     {("user", "allergic_to", "芒果", False)}),
    # she / he typed in English, and English fillers before a Chinese clause
    (["想给他做顿 dinner he's 北京人 超爱吃面 但是对虾过敏"], set(),
     {("user", "is_from", "北京", False), ("user", "allergic_to", "虾", False)}),
    (["我闺蜜小雨最近在减肥 btw 她不吃晚饭"], {("闺蜜", "name", "小雨", False)},
     {("user", "dietary_restriction", "晚饭", False)}),
    # a retired job, said as retired
    (["你好 我是个退休的会计 今年56"], {("user", "works_as", "会计（已退休）", False)}, set()),
    # Cantonese and northwestern dialect, read the Mandarin way
    (["hi 我系兽医 喺天河一间宠物医院做嘢"], {("user", "works_as", "兽医", False)}, set()),
    (["阿敏生日 佢钟意食海鲜 我唔食芫荽㗎"],
     {("阿敏", "likes", "海鲜", False), ("user", "dietary_restriction", "芫荽", False)}, set()),
    (["我细佬何家豪6月结婚"], {("弟弟", "name", "何家豪", False)}, set()),
    (["你好 额是退休的中学物理老师 额有痛风"],
     {("user", "works_as", "中学物理老师（已退休）", False),
      ("user", "has_condition", "痛风", False)}, set()),
    # traditional characters (Taiwan, Hong Kong): read the simplified way, kept as typed
    (["我們下個月搬到台中太平 我對蝦過敏 我老公在台積電上班"],
     {("user", "plans_to", "搬到台中太平", False), ("user", "allergic_to", "蝦", False),
      ("老公", "works_at", "台積電", False)}, set()),
    (["我喺觀塘返工 我女朋友Karen唔食牛肉"],
     {("女朋友", "dietary_restriction", "牛肉", False)},
     {("user", "dietary_restriction", "牛肉", False)}),
])
def test_chinese_chat_is_read_for_the_right_person_and_value(messages, said, not_said):
    got = read(*messages)
    assert said <= got, said - got
    assert not (not_said & got), not_said & got


def test_plans_end_when_dropped_or_done_and_hold_until_their_time():
    said = candidates("五一打算跟男朋友去阳朔玩", "阳朔不去了")
    [plan] = [c for c in said if c.predicate == "plans_to" and not c.negated]
    assert plan.valid_until is not None and plan.valid_until.month == 5  # over after 五一
    assert ("user", "plans_to", plan.value, True) in read("五一打算跟男朋友去阳朔玩", "阳朔不去了")
    done = [c for c in candidates("青岛回来了 五天下来我累瘫了", "考研考完了", "终于搬完家了",
                                  "驾照终于考下来了") if c.predicate == "plans_to"]
    assert {(c.value, c.negated, c.value_kind) for c in done} == {
        ("去青岛", True, PLAN_END), ("考研", True, PLAN_END), ("搬", True, PLAN_END),
        ("考驾照", True, PLAN_END)}


def test_a_text_handed_over_to_be_summarized_says_nothing_of_the_user():
    assert not read("帮我总结下这段 三点以内\n私域通过企业微信、社群等载体沉淀用户，我们都很喜欢")
    assert ("user", "works_as", "护士", False) in read("帮我翻译下这段 我是护士\nThe patient...")


@pytest.mark.parametrize(("said", "mandarin"), [
    ("我系兽医 喺天河做嘢", "我是兽医 在天河做东西"),
    ("佢钟意食海鲜 我唔食芫荽㗎", "他喜欢吃海鲜 我不吃芫荽"),
    ("额是退休的老师 跟额说", "我是退休的老师 跟我说"),
    ("等额本息和等额本金", "等额本息和等额本金"),         # 额 inside a word stays
    ("销售额和额外的费用", "销售额和额外的费用"),
    ("我们的关系系统很复杂", "我们的关系系统很复杂"),      # no Cantonese word: 系 stays
])
def test_dialect_is_read_the_mandarin_way_and_mandarin_is_left_alone(said, mandarin):
    from graphmem.extract.zh.dialect import mandarin as to_mandarin

    assert to_mandarin(said) == mandarin


@pytest.mark.parametrize(("messages", "said", "not_said"), [
    # driving for a living, said with 开 / 跑 and the vehicle — not a drive somewhere
    (["我爸跑长途货车 我妈在超市上班"], {("爸爸", "works_as", "长途货车司机", False),
                                  ("妈妈", "works_at", "超市", False)}, set()),
    (["我老公在开网约车 早出晚归"], {("老公", "works_as", "网约车司机", False)}, set()),
    (["我爸开公交的 我弟今年高考"], {("爸爸", "works_as", "公交司机", False)}, set()),
    (["他开出租车过来接我"], set(), {("user", "works_as", "出租车司机", False)}),
    # a relative's job without 是, and a shop of any kind run
    (["我爸退休老师 一直问他问题"], {("爸爸", "works_as", "老师（已退休）", False)}, set()),
    (["我哥程序员 天天加班"], {("哥哥", "works_as", "程序员", False)}, set()),
    (["我妈在宜昌开个小超市"], {("妈妈", "works_at", "小超市", False)}, set()),
    (["我室友辞职在密云水库边上开了个民宿"], {("室友", "works_at", "民宿", False)}, set()),
    (["主管护师4月19号考完了 感觉一般"], set(), {("主管", "works_as", "护师", False)}),
    (["我妹高考完了 她想当老师"], set(), {("妹妹", "works_as", "想当老师", False)}),
    # English kin words typed in Chinese are the people they name, not the user
    (["我们喜欢逛小店 my bf 是建筑师"], {("男朋友", "works_as", "建筑师", False)},
     {("user", "works_as", "建筑师", False)}),
    (["我bf在华为上班"], {("男朋友", "works_at", "华为", False)}, set()),
    (["我的gf对猫过敏"], {("女朋友", "allergic_to", "猫", False)},
     {("user", "allergic_to", "猫", False)}),
    # someone met, named with a Latin name, then said what they do
    (["认识了个男生 叫阿Ken 是个摄影师 自由职业"], {("阿Ken", "works_as", "摄影师", False)},
     {("user", "works_as", "摄影师", False)}),
])
def test_who_does_what_for_a_living(messages, said, not_said):
    got = read(*messages)
    assert said <= got and not (not_said & got)


@pytest.mark.parametrize(("message", "said"), [
    ("我现在每天早上到徐家汇公园跟一个老师学太极拳 杨式24式", ("user", "likes", "太极拳", False)),
    ("羽毛球不打了 换公司以后没人约了 现在改成周末骑行 买了辆公路车",
     ("user", "likes", "骑行", False)),
    ("每周二四游泳 一次一个小时", ("user", "likes", "游泳", False)),
])
def test_a_sport_done_regularly_is_a_pastime(message, said):
    assert said in read(message)


def test_one_weekends_swim_is_no_pastime():
    assert not {f for f in read("周末带儿子去游泳") if f[1] == "likes"}


@pytest.mark.parametrize("message", [
    "同行的女生奇异果过敏 帮我避开",  # someone said before the allergen: theirs
    "有个同事对猫过敏 办公室不能养",
    "医生说是食物过敏 要做过敏原检测",  # a kind of thing, no allergen named
])
def test_an_allergy_of_someone_unnamed_or_of_no_allergen_is_not_the_users(message):
    assert not {f for f in read(message) if f[1] == "allergic_to"}


@pytest.mark.parametrize(("message", "said", "not_said"), [
    ("我儿子子豪芒果过敏 我自己是不吃香菜的", {("儿子", "name", "子豪", False),
                                 ("儿子", "allergic_to", "芒果", False)},
     {("儿子", "allergic_to", "子豪芒果", False)}),
    ("我女儿糖糖不吃葱", {("女儿", "name", "糖糖", False),
                   ("女儿", "dietary_restriction", "葱", False)}, set()),
    ("我女儿天天不吃早饭", set(), {("女儿", "name", "天天", False)}),
    ("我儿子芒果过敏", {("儿子", "allergic_to", "芒果", False)}, {("儿子", "name", "芒果", False)}),
])
def test_a_name_right_after_a_relative_then_what_they_cannot_eat(message, said, not_said):
    got = read(message)
    assert said <= got and not (not_said & got)


@pytest.mark.parametrize("message", [
    "孩子在学校学到的东西不少",  # 学 of 学校
    "妹妹在公司上班要倒班",  # 上 of 上班
    "周末想在南山买套学位房",  # 学 of 学位
    "报名费交了三百",  # 报 of 报名费
    "这个logo我报8000",  # a price quoted
    "不知道报多少合适",  # a question
])
def test_a_study_verb_inside_another_word_or_before_an_amount_is_no_class(message):
    assert not {r for r in read(message) if r[1] == "studies"}


@pytest.mark.parametrize(("message", "fact"), [
    ("女儿在学钢琴", ("女儿", "studies", "钢琴", False)),
    ("我在自学吉他", ("user", "studies", "吉他", False)),
    ("我报名了瑜伽课", ("user", "studies", "瑜伽", False)),
    ("在社区大学上英语课", ("user", "studies", "英语", False)),
])
def test_a_study_verb_of_its_own_still_reads_the_class(message, fact):
    assert fact in read(message)


def test_a_day_just_past_said_without_a_year_is_no_date_next_year():
    assert not {r for r in read("手术做完了 3月10号上午做的 很顺利") if r[1] == "date"}
    assert ("手术", "date", "2025-03-20", False) in read("排到3月20号手术")


@pytest.mark.parametrize("message", [
    "今天带糖糖去省妇幼过敏科复查了",  # 过敏 naming a department
    "我当时就火了过敏那张卡贴在冰箱上",  # a time, and 过敏 naming a card
    "千万不能吃坏肚子",  # the verb's result, no food
    "我现在吃甜少了",  # less of it, not again
])
def test_allergy_and_food_words_that_name_no_allergen_or_food(message):
    assert not {r for r in read(message) if r[1] in {"allergic_to", "dietary_restriction"}}


@pytest.mark.parametrize(("message", "fact"), [
    ("我喝不了奶茶只能喝豆浆", ("user", "dietary_restriction", "奶茶", False)),
    ("雪碧我彻底不喝了", ("user", "dietary_restriction", "雪碧", False)),
    ("我吃海鲜过敏", ("user", "allergic_to", "海鲜", False)),
])
def test_an_avoided_food_ends_where_the_alternative_begins(message, fact):
    assert fact in read(message)
    assert not {r for r in read(message) if r[1] == fact[1] and r[2] != fact[2]}


def test_a_role_word_that_opens_is_my_relative_is_no_name():
    assert not {r for r in read("在郫都一个农家乐 老板是我发小") if r[1] == "name"}
    assert ("同事", "name", "老郑", False) in read("老郑是我同事")


@pytest.mark.parametrize("message", [
    "唉 旅游去不成了 老何腰椎间盘突出又犯了",  # 老何's, named in the value
    "明天要回公司上班了 好焦虑",  # a mood
    "第二天膝盖上痛风又犯了",  # a time before it
])
def test_a_condition_with_a_person_a_mood_or_a_time_before_it_is_not_the_users(message):
    assert not {r for r in read(message) if r[1] == "has_condition" and r[0] == "user"}


def test_a_cantonese_diagnosis_is_read():
    assert ("user", "has_condition", "足底筋膜炎", False) in read("睇咗骨科 话系足底筋膜炎 要停跑")


@pytest.mark.parametrize("message", ["同事怀孕三个月了 还在坚持上班", "跳广场舞跳到膝盖好痛"])
def test_a_verb_or_a_feeling_after_at_or_jumped_to_is_no_employer(message):
    assert not {r for r in read(message) if r[1] == "works_at"}


def test_a_clinic_opened_with_a_cantonese_measure_word_is_the_clinic():
    assert ("user", "works_at", "牙科诊所", False) in read("我同老公喺天河开间牙科诊所")


def test_going_out_for_vegetarian_food_is_no_diet():
    assert not {r for r in read("我们每次聚餐都去吃素食") if r[1] == "diet"}
    assert ("user", "diet", "素食", False) in read("我吃素好几年了")


def test_a_text_handed_over_on_the_tasks_own_line_is_someone_elses_words():
    assert not read("帮我翻译一下这段 Take two tablets with food. Avoid alcohol while on it.")
    assert not read("润色下面这段话：I am allergic to peanuts and I live in Boston.")


def test_he_after_two_men_met_in_one_sentence_is_nobody_but_one_mother_is_one():
    found = read("我儿子阿乐说想学鼓 我老公说他是三分钟热度 他平时就喜欢打羽毛球")
    assert not {r for r in found if r[1] == "likes"}
    assert ("母亲", "allergic_to", "菠萝", False) in read(
        "母亲节想给我妈买个礼物 她在宁波 然后她对菠萝过敏 吃了嘴巴会肿")


def test_a_son_in_law_named_owns_his_hometown():
    found = read("女婿小周是潮汕人 做饭好吃")
    assert ("女婿", "is_from", "潮汕", False) in found
    assert ("user", "is_from", "潮汕", False) not in found


def test_a_cry_or_a_doubled_word_is_no_ones_name():
    from graphmem.extract.zh.shape import name_like

    assert not name_like("哈哈") and not name_like("啊啊") and name_like("豆豆")
    assert not {r for r in read("杯子烧出来了 歪歪扭扭但是好可爱 准备送给阿凯") if r[0] == "歪歪"}


def test_not_eating_vegetarian_is_no_vegetarian_diet_and_no_food_avoided():
    found = read("我不吃素 无肉不欢")
    assert ("user", "diet", "素食", True) in found
    assert not {r for r in found if r[1] == "dietary_restriction"}


def test_a_text_named_before_the_task_that_ends_the_line_is_someone_elses_words():
    assert not read("儿子英语作文 让俺给看看 你给瞅瞅\nMy father is a railway worker. "
                    "I like eat red sausage.")


@pytest.mark.parametrize("text", [
    "帮我看下这篇作文咋个改 初一的 写得太流水账了\n我的外婆今年七十岁了。她住在乡下。",
    "他发过来一篇作文让我给他改一改我念给你听我和妈妈在公园里放风筝我很开心",
    "帮我把这段话翻成英文发给产品经理 内容是 我妈妈对花生过敏 我们下周去上海",
    "这封信是这么写的：我在杭州做程序员 我爸是医生",
])
def test_a_text_handed_over_in_other_words_says_nothing_of_the_user(text):
    assert not read(text)


@pytest.mark.parametrize(("text", "facts"), [
    ("新师傅来了一礼拜了 姓何 兰州人 拉面是真功夫", set()),
    ("店里新来了个师傅 姓何 兰州人", set()),
    ("厨师找着了 叫刘强 济南人 35岁", {("刘强", "is_from", "济南", False)}),
    ("朋友给我介绍了个相亲对象 做软件的", set()),
])
def test_what_follows_someone_new_is_theirs_not_the_users(text, facts):
    assert {f for f in read(text) if f[1] != "name"} == facts


@pytest.mark.parametrize(("text", "fact"), [
    ("我开了三十一年公交 37路 2018年退的休", ("user", "works_as", "公交司机（已退休）", False)),
    ("我教了32年语文 前年退休了", ("user", "works_as", "语文老师（已退休）", False)),
])
def test_a_working_life_told_with_its_retirement_is_a_job_retired_from(text, fact):
    assert fact in read(text)


@pytest.mark.parametrize("text", ["我爸年轻的时候在宁乡乡下当了三十年民办老师",
                                  "我年轻时在纺织厂当挡车工"])
def test_a_job_of_someones_young_years_is_not_their_job_now(text):
    assert not {f for f in read(text) if f[1] in ("works_as", "works_at")}


def test_a_certificate_named_after_a_trade_is_still_the_users():
    assert ("user", "studies", "厨师证", False) in read("厨师证报上了 实操定在9月20号")


def test_a_title_is_no_statement_and_what_is_said_beside_it_still_is():
    assert not read("帮我列个提纲 题目是我的外婆 3000字")
    assert read("报告题目是我爸的故事 3000字 我爸是退休工人") == {
        ("user", "has_relation", "爸爸", False), ("爸爸", "works_as", "工人（已退休）", False)}
    found = read("我的工作内容是带学生 我妈妈对花生过敏")  # a job's content is the user's
    assert ("妈妈", "allergic_to", "花生", False) in found


def test_a_story_naming_an_essay_app_is_still_the_users_own_words():
    assert ("user", "has_relation", "闺女", False) in read(
        "有个机会 一家做AI作文批改的创业公司 请我去做产品VP \n但是闺女还小 房贷每月一万二")


@pytest.mark.parametrize(("message", "fact"), [
    ("我老公叫顾建华", ("老公", "name", "顾建华", False)),  # jieba: 顾 (a verb) / 建华
    ("俺叫于海涛", ("user", "name", "于海涛", False)),
])
def test_a_surname_and_a_given_name_jieba_splits_are_a_name(message, fact):
    from graphmem.extract.zh.shape import name_like

    assert fact in read(message)
    assert not name_like("高兴了") and not name_like("马上去") and not name_like("钱不够")


@pytest.mark.parametrize(("message", "facts"), [
    ("孩子他爸王刚开出租的", {("老公", "name", "王刚", False),
                          ("老公", "works_as", "出租车司机", False)}),
    ("娃他妈在超市当收银员", {("老婆", "works_as", "收银员", False)}),
    ("我老公段志强是导游", {("老公", "name", "段志强", False),
                         ("老公", "works_as", "导游", False)}),
    ("我爸是开米粉店的", {("爸爸", "works_at", "米粉店", False)}),
    ("我阿妈喺顺德开糖水铺", {("妈妈", "works_at", "糖水铺", False)}),
    ("我哥杨建华在大理古城开民宿", {("哥哥", "works_at", "民宿", False)}),
])
def test_a_relatives_trade_said_as_the_business_run_or_the_spouse_as_the_childs_parent(
        message, facts):
    assert facts <= read(message)


def test_opening_a_shop_names_no_shop():
    assert not {r for r in read("我想开店 你看开店要准备啥") if r[1] == "works_at"}


def test_a_dictated_run_without_stops_is_cut_where_a_time_or_a_topic_follows_le_or_de():
    run = ("你好我是沈惠芬今年七十三岁了以前在苏州枫桥中心小学当校长当了18年2012年退休的"
           "现在跟老伴顾建华住在十全街的老房子里面")
    assert clauses(run) == ["你好我是沈惠芬今年七十三岁了",
                            "以前在苏州枫桥中心小学当校长当了18年2012年退休的",
                            "现在跟老伴顾建华住在十全街的老房子里面"]
    assert ("user", "name", "沈惠芬", False) in read(run)
    one = "我女儿给我装了这个东西说可以跟你说话"
    assert clauses(one) == [one]


@pytest.mark.parametrize(("message", "fact"), [
    ("医生说我也有点高血压了", ("user", "has_condition", "高血压", False)),
    ("我老公体检 医生说他有脂肪肝", ("老公", "has_condition", "脂肪肝", False)),
    ("还有一件事情我前两天量血压一百五十几到医院去医生说我也有点高血压了开了氨氯地平",
     ("user", "has_condition", "高血压", False)),
])
def test_a_doctors_words_about_whom_they_name_are_a_diagnosis(message, fact):
    assert fact in read(message)


def test_someone_elses_words_about_the_user_or_a_condition_said_as_a_name_are_no_fact():
    assert not read("老顾说我瞎折腾")
    assert not {r for r in read("今天去医院 医生说我是高血压") if r[1] == "name"}


@pytest.mark.parametrize(("message", "place"), [
    ("现在跟老伴住在十全街的老房子里面", "十全街"),
    ("退休之前是做会计的 住在徐汇田林这边的老公房 6楼", "徐汇田林"),
])
def test_a_home_ends_before_the_kind_of_dwelling_or_where_in_it(message, place):
    found = read(message)
    assert ("user", "lives_in", place, False) in found
    assert not {r for r in read("我住在学校附近") if r[1] == "lives_in"}


@pytest.mark.parametrize(("message", "fact"), [
    ("我跟老公阿强去了趟成都", ("老公", "name", "阿强", False)),
    ("现在跟老伴王建国住在十全街", ("老伴", "name", "王建国", False)),
    ("帮我写封辞职邮件 给我老板老何 语气体面一点", ("老板", "name", "老何", False)),
])
def test_a_relative_named_right_after_their_word_inside_a_clause_is_named(message, fact):
    assert fact in read(message)


@pytest.mark.parametrize("message", ["和女儿小时候一起去过", "跟老公说了", "我爸阿妈都来了"])
def test_a_word_or_a_relative_after_a_relative_is_no_name(message):
    assert not {r for r in read(message) if r[1] == "name"}


@pytest.mark.parametrize(("message", "fact"), [
    ("我以前在苏州枫桥中心小学当校长当了18年 2012年退休的",
     ("user", "works_as", "校长（已退休）", False)),
    ("我爱人以前在银行当会计 退休好几年了", ("爱人", "works_as", "会计（已退休）", False)),
])
def test_a_career_said_in_the_past_and_then_retired_from_is_a_retired_job(message, fact):
    assert fact in read(message)
    assert not {r for r in read("我以前在公司当会计 后来辞职了") if r[1] == "works_as"}


@pytest.mark.parametrize(("message", "place"), [
    ("搬完家了 累屁了\n香坊这边 公滨路边上 电梯房 十二楼", "香坊"),
    ("搬完了！7月26号搬的 通州 离医院走路十五分钟 一居室", "通州"),
    ("搬好屋啦 依家住番禺 市桥附近", "番禺"),
    ("搬完家了 累惨 终于住进双流的新房了", "双流"),
    ("搬到浑南以后上医院倒挺近 打车十分钟", "浑南"),
])
def test_a_move_done_gives_the_home_said_next_or_after_it(message, place):
    assert ("user", "lives_in", place, False) in read(message)


@pytest.mark.parametrize("message", [
    "搬完了 也入职一周了 奶盖躲了两天床底", "搬到上海以后再找工作", "等搬到浑南以后再说"])
def test_a_move_not_done_or_with_no_place_after_it_gives_no_home(message):
    assert not {r for r in read(message) if r[1] == "lives_in"}


@pytest.mark.parametrize(("message", "fact"), [
    ("钓鱼不弄了 竿子送给张强了", ("user", "likes", "钓鱼", True)),
    ("飞盘我估计是不打了", ("user", "likes", "飞盘", True)),
    ("妞妞乒乓球不想学了 换成游泳", ("妞妞", "likes", "乒乓球", True)),
    ("早上晨跑彻底坚持不下去了 10月底就停了", ("user", "likes", "晨跑", True)),
    ("大夫说别打羽毛球了 那就不打了呗", ("user", "likes", "羽毛球", True)),
    ("成都的攀岩馆离玉林都挺远的 算了不爬了", ("user", "likes", "攀岩", True)),
    ("冰美式也被我喝腻了 换成了热的无糖豆浆", ("user", "likes", "冰美式", True)),
])
def test_a_pastime_or_taste_given_up_in_other_words_is_no_longer_liked(message, fact):
    assert fact in read(message)


@pytest.mark.parametrize("message", ["本来想去游泳 算了不去了", "今天打羽毛球太累了 不打了"])
def test_one_outing_given_up_is_no_pastime_given_up(message):
    assert not {r for r in read(message) if r[1] == "likes"}


@pytest.mark.parametrize(("message", "fact"), [
    ("下礼拜一我就调急诊科了 心内科待了八年", ("user", "works_at", "急诊科", False)),
    ("我从行车调度调到培训中心了 当讲师", ("user", "works_at", "培训中心", False)),
    ("我申请调到群力社区卫生服务中心 今天批下来了",
     ("user", "works_at", "群力社区卫生服务中心", False)),
    ("俺媳妇不在超市干了 去社区食堂做饭了", ("媳妇", "works_at", "超市", True)),
])
def test_a_transfer_or_a_workplace_left_changes_where_one_works(message, fact):
    assert fact in read(message)
    assert not {r for r in read("我想调到销售部") | read("空调调到26度了") if r[1] == "works_at"}


@pytest.mark.parametrize(("text", "word"), [
    ("跟你说 我们上周末订婚了 两家人一起吃了饭", "订婚"),
    ("我和小周订婚了！！下个月去拍婚纱照", "订婚"),
    ("他昨天在海边跟我求婚了 我当场就答应了", "订婚"),
    ("终于求婚了 戒指藏在蛋糕里 她答应了", "未婚妻"),
    ("佢答應咗!!! 我跪低嗰陣手震到差啲跌咗隻戒指", "订婚"),
])
def test_the_users_own_engagement_is_read(text, word):
    assert {c.value for c in candidates(text) if c.value_kind == ENGAGED} == {word}


@pytest.mark.parametrize("text", [
    "我表妹上周被求婚了 她答应了 戒指超大",
    "我妈答应下个月过来帮我带孩子",
    "他还没答应 我打算七夕求婚",
    "我哥订婚了 女方是成都人",
])
def test_someone_elses_engagement_or_another_yes_is_no_engagement(text):
    assert not [c for c in candidates(text) if c.value_kind == ENGAGED]



def test_a_break_up_said_with_fen_le_is_one_and_a_shared_cake_is_not():
    assert ("user", "has_relation", "王浩", True) in read("6月19号晚上我和王浩分了")
    assert not read("蛋糕我和李娜分了")
    assert not {r for r in read("他和陈浩分手了") if r[1] == "has_relation"}


def test_a_life_event_done_ends_the_plan_of_it_and_a_plan_of_it_does_not():
    done = [c for c in candidates("我而家啱啱辞咗职 二来诊所9月开业", "上个月领证了")
            if c.predicate == "plans_to"]
    assert {(c.value, c.negated, c.value_kind) for c in done} == {
        ("辞职", True, PLAN_END), ("领证", True, PLAN_END)}
    assert ("user", "plans_to", "买房", False) in read("跟老公决定买房了")
    assert not {r for r in read("我们还没结婚", "辞职了吗") if r[1] == "plans_to"}


@pytest.mark.parametrize(("message", "fact"), [
    ("我家桐桐对坚果过敏", ("桐桐", "allergic_to", "坚果", False)),
    ("我家老二对坚果过敏", ("老二", "allergic_to", "坚果", False)),
    ("额妈在老家摔了一跤 右手腕骨折", ("妈妈", "has_condition", "右手腕骨折", False)),
    ("俺娘最近老是口渴 去医院查了 大夫说是二型糖尿病",
     ("妈妈", "has_condition", "二型糖尿病", False)),
])
def test_a_family_member_said_the_household_or_dialect_way_owns_the_fact(message, fact):
    found = read(message)
    assert fact in found
    assert not {r for r in found if r[0] == "user" and r[1] in {"allergic_to", "has_condition"}}
    assert not {r for r in found if r[1] == "name"}  # (我妈最近…: 最近 is no name)


@pytest.mark.parametrize("message", ["那个姑娘对花生过敏", "那位大姐对花生过敏",
                                     "我有个学生对芒果过敏"])
def test_an_allergy_of_someone_unnamed_said_before_dui_is_nobodys(message):
    assert not {r for r in read(message) if r[1] == "allergic_to"}


@pytest.mark.parametrize(("message", "name"), [
    ("我女儿小名糯米 今年两岁", ("女儿", "name", "糯米", False)),
    ("我儿子大名叫林子豪", ("儿子", "name", "林子豪", False)),
    ("我女儿小名糯米大名周一一 去年9月3号出生的", ("女儿", "name", "糯米", False)),
])
def test_a_name_said_as_a_name_after_a_relative_is_theirs_and_the_word_for_it_is_not(message,
                                                                                   name):
    found = {r for r in read(message) if r[1] == "name"}
    assert found == {name}


def test_a_relative_after_a_weekday_or_after_her_is_read_right():
    found = read("我老伴儿桂兰膝盖不行了 对了礼拜六外孙女朵朵来 她对花生过敏")
    assert ("外孙女", "allergic_to", "花生", False) in found
    assert not {r for r in found if r[0] == "老伴" and r[1] == "allergic_to"}
    # her daughter's allergy is neither hers nor the user's
    assert not {r for r in read("我妹妹下周来长沙 她女儿花生过敏") if r[1] == "allergic_to"}


@pytest.mark.parametrize(("message", "not_said"), [
    ("现在就喝点茯茶", ("user", "likes", "点茯茶", False)),
    ("王总那边一天也走不开 只能黄了", ("王总", "plans_to", "只能", True)),
    ("从今天起不喝了", ("user", "dietary_restriction", "从今天起", False)),
    ("把烟戒了", ("user", "dietary_restriction", "把烟", False)),
    ("婆婆基本每天都在我家吃晚饭", ("婆婆", "name", "基本", False)),
])
def test_a_filler_word_at_a_values_edge_is_no_value(message, not_said):
    assert not_said not in read(message)
    assert ("user", "likes", "茯茶", False) in read("现在就喝点茯茶")


def test_someones_words_after_an_allergy_are_no_exception_to_it():
    found = read("我们家老赵感冒好几天了 可是他对青霉素过敏啊 大夫说做皮试 他这个人犟 说没事没事")
    assert {r for r in found if r[1] == "allergic_to"} == {("老赵", "allergic_to", "青霉素", False)}
    assert ("老赵", "allergic_to", "头孢", True) in read("我们家老赵对青霉素过敏 但头孢没事")


@pytest.mark.parametrize(("message", "left"), [
    ("决定去了!! 今天跟鹏程提了离职 6月16号入职海拓", ("user", "鹏程")),
    ("京东这边交了辞职 最后一天是5月16号", ("user", "京东")),
    ("离职提了！！最后一天是3月14号 领导挽留了两次", ("user", "工作")),
    ("近况汇报 奶茶店我辞了 现在给导师当助教", ("user", "奶茶店")),
    ("今天是在海拓的last day 请同事喝了奶茶", ("user", "海拓")),
    ("然后我老婆把超市的工作辞了 来店里帮忙", ("老婆", "超市")),
    ("冲绳去唔到啦 我而家啱啱辞咗职", ("user", "工作")),
])
def test_a_job_left_is_read_as_the_end_of_one(message, left):
    ended = {(c.entity, c.value) for c in candidates(message)
             if c.value_kind == JOB_END and c.negated and c.predicate == "works_at"}
    assert ended == {left}


@pytest.mark.parametrize("message", [
    "我把刘阿姨辞了 昨天7月14号是她最后一天",  # someone let go
    "有点burnout的感觉 不想辞职那种", "yes 下周就提离职", "过年跟家里说了想辞职开咖啡店",
    "Eric下个月要离职了 去新加坡", "房东那边谈崩了 最多让到4万3 我不干了",
])
def test_no_job_is_left_by_letting_someone_go_or_a_thought_of_leaving(message):
    assert not [c for c in candidates(message) if c.value_kind == JOB_END]
