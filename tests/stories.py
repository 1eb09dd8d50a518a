"""Conversations the tests tell graphmem, and what they read back of its graph, shared by
several test files."""

from __future__ import annotations

from collections import Counter
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


def fact_table(mem, user: str) -> Counter:
    """Every fact version of ``user`` (superseded ones too), as comparable tuples."""
    return Counter((f.entity, f.predicate, f.value, f.negated, f.status, f.confidence,
                    f.valid_from, f.last_verified)
                   for f in mem.facts(user, include_superseded=True))


def heads(driver, user: str) -> dict[tuple[str, str], int]:
    """How many current versions each (entity, predicate) of ``user`` has (1 when sound)."""
    records, _, _ = driver.execute_query(
        "MATCH (f:Fact {user_id: $u, status: 'current'}) WHERE NOT f.negated "
        "RETURN f.entity_id AS e, f.predicate AS p, count(*) AS n", u=user)
    return {(r["e"], r["p"]): r["n"] for r in records}
