"""Bounded work (issue 28): a question of any size is answered or refused at once, its
keyword terms are capped, and every read has a server-side timeout that is not retried."""

from __future__ import annotations

import random
import string
import time
from datetime import UTC, datetime

import pytest

from graphmem import InvalidInputError, QueryRefusedError
from graphmem._models import MAX_QUESTION_CHARS
from graphmem.queries import get_query, run_query
from graphmem.retrieve.lucene import (
    MAX_KEYWORD_CLAUSES,
    MAX_KEYWORD_TERMS,
    cap_words,
    lucene_or_query,
    lucene_terms,
)
from graphmem.store.runner import QueryRunner

T0 = datetime(2025, 5, 1, 9, 0, tzinfo=UTC)


def words(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.choices(string.ascii_lowercase, k=8)) for _ in range(n)]


def test_a_question_of_hundreds_of_distinct_words_is_answered(memory, user_id):
    """342 distinct words made Lucene refuse the keyword query (TooManyClauses)."""
    memory.add_message(user_id, "s", "user", "I planted roses and tulips in the garden", T0)
    memory.flush()
    question = " ".join(["roses", *words(400)])
    assert len(question) <= MAX_QUESTION_CHARS
    assert "roses" in memory.query_memory(question, user_id).text
    assert memory.explain_query(question, user_id).context.text
    assert memory.search_episodes(user_id, question)


def test_a_question_past_the_limit_is_refused_at_once_saying_the_limit(memory, user_id):
    for question in ("a " * (MAX_QUESTION_CHARS // 2 + 1), "word " * 700_000):
        for ask in (lambda q: memory.query_memory(q, user_id),
                    lambda q: memory.explain_query(q, user_id),
                    lambda q: memory.search_episodes(user_id, q)):
            with pytest.raises(InvalidInputError, match=f"at most {MAX_QUESTION_CHARS:,}"):
                ask(question)


def test_keyword_terms_are_capped_in_number_and_in_lucene_clauses():
    terms = lucene_terms(" ".join(words(1000)))
    assert len(terms) == MAX_KEYWORD_TERMS
    assert [t["word"] for t in terms] == words(1000)[:MAX_KEYWORD_TERMS]  # the first ones
    assert lucene_or_query(" ".join(words(1000))).count(" OR ") == MAX_KEYWORD_TERMS - 1
    # a Chinese word of n characters is n - 1 bigram clauses in a cjk index
    long_words = ["中华人民共和国" + chr(0x4E00 + i) for i in range(100)]  # 7 clauses each
    kept = cap_words(long_words)
    assert kept == long_words[:MAX_KEYWORD_CLAUSES // 7]
    assert lucene_terms("a" * 5000 + " roses") == [{"word": "roses", "term": "roses",
                                                    "weak": False}]


def branching_chain(driver, user_id: str, versions: int) -> str:
    """A fact chain where each version replaced the two before it: the number of paths
    through it grows like Fibonacci's numbers. Returns the oldest version's id."""
    driver.execute_query(
        "UNWIND range(0, $n) AS i CREATE (:Fact {fact_id: $u + '-' + i, user_id: $u, "
        "status: 'superseded'})", u=user_id, n=versions)
    for back in (1, 2):
        driver.execute_query(
            "UNWIND range($back, $n) AS i MATCH (a:Fact {fact_id: $u + '-' + i}), "
            "(b:Fact {fact_id: $u + '-' + (i - $back)}) CREATE (a)-[:SUPERSEDES]->(b)",
            u=user_id, n=versions, back=back)
    return f"{user_id}-0"


def open_transactions(driver, marker: str) -> list[str]:
    records, _, _ = driver.execute_query(
        "SHOW TRANSACTIONS YIELD transactionId, currentQuery "
        "WHERE currentQuery CONTAINS $marker RETURN transactionId", marker=marker)
    return [r["transactionId"] for r in records]


def test_a_read_past_its_timeout_is_stopped_by_neo4j_and_not_retried(neo4j_uri, driver,
                                                                     user_id):
    """The analysts' version_chain_graph over a branching chain of 12 versions runs for
    about a minute on these machines; with a 1 s read timeout Neo4j stops it, once."""
    oldest = branching_chain(driver, user_id, 12)
    statements: list[str] = []
    runner = QueryRunner(neo4j_uri, None, read_timeout_s=1, tracer=statements.append)
    try:
        started = time.monotonic()
        with pytest.raises(QueryRefusedError, match="neo4j_read_timeout_s") as refused:
            run_query(runner, get_query("version_chain_graph"), {"fact_id": oldest})
        assert time.monotonic() - started < 30
        assert "Neo." not in str(refused.value) and refused.value.code  # code kept apart
        assert len(statements) == 1 and runner.retries == {}  # not retried
    finally:
        runner.close()
    deadline = time.monotonic() + 30
    while open_transactions(driver, "whole version chain") and time.monotonic() < deadline:
        time.sleep(0.5)
    assert open_transactions(driver, "whole version chain") == []  # nothing runs on

