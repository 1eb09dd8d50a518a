"""Word lists the rules read with: relations, pets, jobs, diets, channels, events.

Surface words, as people say them; the normalization lexicon (``graphmem.facts.normalize``)
maps them to canonical entities later (妈妈 / mom → mother, 柴犬 / puppy → dog).
"""

from __future__ import annotations

import re

from graphmem.text import topics


def alternation(words: str) -> str:
    """A regex alternation of space-separated ``words`` (``_`` joins a phrase), longest
    first so that "best friend" wins over "friend"."""
    items = {w.replace("_", " ") for w in words.split()}
    return "|".join(re.escape(w) for w in sorted(items, key=lambda w: (-len(w), w)))


# -- people ------------------------------------------------------------------------------

# A partner: one at a time ("girlfriend", then "fiancée"); a break-up ends whichever it is.
# The words the break-up rules name a partner by, in each language, and every partner word.
PARTNERS_EN = ("boyfriend", "girlfriend", "partner", "husband", "wife", "fiance", "fiancee",
               "bf", "gf")
PARTNERS_ZH = frozenset({"男朋友", "女朋友", "对象", "老公", "老婆", "未婚夫", "未婚妻", "男友",
                         "女友"})
PARTNER_WORDS = frozenset(PARTNERS_EN) | PARTNERS_ZH | {"fiancé", "fiancée", "spouse", "丈夫",
                                                        "妻子", "爱人"}

# An engagement makes the boyfriend a fiancé, 女朋友 a 未婚妻 (facts.endings.engaged_partners);
# said without a word for whom ("so now we're engaged", 我们订婚了), the candidate's value is
# ENGAGED_EN / ENGAGED_ZH, which names no one
ENGAGED_AS = {"boyfriend": "fiancé", "bf": "fiancé", "girlfriend": "fiancée", "gf": "fiancée",
              "男朋友": "未婚夫", "男友": "未婚夫", "女朋友": "未婚妻", "女友": "未婚妻"}
ENGAGED_EN, ENGAGED_ZH = "engaged", "订婚"

REL_EN = alternation(
    "girlfriend boyfriend fiancé fiancée fiance fiancee wife husband spouse partner "
    "mom mother mum mommy mama dad father daddy papa parents sister brother sibling "
    "grandma grandmother granny gran nana grandpa grandfather granddad grandad aunt auntie "
    "uncle cousin "
    "manager boss supervisor colleague coworker co-worker roommate flatmate housemate "
    "classmate teammate labmate son daughter kids children niece nephew best_friend friend "
    "bestie bff buddy "
    "mother-in-law father-in-law sister-in-law brother-in-law daughter-in-law son-in-law in-laws "
    "grandson granddaughter "
    "grandparents grandkids stepmom stepdad stepmother stepfather stepson stepdaughter "
    "stepsister stepbrother neighbor neighbour mentor godmother godfather ex ex-wife "
    "ex-husband ex-girlfriend ex-boyfriend")
# Relations' words that say a gender (English and Chinese): "she" is none of the first.
_MALE_KIN_TEXT = """
    boyfriend fiancé fiance husband dad father daddy papa brother grandpa grandfather granddad
    grandad uncle son nephew grandson stepdad stepfather stepson stepbrother godfather ex-husband
    ex-boyfriend father-in-law brother-in-law 男朋友 男友 未婚夫 老公 丈夫 爸爸 父亲 老爸 爸 哥哥
    哥 弟弟 弟 爷爷 外公 姥爷 舅舅 叔叔 表哥 表弟 堂哥 儿子 公公 岳父 老丈人 姐夫 妹夫 侄子 外甥
    孙子 姑父 前男友 前夫 外孙 老汉 老汉儿 老爹 阿爸 老豆 老倌 女婿"""
_FEMALE_KIN_TEXT = """
    girlfriend fiancée fiancee wife mom mother mum mommy mama sister grandma grandmother granny
    gran nana aunt auntie daughter niece granddaughter stepmom stepmother stepdaughter stepsister
    godmother ex-wife ex-girlfriend mother-in-law sister-in-law 女朋友 女友 未婚妻 老婆 妻子 太太
    妈妈 母亲 老妈 妈 姐姐 姐 妹妹 妹 奶奶 外婆 姥姥 姑姑 表姐 表妹 堂姐 女儿 婆婆 岳母 丈母娘 嫂子
    弟媳 侄女 外甥女 孙女 舅妈 姨妈 小姨 前女友 前妻 媳妇 闺蜜 闺女 外孙女 阿妈 老母 堂客 婆娘 儿媳
    儿媳妇
    家婆"""
