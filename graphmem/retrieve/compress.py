"""Compression (pipeline stage 5e): a budgeted prompt block without an LLM. Pure code.

What the agent reads, in the article's order: long-term facts first (one line each, with
its date and confidence), facts only for reference (old or uncertain) under one label,
then past conversations — each passage under its date, in the speakers' own words, with
relative times resolved ("yesterday [7 May 2023]") and long messages cut to the
sentences that share the question's words.

Items are sized in tokens (one budget for Chinese and English). The route decides how
much of the budget facts may take first; passages fill what is left, best first; a
generic reading that a shown passage already says is not repeated (a fact of the canonical
vocabulary always keeps its line: it is the current version of what was said).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from graphmem._config import RetrievalConfig
from graphmem._models import FactHit, Route
from graphmem.facts.predicates import PREDICATES, predicate_info, predicates_in
from graphmem.retrieve.passages import Line, Passage, speaker_and_text, trim, without_small_talk
from graphmem.retrieve.question import asks_assistant
from graphmem.retrieve.when import annotate
from graphmem.text.dates import day_label
from graphmem.text.language import is_chinese
from graphmem.text.tokens import TokenParts, count_tokens, token_parts, tokens_from
from graphmem.text.words import content_words

HEADERS_EN = ("[Known facts]", "[Reference only: old or uncertain]", "[Past conversations]")
HEADERS_ZH = ("[长期知识]", "[仅供参考：久未验证或不确定]", "[相关对话]")
DEFAULTS = RetrievalConfig()
# A message is shown at no less than about half of its whole or its cap (a long one is cut
# to nearly its cap, small talk leaves a short one; measured: 95% of lines shown take more):
# a passage whose lines could not fit at that is passed over without cutting them to size.
LEAST_SHARE = 0.5
_DATED = re.compile(r"(.+?)\s*\(([^()]+)\)")


def fact_line(sentence: str, confidence: float) -> str:
    """``sentence (confidence)``; a sentence ending in its date shares the parentheses:
    ``Melanie went camping (20 October 2023, 0.75)``."""
    dated = _DATED.fullmatch(sentence)
    if dated:
        return f"{dated.group(1)} ({dated.group(2)}, {confidence:.2f})"
    return f"{sentence} ({confidence:.2f})"


OUTDATED = {False: " [outdated]", True: "[已过时]"}


def line_text(line: Line, query: str, max_tokens: int, names: set[str],
              outdated: bool = False) -> str:
    """``Speaker: text`` of one message without its small talk, relative times resolved,
    trimmed when long; marked ``[outdated]`` when what it said was replaced by a newer
    version of a fact. Empty when no word of it fits."""
    speaker, text = speaker_and_text(line)
    mark = OUTDATED[is_chinese(text)] if outdated else ""
    text = _said(line, text, query, max_tokens, names)
    # times are resolved in what is shown, not in the whole of a long message (one scan of
    # every time rule per line: the slowest step of a question over long replies)
    shown = annotate(trim(text, query, max_tokens, names), line.ts)
    over = count_tokens(shown) - max_tokens
    if over > 0:  # the resolved dates took the room of some words
        shown = annotate(trim(text, query, max_tokens - over, names), line.ts)
    if not shown.replace("…", "").strip():
        return ""  # nothing of it fits: not shown
    return f"{speaker}: {shown}{mark}"


def _said(line: Line, text: str, query: str, max_tokens: int, names: set[str]) -> str:
    """The message without its small talk. A user's questions to an assistant (no
    speaker's name in the line) say what they have in asking ("…a collar that would suit a
    Golden Retriever like Max?"): kept when the message then fits ``max_tokens`` whole,
    never at the price of a cut elsewhere in it."""
    plain = without_small_talk(text, query, names)
    if line.role != "user" or text != line.content or plain == text:
        return plain
    asking = without_small_talk(text, query, names, asking=True)
    return asking if count_tokens(asking) <= max_tokens else plain


@dataclass(frozen=True)
class Block:
    """A passage as shown: its lines' texts, with the score it competes with."""

    passage: Passage
    texts: tuple[str, ...]

    @property
    def lines(self) -> tuple[str, ...]:
        return self.texts

    @property
    def tokens(self) -> int:
        return count_tokens("\n".join(self.texts)) + 1


def render(facts: Sequence[str], reference: Sequence[str], blocks: Sequence[Block],
           chinese: bool) -> str:
    """The prompt block. Passages are shown in time order: the messages of a session in
    their order under the day's date, "…" where messages in between are left out."""
    return "\n\n".join(_sections(facts, reference, _shown(blocks), chinese))


