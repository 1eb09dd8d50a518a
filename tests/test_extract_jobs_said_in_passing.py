"""Jobs said in passing: serving in the forces, and a clause that is a job and nothing else
after one about a person ("he's 61, retired bank manager in jaipur")."""

from __future__ import annotations

import pytest
from test_extract_chat import chat


@pytest.mark.parametrize(("text", "fact"), [
    ("my son marcus called, he's in the navy stationed in san diego",
     ("son", "works_at", "Navy", False)),
    ("I'm 52, divorced two years, my son's in the Army", ("son", "works_at", "Army", False)),
    ("worried about my dad. he's 61, retired bank manager in jaipur, type 2 diabetes",
     ("dad", "works_as", "bank manager (retired)", False)),
    ("my son Jun Wei start work next monday at GovTech, software engineer, very proud",
     ("son", "works_as", "software engineer", False)),
])
def test_a_job_said_in_passing_is_theirs(text, fact):
    assert fact in chat(text)


@pytest.mark.parametrize("text", [
    "my son is in the army cadets",
    "mum had to leave early, they're so short staffed rn",
    "the drive is ok, its like 4 hrs",
])
def test_no_job_where_none_is_said(text):
    assert not {f for f in chat(text) if f[1] in {"works_as", "works_at"}}
