"""Chinese typed with English words for the people in it ("my bf 是建筑师", "我bf在华为上班",
"跟my mom吵架了"): the person is said the Chinese way (我男朋友是建筑师), so the rules that
find who a clause is about see them — not the user, who the clause would otherwise be
given to. Only kin and partner words, where no letter touches them."""

from __future__ import annotations

import re

_KIN = {"bf": "男朋友", "boyfriend": "男朋友", "gf": "女朋友", "girlfriend": "女朋友",
        "hubby": "老公", "husband": "老公", "wife": "老婆", "mom": "妈妈", "mum": "妈妈",
        "mommy": "妈妈", "dad": "爸爸", "daddy": "爸爸", "roommate": "室友",
        "flatmate": "室友", "bestie": "闺蜜", "bff": "好朋友", "boss": "老板",
        "fiance": "未婚夫", "fiancé": "未婚夫", "fiancee": "未婚妻", "fiancée": "未婚妻"}
# Said bare, these are the user's own (bf说…); the others need "my" (boss直聘 is a site).
_BARE = ("bf", "gf", "hubby", "bestie", "bff")
_MIXED = re.compile(rf"(?<![A-Za-z])(?:(?i:my)\s*(?P<kin>(?i:{'|'.join(_KIN)}))"
                    rf"|(?P<bare>(?i:{'|'.join(_BARE)})))(?![A-Za-z])\s*")


def kin_in_chinese(text: str) -> str:
    """``text`` with the English kin words of a Chinese sentence said in Chinese."""
    if not re.search(r"[A-Za-z]", text):
        return text

    def said(m: re.Match[str]) -> str:
        if m.group("kin"):
            return "我" + _KIN[m.group("kin").lower()]
        before = text[:m.start()]
        return ("" if before.endswith(("我", "我的")) else "我") + _KIN[m.group("bare").lower()]

    return _MIXED.sub(said, text)
