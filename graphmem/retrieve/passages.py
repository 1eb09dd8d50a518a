"""Passages (pipeline stage 5c): the messages of past episodes that answer a question, in
the speakers' own words. Pure code, no I/O.

Candidate messages come ranked from several channels (``recall``); ``fuse`` combines the
rankings by weighted reciprocal rank, and ``recall`` weighs each fused score by the
message's coverage of the question's words (``lexical_scores``). A passage is a ranked
message, with the message after it when it is a question (what answers it); passages of
one session that touch merge. What a passage shows of a long message is the sentences
that share the question's words (an English card is not cut to the 50 characters the
article sized for Chinese).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import lru_cache
from itertools import pairwise
from math import fsum

from graphmem.text import topics
from graphmem.text.language import is_chinese, split_speaker
from graphmem.text.sentences import mask_abbreviations, unmask
from graphmem.text.tokens import count_tokens
from graphmem.text.words import QUERY_STOPWORDS, STEM_CHARS, content_words, stem

ELLIPSIS = " … "
# A sentence ends at . ! ? followed by a space (closing quotes and brackets stay with it),
# after 。！？, or at a line break — not inside "5.8%", "0.5 mg", "e.g." or "Dr. Lee"; and
# where Chinese typed without stops pauses with a space after a character ("跑完了 现在在楚运
# 冷链 … 现在跟我搭班的是小李 河南人25岁": each piece a sentence a trim may keep).
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]”’]*(?=\s)|[。！？]+[”’」』）)]*|\n"
                           r"|(?<=[\u4e00-\u9fff])[ \t\u3000]+(?=\S)")
_QUESTION_END = re.compile(r"[?？]\s*[)\]\"'”’]*\s*$")
ROLE_LABELS = {"user": "User", "assistant": "Assistant", "tool": "Tool"}


Key = tuple[str, int]  # (session_id, msg_id)


@dataclass(frozen=True)
class Line:
    """One raw message as retrieval sees it."""

    event_id: str
    session_id: str
    msg_id: int
    role: str
    content: str
    ts: datetime
    message_id: str = ""  # the Message node's id

    @property
    def key(self) -> Key:
        return (self.session_id, self.msg_id)


@dataclass
class Passage:
    """Consecutive messages of one episode, shown together under their date."""

    event_id: str
    session_id: str
    lines: list[Line]
    score: float
    anchors: set[int] = field(default_factory=set)  # msg_ids that earned the passage

    @property
    def first(self) -> int:
        return self.lines[0].msg_id

    @property
    def last(self) -> int:
        return self.lines[-1].msg_id

    @property
    def start(self) -> datetime:
        return self.lines[0].ts


def speaker_and_text(line: Line) -> tuple[str, str]:
    """``("Caroline", "I went…")`` for a transcript line ``Caroline: I went…``; otherwise
    the role's label (User, Assistant) and the whole content."""
    speaker, text = split_speaker(line.content)
    return speaker or ROLE_LABELS.get(line.role, line.role.title()), text


def is_question(text: str) -> bool:
    return bool(_QUESTION_END.search(text.strip()))


def _names(lines: Sequence[Line]) -> set[str]:
    return {name for name, _ in (speaker_and_text(li) for li in lines)
            if name not in ROLE_LABELS.values()}


def lexical_scores(lines: Sequence[Line], query: str) -> dict[Key, float]:
    """Each line's share of the question's words, rarer words counting more (a word found
    in many of these lines says less about which one answers); a line that says a thing of
    a topic the question names holds the word it names it by (``with_topics``). Speakers'
    names do not count. 0 for a line sharing no word."""
    names = _names(lines)
    wanted = content_words(query, names)
    if not wanted:
        return {li.key: 0.0 for li in lines}
    texts = {li.key: speaker_and_text(li)[1] for li in lines}
    if any(is_chinese(w) for w in wanted):
        found = {key: content_words(text, names) & wanted for key, text in texts.items()}
    else:  # only Latin words wanted: find them, without stemming every word of every line
        find = _latin_finder(frozenset(wanted))
        found = {key: find(text) for key, text in texts.items()}
    if named := topics.asked(frozenset(wanted)):
        found = {key: with_topics(texts[key], words, named) for key, words in found.items()}
    frequency: dict[str, int] = {}
    for words in found.values():
        for w in words:
            frequency[w] = frequency.get(w, 0) + 1
    total = fsum(1.0 / frequency.get(w, 1) for w in wanted)  # fsum: the same in any order
    return {key: fsum(1.0 / frequency[w] for w in words) / total
            for key, words in found.items()}


