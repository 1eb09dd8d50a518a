"""``graphmem demo``: the article's conversations through the whole pipeline.

The data (``conversation_messages``) is also what the analysts' Cypher library is tested
on: a birthday party (roses, no coriander, a budget), a user who refuses WeChat, asks to
be added on it a week later and goes back to email the week after (a version chain of
three), and a dinner chat where 女友 turns out to be 女朋友 (merged) while 寿司 and
寿司拼盘 are close but not certain (``MAYBE_SAME_AS``, left for review).
"""

from __future__ import annotations

import os
import tempfile
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from graphmem._config import MemoryConfig

T0 = datetime(2025, 1, 12, 16, 30, 2, tzinfo=UTC)

BIRTHDAY_ZH = [
    ("user", "帮我规划下周三的生日聚会，女朋友喜欢玫瑰，预算500以内。", 0),
    ("assistant", "需要地点还是在家？大概多少人？", 20),
    ("user", "在家就行，大概8个人，她不吃香菜。", 100),
    ("assistant", "好的，我按玫瑰主题、8人、禁香菜、预算500来规划。", 219),
    ("user", "另外，团队分工怎么安排？", 240),
    ("assistant", "建议按前端、后端、测试三组分工。", 250),
]
WECHAT = [  # (role, text, seconds, day) — one session per day
    ("user", "我不喜欢用微信沟通，有事发邮件。", 0, 1),
    ("assistant", "好的，以后通过邮件联系您。", 10, 1),
    ("user", "加我微信把文档发过来", 0, 8),
    ("assistant", "好的，已通过微信发送文档。", 15, 8),
    ("user", "微信消息太多了，以后还是发邮件吧。", 0, 15),
    ("assistant", "好的，以后改用邮件联系您。", 12, 15),
]
DINNER = [  # day 16; 另外 starts a second episode
    ("user", "我女友也很喜欢郁金香花。", 0),
    ("assistant", "记下了，郁金香。", 20),
    ("user", "另外，我喜欢吃寿司。", 60),
    ("user", "我喜欢吃寿司拼盘。", 80),
    ("assistant", "好的，下次推荐寿司店。", 95),
]
DINNER_DAY = 16
NOW = T0 + timedelta(days=DINNER_DAY + 1)  # the demo's "today": queries and expiry as of it


def conversation_messages(user_id: str) -> list[dict]:
    session = f"{user_id}-party"
    messages = [
        {"user_id": user_id, "session_id": session, "role": role, "content": text,
         "ts": T0 + timedelta(seconds=dt)}
        for role, text, dt in BIRTHDAY_ZH
    ]
    for role, text, dt, day in WECHAT:
        messages.append({
            "user_id": user_id, "session_id": f"{user_id}-wechat-d{day}", "role": role,
            "content": text, "ts": T0 + timedelta(days=day, seconds=dt),
        })
    messages += [
        {"user_id": user_id, "session_id": f"{user_id}-dinner", "role": role, "content": text,
         "ts": T0 + timedelta(days=DINNER_DAY, seconds=dt)}
        for role, text, dt in DINNER
    ]
    return messages


def browser_url(config: MemoryConfig) -> str:
    """Where Neo4j Browser answers for the server ``config`` connects to: the host of its
    Bolt URI, the port of the server's own HTTP connector (``admin/http_address``); when the
    server does not say, ``NEO4J_HTTP_PORT`` (what ``scripts/neo4j-local`` and ``docker/``
    use), else 7474."""
    from graphmem import GraphmemError
    from graphmem.store.runner import QueryRunner

    uri = config.driver_uri
    host = uri.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[0] or "127.0.0.1"
    port = os.environ.get("NEO4J_HTTP_PORT", "7474")
    runner = QueryRunner(uri, config.auth, config.neo4j_database, connect_timeout_s=5)
    try:
        settings = {r["name"]: r["value"] for r in runner.read("admin/http_address")}
        address = (settings.get("server.http.advertised_address")
                   or settings.get("server.http.listen_address") or "")
        if address.rpartition(":")[2].isdigit():
            port = address.rpartition(":")[2]
    except GraphmemError:  # a server that does not say (or refuses SHOW SETTINGS)
        pass
    finally:
        runner.close()
    return f"http://{host}:{port}/browser/"


