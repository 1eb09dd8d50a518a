"""Plans and their end: a plan said in an episode is remembered so that dropping it later
("I gave up on the half marathon", "考研我放弃了", "not anymore") negates that very plan;
``names_plan`` tells consolidation the same across episodes."""

from __future__ import annotations

import re

from graphmem.extract.candidate import Context, Found, Part

# The kind of a negated plan that says a plan is done ("考完了", "back from Lisbon"): it ends
# the user's plan it names, and is not stored when they have none.
PLAN_END = "plan_end"


def plan(part: Part, value: str, negated: bool, ctx: Context, found: Found) -> None:
    if not value or part.subjects is None:
        return
    found.say(part, "plans_to", value, negated, 0.8)
    if not negated and not part.hedged:
        ctx.plans.extend((s, value) for s in part.subjects)


_ASIDE = re.compile(r"(?:的事情?|这件事|这事|的计划|的打算|这个计划)$")
_FILLER = frozenset({"the", "a", "an", "my", "our", "that", "this"})


def names_plan(said: str, plan: str) -> bool:
    """Does a drop's wording ("the half marathon", "Yellowstone trip", 驾照的事) name
    ``plan`` ("run a half marathon", "do a road trip to Yellowstone", 去考驾照)?"""
    said = _ASIDE.sub("", said.strip().lower())
    plan = plan.strip().lower()
    words = set(re.findall(r"[\w\u4e00-\u9fff]+", said)) - _FILLER
    have = set(re.findall(r"[\w\u4e00-\u9fff]+", plan))
    return bool(words) and (words <= have or said in plan or plan in said)


def dropped(said: str, part: Part, ctx: Context) -> str:
    """The plan a drop names: the episode's own plan sharing its words ("the half
    marathon" → "run a half marathon"), else the words said."""
    for entity, value in reversed(ctx.plans):
        if part.subjects and entity not in part.subjects:
            continue
        if names_plan(said, value):
            return value
    return _ASIDE.sub("", said)
