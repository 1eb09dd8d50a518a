"""Deterministic synthetic conversations for benchmarks and the outage test.

Multi-user, multi-session, Chinese and English, with goal switches (另外, "by the
way"), fillers, and pauses longer than the idle timeout — so splitting has real work.
``ScaleCorpus`` adds what scale runs need: many users of Zipf-distributed sizes over a
year, and preferences that change over time.
"""

from __future__ import annotations

import heapq
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


# -- scale runs: many users of very different sizes, over a year ---------------------------

# Preferences a user states and later changes (single-valued: a new value supersedes).
PREFERENCES_EN = [
    ("drink", "I like {v} these days.", "Noted: {v} it is.",
     ["green tea", "coffee", "oolong tea", "sparkling water"]),
    ("budget", "My budget is ${v} now.", "Got it, I'll keep it under ${v}.",
     ["300", "500", "800", "1200"]),
    ("city", "I live in {v} now.", "Thanks, I'll plan around {v}.",
     ["Berlin", "Lisbon", "Shanghai", "Toronto"]),
    ("channel", "Please contact me by {v} from now on.", "Sure, {v} from now on.",
     ["email", "phone", "WeChat"]),
]
PREFERENCES_ZH = [
    ("drink", "我最近喜欢喝{v}。", "记下了，{v}。", ["绿茶", "咖啡", "乌龙茶", "气泡水"]),
    ("budget", "我的预算是{v}元以内。", "好的，控制在{v}元以内。", ["300", "500", "800", "1200"]),
    ("city", "我现在住在{v}。", "好的，按{v}来安排。", ["上海", "深圳", "北京", "杭州"]),
    ("channel", "以后用{v}联系我。", "好的，以后用{v}。", ["微信", "邮件", "电话"]),
]
SESSION_GAP_MIN = timedelta(minutes=30)


def zipf_sizes(total: int, users: int, exponent: float = 1.1, minimum: int = 4) -> list[int]:
    """Messages per user, largest first, summing to ``total``: each user ``minimum``, the
    rest shared ∝ 1 / (i + 1) ** exponent (a few users hold most messages, most have few).
    Fewer users when ``total`` cannot give each of them ``minimum``."""
    if total < minimum:
        raise ValueError(f"{total} messages are fewer than one user's minimum ({minimum})")
    users = max(1, min(users, total // minimum))
    weights = [1 / (i + 1) ** exponent for i in range(users)]
    rest = total - minimum * users
    sizes = [minimum + int(rest * w / sum(weights)) for w in weights]
    sizes[0] += total - sum(sizes)  # rounding goes to the largest user
    return sizes


class ScaleCorpus:
    """A seeded corpus for ``bench scale``: ``users`` users with Zipf-distributed sizes,
    each talking in sessions spread over ``span_days`` (Chinese or English by user, one
    session in five in the other language), with goal switches, fillers, silences longer
    than the idle timeout, and preferences that change over time (I like tea → I like
    coffee). ``messages()`` yields them in global time order, lazily (a million messages
    stay cheap); ``last_ts`` and ``preferences`` are known once it has run."""

    def __init__(self, total: int, users: int = 200, seed: int = 7, prefix: str = "scale",
                 span_days: int = 365, session_size: int = 24, exponent: float = 1.1) -> None:
        self.total, self.seed, self.prefix = total, seed, prefix
        self.span_days, self.session_size = span_days, session_size
        self.sizes = zipf_sizes(total, users, exponent)
        self.last_ts: dict[str, datetime] = {}
        self.preferences: dict[str, dict[str, str]] = {}  # the latest value stated, per slot

    def user_id(self, index: int) -> str:
        return f"{self.prefix}-u{index}"

    def chinese(self, index: int) -> bool:
        return index % 2 == 1

    def messages(self) -> Iterator[dict]:
        streams = [self._user_messages(u, size) for u, size in enumerate(self.sizes)]
        return heapq.merge(*streams, key=lambda m: m["ts"])

    def _user_messages(self, u: int, size: int) -> Iterator[dict]:
        rng = random.Random(f"{self.seed}-{u}")
        user_id = self.user_id(u)
        sessions = max(1, round(size / self.session_size))
        span_s = self.span_days * 86_400
        starts = sorted(rng.randrange(span_s) for _ in range(sessions))
        produced, ts = 0, START
        for s, offset in enumerate(starts):
            ts = max(START + timedelta(seconds=offset), ts + SESSION_GAP_MIN)
            quota = size - produced if s == sessions - 1 else min(
                size - produced, max(2, round(rng.gauss(self.session_size, 6))))
            chinese = self.chinese(u) != (rng.random() < 0.2)
            for role, content, pause in self._session(rng, user_id, quota, chinese):
                ts += timedelta(seconds=rng.randint(5, 90)) + pause
                yield {"user_id": user_id, "session_id": f"{user_id}-s{s}", "role": role,
                       "content": content, "ts": ts}
                produced += 1
            if produced >= size:
                break
        self.last_ts[user_id] = ts

    def _session(self, rng: random.Random, user_id: str, quota: int, chinese: bool
                 ) -> Iterator[tuple[str, str, timedelta]]:
        topics, follows, switches, preferences = (
            (TOPICS_ZH, FOLLOW_ZH, SWITCH_ZH, PREFERENCES_ZH) if chinese
            else (TOPICS_EN, FOLLOW_EN, SWITCH_EN, PREFERENCES_EN))
        i = 0
        pause = timedelta(0)
        while i < quota:
            if rng.random() < 0.12:  # a preference, often a new value for an old slot
                slot, said, reply, values = rng.choice(preferences)
                value = rng.choice(values)
                self.preferences.setdefault(user_id, {})[slot] = value
                turns = [("user", said.format(v=value)), ("assistant", reply.format(v=value))]
            else:
                ask, answer = rng.choice(topics)
                opener = _fill(ask, rng)
                turns = [("user", (rng.choice(switches) if i else "") + opener),
                         ("assistant", _fill(answer, rng))]
                for _ in range(rng.randint(0, 3)):
                    turns += [("user", rng.choice(follows)), ("assistant", _fill(answer, rng))]
                if rng.random() < 0.3:
                    turns.append(("user", rng.choice(FILLERS)))
            for role, content in turns:
                if i >= quota:
                    return
                yield role, content, pause
                pause = timedelta(0)
                i += 1
            if rng.random() < 0.15:
                pause = timedelta(minutes=rng.randint(20, 90))  # a silence: idle split