MALE_KIN = frozenset(_MALE_KIN_TEXT.split())
FEMALE_KIN = frozenset(_FEMALE_KIN_TEXT.split())
# Relatives "they" can stand for across sentences ("My parents live in Ohio. They're..."),
# never "she" or "he".
PLURAL_KIN = frozenset({"parents", "kids", "children", "in-laws", "grandparents", "twins",
                        "folks", "siblings"})
# Common Chinese surnames: a name's first character (李明, 顾建华; 老顾, 刘阿姨).
SURNAMES_ZH = ("王李张刘陈杨黄赵周吴徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾"
               "肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏"
               "韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴"
               "莫孔向汤欧")

# Said bare, like a name: "Mom's birthday party", "Grandpa refuses to..."
REL_AS_NAME_EN = alternation("Mom Mum Dad Mommy Daddy Grandma Grandpa Granny Nana")
# The spouse named as the child's parent (孩子他爸王刚开出租的, 娃他妈): 老公 / 老婆.
_SPOUSE_AS_PARENT_ZH = ("孩子他爸 孩子他妈 孩子她妈 娃他爸 娃他妈 娃她妈 孩他爸 孩他妈 孩儿他爸 "
                        "孩儿他妈")
REL_ZH = alternation(
    "女朋友 女友 男朋友 男友 未婚妻 未婚夫 老婆 妻子 太太 爱人 老公 丈夫 对象 "
    "妈妈 母亲 老妈 爸爸 父亲 老爸 爸妈 父母 姐姐 妹妹 哥哥 弟弟 奶奶 外婆 姥姥 爷爷 外公 "
    "姥爷 姑姑 舅舅 叔叔 表哥 表姐 表妹 表弟 堂哥 堂姐 经理 老板 领导 上司 主管 同事 闺蜜 "
    "前男友 前女友 前夫 前妻 好朋友 朋友 室友 同学 儿子 女儿 婆婆 公公 岳母 岳父 丈母娘 "
    "老丈人 嫂子 姐夫 妹夫 弟媳 侄子 "
    "侄女 外甥 外甥女 孙子 孙女 舅妈 姨妈 小姨 姑父 孩子 宝宝 发小 死党 邻居 导师 媳妇 老乡 "
    "闺女 老伴 外孙 外孙女 师傅 学长 学姐 钓友 球友 队友 女婿 儿媳妇 儿媳 亲家 "
    # dialect and regional words for close kin (PAIRS_ZH gives the common one)
    "老汉 老汉儿 老爹 阿爸 阿妈 老豆 老母 堂客 婆娘 老倌 家婆 " + _SPOUSE_AS_PARENT_ZH)
# Close kin said without 我 (跟老婆商量, 参加表姐的婚礼, 老公只有周六有空): still the user's.
KIN_ZH = alternation(
    "女朋友 男朋友 未婚妻 未婚夫 老婆 老公 媳妇 爸妈 父母 妈妈 爸爸 老妈 老爸 "
    "姐姐 妹妹 哥哥 弟弟 奶奶 外婆 姥姥 爷爷 外公 姥爷 表哥 表姐 表妹 表弟 "
    "堂哥 堂姐 堂妹 堂弟 婆婆 公公 岳母 岳父 丈母娘 老丈人 闺蜜 发小 闺女 老伴 女婿 儿媳 "
    "老汉 老汉儿 老爹 阿爸 阿妈 老豆 堂客 老倌 家婆 " + _SPOUSE_AS_PARENT_ZH)
