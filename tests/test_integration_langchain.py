"""graphmem in LangChain (the `langchain` extra): the real langchain-core, a real Neo4j and
no language model — the retriever in an LCEL chain and as an agent's tool, and LangChain
messages remembered."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from langchain_core.messages import (
    AIMessage,
    ChatMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_core.tools import create_retriever_tool

from graphmem import InvalidInputError, Memory
from graphmem.integrations.langchain import GraphmemRetriever, remember_messages

pytestmark = pytest.mark.neo4j
T0 = datetime(2025, 3, 1, 10, tzinfo=UTC)


def conversation() -> list:
    def at(minutes: int) -> dict:
        return {"ts": (T0 + timedelta(minutes=minutes)).isoformat()}

    return [
        SystemMessage("You are a travel assistant."),  # instructions: not remembered
        HumanMessage("I'm planning my sister Emma's wedding in Lisbon in June.",
                     additional_kwargs=at(0)),
        AIMessage("Lovely! Shall I look for venues by the river?", additional_kwargs=at(1)),
        HumanMessage("Yes please. I'm allergic to peanuts, so no peanuts on the menu.",
                     additional_kwargs=at(2)),
        AIMessage("", tool_calls=[{"name": "venues", "args": {"city": "Lisbon"}, "id": "c1"}],
                  additional_kwargs=at(3)),  # a bare tool call says nothing
        ToolMessage("3 venues found by the Tagus", tool_call_id="c1", additional_kwargs=at(4)),
    ]


def test_messages_remembered_and_recalled_as_documents(memory: Memory, user_id):
    stored = remember_messages(memory, user_id, "chat-1", conversation())
    assert [m.role for m in stored] == ["user", "assistant", "user", "tool"]
    assert remember_messages(memory, user_id, "chat-1", conversation()) == []  # sent again
    memory.flush()
    memory.consolidate(user_id, now=T0 + timedelta(days=1))

    retriever = GraphmemRetriever(memory=memory, user_id=user_id, top_k_facts=3)
    docs = retriever.invoke("what is the user allergic to?")
    facts = [d for d in docs if d.metadata["kind"] == "fact"]
    assert any("peanuts" in d.page_content for d in facts)
    allergy = next(d for d in facts if d.metadata["predicate"] == "allergic_to")
    assert allergy.id == allergy.metadata["fact_id"]
    assert memory.history(allergy.metadata["fact_id"], user_id)  # a real fact id
    passages = [d for d in docs if d.metadata["kind"] == "episode"]
    assert passages and passages[0].metadata["session_id"] == "chat-1"
    assert passages[0].metadata["raw_span"][0] >= 1
    other = GraphmemRetriever(memory=memory, user_id=f"{user_id}-other")
    assert other.invoke("what is the user allergic to?") == []  # one user's memory only
    assert asyncio.run(retriever.ainvoke("where is the wedding?"))  # async too

    prompts: list[str] = []  # an LCEL chain; the "model" only records its prompt

    def model(prompt: object) -> str:
        prompts.append(prompt.to_string())  # type: ignore[attr-defined]
        return "ok"

    chain = ({"memory": retriever | (lambda ds: "\n".join(d.page_content for d in ds)),
              "question": RunnablePassthrough()}
             | ChatPromptTemplate.from_template("Memory:\n{memory}\n\nQuestion: {question}")
             | RunnableLambda(model))
    assert chain.invoke("Where is my sister's wedding?") == "ok"
    assert "Lisbon" in prompts[0] and "Question: Where is my sister's wedding?" in prompts[0]

    tool = create_retriever_tool(retriever, "recall_memory",
                                 "What memory knows about the user, for a question.")
    answer = tool.invoke({"query": "what can't I eat?"})
    assert "peanuts" in answer


def test_only_conversation_turns_are_remembered(memory: Memory, user_id):
    with pytest.raises(InvalidInputError, match="not a conversation turn"):
        remember_messages(memory, user_id, "s", [ChatMessage("hi", role="moderator")])
    assert remember_messages(memory, user_id, "s", [SystemMessage("be brief")]) == []
    assert memory.episodes(user_id) == []
