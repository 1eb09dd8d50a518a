"""Which messages come along and which rise on a user↔assistant chat — pure, no Neo4j:
the assistant's reply after a user's question, and the newest word for "now" questions."""

from __future__ import annotations

import pytest

from graphmem import RetrievalConfig
from graphmem.retrieve.passages import (
    best_first,
    build_passages,
    people_replies,
    present_first,
    weigh_assistant,
)
from graphmem.retrieve.question import asks_present
from graphmem.text.tokens import count_tokens
from tests.test_retrieve import line


def test_the_assistants_reply_comes_along_only_when_asked_about():
    """A user's question brings the assistant's long advice after it only when the question
    asks what the assistant said; a person's reply to a person still comes along."""
    asked = line(1, "what should I cook for my sister, she's vegan?")
    advice = line(2, "Here are ten vegan dinners: lentil curry, chickpea stew, …",
                  role="assistant")
    later = line(5, "my sister loved the lentil curry!", day=3)
    melanie = line(1, "Melanie: Love the necklace, any special meaning?", session="s2")
    caroline = line(2, "Caroline: It stands for love and faith.", session="s2")
    lines = {li.key: li for li in (asked, advice, later, melanie, caroline)}
    successors = {asked.key: advice, melanie.key: caroline}
    ranked = [(asked.key, 0.9), (melanie.key, 0.8), (later.key, 0.7)]

    kept = people_replies(successors)
    assert kept == {melanie.key: caroline}
    shown = build_passages(ranked, lines, kept, limit=5)
    assert [[li.msg_id for li in p.lines] for p in shown] == [[1], [1, 2], [5]]
    every = build_passages(ranked, lines, successors, limit=5)
    assert [[li.msg_id for li in p.lines] for p in every] == [[1, 2], [1, 2], [5]]


def test_for_a_now_question_the_newest_user_message_rises():
    old = line(1, "I work at Acme as a tester.", session="s1", day=1)
    new = line(1, "I started at Globex last week!", session="s2", day=20)
    reply = line(2, "Congrats on Globex!", session="s2", day=20, role="assistant")
    far = line(1, "Globex is hiring testers.", session="s3", day=25)
    lines = {li.key: li for li in (old, new, reply, far)}
    ranked = best_first([(old.key, 1.0), (reply.key, 0.95), (new.key, 0.8), (far.key, 0.1)])

    risen = present_first(ranked, lines, weight=0.5, candidates=3)
    assert [k for k, _ in risen][:2] == [new.key, old.key]
    scores = dict(risen)
    assert scores[new.key] == pytest.approx(0.8 * 1.5)
    assert scores[old.key] == pytest.approx(1.0)  # the oldest candidate gains nothing
    assert scores[reply.key] == pytest.approx(0.95)  # an assistant's reply cannot rise
    assert scores[far.key] == pytest.approx(0.1)  # nor a message below the candidates
    assert present_first(ranked, lines, weight=0.0, candidates=3) == ranked


@pytest.mark.parametrize(("query", "present"), [
    ("where do I work now?", True),
    ("do I still play tennis on weekends", True),
    ("what am I reading these days", True),
    ("what's my current phone", True),
    ("我现在住在哪个区", True),
    ("我目前还在学吉他吗", True),
    ("how long ago did I move to Denver", False),  # set against the past
    ("is my new place bigger than my old one", False),
    ("what did I do before I worked at Globex", False),
    ("我现在的工资比以前高多少", False),
    ("我搬到成都离现在多久了", False),
    ("what did I cook for my sister", False),
    ("我上次去的那家火锅店叫什么", False),
])
def test_a_question_about_how_things_stand_now_is_told_apart(query, present):
    assert asks_present(query) is present


