"""English grammar the rules share: adverbs, auxiliaries, "be", negations between a subject
and its verb, and what a name is."""

from __future__ import annotations

import re

from graphmem.extract.en.subjects import (
    NOT_NAMES,
)

# Adverbs between a subject and its verb. Patterns repeat one flat alternation, never a
# repetition of repetitions: nested quantifiers backtrack exponentially on long chat.
_ADV_WORD = (r"really|also|both|still|now|currently|actually|just|totally|absolutely|"
             r"definitely|so|very|pretty|super|kind of|sort of|basically|mostly|fully|"
             r"strictly|only|always|finally|already|officially|originally|recently|all")


_ADV = rf"(?:(?:{_ADV_WORD})\s+)*"


_AUX = r"(?:(?:'ve|have|has|'d|do|does|did|'ll|will)\s+)?(?:been\s+)?"


_BE = r"(?:'m|am|'s|is|are|'re)"


_NEG = r"(?:don't|do not|doesn't|does not|dont|doesnt|never|no longer|not|didn't|did not)"


_ADV_OR_NEG = rf"(?:(?:{_ADV_WORD}|{_NEG})\s+)*"


def is_name(words: str) -> bool:
    """No word of it is a common word or a nationality ("Nigerian-American", "Happy")."""
    return not any(w.lower().rstrip(".") in NOT_NAMES for w in re.split(r"[\s-]+", words))
