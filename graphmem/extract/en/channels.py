"""Channels and tools: how to reach the user ("reach me on Slack rather than email", "don't
call me") and the tools they use ("I use Notion", "stopped using Excel")."""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    Context,
    Found,
    Part,
    match,
    mentions,
    search,
)
from graphmem.extract.en.grammar import _NEG, is_name
from graphmem.extract.en.subjects import (
    IC,
)
from graphmem.extract.vocab import (
    CHANNEL_EN,
    CHANNEL_EN_CASED,
)

_CH = rf"(?:(?i:{CHANNEL_EN})|{CHANNEL_EN_CASED})"


_CHANNEL_WORDS = {"texting": "text", "text message": "text", "phone call": "phone",
                  "call": "phone", "ring": "phone", "e-mail": "email", "dm": "message"}


def channel(word: str) -> str:
    low = word.lower()
    return _CHANNEL_WORDS.get(low, low)


def _channels(t: str, part: Part, ctx: Context, found: Found) -> None:
    """"reach me on Slack rather than email", "don't message me on WhatsApp", "only uses
    Viber", "refuses to use anything but the landline", "don't call me"."""
    if m := search(rf"\b(?i:(?:only\s+)?(?:checks?|checking|reads?|reply on|replies on|"
                   rf"respond on|responds on|lives on|(?:'m|am|'s|is|are|'re)\s+(?:only\s+)?on)\s+"
                   rf"(?:(?:facebook|fb)\s+)?(?:the\s+)?({_CH})\b)", t):
        found.say(part, "uses_channel", channel(m.group(1)), bool(search(
            rf"\b(?:{_NEG}|rarely|hardly|barely|seldom)\b", t[:m.start()], IC)), 0.85, "channel")
    elif m := search(r"\b(?i:(?:stop|don't|do not|never|no more|quit)\s+)(?i:(emailing|texting|"
                     r"calling|messaging|dming|ringing|phoning))\s+(?i:me)\b", t):
        found.say(part, "uses_channel", channel(m.group(1)[:-3].replace("messag", "message")
                                                .replace("phon", "phone")), True, 0.9, "channel")
    elif m := match(r"^\s*(?:only\s+|just\s+|mostly\s+)?(texts|emails|calls)\b"
                    r"(?!\s+(?:from|about))", t, IC):
        found.say(part, "uses_channel", channel(m.group(1)[:-1]), False, 0.85, "channel")
    elif m := match(r"^\s*(?:never|doesn't|does not|won't|rarely|hardly ever)\s+(text|texts|email|"
                    r"emails|call|calls)\b", t, IC):
        found.say(part, "uses_channel", channel(m.group(1).rstrip("s")), True, 0.85, "channel")
    elif m := search(rf"\b(?i:prefers?|preferably)\s+(?:(?!{_CH}\b)[\w-]+\s+){{0,3}}?"
                     rf"(?i:on|via|over|through)\s+(?:the\s+)?({_CH})\b", t):
        found.say(part, "uses_channel", channel(m.group(1)), False, 0.85, "channel")
    elif m := search(rf"\b(?i:use|uses|using|via|through|answers? on|answers?|reach me "
                   rf"(?:on|via|by|at)|message me on|text me on|"
                   rf"contact me (?:on|via|by|through)|add me on|ping me on|find me on|"
                   rf"dm me on|chat on|talk on|call me on|get me on|"
                   rf"prefer|prefers)\s+(?:(?i:anything but|nothing but|only)\s+)?(?:the\s+|"
                   rf"(?i:my)\s+(?:(?i:work|personal|private|school|old|new)\s+)?)?"
                   rf"({_CH})\b", t):
        before = t[:m.start(1)]
        negated = bool(search(rf"\b(?:{_NEG}|stop|refuses? to|hate|dislike)\b", before, IC))
        negated ^= bool(search(r"\b(?:anything but|nothing but)\b", before, IC))
        found.say(part, "uses_channel", channel(m.group(1)), negated, 0.9, "channel")
        if other := search(rf"\b(?i:rather than|instead of|not|over|than)\s+(?:(?i:by|via|on)\s+)?"
                           rf"(?:the\s+)?({_CH})\b", t[m.end():]):
            found.say(part, "uses_channel", channel(other.group(1)), not negated, 0.9,
                      "channel")
    elif m := search(r"\b(?:don't|do not|never|stop)\s+(call|phone|ring|text|email|e-mail|"
                     r"message|dm)(?:\s+me\b|\s*(?:[.,;!]|$))", t, IC):
        found.say(part, "uses_channel", channel(m.group(1)), True, 0.9, "channel")
    elif m := match(r"^(?i:(?:just\s+)?(text|email|e-mail|message|dm|call|ring)\s+me)\b"
                    r"(?!\s+[A-Z])(?!\s+(?i:when|if|back|later|tomorrow))", t):
        found.say(part, "uses_channel", channel(m.group(1)), False, 0.85, "channel")
        if other := search(r"\b(?:instead of|rather than|not)\s+(call|text|email|messag)",
                           t[m.end():], IC):
            found.say(part, "uses_channel", channel(other.group(1).replace("messag", "message")),
                      True, 0.85, "channel")


