"""Budgets: an amount with its cap ("under $500", "laptop budget: $1200")."""

from __future__ import annotations

import re

from graphmem.extract.candidate import (
    USER,
    Context,
    Found,
    search,
)
from graphmem.extract.en.subjects import (
    IC,
)

_CURRENCY = {"dollar": "$", "usd": "$", "buck": "$", "euro": "€", "eur": "€", "pound": "£",
             "gbp": "£", "yuan": "¥", "rmb": "¥", "yen": "¥"}


_MONEY = re.compile(
    r"([$€£¥])?\s?(\d[\d,]*(?:\.\d+)?)\s*(k\b|thousand\b)?\s*"
    r"(dollars?|usd|bucks|euros?|eur|pounds?|gbp|yuan|rmb|yen)?(?![\w%])", IC)


_CAP = re.compile(r"\b(under|below|within|up to|at most|max|no more than|less than|around|about|"
                  r"approx\.?|approximately|roughly)\s*$", IC)


_UPPER_CAPS = frozenset({"under", "below", "within", "up to", "at most", "max", "no more than",
                         "less than"})  # "under $300 for groceries" is a budget by itself


def _budget(t: str, ctx: Context, found: Found) -> None:
    """"laptop budget: $1200", "under $300 for groceries", "my limit is approx. $40": an
    amount of money (a currency, or a budget named) — never "under 20g of carbs"."""
    budget = search(r"\b(?:budget|limit)\b|\b(?:can|could|want to|willing to|plan to|planning "
                    r"to|able to|afford to|trying to|try to|hoping to)\s+(?:only\s+)?spend\b|"
                    r"\bkeep(?:ing)?\b(?=(?:\s+[\w'-]+){0,3}\s+(?:under|below|around|about|"
                    r"within|at)\s*[$€£¥]?\d)", t, IC) or (ctx.budget_said and search(
        r"\b(?:stretch(?:ed)?|make (?:it|that)|bump(?:ed)?|raise[ds]?|increase[ds]?|up to|"
        r"go(?:ing)? up to|can do|tops|max|lower(?:ed)?|drop(?:ped)?)\b", t, IC))  # "...to 11k"
    amounts = list(_MONEY.finditer(t))
    if budget:  # the amount after the word first, then the nearest before it
        amounts = ([m for m in amounts if m.start() >= budget.start()]
                   + [m for m in reversed(amounts) if m.start() < budget.start()])
    for m in amounts:
        has_currency = bool(m.group(1) or m.group(4) or (budget and m.group(3)))
        cap = _CAP.search(t[:m.start()])
        if not has_currency and not (budget and budget.end() <= m.start()):
            continue
        if not (budget or (cap and cap.group(1).lower() in _UPPER_CAPS)):
            continue  # "I take home about $4,600", "spending like $300 a month": no budget
        symbol = m.group(1) or _CURRENCY.get((m.group(4) or "").lower().rstrip("s"), "")
        amount = symbol + m.group(2).replace(",", "") + ("k" if m.group(3) else "")
        qualifier = cap.group(1).lower() if cap else ""
        qualifier = {"below": "under", "less than": "under", "no more than": "under",
                     "at most": "under", "max": "under", "within": "under",
                     "up to": "under"}.get(qualifier, qualifier)
        found.add(ctx.event or USER, "budget", f"{qualifier} {amount}".strip(), False, 0.85,
                  "amount")
        ctx.budget_said = True
        return