# One-character kin words count only right after 我 (我妈, 我姐): alone they are too common.
REL_ZH_SHORT = alternation("妈 爸 姐 妹 哥 弟")
PAIRS_ZH = {"爸妈": ("爸爸", "妈妈"), "父母": ("父亲", "母亲"),
            # the one-character words said after 我 are the relative's full word
            "妈": ("妈妈",), "爸": ("爸爸",), "姐": ("姐姐",), "妹": ("妹妹",), "哥": ("哥哥",),
            "弟": ("弟弟",),
            # dialect and regional kin (四川 老汉, 湖南 堂客 / 老倌, 粤 老豆 / 家婆)
            "老汉": ("爸爸",), "老汉儿": ("爸爸",), "老爹": ("爸爸",), "阿爸": ("爸爸",),
            "老豆": ("爸爸",),
            "阿妈": ("妈妈",), "老母": ("妈妈",), "堂客": ("老婆",), "婆娘": ("老婆",),
            "老倌": ("老公",), "家婆": ("婆婆",),
            **{word: ("老公",) if word.endswith("爸") else ("老婆",)
               for word in _SPOUSE_AS_PARENT_ZH.split()}}

# -- pets --------------------------------------------------------------------------------

PET_EN = alternation(
    "dog puppy pup cat kitten kitty rabbit bunny hamster parrot budgie cockatiel bird "
    "goldfish fish turtle tortoise snake lizard gecko ferret hedgehog horse pony chinchilla "
    "rat guinea_pig golden_retriever labrador poodle beagle corgi husky pug dachshund "
    "staffy staffie moggy shiba bulldog terrier chihuahua german_shepherd border_collie "
    "greyhound whippet "
    "doodle goldendoodle labradoodle cockapoo spaniel cocker_spaniel rottweiler pitbull "
    "pit_bull dalmatian schnauzer shih_tzu yorkie collie sheepdog great_dane mutt "
    "tabby maine_coon ragdoll")
PET_ZH = alternation(
    "猫 猫咪 小猫 狗 狗狗 小狗 柴犬 柯基 金毛 泰迪 哈士奇 拉布拉多 边牧 比熊 博美 兔子 仓鼠 "
    "鹦鹉 金鱼 乌龟 蜥蜴 刺猬 龙猫 豚鼠 布偶猫 英短 橘猫 狸花猫 美短 暹罗猫 萨摩耶 德牧 阿拉斯加 "
    "雪纳瑞 腊肠 法斗 马尔济斯")
PET_PREFIX_ZH = "(?:小|大|黑|白|橘|花|灰|黄|老)?"  # 小乌龟, 黑猫
COUNT_ZH = "[一两二三四五六七八九十几]?[只条个头]?"

# -- work and study ----------------------------------------------------------------------

JOB_EN = alternation(
    "engineer developer programmer coder designer teacher professor lecturer tutor doctor "
    "physician surgeon dentist nurse pharmacist therapist psychologist psychiatrist "
    "counselor counsellor lawyer attorney paralegal accountant auditor analyst consultant "
    "manager director executive founder cofounder co-founder scientist researcher writer "
    "author copywriter journalist editor reporter photographer artist illustrator animator "
    "musician singer actor actress dancer chef cook baker barista bartender waiter waitress server "
    "cashier clerk receptionist secretary assistant intern architect electrician plumber "
    "carpenter mechanic technician tech driver pilot firefighter officer cop detective "
    "farmer vet veterinarian librarian translator interpreter recruiter marketer "
    "specialist coordinator administrator banker trader broker realtor agent entrepreneur "
    "freelancer contractor paramedic caregiver nanny babysitter janitor housekeeper tailor "
    "hairdresser stylist barber coach trainer instructor principal pastor priest midwife "
    "stay-at-home_dad stay-at-home_mom stay-at-home_mum stay-at-home_parent homemaker "
    "dietitian nutritionist planner strategist producer sonographer radiologist "
    "hygienist physiotherapist physio chiropractor optometrist optician pediatrician "
    "anesthesiologist anaesthetist dermatologist cardiologist oncologist psychotherapist "
    "biologist chemist physicist geologist economist statistician actuary underwriter "
    "welder machinist roofer landscaper gardener florist butcher courier teller host "
    "hostess sommelier dj guard ranger groomer doula rabbi imam postdoc associate lead "
    "supervisor foreman apprentice worker rep representative salesperson salesman saleswoman "
    "dispatcher mail_carrier letter_carrier postman zookeeper housekeeper cleaner bookkeeper "
    "marine soldier sailor medic sparky tradie dev pm rn np sde swe ceo cto cfo coo vp hr qa emt")
