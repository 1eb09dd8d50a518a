"""Chinese typed in traditional characters (Hong Kong, Taiwan, Macau), read the simplified
way: the rules are written in simplified characters, so "我們準備搬家到寶安坪洲" is read as
"我们准备搬家到宝安坪洲" (OpenCC's t2s conversion), and what a rule takes from it — a value, a
name, the clause it came from — is given back in the characters the user typed (寶安坪洲,
not 宝安坪洲) wherever the reading kept every character in its place.
"""

from __future__ import annotations

from functools import cache
from typing import Any


@cache
def _converter() -> Any:
    import opencc

    return opencc.OpenCC("t2s")


def simplified(text: str) -> str:
    """``text`` in simplified characters (unchanged when it has no traditional ones)."""
    return _converter().convert(text)


def as_typed(part: str, read: str, typed: str) -> str:
    """``part`` of the sentence as read (``read``) in the characters of the sentence as typed
    (``typed``): the same place in it when the reading kept every character in its place,
    else ``part`` itself."""
    if read == typed or len(read) != len(typed) or not part:
        return part
    at = read.find(part)
    return typed[at:at + len(part)] if at >= 0 else part
