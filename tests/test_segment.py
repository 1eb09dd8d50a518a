"""Episode splitting on the article's scenarios — pure, no Neo4j."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from graphmem._models import Message
from graphmem.ingest.splitter import EpisodeSplitter, build_episode, episode_id
from graphmem.text.chat import has_switch_marker, is_filler, summarize_goal, truncate

T0 = datetime(2025, 1, 12, 16, 30, 2, tzinfo=UTC)


def conversation(*turns: tuple[str, str, float], session: str = "s1") -> list[Message]:
    return [
        Message(msg_id=i + 1, user_id="u1", session_id=session, role=role, content=text,
                ts=T0 + timedelta(seconds=dt))
        for i, (role, text, dt) in enumerate(turns)
    ]


def split(messages: list[Message], **kwargs) -> list:
    splitter = EpisodeSplitter(**kwargs)
    return [c.episode for c in splitter.feed_all(messages) + splitter.close_all()]


BIRTHDAY_ZH = conversation(
    ("user", "帮我规划下周三的生日聚会，女朋友喜欢玫瑰，预算500以内。", 0),
    ("assistant", "需要地点还是在家？大概多少人？", 20),
    ("user", "在家就行，大概8个人，她不吃香菜。", 100),
    ("assistant", "好的，我按玫瑰主题、8人、禁香菜、预算500来规划。", 219),
)


def test_birthday_party_is_one_episode_covering_all_four_messages():
    [episode] = split(BIRTHDAY_ZH)
    assert episode.raw_span == (1, 4)
    assert len(episode.actions) == 4
    assert episode.start_time == T0 and episode.end_time == T0 + timedelta(seconds=219)
    assert episode.goal == "规划下周三的生日聚会"
    assert "玫瑰" in episode.result and not episode.result.startswith("好的")
    assert episode.participants == ("u1", "assistant")


def test_goal_switch_with_lingwai_splits_seconds_apart():
    messages = conversation(
        ("user", "产品A的报价是多少？", 0),
        ("assistant", "产品A单价1200元，批量有折扣。", 5),
        ("user", "另外，团队分工怎么安排？", 9),
        ("assistant", "建议前端、后端、测试各一组。", 14),
    )
    price, staffing = split(messages)
    assert price.raw_span == (1, 2) and staffing.raw_span == (3, 4)
    assert (staffing.start_time - price.end_time).total_seconds() == 4
    assert "报价" in price.goal
    assert staffing.goal == "团队分工怎么安排"


@pytest.mark.parametrize(
    "opener",
    ["By the way, who is on the team?", "Another question: what does shipping cost?",
     "Back to the contract — is it signed?", "换个话题，周末天气怎么样？",
     "还有一个问题，发票怎么开？", "好的。接下来看看部署方案"],
)
def test_switch_markers_in_both_languages_split(opener):
    messages = conversation(("user", "What is the price of product A?", 0),
                            ("assistant", "It is $1,200.", 3), ("user", opener, 6))
    assert [e.raw_span for e in split(messages)] == [(1, 2), (3, 3)]


def test_markers_inside_a_clause_do_not_split():
    assert not has_switch_marker("我们另外还需要两把椅子")
    assert not has_switch_marker("I went back to the store")
    assert has_switch_marker("好的，另外还有个事")


def test_twenty_minutes_of_silence_splits():
    messages = conversation(("user", "help me draft the launch email", 0),
                            ("assistant", "Here is a draft.", 30),
                            ("user", "now make it shorter", 30 + 20 * 60))
    assert [e.raw_span for e in split(messages)] == [(1, 2), (3, 3)]
    assert len(split(messages, idle_timeout_s=30 * 60)) == 1


def test_eight_short_user_messages_on_one_goal_stay_one_episode():
    texts = ["订机票", "去上海", "下周五", "早上的", "经济舱", "两个人", "靠窗", "含行李"]
    messages = conversation(*[("user", t, i * 15) for i, t in enumerate(texts)])
    [episode] = split(messages)
    assert episode.raw_span == (1, 8)
    assert [a.content for a in episode.actions] == texts


def test_fillers_are_kept_in_raw_span_but_not_in_actions():
    messages = conversation(("user", "Can you book a table for two at 7pm?", 0),
                            ("assistant", "Booked at Luigi's for 7pm.", 4),
                            ("user", "thanks 👍", 8),
                            ("assistant", "好的", 9), ("user", "嗯嗯", 10), ("user", "ok!", 11))
    [episode] = split(messages)
    assert episode.raw_span == (1, 6)
    assert [a.content for a in episode.actions] == [
        "Can you book a table for two at 7pm?", "Booked at Luigi's for 7pm."]
    assert episode.goal == "book a table for two at 7pm"
    assert episode.result == "Booked at Luigi's for 7pm."


@pytest.mark.parametrize("text", ["好的", "嗯", "ok", "OK.", "thanks!", "Thank you", "👍", "谢谢！",
                                  "好的，谢谢", "收到"])
def test_is_filler(text):
    assert is_filler(text)


@pytest.mark.parametrize("text", ["好的，预算改成800", "ok let's use roses", "no", "thanks, and "
                                  "also book a cab"])
def test_is_not_filler(text):
    assert not is_filler(text)


def test_actions_are_truncated_at_200_characters():
    long = "很长的需求描述，" * 60
    [episode] = split(conversation(("user", long, 0)))
    assert len(episode.actions[0].content) <= 200
    assert episode.actions[0].content.endswith("…")


def test_goal_is_a_short_extract_not_the_first_100_characters():
    messages = conversation(("user", "Hi! Could you help me plan a team offsite in Lisbon for "
                             "twelve people next spring, with a workshop room and good food?", 0))
    goal = summarize_goal(messages)
    assert goal.lower().startswith("plan a team offsite in lisbon")
    assert len(goal) <= 40


def test_episode_ids_are_deterministic_per_user_session_and_first_message():
    assert build_episode(BIRTHDAY_ZH).event_id == episode_id("u1", "s1", 1)
    assert episode_id("u1", "s1", 1) != episode_id("u1", "s2", 1)
    assert episode_id("u1", "s1", 1) != episode_id("u2", "s1", 1)  # two users' "s1"


def test_out_of_order_timestamps_do_not_split_or_break_times():
    messages = conversation(("user", "plan dinner", 100), ("assistant", "sure, where?", 50))
    [episode] = split(messages)
    assert episode.start_time == T0 + timedelta(seconds=50)
    assert episode.end_time == T0 + timedelta(seconds=100)


def test_close_quiet_closes_only_sessions_silent_past_the_timeout():
    splitter = EpisodeSplitter(idle_timeout_s=900)
    splitter.feed_all(conversation(("user", "a question", 0), session="old"), arrived=100.0)
    splitter.feed_all(conversation(("user", "another", 500), session="new"), arrived=1000.0)
    closed = splitter.close_quiet(now=1200.0)  # wall clock, not message time
    assert [c.episode.session_id for c in closed] == ["old"]
    assert [m.content for m in closed[0].messages] == ["a question"]
    assert splitter.open_messages(("u1", "new"))


def test_a_session_the_user_left_ends_by_message_time():
    """A user who moves on to another session: the old session's episode closes once the
    user's messages elsewhere are idle_timeout later — not at the next flush."""
    splitter = EpisodeSplitter(idle_timeout_s=900)
    assert not splitter.feed_all(conversation(("user", "plan the trip", 0),
                                              ("user", "book a hotel", 60), session="a"))
    assert not splitter.feed_all(conversation(("user", "meanwhile, a recipe", 300),
                                              session="b"))  # within the timeout: both open
    closed = splitter.feed_all(conversation(("user", "what about dinner", 1000), session="b"))
    assert [(c.episode.session_id, [m.content for m in c.messages]) for c in closed] == [
        ("a", ["plan the trip", "book a hotel"])]
    assert [m.content for m in splitter.open_messages(("u1", "b"))] == [
        "meanwhile, a recipe", "what about dinner"]
    other_user = EpisodeSplitter(idle_timeout_s=900)
    other_user.feed_all(conversation(("user", "hello", 0), session="a"))
    later = conversation(("user", "hi", 5000), session="b")
    assert not other_user.feed_all([m.model_copy(update={"user_id": "u2"}) for m in later])
    assert other_user.open_messages(("u1", "a"))  # another user's clock closes nothing


def test_truncate_cuts_latin_text_at_a_word():
    assert truncate("plan a birthday party next wednesday", 20) == "plan a birthday…"