DEGREE_EN = r"(?:ph\.?d\.?|phd|mba|master'?s|masters|msc|m\.?s\.?|ma|bachelor'?s|ba|bsc|b\.?s\.?|" \
            r"md|jd|law degree|degree|doctorate|postdoc)"
SCHOOL_KIND_EN = "med|medical|law|grad|graduate|nursing|dental|business|art|film|culinary|" \
                 "high|vet|pharmacy|engineering"
BUSINESS_EN = alternation(
    "bakery restaurant café cafe coffee shop store shop bar pub salon studio gym farm "
    "company business startup firm agency clinic practice food_truck")
ORG_NOUN_EN = alternation(
    "hospital clinic school university college bank bakery café cafe restaurant store shop "
    "office company firm agency lab startup factory warehouse hotel gym library museum "
    "church center centre studio plant mill garage salon hospice pharmacy department "
    "nonprofit charity consultancy bar pub farm supermarket group law_firm school_district "
    "place joint dealership chain brewery winery bookstore daycare nursery preschool llp llc "
    "kitchen diner bistro")
JOB_SUFFIX_ZH = alternation(
    "工程师 设计师 程序员 老师 教师 医生 护士 药剂师 律师 会计 记者 作家 厨师 研究员 经理 "
    "主管 总监 总裁 老板 司机 警察 消防员 公务员 销售 客服 编辑 翻译 咨询师 分析师 顾问 "
    "柜员 店员 服务员 快递员 外卖员 保安 保姆 主播 博主 画家 歌手 演员 摄影师 教练 "
    "工人 技术员 产品经理 运营 会计师 审计师 建筑师 兽医 教授 讲师 助理 秘书 实习生 店长 校长 院长 "
    "部长 组长 科长 厂长 处长 局长 班长 队长 社长 行长 主任 自由职业者 家教 渔民 护工 月嫂 "
    "保洁 船长 船员 乘务员 空姐 快递小哥 导游 收银 裁缝 木匠 农民 果农 菜农 个体户 老板娘 模特 "
    "军人 法官 警官 村干部 厨子 大夫 保育员")
# What a department's name ends with (急诊科, 销售部, 培训中心, 城东支行): a transfer goes to one.
DEPARTMENT_END_ZH = alternation("科 部 中心 处 分行 支行 分公司 门诊 病区 车间 分院 总部 分店")
JOB_FIELD_ZH = alternation(
    "数据分析 风控 后端 前端 产品 设计 测试 运营 销售 开发 研发 算法 财务 会计 人事 市场 "
    "法务 行政 编辑 翻译 咨询 客服 外贸 投资 审计 运维 硬件 软件 嵌入式 UI 交互 "
    "策划 文案 调度 剪辑 推广 电商 跨境电商 "
    "HR SDE PM QA IT")
ORG_SUFFIX_ZH = alternation(
    "公司 银行 医院 学校 大学 集团 工厂 企业 外企 国企 央企 事务所 研究所 研究院 机构 "
    "诊所 餐厅 饭店 酒店 超市 商场 门店 工作室 律所 报社 电视台 政府 部门 中心")

# -- food --------------------------------------------------------------------------------

DIET_EN = alternation(
    "vegan vegetarian pescatarian pescetarian keto paleo halal kosher gluten-free "
    "dairy-free lactose-free low-carb low_carb plant-based carnivore flexitarian "
    "whole30 raw_vegan intermittent_fasting")
DIET_ZH = {"全素": "全素", "纯素": "纯素", "吃素": "素食", "素食": "素食", "吃斋": "素食",
           "生酮": "生酮", "清真": "清真",
           "无麸质": "无麸质", "低碳水": "低碳水", "轻断食": "轻断食"}

# Foods and drinks given up or avoided ("gave up red meat", "so no sugary desserts").
FOOD_EN = alternation(
    "meat red_meat pork beef chicken poultry lamb fish seafood shellfish dairy milk cheese eggs "
    "egg gluten wheat bread carbs sugar sweets desserts dessert candy chocolate alcohol booze "
    "beer wine caffeine coffee soda junk_food fast_food fried_food processed_food nuts "
    "peanuts soy meat_products animal_products")

