"""Deterministic synthetic conversations for benchmarks and the outage test.

Multi-user, multi-session, Chinese and English, with goal switches (另外, "by the
way"), fillers, and pauses longer than the idle timeout — so splitting has real work.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

START = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)

TOPICS_EN = [
    ("Can you help me plan a birthday party for {n} people next {day}?",
     "Sure — a {theme} theme for {n} guests on {day}, budget about ${b}."),
    ("What is the price of product {p} if we order {n} units?",
     "Product {p} costs ${b} per unit; {n} units ship in two weeks."),
    ("I need to book a flight to {city} on {day}.",
     "I found a morning flight to {city} on {day} for ${b}."),
    ("Please draft an email to the {team} team about the release.",
     "Here is a draft for the {team} team announcing the release on {day}."),
    ("How should we split the work on the {team} project?",
     "Split it into {n} tracks: backend, frontend and testing for {team}."),
]
TOPICS_ZH = [
    ("帮我规划{day}的生日聚会，大概{n}个人，预算{b}以内。",
     "好的，我按{theme}主题、{n}人、预算{b}来规划。"),
    ("产品{p}的报价是多少？我们要{n}件。", "产品{p}单价{b}元，{n}件两周内发货。"),
    ("帮我订{day}去{city}的机票。", "已找到{day}上午飞{city}的航班，票价{b}元。"),
    ("{team}项目的团队分工怎么安排？", "建议分成{n}组：后端、前端和测试。"),
    ("我不吃香菜，帮我推荐{city}的餐厅。", "推荐{city}的三家餐厅，都可以不放香菜。"),
]
FOLLOW_EN = ["what about the venue?", "ok and the timing?", "can we make it cheaper?",
             "add a vegetarian option", "send me the summary"]
FOLLOW_ZH = ["场地怎么选？", "时间再确认一下", "能便宜一点吗？", "加一个素食选项", "把总结发给我"]
SWITCH_EN = ["By the way, ", "Another question: ", "Back to the other thing — "]
SWITCH_ZH = ["另外，", "换个话题，", "还有一个问题，"]
FILLERS = ["ok", "thanks!", "好的", "嗯嗯", "👍"]
WORDS = {
    "day": ["Monday", "Wednesday", "Friday", "下周三", "周五"],
    "theme": ["rose", "garden", "retro", "玫瑰"],
    "city": ["Shanghai", "Lisbon", "Berlin", "上海", "深圳"],
    "team": ["data", "mobile", "payments", "增长"],
    "p": ["A", "B", "C"],
}


def _fill(template: str, rng: random.Random) -> str:
    values = {k: rng.choice(v) for k, v in WORDS.items()}
    return template.format(n=rng.randint(2, 30), b=rng.choice([300, 500, 800, 1200]), **values)


def generate_messages(
    total: int, users: int = 20, sessions_per_user: int = 10, seed: int = 7,
    prefix: str = "bench",
) -> Iterator[dict]:
    """``total`` messages, interleaved across users in time order, as add_messages dicts."""
    rng = random.Random(seed)
    per_session = max(2, total // (users * sessions_per_user))
    produced = 0
    clock = {u: START + timedelta(minutes=7 * u) for u in range(users)}
    for s in range(sessions_per_user):
        for u in range(users):
            if produced >= total:
                return
            chinese = (u + s) % 2 == 1
            topics, follows, switches = (
                (TOPICS_ZH, FOLLOW_ZH, SWITCH_ZH) if chinese else (TOPICS_EN, FOLLOW_EN, SWITCH_EN)
            )
            session_id = f"{prefix}-u{u}-s{s}"
            ts = clock[u] + timedelta(days=1)
            i = 0
            while i < per_session and produced < total:
                ask, answer = rng.choice(topics)
                opener = _fill(ask, rng)
                if i > 0:
                    opener = rng.choice(switches) + opener
                turns = [("user", opener), ("assistant", _fill(answer, rng))]
                for _ in range(rng.randint(0, 3)):
                    turns += [("user", rng.choice(follows)), ("assistant", _fill(answer, rng))]
                if rng.random() < 0.3:
                    turns.append(("user", rng.choice(FILLERS)))
                for role, content in turns:
                    if i >= per_session or produced >= total:
                        break
                    ts += timedelta(seconds=rng.randint(5, 90))
                    yield {"user_id": f"{prefix}-u{u}", "session_id": session_id, "role": role,
                           "content": content, "ts": ts}
                    i += 1
                    produced += 1
                if rng.random() < 0.15:
                    ts += timedelta(minutes=rng.randint(20, 90))  # a pause: idle split
            clock[u] = ts
