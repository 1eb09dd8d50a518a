"""graphmem for LangChain and LangGraph (``pip install 'graphmem[langchain]'``, which
brings ``langchain-core``).

- ``GraphmemRetriever`` — a LangChain retriever over one user's memory: ``invoke(question)``
  runs ``query_memory`` and returns its facts and passages as ``Document``\\ s, each with its
  provenance in ``metadata`` (fact ids, episode ids, sessions, raw spans, scores), in the
  order and within the token budget ``query_memory`` chose. It plugs in wherever a
  retriever does: an LCEL chain, ``create_retriever_tool`` for an agent, a LangGraph node.
- ``remember_messages`` — LangChain messages (``HumanMessage``, ``AIMessage``,
  ``ToolMessage``) into a session of a user's memory (system messages are instructions,
  not conversation, and are left out).

    from graphmem import Memory
    from graphmem.integrations.langchain import GraphmemRetriever, remember_messages

    mem = Memory.connect()
    remember_messages(mem, "u1", "chat-1", state["messages"])
    docs = GraphmemRetriever(memory=mem, user_id="u1").invoke("where does she live?")

Nothing here calls a model: graphmem needs no LLM, and neither does this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
    from langchain_core.retrievers import BaseRetriever
except ImportError as exc:  # pragma: no cover - the extra is not installed
    raise ImportError("graphmem.integrations.langchain needs langchain-core: "
                      "pip install 'graphmem[langchain]'") from exc

from graphmem._async_client import AsyncMemory
from graphmem._client import Memory
from graphmem._errors import InvalidInputError
from graphmem._models import MemoryContext, Message

__all__ = ["GraphmemRetriever", "documents", "remember_messages"]


class GraphmemRetriever(BaseRetriever):
    """One user's memory as a LangChain retriever (``query_memory`` underneath)."""

    memory: Memory
    user_id: str
    top_k_episodes: int = 3
    top_k_facts: int = 5
    token_budget: int | None = None

    def _get_relevant_documents(self, query: str, *,
                                run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        return documents(self.memory.query_memory(
            query, self.user_id, top_k_episodes=self.top_k_episodes,
            top_k_facts=self.top_k_facts, token_budget=self.token_budget))

    async def _aget_relevant_documents(self, query: str, *, run_manager: Any) -> list[Document]:
        return documents(await AsyncMemory(self.memory).query_memory(
            query, self.user_id, top_k_episodes=self.top_k_episodes,
            top_k_facts=self.top_k_facts, token_budget=self.token_budget))


def documents(context: MemoryContext) -> list[Document]:
    """A memory context as Documents: its facts first (the statement), then its episodes
    (the passage the context shows), each with where it came from."""
    found = [Document(
        page_content=("NOT " if f.negated and not f.sentence else "") + (
            f.sentence or f"{f.entity} {f.predicate} {f.value}"),
        metadata={"kind": "fact", "fact_id": f.fact_id, "entity": f.entity,
                  "predicate": f.predicate, "value": f.value, "negated": f.negated,
                  "confidence": f.confidence, "score": f.score,
                  "reference_only": f.reference_only,
                  "source_episodes": list(f.source_episodes),
                  "session_ids": list(f.session_ids)},
        id=f.fact_id) for f in context.facts]
    found += [Document(
        page_content=e.summary,
        metadata={"kind": "episode", "event_id": e.event_id, "session_id": e.session_id,
                  "start_time": e.start_time.isoformat(), "end_time": e.end_time.isoformat(),
                  "raw_span": list(e.raw_span), "score": e.score},
        id=e.event_id) for e in context.episodes]
    return found


ROLES: dict[type[BaseMessage], str] = {HumanMessage: "user", AIMessage: "assistant",
                                       ToolMessage: "tool"}


def remember_messages(memory: Memory, user_id: str, session_id: str,
                      messages: Iterable[BaseMessage]) -> list[Message]:
    """Add LangChain messages to a session of the user's memory (one raw buffer write; a
    message sent again is not stored twice when it carries its time, an aware datetime or
    ISO text, as ``additional_kwargs["ts"]``). System messages are left out; content given
    as parts keeps its text parts."""
    turns = []
    for message in messages:
        role = next((r for kind, r in ROLES.items() if isinstance(message, kind)), None)
        if role is None:
            if message.type == "system":
                continue
            raise InvalidInputError(f"a {type(message).__name__} is not a conversation turn")
        text = str(message.text)  # the text parts of content given as parts
        ts = message.additional_kwargs.get("ts")
        if isinstance(ts, str):
            ts = datetime.fromisoformat(ts)
        if text.strip():
            turns.append({"user_id": user_id, "session_id": session_id, "role": role,
                          "content": text, "ts": ts})
    return memory.add_messages(turns)
