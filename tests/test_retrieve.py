"""Routing, ranking and compression — pure, no Neo4j."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import pytest

from graphmem import InvalidInputError
from graphmem._models import Action, Episode
from graphmem.retrieve.compress import Item, episode_card, fact_line, fit_budget, render
from graphmem.retrieve.rank import fact_score, is_reference_only, rrf
from graphmem.retrieve.router import route_query
from graphmem.retrieve.tokens import count_tokens
from graphmem.retrieve.words import content_words

NOW = datetime(2025, 1, 19, 15, 0, tzinfo=UTC)  # a Sunday


@pytest.mark.parametrize(("query", "route"), [
    ("昨天我们聊了什么", "episodic"), ("what did we discuss last week?", "episodic"),
    ("三天前那次会议的结论", "episodic"), ("我一般喜欢什么口味", "semantic"),
    ("项目要求是什么", "semantic"), ("他对什么过敏", "semantic"),
    ("I usually prefer what?", "semantic"),
    ("what's my budget", "semantic"), ("my rule is?", "semantic"),
    ("上次我女朋友喜欢的花是什么来着", "both"), ("tell me about the offsite", "both"),
])
def test_routes(query, route):
    assert route_query(query, NOW)[0] == route


def test_time_hints_resolve_to_concrete_windows():
    _, yesterday = route_query("昨天我们聊了什么", NOW)
    assert (yesterday.since, yesterday.until) == (datetime(2025, 1, 18, tzinfo=UTC),
                                                  datetime(2025, 1, 19, tzinfo=UTC))
    _, wednesday = route_query("上周三讨论的方案", NOW)
    assert wednesday.since == datetime(2025, 1, 8, tzinfo=UTC)
    _, days = route_query("what happened 3 days ago", NOW)
    assert days.since == datetime(2025, 1, 16, tzinfo=UTC)


def test_filters_override_and_are_validated():
    since = NOW - timedelta(days=10)
    route, window = route_query("anything", NOW, {"since": since, "route": "semantic"})
    assert route == "semantic" and window.since == since
    with pytest.raises(InvalidInputError, match="unknown filter"):
        route_query("x", NOW, {"sinse": since})
    with pytest.raises(InvalidInputError, match="route"):
        route_query("x", NOW, {"route": "everything"})


def test_fact_score_is_similarity_times_decay_times_recency_boost():
    assert fact_score(0.8, NOW - timedelta(days=3), NOW) == pytest.approx(
        0.8 * math.exp(-3 / 30) * 1.3)
    assert fact_score(0.8, NOW - timedelta(days=30), NOW) == pytest.approx(0.8 * math.exp(-1))
    fresh = fact_score(0.6, NOW - timedelta(days=1), NOW)
    stale = fact_score(0.7, NOW - timedelta(days=60), NOW)
    assert fresh > stale


def test_unverified_facts_become_reference_only():
    assert not is_reference_only(0.9, NOW - timedelta(days=2), NOW, 0.7)
    assert is_reference_only(0.9, NOW - timedelta(days=60), NOW, 0.7)


def test_rrf_prefers_items_both_channels_agree_on():
    fused = rrf(["a", "b", "c"], ["c", "a", "d"])
    assert [i for i, _ in fused][:2] == ["a", "c"]


def episode(goal: str, *turns: str, result: str = "", start: datetime = NOW) -> Episode:
    actions = tuple(Action(role="user" if i % 2 == 0 else "assistant", content=t, ts=start)
                    for i, t in enumerate(turns))
    return Episode(event_id=goal, user_id="u", session_id="s", start_time=start,
                   end_time=start, participants=("u", "assistant"), goal=goal,
                   actions=actions, result=result, raw_span=(1, len(turns)))


def test_cards_are_at_most_50_characters_and_carry_date_goal_and_the_relevant_part():
    ep = episode("plan the team offsite in Lisbon for twelve people",
                 "plan the team offsite in Lisbon for twelve people",
                 "Booked the Alfama venue, budget capped at $9,000, vegetarian menu.",
                 result="Booked the Alfama venue.")
    card = episode_card(ep, "what was the offsite budget?")
    assert len(card) <= 50
    assert card.startswith("19 Jan 2025 ")
    assert "budget" in card
    zh = episode("规划下周三的生日聚会", "帮我规划下周三的生日聚会，女朋友喜欢玫瑰，预算500以内",
                 result="我按玫瑰主题、8人来规划")
    card = episode_card(zh, "聚会预算多少")
    assert len(card) <= 50 and card.startswith("1月19日") and "预算500以内" in card


def test_budget_drops_lowest_value_per_token_first_and_episodes_weigh_less():
    items = [Item("fact", "f1", "girlfriend likes roses (0.95)", 0.9),
             Item("episode", "e1", "19 Jan 2025 plan party→roses, 8 guests, $500", 0.9),
             Item("fact", "f2", "the user lives in Berlin (0.85)", 0.2)]
    everything = sum(count_tokens(i.text) for i in items)
    assert fit_budget(items, everything) == items
    kept = fit_budget(items, everything - 1)
    assert [i.key for i in kept] == ["f1", "e1"]
    kept = fit_budget(items, count_tokens(items[0].text) + count_tokens(items[1].text) - 1)
    assert [i.key for i in kept] == ["f1"]


def test_render_puts_facts_before_episodes_in_the_querys_language():
    zh = render(["女朋友喜欢玫瑰 (0.95)"], ["1月12日 规划聚会"], chinese=True)
    assert zh.startswith("[长期知识]")
    text = render(["a (0.9)"], ["b"], chinese=False)
    assert text.index("[Known facts]") < text.index("[Past episodes]")


def test_content_words_meet_related_forms_and_leave_names_out():
    assert content_words("It reminds me of art", names=["Gina"]) & content_words(
        "What is Gina's bowl a reminder of?", names=["Gina"]) == {"remin"}
    assert "gina" not in content_words("Gina said hi to Jon", names=["Gina", "Jon"])
    assert "生日" in content_words("女朋友的生日是哪天")


def test_a_card_answers_from_the_reply_when_the_best_match_was_a_question():
    ep = episode("catching up",
                 "Melanie: Love the necklace, any special meaning to it?",
                 "Caroline: Thanks! It stands for love and faith.")
    card = episode_card(ep, "What does Caroline's necklace symbolize?")
    assert card == "19 Jan 2025 stands for love and faith."


def test_a_card_starts_at_the_last_shared_word_and_drops_filler():
    ep = episode("catching up", "Jon: Hey Gina!",
                 "Jon: Took a really short trip last week to Rome to clear my mind a little.")
    card = episode_card(ep, "Why did Jon take a trip to Rome?")
    assert card.startswith("19 Jan 2025 Rome to clear my mind") and len(card) <= 50
    greeting = episode("Caroline: Hey Mel!", "Caroline: Hey Mel!",
                       "Caroline: I signed the adoption papers.", result="Melanie: Wow!")
    assert episode_card(greeting, "what about the weather") == (
        "19 Jan 2025 I signed adoption papers.")


def test_fact_lines_share_the_date_parentheses_and_uncertain_facts_share_one_label():
    assert fact_line("Melanie went camping (20 Oct 2023)", 0.75) == (
        "Melanie went camping (20 Oct 2023, 0.75)")
    assert fact_line("女朋友喜欢玫瑰", 0.9) == "女朋友喜欢玫瑰 (0.90)"
    text = render(["a (0.9)"], ["c"], chinese=False, reference=["b (0.4)", "d (0.3)"])
    assert text.count("[Reference only: old or uncertain]") == 1
    assert text.index("a (0.9)") < text.index("[Reference only") < text.index("b (0.4)")
    assert text.index("d (0.3)") < text.index("[Past episodes]")
