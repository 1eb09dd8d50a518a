"""A candidate, its subject and value resolved, as a fact version ready to store.

The version's id is given by what it states and the episode it was read in
(``fact_version_id``): the online path's reading of a message and consolidation's reading
of the whole episode give one statement the same id, so consolidation can tell which
online facts it found again (``store/facts.retract_unconfirmed``).
"""

from __future__ import annotations

from graphmem.extract import Candidate
from graphmem.facts.conflict import NewVersion, fact_version_id
from graphmem.facts.normalize import USER_KEY, Resolution
from graphmem.facts.predicates import canonical_predicate, predicate_info, sentence
from graphmem.store.ids import message_node_id
from graphmem.text.language import is_chinese


def new_version(user_id: str, session_id: str, episode_id: str, c: Candidate,
                subject: Resolution, value: Resolution, shown: str = "") -> NewVersion:
    """The version ``c`` makes, its sentence naming the subject as ``shown`` (a person's
    own name, where the entity is called by a relation) or as the user."""
    predicate = canonical_predicate(c.predicate)
    info = predicate_info(predicate)
    chinese = is_chinese(c.evidence)
    who = (shown or subject.name) if subject.key != USER_KEY else (
        "用户" if chinese else "the user")
    until = c.valid_until or (c.observed_at + info.validity if info.validity else None)
    return NewVersion(
        fact_id=fact_version_id(user_id, subject.entity_id, predicate, value.entity_id,
                                c.negated, episode_id),
        user_id=user_id, entity_id=subject.entity_id, entity=subject.name,
        predicate=predicate, value_id=value.entity_id, value=c.value, negated=c.negated,
        confidence=round(c.confidence, 4), observed_at=c.observed_at, valid_until=until,
        episode_id=episode_id,
        message_id=message_node_id(user_id, session_id, c.msg_id) if c.msg_id else None,
        sentence=(c.sentence.replace(c.entity, who, 1) if c.sentence and
                  c.sentence.startswith(c.entity + " ") else c.sentence) or sentence(
            who, predicate, c.value, c.negated, chinese),
    )
