"""What a chat message is, as text: a filler (好的, ok, thanks, 👍), an intent-switch
marker opening a clause (另外, by the way), and the goal and result an episode's messages
state. Pure code, used by the splitter and by extraction."""

from __future__ import annotations

import re
from collections.abc import Sequence

from graphmem._models import Message

SWITCH_MARKERS_ZH = (
    "另外", "换个话题", "回到", "还有一个问题", "还有个问题", "接下来", "顺便问",
    "顺便说", "对了", "话说", "再问一个", "另一个问题", "说回",
)
SWITCH_MARKERS_EN = (
    "by the way", "btw", "another question", "back to", "switching topics",
    "switching gears", "change of topic", "changing the subject", "on another note",
    "different question", "new topic", "unrelated", "one more thing", "moving on",
    "next question", "also, another",
)
_CLAUSE_START = r"(?:^|[。！？!?.;；，,\n]\s*)"
_MARKER_RE = re.compile(
    _CLAUSE_START + "(?:" + "|".join(re.escape(m) for m in SWITCH_MARKERS_ZH) + ")"
    + "|" + _CLAUSE_START + r"(?:" + "|".join(re.escape(m) for m in SWITCH_MARKERS_EN)
    + r")\b",
    re.IGNORECASE,
)
_FILLER_WORDS = (
    "好的", "好滴", "好", "嗯嗯", "嗯", "哦", "噢", "ok", "okay", "okey", "k", "thanks",
    "thankyou", "thx", "ty", "谢谢你", "谢谢", "多谢", "感谢", "收到", "行", "可以", "没问题",
    "是的", "对", "sure", "gotit", "cool", "great", "alright", "yes", "yep", "yeah", "nice",
    "perfect", "哈哈", "呵呵", "好嘞", "了解", "明白", "noted", "sounds good", "soundsgood",
    "awesome", "np", "ack", "啊", "呀", "啦",
)
_FILLER_RE = re.compile("^(?:" + "|".join(sorted(map(re.escape, _FILLER_WORDS),
                                                   key=len, reverse=True)) + ")*$")
_STRIP_RE = re.compile(r"[\s\W_]+", re.UNICODE)
_CLAUSE_SPLIT = re.compile(r"[。！？!?;；\n]+|(?<=[，,])|(?<=\.)\s+")
_POLITE_PREFIX = re.compile(
    r"^(?:(?:请|麻烦|帮我|帮忙|能不能|可以|可不可以|你能|我想|我要|想|我需要|请你|您能|"
    r"给我|帮)\s*)+|^(?:(?:hi|hello|hey|please|can you|could you|would you|help me|"
    r"i want to|i'd like to|i would like to|i need to|i need you to|let's|let us|"
    r"ok|okay|sure|so)\b[\s,]*)+",
    re.IGNORECASE,
)
_LEADING_FILLER = re.compile(
    r"^(?:好的|好|嗯|ok|okay|sure|alright|great|got it|thanks|明白了?|了解|收到)[\s,，。.!！]*",
    re.IGNORECASE,
)
_GREETING = re.compile(r"^(?:hi|hello|hey|你好|您好|嗨|哈喽|早上好|晚上好)\W*$", re.IGNORECASE)


def is_filler(text: str) -> bool:
    """True for pleasantries that carry no action: 好的, 嗯, ok, thanks, 👍 ..."""
    squeezed = _STRIP_RE.sub("", text.lower())
    return len(squeezed) <= 12 and bool(_FILLER_RE.match(squeezed))


def has_switch_marker(text: str) -> bool:
    """True when a clause of ``text`` opens with an intent-switch marker."""
    return bool(_MARKER_RE.search(text.strip()))


def truncate(text: str, limit: int) -> str:
    """Cut ``text`` to ``limit`` characters, at a word boundary for Latin text."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit * 0.6 and cut.isascii():
        cut = cut[:space]
    return cut.rstrip(" ,，.。;；:：") + "…"


def _clauses(text: str) -> list[str]:
    parts = [p.strip(" ，,.。:：") for p in _CLAUSE_SPLIT.split(text)]
    return [p for p in parts if p and not _GREETING.match(p) and not is_filler(p)]


def _strip_marker(text: str) -> str:
    match = _MARKER_RE.match(text.strip())
    return text.strip()[match.end():].lstrip(" ，,：:") if match else text


def summarize_goal(messages: Sequence[Message], limit: int = 40) -> str:
    """The goal: the first clause of the first substantive user message, de-politened."""
    for msg in messages:
        if msg.role != "user" or is_filler(msg.content):
            continue
        for clause in _clauses(_strip_marker(msg.content)):
            core = _POLITE_PREFIX.sub("", clause).strip(" ，,")
            if core:
                return truncate(core, limit)
    first = next((m for m in messages if not is_filler(m.content)), messages[0])
    return truncate(first.content, limit)


def summarize_result(messages: Sequence[Message], limit: int = 60) -> str:
    """The result: the first sentence of the last substantive assistant reply."""
    for role in ("assistant", "tool", "user"):
        for msg in reversed(messages):
            if msg.role != role or is_filler(msg.content):
                continue
            text = _LEADING_FILLER.sub("", msg.content.strip())
            sentences = [s for s in re.split(r"(?<=[。！？!?])|(?<=\.)\s+", text) if s.strip()]
            if sentences:
                return truncate(sentences[0].strip(), limit)
    return ""
