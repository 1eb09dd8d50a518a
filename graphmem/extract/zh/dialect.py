"""Chinese typed in a dialect, read as Mandarin: the rules are written for Mandarin words, so
a Cantonese "我系兽医 喺天河一间宠物医院做嘢 我唔食芫荽" or a northwestern "额是退休的中学物理老师"
is first said the Mandarin way (我是兽医 在天河一间宠物医院做东西 我不吃芫荽; 我是退休的…),
and so is a Hokkien 阮牵手 (我老婆).

Only what cannot be Mandarin changes: characters that are Cantonese alone (佢 喺 嘅 咗 冇 啲
嘢 睇 瞓 唔 乜, final particles 㗎 喎 咩), Cantonese words (钟意, 屋企, 细佬, 家姐, 依家, 拍拖,
一齐, 仲有), and only in a sentence that has one of them, 系 and 食 where Cantonese puts
them (after a pronoun or a negation), and 额 / 俺 as "I" where a clause opens with them or
they follow a verb that takes a person (金额, 销售额, 额外 stay).
"""

from __future__ import annotations

import re

_WORDS = (("钟意", "喜欢"), ("屋企", "家"), ("细佬", "弟弟"), ("家姐", "姐姐"),
          ("拍拖", "谈恋爱"), ("返工", "上班"), ("而家", "现在"), ("依家", "现在"),
          ("边度", "哪里"), ("点解", "为什么"), ("乜嘢", "什么"), ("冇", "没有"),
          ("一齐", "一起"), ("仲有", "还有"), ("仲系", "还是"), ("话系", "说是"), ("話係", "說是"))
_CHARS = str.maketrans({"佢": "他", "喺": "在", "嘅": "的", "咗": "了", "啲": "些",
                        "嘢": "东西", "睇": "看", "瞓": "睡", "唔": "不", "乜": "什么",
                        "咩": "吗", "㗎": "", "喎": "", "囉": "", "啫": "", "嘞": "了"})
_CANTONESE = re.compile("[佢喺嘅咗冇啲嘢睇瞓唔乜咩㗎喎囉啫嘞]|钟意|屋企|细佬|家姐|依家")
# 系 / 食 where Cantonese has them: 我系兽医, 佢系设计师; 唔食芫荽, 钟意食海鲜.
_IS = re.compile(r"(?<=[我你他她它佢都就也又仲唔])系(?![统列数列])")
_EAT = re.compile(r"(?<=[不没喜欢想要去会])食(?![物品堂材谱量欲])")
# 额 (northwestern "I") opening a clause or after a verb that takes a person.
_I = re.compile(r"(?:^|(?<=[\s，,。！!？?；;：:、（(]|[跟给用让叫和是对])|(?<=都是))额"
                r"(?=[是有在不也就想要爱喜都还们家自的和跟给能会听说教报去来年这那一"
                r"妈爸娘哥姐弟妹爷奶婆媳儿女孙闺舅姨姑叔伯])")
# 娘 for mother after "my" (俺娘, 我娘, 额娘 — not 姑娘, 新娘, 老板娘, nor 娘家: a married
# woman's parents' home).
_MOTHER = re.compile(r"(?<=[我俺])娘(?!家)")


# Hokkien (闽南) typed in Mandarin characters: 阮 for 我 / 我们, and its kin words after it
# (阮牵手 my wife, 阮后生 my son, 阮查某囝 my daughter, 阮孙仔 my grandson, 阮厝 my home) — read
# only in a message that says one of those pairs (阮 is also a surname: 阮老师).
_HOKKIEN = re.compile("阮(?:牵手|后生|查某|孙仔|新?厝|某|翁|阿爸|阿母|阿公|阿嬷)")
_HOKKIEN_WORDS = (("阮牵手", "我老婆"), ("阮后生", "我儿子"), ("阮查某囝", "我女儿"),
                  ("阮查某仔", "我女儿"), ("阮孙仔", "我孙子"), ("阮新厝", "我新家"),
                  ("阮厝", "我家"), ("阮某", "我老婆"), ("阮翁", "我老公"), ("阮阿爸", "我爸爸"),
                  ("阮阿母", "我妈妈"), ("阮阿公", "我爷爷"), ("阮阿嬷", "我奶奶"))
_HOKKIEN_I = re.compile(r"阮(?!先生|小姐|女士|老师|经理|总|姓|家[^里])")


def mandarin(text: str) -> str:
    """``text`` with its dialect words said the Mandarin way (unchanged when it has none)."""
    if "额" in text:
        text = _I.sub("我", text)
    if "娘" in text:
        text = _MOTHER.sub("妈", text)
    if "阮" in text and _HOKKIEN.search(text):
        for word, said in _HOKKIEN_WORDS:
            text = text.replace(word, said)
        text = _HOKKIEN_I.sub("我", text)
    if not _CANTONESE.search(text):
        return text
    for word, said in _WORDS:
        text = text.replace(word, said)
    text = _IS.sub("是", text.translate(_CHARS))
    return _EAT.sub("吃", text)