def with_topics(text: str, words: set[str], named: dict[str, str]) -> set[str]:
    """``words`` (the question's words ``text`` holds) and the word the question names a
    topic by when ``text`` says a thing of it: "sport" in "Gaurav dragged me to badminton"
    for "what sports have I done this year", "忌口" in "他芒果过敏" (``topics.asked``)."""
    return words | {word for topic, word in named.items() if topics.said(text, topic)}


@lru_cache(maxsize=256)
def _latin_finder(wanted: frozenset[str]) -> Callable[[str], set[str]]:
    """Which of the ``wanted`` Latin stems a text holds, as ``content_words(text) & wanted``
    has them (a word's stem: its first five letters, or the whole word when shorter), by one
    regular expression over the text instead of stemming each of its words."""
    stems = sorted(wanted)
    end = r"['+-]*(?![A-Za-z0-9'+-])"

    def part(i: int, stem: str) -> str:
        if len(stem) < STEM_CHARS:  # the whole word ("what's" is one, "what" is not)
            suffix = "'s" if stem in QUERY_STOPWORDS else "(?:'s)?"
            return rf"(?P<w{i}>{re.escape(stem)}){suffix}{end}"
        function_words = [w for w in QUERY_STOPWORDS if w.startswith(stem)]  # "after"
        unless = (rf"(?!(?:{'|'.join(map(re.escape, function_words))}){end})"
                  if function_words else "")
        return rf"{unless}(?P<w{i}>{re.escape(stem)})"

    parts = [part(i, stem) for i, stem in enumerate(stems)]
    pattern = re.compile(r"(?<![A-Za-z0-9'+-])['+-]*(?:" + "|".join(parts) + ")",
                         re.IGNORECASE)

    def find(text: str) -> set[str]:
        return {stems[int(m.lastgroup[1:])] for m in pattern.finditer(text)
                if m.lastgroup is not None}
    return find


def fuse(rankings: Sequence[tuple[Sequence[Key], float]], k: int = 60
         ) -> list[tuple[Key, float]]:
    """Weighted reciprocal-rank fusion — graphmem's one fusion of rankings: score =
    Σ weight / (k + rank), best first (``RetrievalConfig.rrf_k``)."""
    scores: dict[Key, float] = {}
    for keys, weight in rankings:
        for rank, key in enumerate(dict.fromkeys(keys), start=1):
            scores[key] = scores.get(key, 0.0) + weight / (k + rank)
    return best_first(scores.items())


def diversify(ranked: Sequence[tuple[Key, float]], decay: float) -> list[tuple[Key, float]]:
    """Each further message of a session already ranked counts ``decay`` times less than
    the one before it: answers that span several conversations ("What books has Melanie
    read?") are not crowded out by one talkative session."""
    if decay >= 1.0:
        return list(ranked)
    seen: dict[str, int] = {}
    out = []
    for key, score in ranked:
        n = seen.get(key[0], 0)
        seen[key[0]] = n + 1
        out.append((key, score * decay ** n))
    return best_first(out)


def best_first(scored: Iterable[tuple[Key, float]]) -> list[tuple[Key, float]]:
    """Scored messages, highest score first; ties in key order (the same order every
    time the ranking is rebuilt)."""
    return sorted(scored, key=lambda kv: (-kv[1], kv[0]))


def people_replies(successors: Mapping[Key, Line]) -> dict[Key, Line]:
    """The replies a person gave (not the assistant's): on a user↔assistant chat the
    message after a user's question is the assistant's long advice, which would take the
    room of the next user message unless the question asks what the assistant said."""
    return {key: reply for key, reply in successors.items() if reply.role != "assistant"}