# A tool is named as a product: "Figma", "VS Code", "Google Docs" — capitalized words (a
# channel is ``_channels``'s, a place is nobody's tool, nor "Sarah's" car).
_TOOL = (r"(?!(?:I|I'm|The|A|An|My|It)\b)[A-Z][\w+#.-]*[\w+#]"
         r"(?:\s+(?:[A-Z][\w+#.-]*[\w+#]|\d+)){0,2}(?!['’]s\b)(?![\w+#-]|\.\w)")


_TOOL_USE = (  # (pattern, negated): "stopped using X" is read before "using X"
    (rf"\b(?i:(?:stopped|quit|stop)\s+using|no\s+longer\s+using?|(?:don't|do not|never)\s+use|"
     rf"uninstalled|ditched|dropped)\s+({_TOOL})", True),
    (rf"\b(?i:use|uses|using|switched\s+(?:over\s+)?to|migrated\s+to|moved\s+over\s+to)\s+"
     rf"(?i:(?:mostly|only|just|both|a\s+lot\s+of)\s+)?({_TOOL})", False),
    (rf"\b(?i:(?:code|coding|write|writing|draw|drawing|design|designing|edit|editing|"
     rf"sketch|sketching|making|make|made|track|tracking|keep|keeping|plan|planning)\s+"
     rf"(?:(?:the|my|all|everything|our)\s+)?(?:[a-z]+\s+){{0,2}}?(?:in|on|with))\s+({_TOOL})",
     False),
    (rf"\b(?i:work|working)\s+(?i:in)\s+({_TOOL})\s+(?i:for|all|every)\b", False),
    (rf"\b(?i:learning|studying|practicing|practising)\s+[\w-]+(?:\s+[\w-]+)?\s+(?i:on|with)\s+"
     rf"({_TOOL})", False),
)


_NOT_TOOLS = re.compile(rf"^(?:{CHANNEL_EN}|{CHANNEL_EN_CASED})$|^(?:Google\s+Meet|Monday|"
                        r"Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|"
                        r"March|April|May|June|July|August|September|October|November|"
                        r"December|English|Spanish|French|German|Chinese|Japanese|Korean)$", IC)


def _tools(t: str, part: Part, ctx: Context, found: Found) -> None:
    """"I use Figma all day", "code in VS Code", "making the slides in Keynote", "switched
    to Cursor", "stopped using Excel" (no longer)."""
    for tool, negated in mentions(_TOOL_USE, t, lambda tool: not _NOT_TOOLS.match(tool)
                                  and tool.lower() not in ctx.names and is_name(tool)):
        found.say(part, "uses_tool", tool, negated, 0.8, "tool")