# -- channels ----------------------------------------------------------------------------

CHANNEL_EN = alternation(
    "wechat e-mail email slack telegram whatsapp sms phone dingtalk lark feishu qq viber "
    "landline imessage messenger discord skype zoom texting text text_message phone_call "
    "zulip facetime instagram linkedin snapchat mattermost google_chat kakaotalk wechat_work")
CHANNEL_EN_CASED = alternation("Teams Signal LINE Line")  # everyday words in lower case
CHANNEL_ZH = alternation(
    "微信 邮件 邮箱 电子邮件 Slack slack 钉钉 飞书 电话 短信 QQ qq Telegram WhatsApp 座机 "
    "手机 企业微信 Teams 语音 Discord")

# -- events and deliverables -------------------------------------------------------------

EVENT_ZH = alternation("聚会 派对 婚礼 旅行 旅游 晚餐 晚宴 活动 面试 演出 发布会 项目 聚餐 年会 "
                       "露营 野餐 考试 手术 寿宴 婚宴 生日宴 体检 答辩 典礼") + \
    "|会议(?!室)"
EVENT_EN = alternation(
    "party wedding meeting trip dinner event project interview offsite conference launch "
    "release concert vacation anniversary appointment birthday graduation exam surgery "
    "ceremony reunion recital funeral")
DELIVERABLE_ZH = alternation("论文 报告 申请 作业 提案 方案 项目 标书")
DELIVERABLE_EN = alternation(
    "report thesis dissertation application proposal assignment homework paper essay "
    "project taxes tax_return slides deck presentation manuscript draft portfolio")

# -- places ------------------------------------------------------------------------------

# Provinces and big cities: "我是广东的" names a place only when the place is known.
_PLACES_ZH_TEXT = """
    北京 天津 上海 重庆 河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东
    河南 湖北 湖南 广东 海南 四川 贵州 云南 陕西 甘肃 青海 台湾 内蒙古 广西 西藏
    宁夏 新疆 香港 澳门 东北 潮汕 广州 深圳 杭州 南京 苏州 成都 武汉 西安 长沙
    郑州 青岛 厦门 大连 沈阳 哈尔滨 济南 合肥 福州 昆明 南昌 贵阳 南宁 宁波 无锡
    温州 东莞 佛山 珠海 汕头 石家庄 太原 长春 兰州 乌鲁木齐 拉萨 海口 三亚 大理
    丽江 桂林 扬州 徐州 洛阳 美国 英国 日本 韩国 加拿大 澳洲 澳大利亚 新加坡 德国
    法国 意大利"""
# Prefecture-level cities (and Taiwan's) that jieba tags as common nouns or does not know
# (周口, 烟台, 绵阳 are "n" to it): not those that are also everyday words (白银 silver, 安康
# wellbeing, 来宾 guest, 普洱 tea, 朝阳 morning sun, 大同 and 长治 of idioms).
_CITIES_ZH_TEXT = """
    唐山 秦皇岛 邯郸 邢台 保定 张家口 承德 沧州 廊坊 衡水 阳泉 晋城 朔州 晋中 运城 忻州
    临汾 吕梁 包头 乌海 赤峰 通辽 鄂尔多斯 呼伦贝尔 巴彦淖尔 乌兰察布 呼和浩特 鞍山 抚顺
    本溪 丹东 锦州 营口 阜新 辽阳 盘锦 铁岭 葫芦岛 四平 辽源 通化 白山 松原 白城 延吉
    齐齐哈尔 鸡西 鹤岗 双鸭山 大庆 伊春 佳木斯 七台河 牡丹江 黑河 绥化 常州 南通 连云港
    淮安 盐城 镇江 泰州 宿迁 嘉兴 湖州 绍兴 金华 衢州 舟山 台州 丽水 芜湖 蚌埠 淮南
    马鞍山 淮北 铜陵 安庆 黄山 滁州 阜阳 宿州 六安 亳州 池州 宣城 莆田 三明 泉州 漳州
    南平 龙岩 宁德 景德镇 萍乡 九江 新余 鹰潭 赣州 吉安 宜春 抚州 上饶 淄博 枣庄 东营
    烟台 潍坊 济宁 泰安 威海 日照 临沂 德州 聊城 滨州 菏泽 开封 平顶山 安阳 鹤壁 新乡
    焦作 濮阳 许昌 漯河 三门峡 南阳 商丘 信阳 周口 驻马店 黄石 十堰 宜昌 襄阳 鄂州 荆门
    孝感 荆州 黄冈 咸宁 随州 恩施 仙桃 潜江 天门 株洲 湘潭 衡阳 邵阳 岳阳 常德 张家界
    益阳 郴州 永州 怀化 娄底 湘西 韶关 江门 湛江 茂名 肇庆 惠州 梅州 汕尾 河源 阳江
    清远 中山 潮州 揭阳 云浮 顺德 柳州 梧州 北海 防城港 钦州 贵港 玉林 百色 贺州 河池
    崇左 儋州 自贡 攀枝花 泸州 德阳 绵阳 广元 遂宁 内江 乐山 南充 眉山 宜宾 广安 达州
    雅安 巴中 资阳 六盘水 遵义 安顺 毕节 铜仁 凯里 曲靖 玉溪 保山 昭通 临沧 楚雄 红河
    文山 西双版纳 德宏 铜川 宝鸡 咸阳 渭南 延安 汉中 榆林 商洛 嘉峪关 金昌 天水 武威
    张掖 平凉 酒泉 庆阳 定西 陇南 西宁 银川 石嘴山 吴忠 固原 中卫 克拉玛依 吐鲁番 哈密
    喀什 伊犁 日喀则 林芝 台北 台中 台南 高雄 新竹 基隆 嘉义 桃园"""
