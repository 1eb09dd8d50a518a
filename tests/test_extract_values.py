"""The last check of every candidate (issue 29): a value of a shape its predicate can hold.
Pure, no Neo4j."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from graphmem.extract import RuleExtractor
from graphmem.extract.candidate import Candidate
from graphmem.extract.values import fits

TS = datetime(2025, 3, 2, 20, 0, tzinfo=UTC)


def said(entity: str, predicate: str, value: str, negated: bool = False) -> Candidate:
    return Candidate(entity, predicate, value, negated, 0.8, TS, "")


@pytest.mark.parametrize(("entity", "predicate", "value", "negated"), [
    ("user", "plans_to", "tuesday", False),            # a time alone where a thing is meant
    ("user", "plans_to", "tuesdays", False),
    ("user", "go_on", "saturday", False),
    ("user", "move_in", "weekend", False),
    ("user", "get", "20 mins", False),
    ("user", "want_turn", "ages", False),
    ("user", "enjoy", "february", False),
    ("user", "works_at", "一礼拜", False),
    ("user", "is_from", "五个", False),
    ("user", "studies", "十节", False),
    ("user", "dietary_restriction", "一口", False),
    ("mentor", "is", "mentor", False),                 # the subject itself
    ("周扬", "name", "周扬", True),                     # a name denied to the one it names
    ("黑猫", "works_as", "设计", False),                # someone's job read as the pet's
    ("dog", "plans_to", "go to the beach", False),
    ("girlfriend", "works_at", "startup in", False),   # cut mid-phrase
    ("user", "plans_to", "via port augusta", False),
    ("user", "plans_to", "since hokkaido", True),
    ("user", "works_at", "滨江一家", False),           # the clause ran on to a numeral
    ("user", "plans_to", "加到两分钟", False),
    ("user", "dietary_restriction", "酸奶少喝一点", True),
    ("user", "plans_to", "那种慢悠悠的感觉", False),   # no plan opens with these
    ("user", "plans_to", "清新一点的配色", False),
    ("user", "plans_to", "间书房", False),
    ("user", "is_from", "负责", False),                # no place
    ("user", "is_from", "介绍", False),
    ("user", "allergic_to", "带豆包去浙大儿院", False),  # an allergen with verbs in it
])
def test_values_of_no_shape_their_predicate_holds_are_dropped(entity, predicate, value,
                                                              negated):
    assert not fits(said(entity, predicate, value, negated))


@pytest.mark.parametrize(("entity", "predicate", "value", "negated"), [
    ("user", "work", "saturdays", False),              # the time of a habit
    ("user", "run", "early mornings", False),
    ("user", "start_run", "feb", False),               # when something began
    ("user", "switch_to", "tuesdays", False),
    ("user", "budget", "1000左右", False),             # predicates of time and amount
    ("trip", "date", "2025-07-09", False),
    ("Kayla", "name", "Kayla", False),                 # a name is its entity's own
    ("猫", "likes", "鱼", False),                      # a pet's taste is its own
    ("user", "plans_to", "long weekend in leura", False),
    ("user", "plans_to", "just bike with dev", False),
    ("user", "works_at", "拼多多", False),             # 多多 is no numeral
    ("user", "works_at", "福州一家精品咖啡店", False),
    ("user", "plans_to", "跟阿杰去厦门", False),
    ("user", "plans_to", "在学校附近租个房子", False),
    ("user", "plans_to", "买车", False),
    ("user", "is_from", "厦门本地", False),
    ("user", "is_from", "贵州遵义", False),
    ("user", "allergic_to", "青霉素", False),
    ("user", "dietary_restriction", "生的海鲜", False),
])
def test_values_of_a_shape_their_predicate_holds_are_kept(entity, predicate, value, negated):
    assert fits(said(entity, predicate, value, negated))


def test_the_reader_keeps_only_what_fits():
    from graphmem._models import Action, Episode

    texts = ("入职一礼拜了 还挺累的", "the plan is to go to the coast on tuesday")
    actions = tuple(Action(role="user", content=t, ts=TS, msg_id=i + 1)
                    for i, t in enumerate(texts))
    episode = Episode(event_id="e", user_id="u", session_id="s", start_time=TS, end_time=TS,
                      participants=("u",), goal=texts[0], actions=actions, result="",
                      raw_span=(1, len(texts)))
    found = RuleExtractor().extract(episode)
    assert all(fits(c) for c in found)
    assert ("user", "works_at", "一礼拜") not in {(c.entity, c.predicate, c.value) for c in found}

