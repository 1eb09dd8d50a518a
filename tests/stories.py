"""Conversations the tests tell graphmem, shared by several test files."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta


def life_story(user: str, sessions: int, *, start: datetime, cities: Sequence[str],
               jobs: Sequence[str], likes: Sequence[str], budget_steps: int) -> list[dict]:
    """A user whose budget, city and job keep changing and who repeats what they like:
    one session a day from ``start``, four messages each."""
    out = []
    for k in range(sessions):
        t = start + timedelta(days=k)
        turns = [f"my budget is now ${200 + 25 * (k % budget_steps)}",
                 f"I live in {cities[(k // 2) % len(cities)]} these days",
                 f"I like {likes[k % len(likes)]}",
                 f"I work at {jobs[(k // 3) % len(jobs)]} now"]
        out += [{"user_id": user, "session_id": f"s{k}", "role": "user", "content": text,
                 "ts": t + timedelta(minutes=i)} for i, text in enumerate(turns)]
    return out