def weigh_assistant(ranked: Sequence[tuple[Key, float]], lines: Mapping[Key, Line],
                    weight: float) -> list[tuple[Key, float]]:
    """The assistant's messages count ``weight`` times their score: a question that does
    not ask what the assistant said is answered by what the user said (the assistant's long
    replies share its words and crowd the user's lines out)."""
    return best_first((key, score * weight if key in lines and lines[key].role == "assistant"
                       else score) for key, score in ranked)


def present_first(ranked: Sequence[tuple[Key, float]], lines: Mapping[Key, Line],
                  weight: float, candidates: int) -> list[tuple[Key, float]]:
    """For a question about how things stand now: the user's messages among the best
    ``candidates`` gain up to ``weight`` of their score, the newest most (the oldest of
    them nothing) — the latest word on a thing, not the first, answers "now". An
    assistant's reply or a message further down cannot rise this way."""
    top = [key for key, _ in ranked[:candidates]
           if key in lines and lines[key].role == "user"]
    if weight <= 0 or not top:
        return list(ranked)
    newest = sorted(top, key=lambda k: (lines[k].ts, k), reverse=True)
    steps = max(len(newest) - 1, 1)
    gain = {key: 1 + weight * (steps - i) / steps for i, key in enumerate(newest)}
    return best_first((key, score * gain.get(key, 1.0)) for key, score in ranked)


def build_passages(ranked: Sequence[tuple[Key, float]], lines: Mapping[Key, Line],
                   successors: Mapping[Key, Line], limit: int) -> list[Passage]:
    """The ``limit`` best passages, best first: each ranked message, with the message
    after it when it is a question (what answers it). A message already in a better
    passage is not repeated; passages that touch are shown together (``compress``)."""
    passages: list[Passage] = []
    taken_keys: set[Key] = set()
    if limit <= 0:
        return passages
    for key, score in ranked:
        line = lines.get(key)
        if line is None or key in taken_keys:
            continue
        taken = [line]
        reply = successors.get(key)
        if (reply is not None and reply.key not in taken_keys
                and is_question(speaker_and_text(line)[1])):
            taken.append(reply)
        taken_keys.update(li.key for li in taken)
        passages.append(Passage(line.event_id, line.session_id, taken, score, {line.msg_id}))
        if len(passages) >= limit:
            break
    return passages


# -- what a passage shows ---------------------------------------------------------------


def sentences(text: str) -> list[str]:
    """The sentences of a message, as written (abbreviations and decimals inside them)."""
    return list(_sentences(text))


@lru_cache(maxsize=1 << 14)
def _sentences(text: str) -> tuple[str, ...]:
    """``sentences``, once per text (a message never changes; questions reread it)."""
    masked = mask_abbreviations(text)
    cuts = [0, *(m.end() for m in _SENTENCE_END.finditer(masked)), len(masked)]
    return tuple(piece for start, end in pairwise(cuts)
                 if (piece := unmask(masked[start:end]).strip()))


# Words of chat pleasantries: a sentence made only of these (and function words, names)
# says nothing a reader of the memory needs ("Wow, Caroline! That sounds awesome!").
_FILLER_TEXT = """
    wow oh ooh hey hi hello thanks thank congrats congratulations awesome amazing great
    cool nice sounds sound glad happy lovely wonderful fantastic incredible beautiful sweet
    super totally absolutely definitely sure yeah yes yep haha lol omg good luck proud
    inspiring impressive fun exciting excited cute stunning gorgeous hear heard soon talk
    later bye care same true agree right exactly indeed love wish best idea ah hmm well
    okay ok really much lot pleased keep touch chat catching catch what's up how's
    going doing thing stuff new man girl dude buddy friend pal hope lately anything
    what've you've how've been
    哈哈 好的 太好了 真棒 谢谢 加油 不错 厉害 好啊 是啊 嗯 哇 恭喜 辛苦 好 棒
    """
FILLER = frozenset(stem(w) for w in _FILLER_TEXT.split())


