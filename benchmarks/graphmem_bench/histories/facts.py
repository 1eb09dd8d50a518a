"""The facts graphmem stores for a chat set's users, against the key facts the set lists
for each user (with who each belongs to) and against hand labels of what was stored.

- **key-fact recall**: a current key fact is recalled when a current stored fact is about
  the same person (the user, or the relative / friend / pet by name or by relation), of a
  compatible predicate, and shares a salient part of the value (an English content word;
  a run of two Chinese characters; a one-character Chinese value such as 猫 or 葱 that the
  key's value holds) and says it with its polarity (a negated fact says a dislike, "does not
  like coffee" does not say "likes coffee"; a key that is itself a negation — "不爱吃甜口",
  "戒了奶茶" — is said either way by its words); an ended key fact is handled when no
  current fact still says it (it was superseded, expired, negated — "no longer works at
  Little Fern" — or never stored; a fact that shares more of the value that replaced it
  than of the ended one is that replacement: "Clifton Family Dental" after "Brightsmile
  Dental"). A negated fact ("no longer plans to go to Osaka") and a food avoided
  (``dietary_restriction``: "no beer") speak only to a key that is itself a negation (a
  dislike, an allergy) — "avoids beer" does not keep "two beers a night" current. A
  relation of the user is recalled by a ``has_relation`` fact of a synonymous word (老公 for
  丈夫, 闺女 for 女儿) or by the relative's ``name`` fact when the key names them
  ("丈夫：王磊");
- **precision**: over the stored current facts that carry a label (``<set>.labels.jsonl``
  beside the set: ``correct``, ``wrong_person``, ``garbage``, ``false``, ``stale``), the
  share labelled correct, and the same over the facts at confidence ≥ ``SURE`` (0.85: what
  ``min_confidence=0.85`` would keep); **wrong attributions** at confidence ≥ 0.9 are
  counted apart. Facts without a label are listed for labelling (``--unlabelled FILE``).
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from graphmem_bench.histories.data import History, is_chinese
from graphmem_bench.lucene import QUERY_STOPWORDS

# Key-fact attributes → the predicates that can hold them (None: any predicate).
ATTRIBUTE_PREDICATES: dict[str, set[str] | None] = {
    # a job said by the place ("runs a hardware shop", 在超市上班: works_at 五金店 / 超市)
    "job": {"works_as", "works_at", "studies"}, "employer": {"works_at", "works_as"},
    "lives_in": {"lives_in"}, "hometown": {"is_from", "lives_in"},
    "allergy": {"allergic_to", "dietary_restriction"},
    "diet": {"diet", "dietary_restriction", "likes", "allergic_to"},
    "likes": {"likes"}, "dislikes": {"likes", "dietary_restriction"},
    "hobby": {"likes", "studies"},  # a hobby taken as a class (陶艺课, a pottery class)
    "studies": {"studies"}, "pet": {"has_pet", "name", "has_relation"},
    "name": {"name", "has_relation"}, "relation": {"has_relation", "name"},
    "plan": {"plans_to", "date"}, "health": None, "owns": None, "other": None,
}
RELATIONS: dict[str, tuple[str, ...]] = {
    "self": ("user",),
    "mother": ("mother", "mom", "mum", "妈妈", "母亲", "老妈", "妈"),
    "father": ("father", "dad", "爸爸", "父亲", "老爸", "爸"),
    "partner": ("partner", "girlfriend", "boyfriend", "wife", "husband", "fiance", "女朋友",
                "男朋友", "老婆", "老公", "对象"),
    "wife": ("wife", "老婆", "妻子", "媳妇", "太太", "爱人", "老伴", "partner"),
    "husband": ("husband", "老公", "丈夫", "爱人", "老伴", "partner"),
    "sister": ("sister", "姐姐", "妹妹", "姐", "妹"),
    "brother": ("brother", "哥哥", "弟弟", "哥", "弟"),
    "daughter": ("daughter", "女儿", "闺女", "kids"), "son": ("son", "儿子", "kids"),
    "friend": ("friend", "朋友", "闺蜜", "好朋友", "发小"),
    "colleague": ("colleague", "coworker", "同事"),
    "mother-in-law": ("mother-in-law", "婆婆", "岳母", "丈母娘"),
    "father-in-law": ("father-in-law", "公公", "岳父", "老丈人"),
    "pet": ("dog", "cat", "pet", "狗", "猫"),
    "fiance": ("fiance", "fiancee", "fiancé", "fiancée", "未婚夫", "未婚妻", "partner"),
    "boyfriend": ("boyfriend", "bf", "男朋友", "partner"),
    "girlfriend": ("girlfriend", "gf", "女朋友", "partner"),
    "roommate": ("roommate", "flatmate", "housemate", "室友", "舍友"),
    "grandson": ("grandson", "grandchild", "孙子", "外孙"),
    "granddaughter": ("granddaughter", "grandchild", "孙女", "外孙女"),
    "grandmother": ("grandmother", "grandma", "nana", "gran", "奶奶", "外婆", "姥姥"),
    "grandfather": ("grandfather", "grandpa", "爷爷", "外公", "姥爷"),
    "daughter-in-law": ("daughter-in-law", "儿媳", "儿媳妇"),
    "son-in-law": ("son-in-law", "女婿"),
    "neighbour": ("neighbour", "neighbor", "邻居"),
}
# The same relation said another way in a key's owner_relation (fiancée, flatmate, 女儿).
for _said, _same in {"fiancée": "fiance", "fiancee": "fiance", "fiancé": "fiance",
                     "flatmate": "roommate", "housemate": "roommate", "neighbor": "neighbour",
                     "女儿": "daughter", "儿子": "son", "妻子": "wife", "丈夫": "husband",
                     "母亲": "mother", "父亲": "father", "孙子": "grandson", "女朋友": "girlfriend",
                     "狗": "pet", "猫": "pet", "dog": "pet", "cat": "pet", "pet dog": "pet",
                     "pet cat": "pet", "family dog": "pet"}.items():
    RELATIONS[_said] = RELATIONS[_same]
# Words of a kind of person that are the same relation (老公 and 丈夫): a key "丈夫：王磊" is
# recalled by has_relation 老公.
_SAME_RELATION = [set(words) - {"partner", "kids", "user", "grandchild"}
                  for words in RELATIONS.values()]
_NEGATION = re.compile(r"不|没|戒|别|\b(?:not|no|never|don't|doesn't|dont|doesnt|quit|stopped|"
                       r"hates?|dislikes?|avoids?)\b|n't", re.IGNORECASE)
LABELS = ("correct", "wrong_person", "garbage", "false", "stale")
_LATIN = re.compile(r"[a-z0-9]+")
_HAN = re.compile(r"[\u3400-\u9fff]+")


def owners(key: dict[str, Any]) -> set[str]:
    """What a stored fact's entity may be called when it is about ``key``'s owner."""
    names = {str(key.get("owner", "")).lower()}
    names |= set(RELATIONS.get(str(key.get("owner_relation", "")).lower(), ()))
    return {n for n in names if n}


# Words for the same relative: "mum" in a stored fact says the key's "mother".
_SAME_RELATIVE = {"mom": "mother", "mum": "mother", "mommy": "mother", "mama": "mother",
                  "dad": "father", "daddy": "father", "papa": "father", "buddy": "friend",
                  "bff": "friend", "bestie": "friend", "grandchildren": "grandchild",
                  "granddaughter": "grandchild", "grandson": "grandchild",
                  "grandkids": "grandchild", "grandkid": "grandchild"}


def salient(text: str) -> set[str]:
    """Content words (accents folded: "Tomás" is "tomas"; "mum" says "mother", "buddy"
    "friend"; a plural's "s" off) and runs of two Chinese characters."""
    lower = "".join(ch for ch in unicodedata.normalize("NFKD", text.lower())
                    if not unicodedata.combining(ch))
    units = {_SAME_RELATIVE.get(w, w) for w in _LATIN.findall(lower)
             if len(w) > 2 and w not in QUERY_STOPWORDS}
    units = {w[:-1] if len(w) > 4 and w.endswith("s") and not w.endswith("ss") else w
             for w in units}  # "peanuts" says "peanut"
    for run in _HAN.findall(lower):
        units |= {run[i:i + 2] for i in range(len(run) - 1)}
    return units


def matches(fact: dict[str, Any], key: dict[str, Any]) -> bool:
    negative = bool(fact.get("negated")) != (fact["predicate"] == "dietary_restriction")
    if negative and key.get("attribute") not in {"dislikes", "allergy"} and not _NEGATION.search(
            str(key["value"])):
        return False  # "no longer plans to go to Osaka", "avoids beer": not the plan, the habit
    if key.get("attribute") == "relation" and _names_relation(fact, key):
        return True
    entity = str(fact["entity"]).lower()
    if entity not in owners(key) and not any(o in entity for o in owners(key) if len(o) > 1) \
            and not _named_in_owner(entity, str(key.get("owner", ""))):
        return False
    predicates = ATTRIBUTE_PREDICATES.get(key.get("attribute", "other"))
    if predicates is not None and fact["predicate"] not in predicates:
        return False
    value = f"{fact['value']} {fact.get('sentence', '')}" if predicates is None else fact["value"]
    said = str(fact["value"]).strip()
    if len(said) == 1 and _HAN.fullmatch(said) and said in str(key["value"]):
        return True  # 猫, 葱, 虾: a one-character Chinese value the key holds
    return bool(salient(value) & salient(str(key["value"])))


def _named_in_owner(entity: str, owner: str) -> bool:
    """Is the fact's entity the name a key's owner holds beside the relation ("林佳明" of
    "弟弟林佳明", "Gary" of "Gary Lindqvist")?"""
    owner = owner.lower()
    if len(entity) < 2 or entity == "user":
        return False
    if _HAN.fullmatch(entity):
        return entity in owner
    return bool(re.search(rf"(?<![a-z]){re.escape(entity)}(?![a-z])", owner))


def says(fact: dict[str, Any], key: dict[str, Any]) -> bool:
    """``matches``, with the polarity the key says: a dislike is a negated ``likes`` (or a
    restriction); a like, job, home... only a fact that is not negated. A key of any
    predicate (health, other: "terrified of heights") or a key that is a negation ("戒了奶茶")
    is said either way by its words."""
    if (ATTRIBUTE_PREDICATES.get(key.get("attribute", "other")) is None
            or _NEGATION.search(str(key["value"]))):
        return matches(fact, key)
    negated = key.get("attribute") == "dislikes" and fact["predicate"] == "likes"
    return bool(fact.get("negated")) == negated and matches(fact, key)


def still_says(fact: dict[str, Any], key: dict[str, Any]) -> bool:
    """Does a current fact still say the ended ``key`` — rather than the value that
    replaced it (shares more of ``replaced_by`` than of the ended value)?"""
    if not says(fact, key) or (key.get("attribute") == "job" and fact["predicate"] == "works_at"):
        return False  # (the place says a current job; an ended title is its own: promoted)
    value = salient(str(fact["value"]))
    return len(value & salient(str(key.get("replaced_by", "")))) <= len(
        value & salient(str(key["value"])))


def _names_relation(fact: dict[str, Any], key: dict[str, Any]) -> bool:
    """A relation of the user ("丈夫：王磊（老王）") said by a synonym (has_relation 老公) or by
    the relative's own name fact (王磊)."""
    if fact["predicate"] == "name" and str(fact["entity"]).lower() != "user":
        return bool(_HAN.fullmatch(str(fact["value"])) and len(str(fact["value"])) > 1
                    and str(fact["value"]) in str(key["value"]))
    if fact["predicate"] != "has_relation" or str(fact["entity"]).lower() != "user":
        return False
    said = str(fact["value"]).lower()
    words = {w.lower() for w in re.split(r"[：:；;，,（）()、/\s]+", str(key["value"])) if w}
    return any(said in same and words & same for same in _SAME_RELATION)


SURE = 0.85  # a confidence a user may ask for (min_confidence): its facts' precision is shown


class UserFacts(BaseModel):
    user_id: str
    language: str
    current: int = 0
    key_current: int = 0
    key_recalled: int = 0
    key_ended: int = 0
    ended_handled: int = 0
    labelled: int = 0
    correct: int = 0
    wrong_person_confident: int = 0
    sure_labelled: int = 0  # labelled facts at confidence >= SURE
    sure_correct: int = 0
    labels: dict[str, int] = Field(default_factory=dict)
    missed: list[str] = Field(default_factory=list)


class FactsReport(BaseModel):
    name: str
    users: list[UserFacts]
    unlabelled: list[dict[str, Any]] = Field(default_factory=list, repr=False)

    def totals(self) -> UserFacts:
        total = UserFacts(user_id="all", language=",".join(sorted({u.language
                                                                   for u in self.users})))
        for u in self.users:
            for field in ("current", "key_current", "key_recalled", "key_ended",
                          "ended_handled", "labelled", "correct", "wrong_person_confident",
                          "sure_labelled", "sure_correct"):
                setattr(total, field, getattr(total, field) + getattr(u, field))
            for label, n in u.labels.items():
                total.labels[label] = total.labels.get(label, 0) + n
        return total

    def to_markdown(self) -> str:
        rows = [*self.users, self.totals()]
        out = [f"## Facts of {self.name}", "",
               f"| user | current facts | labelled | precision | precision (conf ≥ {SURE}) | "
               "wrong person (conf ≥ 0.9) | key facts recalled | ended handled |",
               "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for u in rows:
            precision = f"{u.correct / u.labelled:.2f}" if u.labelled else "—"
            sure = (f"{u.sure_correct / u.sure_labelled:.2f} ({u.sure_labelled})"
                    if u.sure_labelled else "—")
            recall = f"{u.key_recalled}/{u.key_current} ({u.key_recalled / u.key_current:.2f})" \
                if u.key_current else "—"
            ended = f"{u.ended_handled}/{u.key_ended}" if u.key_ended else "—"
            out.append(f"| {u.user_id} | {u.current} | {u.labelled} | {precision} | {sure} | "
                       f"{u.wrong_person_confident} | {recall} | {ended} |")
        if self.unlabelled:
            out.append(f"\n{len(self.unlabelled)} stored facts carry no label yet.")
        return "\n".join(out) + "\n"


def label_key(user: str, fact: dict[str, Any]) -> str:
    return "\x1f".join([user, str(fact["entity"]).lower(), fact["predicate"],
                        str(fact["value"]).lower(), str(bool(fact.get("negated")))])


def load_labels(path: Path) -> dict[str, str]:
    labels: dict[str, str] = {}
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                labels[label_key(row["user"], row)] = row["label"]
    return labels


def evaluate(histories: Sequence[History], facts_of: dict[str, Iterable[Any]],
             labels: dict[str, str], name: str) -> FactsReport:
    """``facts_of``: history id → its stored current facts (``graphmem.Fact``)."""
    users, unlabelled = [], []
    for history in histories:
        stored = [f.model_dump(mode="json") if hasattr(f, "model_dump") else dict(f)
                  for f in facts_of.get(history.history_id, ())]
        user = UserFacts(user_id=history.history_id, language=history.language,
                         current=len(stored))
        for key in history.key_facts:
            if key.get("status") == "ended":
                hit = any(still_says(f, key) for f in stored)
                user.key_ended += 1
                user.ended_handled += not hit
            else:
                hit = any(says(f, key) for f in stored)
                user.key_current += 1
                user.key_recalled += hit
                if not hit:
                    user.missed.append(f"{key.get('owner')}/{key.get('attribute')}: "
                                       f"{key.get('value')}")
        for fact in stored:
            label = labels.get(label_key(history.history_id, fact))
            if label is None:
                unlabelled.append({"user": history.history_id, **{
                    k: fact.get(k) for k in ("entity", "predicate", "value", "negated",
                                             "sentence", "confidence")}})
                continue
            user.labelled += 1
            user.correct += label == "correct"
            user.labels[label] = user.labels.get(label, 0) + 1
            confidence = float(fact.get("confidence", 0))
            if confidence >= SURE:
                user.sure_labelled += 1
                user.sure_correct += label == "correct"
            if label == "wrong_person" and confidence >= 0.9:
                user.wrong_person_confident += 1
        users.append(user)
    return FactsReport(name=name, users=users, unlabelled=unlabelled)


def language_of(history: History) -> str:
    return "zh" if history.language == "zh" or is_chinese(
        history.sessions[0].turns[0].content if history.sessions else "") else "en"
