"""Topics a question names by a general word, and the words that say one in a message:
"what sports have I done this year" is answered by "Gaurav dragged me to badminton", "谁有
忌口" by "他芒果过敏". Retrieval counts a message's word of a topic as the question's word
for it (``asked``, ``said``); the rules read the pastimes from here too."""

from __future__ import annotations

import re
from functools import lru_cache

from graphmem.text.words import stem

# -- pastimes ----------------------------------------------------------------------------

# What people do for fun, regularly (a sport, a class, a craft, a group): "started doing
# the cooks river parkrun on saturdays" is a pastime, "doing my taxes every evening" is not.
_ACTIVITIES_EN_TEXT = """
    yoga pilates barre zumba aquafit aerobics crossfit spin spinning gym workout workouts
    watercolour watercolor watercolours watercolors
    weights lifting weightlifting parkrun running jogging swimming swim cycling biking
    climbing bouldering hiking walking rambling tennis pickleball badminton squash golf
    soccer football futsal basketball volleyball netball rugby cricket hockey baseball
    softball bowling bowls curling skating skiing snowboarding surfing kayaking canoeing
    rowing paddleboarding sailing fishing boxing kickboxing karate judo taekwondo jiu-jitsu
    bjj aikido fencing archery triathlon marathon dance dancing ballet salsa tango
    choir band orchestra piano guitar violin cello drums ukulele singing karaoke pottery
    ceramics woodworking carpentry knitting crochet sewing quilting embroidery painting
    drawing sketching photography gardening birdwatching birding chess poker trivia quiz
    bingo reading writing poetry meditation tai-chi qigong volunteering scouts frisbee
    darts leatherwork leathercraft calligraphy mahjong"""
ACTIVITIES_EN = frozenset(_ACTIVITIES_EN_TEXT.split())

# What people in Chinese do for fun, said as an activity: sports, dances, arts, music,
# games. A pastime rule (zh/habits.py) needs one of these words to say a hobby.
_ACTIVITIES_ZH_TEXT = """
    游泳 冬泳 跑步 夜跑 晨跑 长跑 慢跑 马拉松 半马 全马 健身 撸铁 爬山 登山 徒步 钓鱼 冰钓
    滑雪 滑冰 轮滑 滑板 骑车 骑行 攀岩 抱石 冲浪 潜水 划船 皮划艇 桨板 飞盘 骑马 射箭
    瑜伽 普拉提 八段锦 太极拳 太极 气功 五禽戏 广场舞 坝坝舞 交谊舞 拉丁舞 街舞 跳舞 舞蹈
    羽毛球 乒乓球 网球 篮球 足球 排球 高尔夫 台球 保龄球 匹克球 壁球 门球 拳击 搏击 跆拳道
    空手道 柔道 剑道 击剑 跳绳 健步走 暴走 书法 国画 油画 水彩 素描 画画 摄影 钢琴 古筝
    吉他 尤克里里 二胡 小提琴 大提琴 架子鼓 笛子 葫芦丝 口琴 萨克斯 合唱 粤曲 南音 京剧
    越剧 黄梅戏 昆曲 豫剧 麻将 象棋 围棋 桥牌 掼蛋 烘焙 插花 陶艺 编织 钩针 刺绣 十字绣
    园艺 露营 观鸟 剧本杀 桌游 乐高 手账 义工 志愿者"""
ACTIVITIES_ZH = frozenset(_ACTIVITIES_ZH_TEXT.split())

# -- health ------------------------------------------------------------------------------