def test_a_passage_that_cannot_fit_is_passed_over_uncut(monkeypatch):
    """Once the context is nearly full, a long message further down is not cut to size
    (the slowest step of a question) — a short one that fits still comes in."""
    import graphmem.retrieve.compress as compress
    from graphmem.retrieve.passages import Passage

    cut: list[int] = []
    real = compress.line_text

    def counted(li, *args, **kwargs):
        cut.append(li.msg_id)
        return real(li, *args, **kwargs)

    monkeypatch.setattr(compress, "line_text", counted)
    words = "the harbour walk took us past the old market and the castle gardens"
    first = line(1, " ".join([f"Day {i}: {words}." for i in range(1, 6)]), session="s1")
    long = line(2, " ".join([f"Stop {i}: {words}." for i in range(1, 30)]), session="s2")
    short = line(3, "I moved to Leith in May.", session="s3")
    passages = [Passage(li.event_id, li.session_id, [li], 1.0 - i / 10)
                for i, li in enumerate((first, long, short))]
    whole_lines = RetrievalConfig(fill_room=False)
    _, _, text = compress.choose("episodic", [], passages, "where did I move",
                                 80, 5, chinese=False, config=whole_lines)
    assert "Leith" in text and "Stop 1" not in text
    assert cut == [1, 3]  # the long one was passed over without being cut


def test_the_better_passage_is_cut_to_the_room_left_before_a_worse_one_fits():
    """At a small budget the second passage (the answer, in a long message) is cut to the
    room the first one left, instead of giving it to a worse-ranked short message."""
    from graphmem.retrieve.compress import choose
    from graphmem.retrieve.passages import Passage

    opener = line(1, "ok so im training for the lake harriet half marathon in may, i run 3 days a "
                  "week and my longest run so far is 6 miles, any tips for the long runs",
                  session="s1")
    answer = line(1, "ok so i met someone at my friend tolu's wedding last saturday. his name is "
                  "femi, hes an architect, we talked for like 3 hours lol. he asked me out. "
                  "problem: most date spots in lagos are bars and i dont drink at all, never "
                  "have. ideas for a first date that isnt awkward about that", session="s2")
    other = line(1, "im a pharmacist in yaba.", session="s3")
    passages = [Passage(li.event_id, li.session_id, [li], 1.0 - i / 10)
                for i, li in enumerate((opener, answer, other))]
    query = "what does femi do for a living"
    _, _, filled = choose("episodic", [], passages, query, 96, 5, chinese=False)
    assert "architect" in filled and count_tokens(filled) <= 96
    _, _, whole = choose("episodic", [], passages, query, 96, 5, chinese=False,
                         config=RetrievalConfig(fill_room=False))
    assert "architect" not in whole and "pharmacist" in whole


def test_the_assistants_messages_count_less_unless_asked_about():
    mine = line(1, "we cancelled split rock, the move is too close", day=10)
    advice = line(2, "Split Rock is lovely in July: cart-in sites, the lighthouse tour, …",
                  day=10, role="assistant")
    lines = {li.key: li for li in (mine, advice)}
    ranked = best_first([(advice.key, 1.0), (mine.key, 0.8)])
    weighed = weigh_assistant(ranked, lines, 0.7)
    assert [k for k, _ in weighed] == [mine.key, advice.key]
    assert dict(weighed)[advice.key] == pytest.approx(0.7)
    assert weigh_assistant(ranked, lines, 1.0) == ranked


@pytest.mark.parametrize("query", [
    "I was going through our previous conversation about The Library of Babel, what did "
    "Borges say about the center",
    "remind me of that dessert shop we talked about last time",
    "我们上次聊的那个甜品店叫啥",
])
def test_a_question_about_a_past_conversation_asks_what_the_assistant_said_too(query):
    from graphmem.retrieve.question import asks_assistant

    assert asks_assistant(query)


@pytest.mark.parametrize("query", [
    "what's the name of our dog", "what should i order at the cafe this afternoon",
    "which e-bike did Sam's brother recommend", "how many 5k runs did i do in 2025",
])
def test_the_words_a_line_shares_with_an_english_question_are_found_as_stemming_finds_them(
        query):
    """Coverage without stemming every word of every line (the costliest step of a question
    over long replies): the same words as ``content_words(text) & wanted``."""
    from graphmem.retrieve.passages import _latin_finder
    from graphmem.text.words import content_words

    texts = ["After lunch we went to the cafe, Afternoon tea is what's next!",
             "what a dog! Biscuit's the name, he's our dog's best friend",
             "my brother's e-bike: the Aventon Pace; Sam's brother recommended it",
             "ran a 5k on 3 May 2025, another 5k later, and a 10k", "no shared words here"]
    wanted = content_words(query)
    find = _latin_finder(frozenset(wanted))
    for text in texts:
        assert find(text) == content_words(text) & wanted