def _sections(facts: Sequence[str], reference: Sequence[str], shown: Shown,
              chinese: bool) -> list[str]:
    headers = HEADERS_ZH if chinese else HEADERS_EN
    parts = []
    if facts:
        parts.append(headers[0] + "\n" + "\n".join(f"- {line}" for line in facts))
    if reference:
        parts.append(headers[1] + "\n" + "\n".join(f"- {line}" for line in reference))
    if shown:
        parts.append("\n".join(_conversation_lines(shown, chinese)))
    return parts


Shown = dict[tuple[str, int], tuple[Line, str]]  # message key -> (line, its text)


def _shown(blocks: Sequence[Block]) -> Shown:
    shown: Shown = {}
    for block in blocks:
        _add(shown, block)
    return shown


def _add(shown: Shown, block: Block) -> None:
    for li, text in zip(block.passage.lines, block.texts, strict=True):
        if text:
            shown.setdefault(li.key, (li, text))


def _conversation_lines(shown: Shown, chinese: bool) -> list[str]:
    out: list[str] = [(HEADERS_ZH if chinese else HEADERS_EN)[2]]
    day, previous = "", None
    for li, text in sorted(shown.values(), key=lambda lt: (lt[0].ts, lt[0].session_id,
                                                           lt[0].msg_id)):
        label = day_label(li.ts, chinese)
        if label != day:
            out.append(f"[{label}]")
            day = label
        elif previous is not None and (li.session_id != previous.session_id
                                       or li.msg_id != previous.msg_id + 1):
            out.append("…")
        out.append(text)
        previous = li
    return out


class _Tokens:
    """Tokens of a rendering, counted line by line and remembered: lines are joined by
    whitespace, so a text's token parts are the sum of its lines' (no re-counting the
    whole context for every candidate)."""

    def __init__(self) -> None:
        self._known: dict[str, TokenParts] = {}

    def _parts(self, texts: Sequence[str]) -> TokenParts:
        cjk = words = other = 0
        for text in texts:
            parts = self._known.get(text)
            if parts is None:
                parts = self._known[text] = token_parts(text)
            cjk, words, other = cjk + parts[0], words + parts[1], other + parts[2]
        return cjk, words, other

    def of(self, facts: Sequence[FactHit], lines: dict[str, str], shown: Shown,
           chinese: bool) -> int:
        """Tokens of the context these facts and shown messages render to."""
        kept = [lines[f.fact_id] for f in facts if not f.reference_only]
        reference = [lines[f.fact_id] for f in facts if f.reference_only]
        texts = _sections(kept, reference, {}, chinese)
        if shown:
            texts += _conversation_lines(shown, chinese)
        return tokens_from(self._parts(texts))