# What says a health matter or a diet in a message: a condition, an allergy, an injury, an
# operation, a medicine, a diet kept for health or belief.
_HEALTH_EN_TEXT = """
    allergic allergy allergies intolerant intolerance lactose gluten coeliac celiac diabetes
    diabetic prediabetic vegetarian vegan veggie pescatarian asthma arthritis copd cancer
    cataract cataracts surgery operation epipen gout anaemic anemic anaemia anemia thyroid
    hyperthyroidism hypothyroidism dementia alzheimer's parkinson's stroke migraine migraines
    eczema pregnant pregnancy injury injured sprain sprained fracture fractured physio
    physiotherapy medication meds insulin metformin hba1c cholesterol afib hypertension
    kidney heart knee knees hip hips wrist ankle shoulder tendonitis sciatica diagnosed
    gastritis ulcer infection concussion chemo"""
HEALTH_EN = frozenset(_HEALTH_EN_TEXT.split())
_HEALTH_ZH_TEXT = """
    过敏 糖尿病 高血压 低血压 血糖 血压 血脂 高血脂 胆固醇 手术 哮喘 关节炎 痛风 乳糖不耐 素食 吃素
    吃斋 全素 纯素 忌口 住院 骨折 扭伤 拉伤 甲亢 甲减 甲状腺 癌 中风 失眠 抑郁 焦虑 怀孕 湿疹 鼻炎
    颈椎 腰椎 膝盖 膝关节 心脏 胃病 胃炎 贫血 白内障 腰肌劳损 腰间盘 椎间盘 三高 血糖偏高 药 体检
    感染 发烧 过敏性 不耐受 心梗 脑梗 咳嗽 慢阻肺"""
HEALTH_ZH = frozenset(_HEALTH_ZH_TEXT.split())

# -- what a question names a topic by ----------------------------------------------------

# A topic: the words a question names it by (English as words, Chinese as written) and
# the words a message says one of it with.
_TOPICS: dict[str, tuple[str, str, frozenset[str], frozenset[str]]] = {
    "pastime": (
        "hobby hobbies sport sports sporty activity activities exercise exercises fitness "
        "pastime pastimes club clubs group groups class classes",
        "爱好 兴趣 兴趣爱好 运动 锻炼 健身 活动 业余",
        ACTIVITIES_EN | {"club", "choir", "team", "league", "lessons", "class"},
        ACTIVITIES_ZH | {"俱乐部", "班", "队", "协会", "合唱团"}),
    "health": (
        "health healthwise medical condition conditions illness illnesses allergy allergies "
        "allergic restriction restrictions dietary diet diets intolerance meds medication "
        "medications injury injuries hurt",
        "健康 身体 病 毛病 过敏 忌口 饮食 受伤 伤病",
        HEALTH_EN, HEALTH_ZH),
}


_TRIGGERS = {topic: frozenset(stem(w) for w in f"{latin} {chinese}".split())
             for topic, (latin, chinese, _, _) in _TOPICS.items()}
_CHINESE_SAID = {topic: re.compile("|".join(sorted(map(re.escape, chinese), key=len,
                                                   reverse=True)))
                 for topic, (_, _, _, chinese) in _TOPICS.items()}
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


@lru_cache(maxsize=1024)
def asked(words: frozenset[str]) -> dict[str, str]:
    """The topics a question's content words (stems, as ``words.content_words`` gives them)
    name, each with the word it names it by."""
    out: dict[str, str] = {}
    for topic, triggers in _TRIGGERS.items():
        named = sorted(words & triggers)
        if named:
            out[topic] = named[0]
    return out


@lru_cache(maxsize=1 << 15)
def said(text: str, topic: str) -> bool:
    """Whether ``text`` says a thing of ``topic`` ("badminton", "过敏"). (A set lookup of
    each Latin word: an alternation of the words is ten times slower on long replies.)"""
    if _CHINESE_SAID[topic].search(text):
        return True
    latin = _TOPICS[topic][2]
    return any(w.lower() in latin for w in _LATIN_WORD.findall(text))


def members(topic: str, chinese: bool) -> frozenset[str]:
    """The words that say a thing of ``topic`` in one language ("badminton", "羽毛球")."""
    return _TOPICS[topic][3 if chinese else 2]