def browser_query(user_id: str) -> str:
    """The demo user's channel version chain with its source episodes and raw messages
    (pasteable as is; ``cypher/queries/version_chain_graph.cypher`` adds entities and values)."""
    return (f"MATCH p = (:Fact {{user_id: '{user_id}', predicate: 'uses_channel', "
            "status: 'current'})-[:SUPERSEDES*0..]->(:Fact)-[:DERIVED_FROM]->(:Episode)"
            "-[:HAS_MESSAGE]->(:Message) RETURN p")


def run_demo(uri: str | None, buffer_dir: Path | None, console: Console) -> None:
    if buffer_dir is not None:
        _demo(uri, buffer_dir, console)
        return
    with tempfile.TemporaryDirectory(prefix="graphmem-demo-") as tmp:
        _demo(uri, Path(tmp), console)


def _demo(uri: str | None, directory: Path, console: Console) -> None:
    from graphmem import Memory

    user_id = f"demo_{uuid.uuid4().hex[:6]}"
    console.print(f"[bold]graphmem demo[/bold] — user {user_id}, raw buffer {directory}")
    with Memory.connect(uri, buffer_dir=directory) as mem:
        mem.add_messages(conversation_messages(user_id))
        mem.flush()
        report = mem.consolidate(user_id, now=NOW)
        console.print(
            f"consolidated {report.episodes} episodes: {report.created} new facts, "
            f"{report.superseded} superseded, {report.expired} expired (explicit preferences "
            "were already stored, and superseded, by the online path as the messages arrived)")

        table = Table("start", "goal", "result", "raw_span", title="Episodes (time-linked)")
        for ep in mem.episodes(user_id):
            table.add_row(ep.start_time.strftime("%Y-%m-%d %H:%M"), ep.goal, ep.result,
                          f"{ep.raw_span[0]}–{ep.raw_span[1]}")
        console.print(table)

        facts = Table("entity", "predicate", "value", "confidence", "status", "valid until",
                      title="Facts (all versions)")
        for f in mem.facts(user_id, include_superseded=True):
            facts.add_row(f.entity, f.predicate, ("NOT " if f.negated else "") + f.value,
                          f"{f.confidence:.2f}", f.status,
                          f.valid_until.strftime("%Y-%m-%d") if f.valid_until else "")
        console.print(facts)

        [channel] = mem.facts(user_id, predicate="uses_channel")
        console.print("[bold]Version chain of the channel fact[/bold] (newest first):")
        for version in mem.history(channel.fact_id, user_id):
            said = " + ".join(f"«{mem.raw(user_id, ep.session_id, ep.raw_span)[0].content}»"
                              for ep in version.episodes)
            console.print(f"  {version.fact.status:<10} {version.fact.sentence:<14} ← {said}")

        for question in ("上次我女朋友喜欢的花是什么来着", "昨天我们聊了什么"):
            ctx = mem.query_memory(question, user_id, now=NOW)
            console.print(f"\n[bold]query_memory[/bold]({question!r}) → route {ctx.route}, "
                          f"{ctx.tokens} tokens")
            console.print(ctx.text or "(nothing)", markup=False)
        browser = browser_url(mem.config)

    console.print(
        f"\n[bold]See it in Neo4j Browser[/bold]: {browser} — connect with no "
        "authentication, drag docs/graphmem.grass onto the window for colours and captions "
        "(docs/browser.md), then paste:")
    console.print(browser_query(user_id), markup=False, soft_wrap=True)
    console.print(f"Analysts' queries: graphmem cypher --list; e.g. "
                  f"graphmem cypher user_timeline --param user_id={user_id} "
                  f"--param since=2000-01-01T00:00:00Z --param until=2100-01-01T00:00:00Z",
                  markup=False)