WELL_KNOWN_PLACES_ZH = frozenset(_PLACES_ZH_TEXT.split())
PLACES_ZH = WELL_KNOWN_PLACES_ZH | frozenset(_CITIES_ZH_TEXT.split())

# -- pastimes ----------------------------------------------------------------------------

# What people do for fun (sports, classes, crafts, groups), in each language: one list for
# the rules and for retrieval (graphmem.text.topics).
ACTIVITIES_EN = topics.ACTIVITIES_EN
ACTIVITIES_ZH = topics.ACTIVITIES_ZH
# Of those, the ones learnt (a class of them is studied): an ending ends the study too.
_LEARNT_ZH_TEXT = """
    书法 国画 油画 水彩 素描 画画 摄影 钢琴 古筝 吉他 尤克里里 二胡 小提琴 大提琴 架子鼓 笛子 葫芦丝
    口琴 萨克斯 粤曲 南音 京剧 越剧 黄梅戏 昆曲 豫剧 烘焙 插花 陶艺 编织 钩针 刺绣"""
LEARNT_ZH = frozenset(_LEARNT_ZH_TEXT.split())

# -- study -------------------------------------------------------------------------------

# What "learning X" studies: a language ("learning Japanese on Duolingo"); learning the
# guitar or to cook is a hobby or a plan, not a field of study.
LANGUAGE_EN = alternation(
    "English Spanish French German Italian Portuguese Dutch Swedish Norwegian Danish Finnish "
    "Polish Russian Ukrainian Greek Turkish Arabic Hebrew Persian Farsi Hindi Urdu Bengali "
    "Punjabi Tamil Mandarin Cantonese Chinese Japanese Korean Vietnamese Thai Indonesian "
    "Tagalog Swahili Latin ASL sign_language")
# A school year or level (高三, 二年级, 大班, 初中; "year 9", "3rd grade"): a state the next one
# replaces — a child in 三年级 is in 四年级 a year on.
SCHOOL_YEAR_ZH = (r"(?:[一二三四五六1-6]年级|初[一二三]|高[一二三]|大[一二三四]|研[一二三]|"
                  r"博[一二三四五]|(?:幼儿园)?[小中大]班)")
SCHOOL_LEVEL_ZH = r"(?:小学|初中|高中|幼儿园)"
SCHOOL_YEAR = re.compile(rf"^(?:[\u4e00-\u9fff]{{0,6}}?(?:{SCHOOL_YEAR_ZH}|{SCHOOL_LEVEL_ZH})|"
                         r"(?i:(?:grade|year)\s*\d+|\d+(?:st|nd|rd|th)\s+grade|"
                         r"(?:senior\s+|junior\s+)?kindergarten))$")