def is_small_talk(sentence: str, wanted: set[str], names: set[str] = frozenset(),
                  asking: bool = False) -> bool:
    """A sentence of pleasantries only ("Wow, Caroline! That sounds awesome!", "哈哈，太好了！")
    or, between people, a question about something the reader did not ask (``wanted``: the
    question's content words) — "What've you been up to?". (``asking``: a user's message to
    an assistant, whose questions are what they came for, and say what they have: "…a
    collar that would suit a Golden Retriever like Max?")"""
    words = content_words(sentence, names)
    return words <= FILLER or (not asking and is_question(sentence) and not words & wanted)


def without_small_talk(text: str, query: str, names: set[str] = frozenset(),
                       asking: bool = False) -> str:
    """``text`` without its sentences of small talk (``is_small_talk``): they take a
    reader's tokens and answer nothing. Whole when nothing else is left. Measured on
    LoCoMo (conversations 1–5 tuned, 6–10 held out): the room they leave holds more of
    the answer at 128 and 512 tokens."""
    parts = sentences(text)
    wanted = content_words(query, names)
    keep = [not is_small_talk(part, wanted, names, asking) for part in parts]
    if not any(keep) or all(keep):
        return text
    return _kept_as_written(text, parts, keep)


def _kept_as_written(text: str, parts: Sequence[str], keep: Sequence[bool]) -> str:
    """The kept sentences of ``text``, each after the space or line break that came before
    it in ``text`` (a list's lines stay lines: ``trim`` cuts between them)."""
    pieces: list[str] = []
    end = 0
    for part, kept in zip(parts, keep, strict=True):
        start = text.find(part, end)
        if kept:
            gap = text[end:start] if pieces else ""
            pieces.append(("\n" if "\n" in gap else gap[:1]) + part)
        end = start + len(part)
    return "".join(pieces)


# A question that asks for an amount ("how long did u say to simmer", "what temp", "几钱一张筏",
# "多少") or for a name ("what was it called", "叫啥", "题目") is answered by a sentence that
# holds one — an amount, or a name set apart as a long reply sets its results apart
# (**bold**, 《》, 「」, quotes) — next to the question's words, in it or right after it:
# "- 上午遇龙河竹筏：… 竹筏通常一筏两位成人，价格约320元一筏" for "遇龙河坐竹筏 你当时讲大概几钱
# 一张筏". Such a sentence counts ANSWER_GAIN more than the question's new words it brings.
_ASKS_AMOUNT = re.compile(
    r"\bhow\s+(?:many|much|long|far|old|often|big|tall|heavy|fast|hot|cold|early|late)\b"
    r"|\bwhat\s+(?:\w+\s+)?(?:temp|temperature|time|rate|number|price|cost|amount|percent(?:age)?|"
    r"size|date|year|age|score|speed|dose|dosage|weight|height|distance|fee|salary|budget|"
    r"total|figure|ratio|limit)\b|\bwhen\b|%"
    r"|多少|几[钱个次天号点岁年月周份张块斤克杯瓶]|好多钱|多久|多长|多大|多远|多重|多高|几多|幾多|几钱|幾錢|"
    r"哪天|哪一天|几号|幾號|几点|幾點|啥时候|什么时候|几时|幾時|价格|价钱|價錢|温度|溫度",
    re.IGNORECASE)
_ASKS_NAME = re.compile(
    r"\b(?:called|named|name|title|titled|which\s+(?:one|book|film|movie|show|song|place|hike|"
    r"walk|restaurant|hotel|app|brand|model|tool|function|library|formula))\b"
    r"|叫(?:什么|啥|咩|乜)|名字|名称|題目|题目|标题|標題|哪款|哪家|哪本|哪部|哪首|哪个牌子|啥牌子",
    re.IGNORECASE)
_AMOUNT = re.compile(r"\d|[一二两三四五六七八九十百千万半几]+"
                     r"(?:个|元|块|岁|小时|分钟|天|周|次|斤|克|公斤|公里|米|度|杯|张|份|号|点)")
_EMPHASIS = re.compile(r"\*\*[^*\n]+\*\*|__[^_\n]+__|《[^》]+》|「[^」]+」|“[^”]+”|\"[^\"\n]+\"")
ANSWER_GAIN = 0.5


