"""``graphmem demo``: the article's conversations through the whole pipeline."""

from __future__ import annotations

import tempfile
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.table import Table

T0 = datetime(2025, 1, 12, 16, 30, 2, tzinfo=UTC)

BIRTHDAY_ZH = [
    ("user", "帮我规划下周三的生日聚会，女朋友喜欢玫瑰，预算500以内。", 0),
    ("assistant", "需要地点还是在家？大概多少人？", 20),
    ("user", "在家就行，大概8个人，她不吃香菜。", 100),
    ("assistant", "好的，我按玫瑰主题、8人、禁香菜、预算500来规划。", 219),
    ("user", "另外，团队分工怎么安排？", 240),
    ("assistant", "建议按前端、后端、测试三组分工。", 250),
]
WECHAT = [
    ("user", "我不喜欢用微信沟通，有事发邮件。", 0, 0),
    ("assistant", "好的，以后通过邮件联系您。", 10, 0),
    ("user", "加我微信把文档发过来", 0, 7),
    ("assistant", "好的，已通过微信发送文档。", 15, 7),
]


def conversation_messages(user_id: str) -> list[dict]:
    session = f"{user_id}-party"
    messages = [
        {"user_id": user_id, "session_id": session, "role": role, "content": text,
         "ts": T0 + timedelta(seconds=dt)}
        for role, text, dt in BIRTHDAY_ZH
    ]
    for role, text, dt, week in WECHAT:
        messages.append({
            "user_id": user_id, "session_id": f"{user_id}-wechat-w{week}", "role": role,
            "content": text, "ts": T0 + timedelta(days=1 + week, seconds=dt),
        })
    return messages


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
        report = mem.consolidate(user_id, now=T0 + timedelta(days=9))
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

        [wechat] = mem.facts(user_id, entity="微信沟通")
        console.print("[bold]Version chain of the WeChat fact[/bold] (newest first):")
        for version in mem.history(wechat.fact_id, user_id):
            ep = version.episodes[0]
            said = mem.raw(user_id, ep.session_id, ep.raw_span)[0].content
            console.print(f"  {version.fact.status:<10} {version.fact.sentence:<14} "
                          f"← {ep.event_id} «{said}»")

        now = T0 + timedelta(days=9)
        for question in ("上次我女朋友喜欢的花是什么来着", "昨天我们聊了什么"):
            ctx = mem.query_memory(question, user_id, now=now)
            console.print(f"\n[bold]query_memory[/bold]({question!r}) → route {ctx.route}, "
                          f"{ctx.tokens} tokens")
            console.print(ctx.text or "(nothing)", markup=False)