# A field said before "student" ("a second-year law student").
FIELD_EN = alternation(
    "law med medical medicine nursing engineering architecture art music film business "
    "economics history math maths physics chemistry biology psychology philosophy pharmacy "
    "dental dentistry design journalism education computer_science CS physio physiotherapy "
    "vet_school veterinary_medicine sports_science kinesiology accounting finance marketing "
    "sociology politics geography anthropology linguistics nutrition midwifery social_work "
    "criminology statistics biomed biomedical_science zoology agriculture MBBS")

# -- tools -------------------------------------------------------------------------------

# Everyday Chinese apps named in Chinese (a tool named in Latin letters needs no list).
TOOL_ZH = alternation(
    "飞书文档 腾讯文档 石墨文档 金山文档 语雀 印象笔记 有道云笔记 幕布 滴答清单 多邻国 百词斩 扇贝 "
    "随手记 鲨鱼记账 剪映 美图秀秀 醒图 百度网盘 夸克 有道词典 网易云音乐 QQ音乐 高德地图 百度地图")


# A relative, each said many ways: the lexicon's key (facts/normalize.py files their facts
# under it) and, here, who "she" / "he" may be (母亲节 … 我妈: one mother, not two people).
KIN_LEXICON: dict[str, tuple[str, ...]] = {
    "girlfriend": ("女朋友", "女友", "girlfriend", "gf"),
    "boyfriend": ("男朋友", "男友", "boyfriend", "bf"),
    "fiance": ("未婚妻", "未婚夫", "fiancé", "fiancée", "fiance", "fiancee"),
    "wife": ("老婆", "妻子", "太太", "爱人", "媳妇", "wife"),
    "husband": ("老公", "丈夫", "husband"),
    "partner": ("对象", "伴侣", "老伴", "partner", "spouse"),
    "mother": ("妈妈", "母亲", "老妈", "妈", "mom", "mother", "mum", "mommy", "mama"),
    "father": ("爸爸", "父亲", "老爸", "爸", "dad", "father", "daddy", "papa"),
    "parents": ("父母", "爸妈", "parents"),
    "sister": ("姐姐", "妹妹", "姐", "妹", "sister"),
    "brother": ("哥哥", "弟弟", "哥", "弟", "brother"),
    "grandmother": ("奶奶", "外婆", "姥姥", "grandma", "grandmother", "granny", "gran",
                    "nana"),
    "grandfather": ("爷爷", "外公", "姥爷", "grandpa", "grandfather", "granddad",
                    "grandad"),
    "aunt": ("姑姑", "姨妈", "小姨", "舅妈", "aunt", "auntie"),
    "son-in-law": ("女婿", "son-in-law"),
    "daughter-in-law": ("儿媳", "儿媳妇", "daughter-in-law"),
    "uncle": ("舅舅", "叔叔", "伯伯", "姑父", "uncle"),
    "cousin": ("表哥", "表姐", "表妹", "表弟", "堂哥", "堂姐", "cousin"),
    "manager": ("经理", "老板", "领导", "上司", "主管", "manager", "boss"),
    "supervisor": ("supervisor",),  # a thesis's as often as a shift's: not the boss
    "colleague": ("同事", "colleague", "coworker", "co-worker", "labmate"),
    "friend": ("朋友", "好朋友", "闺蜜", "friend", "best friend", "bff", "buddy"),
    "roommate": ("室友", "roommate", "flatmate"), "classmate": ("同学", "classmate"),
    "son": ("儿子", "son"), "daughter": ("女儿", "闺女", "daughter"),
    "kids": ("孩子", "宝宝", "kids", "children"),
    "mother-in-law": ("婆婆", "岳母", "丈母娘", "mother-in-law"),
    "father-in-law": ("公公", "岳父", "老丈人", "father-in-law"),
    "sister-in-law": ("嫂子", "弟媳", "sister-in-law"),
    "brother-in-law": ("姐夫", "妹夫", "brother-in-law"),
    "niece": ("侄女", "外甥女", "niece"), "nephew": ("侄子", "外甥", "nephew"),
    "grandchild": ("孙子", "孙女", "grandson", "granddaughter"),
}
KIN_KEY = {alias.lower(): key for key, aliases in KIN_LEXICON.items() for alias in aliases}