def _answer_sentences(parts: Sequence[str], found: Sequence[set[str]], query: str
                      ) -> set[int]:
    """The sentences of ``parts`` holding the kind of answer ``query`` asks for (an amount,
    a name set apart) where they or the sentence before them hold a word of the question
    (``found``), and words besides the amount (not a list's bare "2."). None when it asks
    for neither."""
    kinds = [pattern for asks, pattern in ((_ASKS_AMOUNT, _AMOUNT), (_ASKS_NAME, _EMPHASIS))
             if asks.search(query)]
    if not kinds:
        return set()
    return {i for i, part in enumerate(parts)
            if (found[i] or (i > 0 and found[i - 1])) and any(k.search(part) for k in kinds)
            and content_words(part)}  # not a list's "2." alone


def trim(text: str, query: str, max_tokens: int, names: set[str] = frozenset()) -> str:
    """``text`` whole when it fits ``max_tokens``; else its sentences that bring the
    question's words — the one sharing them most first (rarer words count more), then any
    other that adds a word not yet shown ("a 6-mile commute is perfect for an e-bike …
    my recommendation is the Aventon Pace"), a sentence of the kind of answer asked for
    counting ``ANSWER_GAIN`` more (``_answer_sentences``) — then the first sentence (a
    message usually opens with what it is about: "offer accepted! … "), then the ones after
    each chosen one (what is said about it usually follows), then the ones before, while
    they fit; "…" marks what is left out."""
    if count_tokens(text) <= max_tokens:
        return text
    parts = sentences(text)
    if len(parts) <= 1:
        return _cut_words(text, max_tokens)
    wanted = content_words(query, names)
    named = topics.asked(frozenset(wanted))
    found = [with_topics(s, content_words(s, names) & wanted, named) for s in parts]
    frequency = Counter(w for words in found for w in words)
    cost = [count_tokens(part) + 2 for part in parts]  # a sentence and an ellipsis
    chosen: list[int] = []
    covered: set[str] = set()
    used = 0
    answers = _answer_sentences(parts, found, query)
    while True:
        gains = [(fsum(1.0 / frequency[w] for w in found[i] - covered)
                  + (ANSWER_GAIN if i in answers else 0.0), -i)
                 for i in range(len(parts))
                 if i not in chosen and (found[i] - covered or i in answers)
                 and (not chosen or used + cost[i] <= max_tokens)]  # the best one in any case
        if not gains:
            break
        best = -max(gains)[1]
        chosen.append(best)
        covered |= found[best]
        used += cost[best]
    if not chosen:
        chosen, used = [0], cost[0]
    shown = set(chosen)

    def extend(start: int, step: int) -> None:
        nonlocal used
        j = start
        while 0 <= j < len(parts) and j not in shown and used + cost[j] - 1 <= max_tokens:
            shown.add(j)
            used += cost[j] - 1
            j += step

    for i in chosen:  # what is said about it usually follows
        extend(i + 1, 1)
    if 0 not in shown and used + cost[0] <= max_tokens:  # what the message is about
        shown.add(0)
        used += cost[0]
    for i in chosen:
        extend(i - 1, -1)
    pieces: list[str] = []
    for i in sorted(shown):
        if i > 0 and i - 1 not in shown:
            pieces.append("…")
        pieces.append(parts[i])
    result = " ".join(pieces) + (" …" if max(shown) < len(parts) - 1 else "")
    return result if count_tokens(result) <= max_tokens else _cut_words(result, max_tokens)


# What a cut may end after: a CJK character (Chinese runs have no spaces) or a word with
# the spaces before it.
_CJK = "\u3000-\u303f\u3400-\u9fff\uff00-\uffef"
_CUT_UNIT = re.compile(rf"\s*(?:[{_CJK}]|[^\s{_CJK}]+)")


def _cut_words(text: str, max_tokens: int) -> str:
    """The start of ``text`` that fits ``max_tokens`` with " …" after it: whole words, or
    characters of Chinese (a Chinese sentence is one run without spaces)."""
    units = _CUT_UNIT.findall(text)
    low, high = 0, len(units)
    while low < high:  # the most units that fit with the ellipsis
        middle = (low + high + 1) // 2
        if count_tokens("".join(units[:middle]) + " …") <= max_tokens:
            low = middle
        else:
            high = middle - 1
    return "".join(units[:low]).strip() + " …" if low < len(units) else text