def choose(
    route: Route, facts: Sequence[FactHit], passages: Sequence[Passage], query: str,
    budget: int, max_episodes: int, chinese: bool, config: RetrievalConfig = DEFAULTS,
) -> tuple[list[FactHit], list[Block], str]:
    """The facts and passages that fit ``budget`` tokens, and the rendered text (a long
    message cut to ``line_tokens``, by default a ``line_share`` of the budget)."""
    line_tokens = config.line_tokens or max(config.min_line_tokens,
                                            budget // config.line_share)
    # the best passages may show more of a long message (a plan, a list, a recipe) than
    # the rest: the answer is often a line of it that repeats no word of the question
    lead_tokens = max(line_tokens, int(budget * config.lead_line_share))
    # a question about what the assistant said: its replies in the best passages show more
    reply_tokens = (max(lead_tokens, int(budget * config.assistant_line_share))
                    if asks_assistant(query) else 0)
    names = {speaker_and_text(li)[0] for p in passages for li in p.lines}
    outdated = {mid for f in facts for mid in f.outdated_messages}
    share = config.fact_share(route)
    lines = {f.fact_id: fact_line(f.sentence, f.confidence) for f in facts}
    ordered = sorted(facts, key=lambda f: (f.reference_only, -f.score, f.fact_id))
    room = budget
    asked = predicates_in(query)
    trusted = [f for f in ordered if not f.reference_only or _asked_and_current(f, asked)]
    if passages:  # trusted facts first, up to their share — the best one at least
        best = count_tokens(lines[trusted[0].fact_id]) + 9 if trusted else 0
        room = min(budget, max(int(budget * share), best))
    kept_facts = _take_facts(trusted if passages else ordered, lines, room)
    tokens = _Tokens()
    blocks: list[Block] = []
    episodes: set[str] = set()
    shown: Shown = {}
    used = tokens.of(kept_facts, lines, shown, chinese)

    def priced(block: Block) -> tuple[Shown, int]:
        """What is shown with ``block`` added, and the tokens of that context."""
        trial = dict(shown)
        _add(trial, block)
        return trial, tokens.of(kept_facts, lines, trial, chinese)

    for rank, passage in enumerate(passages):  # best first; each kept if the block fits
        if used >= budget:
            break
        new_episode = passage.event_id not in episodes
        if new_episode and len(episodes) >= max_episodes:
            continue
        cap = lead_tokens if rank < config.lead_passages else line_tokens
        reply_cap = reply_tokens if reply_tokens and rank < config.assistant_passages else cap
        caps = [reply_cap if li.role == "assistant" else cap for li in passage.lines]
        room = budget - used
        fill = config.fill_room and room >= config.min_fill_tokens
        if fill:  # the better passage, cut to the room left, before a worse one that fits
            caps = _within(caps, room)
        elif used + LEAST_SHARE * _least_tokens(passage.lines, caps) > budget:
            continue  # cannot fit: not cut to size (the slowest step of a question)
        block = _shown_as(passage, caps, query, names, outdated)
        if not any(block.texts):
            continue
        trial, cost = priced(block)
        if cost > budget and fill:  # the date above it, the labels: cut once more
            caps = _within(caps, sum(caps) - (cost - budget) - 1)
            block = _shown_as(passage, caps, query, names, outdated)
            trial, cost = priced(block)
        if cost <= budget and any(block.texts):
            blocks.append(block)
            episodes.add(passage.event_id)
            shown, used = trial, cost
    kept_facts = [f for f in kept_facts if not _redundant(f, blocks, config.redundant)]
    for fact in ordered:  # room left: more facts, if they say something new
        if fact in kept_facts or _redundant(fact, blocks, config.redundant):
            continue
        if tokens.of([*kept_facts, fact], lines, shown, chinese) <= budget:
            kept_facts.append(fact)
    text = _render(kept_facts, lines, blocks, chinese)
    return kept_facts, blocks, text


def _shown_as(passage: Passage, caps: Sequence[int], query: str, names: set[str],
              outdated: set[str]) -> Block:
    """A passage's lines as shown, each cut to its cap."""
    return Block(passage, tuple(line_text(li, query, cap, names, li.message_id in outdated)
                                for li, cap in zip(passage.lines, caps, strict=True)))


def _within(caps: Sequence[int], room: int) -> list[int]:
    """Line caps scaled down to share ``room`` tokens (unchanged when they fit it)."""
    total = sum(caps)
    if total <= room:
        return list(caps)
    return [max(1, cap * room // total) for cap in caps]


def _least_tokens(lines: Sequence[Line], caps: Sequence[int]) -> int:
    """About what a passage's lines take at the least once shown (a long message fills
    nearly its cap; a short one is shown whole), to pass over a passage that cannot fit the
    room left without cutting its messages to size."""
    return sum(min(count_tokens(li.content), cap) for li, cap in zip(lines, caps, strict=True))


def _asked_and_current(fact: FactHit, asked: set[str]) -> bool:
    """The current value of a single-valued predicate the question asks for ("Where do I
    work now?" and the user's employer, stated once two months ago): shown among the first
    facts even when it is old enough to be reference only (and labelled so)."""
    return (fact.predicate in asked and fact.status == "current"
            and not predicate_info(fact.predicate).multi_valued)


def _render(facts: Sequence[FactHit], lines: dict[str, str], blocks: Sequence[Block],
            chinese: bool) -> str:
    return render([lines[f.fact_id] for f in facts if not f.reference_only],
                  [lines[f.fact_id] for f in facts if f.reference_only], blocks, chinese)


def _take_facts(facts: Sequence[FactHit], lines: dict[str, str], room: int) -> list[FactHit]:
    kept: list[FactHit] = []
    used = 8  # section labels
    for fact in facts:
        cost = count_tokens(lines[fact.fact_id]) + 1
        if used + cost <= room:
            kept.append(fact)
            used += cost
    return kept


def _redundant(fact: FactHit, blocks: Sequence[Block], share: float) -> bool:
    """A generic reading said in a message the passages show (its resolved date is shown
    there too), or — without that provenance — whose words a shown passage of its own
    episode already holds. A fact of the canonical vocabulary is never redundant: it is
    the current version of what the message said (the message may be outdated)."""
    if fact.predicate in PREDICATES:
        return False
    if fact.source_messages:
        shown = {li.message_id for b in blocks for li in b.passage.lines}
        return any(mid in shown for mid in fact.source_messages)
    words = content_words(fact.sentence)
    if not words:
        return False
    for block in blocks:
        if block.passage.event_id in fact.source_episodes:
            shown = content_words(" ".join(block.lines))
            if len(words & shown) >= share * len(words):
                return True
    return False
