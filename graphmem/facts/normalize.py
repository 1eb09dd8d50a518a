"""Entity normalization (pipeline stage 3b): surface forms → one entity per user.

Three layers, cheapest first:
1. a bilingual lexicon of common entities (微信 / 微信沟通 / WeChat / wechat → ``wechat``;
   女朋友 / 我女朋友 / girlfriend → ``girlfriend``), applied after light cleanup
   (possessives, articles, communication suffixes) and spaCy lemmas (roses → rose);
2. the user's persisted alias table (``AliasTable``), token-level;
3. rapidfuzz against the user's known aliases: at or above ``merge_score`` the surface
   becomes an alias of that entity; inside the grey band ``[review_score, merge_score)``
   a new entity is made and the pair is recorded for review (``MAYBE_SAME_AS``), never
   merged silently.

A name is an alias too: when consolidation learns that the user is called Dana, or
that the sister is Emma, ``give_name`` makes the name an alias of that entity, so
"Emma" said later (or asked about) is the sister.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from rapidfuzz import fuzz, process

from graphmem.extract.vocab import KIN_LEXICON
from graphmem.store.facts import EntityRow
from graphmem.text.language import english_nlp, is_chinese, jieba_words
from graphmem.text.script import simplified

USER_KEY = "user"

LEXICON: dict[str, tuple[str, ...]] = {
    USER_KEY: ("我", "i", "me", "myself", "user", "用户", "本人"),
    "wechat": ("微信", "wechat", "weixin", "we chat", "vx", "wx"),
    "email": ("邮件", "邮箱", "电子邮件", "email", "e-mail", "mail", "gmail"),
    "slack": ("slack",), "telegram": ("telegram", "电报"), "whatsapp": ("whatsapp",),
    "phone": ("电话", "手机", "phone", "call", "phone call"),
    "sms": ("短信", "sms", "text message", "text", "texting"),
    "dingtalk": ("钉钉", "dingtalk"), "feishu": ("飞书", "feishu", "lark"), "qq": ("qq",),
    **KIN_LEXICON,
    # pets: a breed is its species
    "dog": ("狗", "狗狗", "小狗", "柴犬", "柯基", "金毛", "泰迪", "哈士奇", "拉布拉多", "边牧",
            "比熊", "博美", "dog", "puppy", "pup", "golden retriever", "labrador", "poodle",
            "beagle", "corgi", "husky", "pug", "dachshund", "shiba", "bulldog", "terrier",
            "chihuahua", "german shepherd", "border collie", "greyhound", "whippet", "doodle",
            "goldendoodle", "labradoodle", "cockapoo", "spaniel", "cocker spaniel",
            "rottweiler", "pitbull", "pit bull", "dalmatian", "schnauzer", "shih tzu", "yorkie",
            "collie", "sheepdog", "great dane", "mutt"),
    "cat": ("猫", "猫咪", "小猫", "布偶猫", "英短", "橘猫", "小橘猫", "狸花猫",
             "cat", "kitten", "kitty", "tabby", "maine coon",
            "ragdoll"),
    "rabbit": ("兔子", "兔", "rabbit", "bunny"), "hamster": ("仓鼠", "hamster"),
    "parrot": ("鹦鹉", "parrot", "budgie", "cockatiel"), "goldfish": ("金鱼", "goldfish"),
    "turtle": ("乌龟", "龟", "turtle", "tortoise"),
    # events and deliverables
    "wedding": ("婚礼", "wedding"), "trip": ("旅行", "旅游", "trip", "vacation"),
    "interview": ("面试", "interview"), "meeting": ("会议", "meeting"),
    "report": ("报告", "report"), "thesis": ("论文", "thesis", "dissertation"),
    "exam": ("考试", "exam", "test"), "project": ("项目", "project"),
    "surgery": ("手术", "surgery", "operation"), "flight": ("航班", "flight"),
    "application": ("申请", "application"),
    "assignment": ("作业", "大作业", "assignment", "homework"),
    "proposal": ("提案", "proposal"),
    "party": ("聚会", "派对", "生日聚会", "生日派对", "party", "birthday party"),
    "rose": ("玫瑰", "玫瑰花", "rose"), "tulip": ("郁金香", "tulip"),
    "coriander": ("香菜", "芫荽", "cilantro", "coriander"),
    "peanut": ("花生", "peanut"), "spicy food": ("辣", "吃辣", "辣的", "spicy food", "spicy"),
}
RELATIONS = frozenset(KIN_LEXICON)  # the relatives: persons, whatever word said them
_LATE = re.compile(r"^late (\S.*)$")  # a relative who died: "late wife", "late dad"
PETS = frozenset({"dog", "cat", "rabbit", "hamster", "parrot", "goldfish", "turtle"})
_NOT_PEOPLE = frozenset({"job", "organization", "place", "condition"})  # value kinds
_INDEX = {alias: key for key, aliases in LEXICON.items() for alias in aliases}
_PREFIX = re.compile(r"^(?:我的|我们的|我|她的|他的|the |a |an |my |our |her |his |their |some )+",
                     re.IGNORECASE)
_SUFFIX = re.compile(r"(?:沟通|交流|联系|聊天|的|了|呢|吧|啊|呀|花)$|"
                     r"\s+(?:communication|messages?|chat|app)$", re.IGNORECASE)


def entity_id(user_id: str, key: str) -> str:
    return "ent_" + hashlib.sha1(f"{user_id}\0{key}".encode()).hexdigest()[:16]


CLEAN_CACHE_SIZE = 20_000
_cleaned: dict[str, str] = {}
_LEMMA_ONLY = ["parser", "ner"]  # lemmas need the tagger's parts of speech, not the parse


def clean_surface(surface: str) -> str:
    """Lower-cased, possessives and articles dropped, English lemmatized, Chinese in
    simplified characters."""
    return clean_surfaces([surface])[0]


def clean_surfaces(surfaces: Sequence[str]) -> list[str]:
    """``clean_surface`` of each, the English ones lemmatized in one spaCy batch (tagger
    and lemmatizer only: 0.2 ms a surface instead of 2 ms one by one through the whole
    pipeline); remembered for the next call."""
    known = {s: hit for s in surfaces if (hit := _cleaned.get(s)) is not None}
    todo = {s: _strip(s) for s in dict.fromkeys(surfaces) if s not in known}
    english = [text for text in dict.fromkeys(todo.values())
               if text and not is_chinese(text)]
    docs = english_nlp().pipe(english, disable=_LEMMA_ONLY) if english else ()
    lemmas = {text: " ".join(t.lemma_.lower() if t.pos_ in {"NOUN", "PROPN"} else t.lower_
                             for t in doc)
              for text, doc in zip(english, docs, strict=True)}
    new = {surface: lemmas.get(text, simplified(text) if is_chinese(text) else text).lower()
           for surface, text in todo.items()}  # 觀塘 and 观塘: one place
    if len(_cleaned) + len(new) > CLEAN_CACHE_SIZE:
        _cleaned.clear()
    _cleaned.update(new)
    return [known[s] if s in known else new[s] for s in surfaces]


def _strip(surface: str) -> str:
    text = " ".join(surface.strip().split())
    text = _PREFIX.sub("", text).strip()
    for _ in range(2):
        stripped = _SUFFIX.sub("", text).strip()
        if stripped and stripped != text:
            text = stripped
    return text


def late_relative(surface: str) -> str | None:
    """"late dad" → "late father": a relative who died, a person of their own — or None
    ("late night snack" names no one)."""
    m = _LATE.match(surface.strip().lower())
    return f"late {relation}" if m and (relation := lexicon_key(m.group(1))) in RELATIONS else None


def lexicon_key(surface: str) -> str | None:
    """The lexicon's canonical key for a surface form, if it knows one."""
    raw = surface.strip().lower()
    if raw in _INDEX:
        return _INDEX[raw]
    cleaned = clean_surface(surface)
    if cleaned in _INDEX:
        return _INDEX[cleaned]
    if is_chinese(cleaned):
        tokens = jieba_words(cleaned)
        hits = {_INDEX[t] for t in tokens if t in _INDEX}
        if len(hits) == 1 and len(tokens) <= 3:  # 微信沟通 → [微信, 沟通] → wechat
            return hits.pop()
    return None


@dataclass
class Resolution:
    key: str
    entity_id: str
    name: str
    is_new: bool
    maybe_same_as: tuple[str, float] | None = None  # (entity_id, score) for review


@dataclass
class AliasTable:
    """One user's entities: key → display name and aliases. Persisted as Entity nodes."""

    user_id: str
    merge_score: float = 92.0
    review_score: float = 80.0
    names: dict[str, str] = field(default_factory=dict)
    aliases: dict[str, set[str]] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)

    def add(self, key: str, name: str, aliases: set[str], kind: str = "thing") -> None:
        self.names.setdefault(key, name)
        self.aliases.setdefault(key, set()).update(aliases)
        self.kinds.setdefault(key, kind)

    def names_by_id(self) -> dict[str, str]:
        """Display names by entity id (a fact version's ``value_id``)."""
        return {entity_id(self.user_id, key): name for key, name in self.names.items()}

    def words_by_id(self) -> dict[str, tuple[str, ...]]:
        """Each entity's words by id: its name first, then its key and aliases (the
        boyfriend named Sam is "boyfriend" too)."""
        return {entity_id(self.user_id, key): (self.names.get(key, ""), key, *sorted(words))
                for key, words in self.aliases.items()}

    def resolve(self, surface: str, kind: str = "thing", fuzzy: bool = True) -> Resolution:
        """The entity a surface form names; adds it (and its alias) when new.

        ``fuzzy=False`` for amounts and dates: "under $500" must never merge with
        "under $800", however alike the strings look."""
        cleaned = clean_surface(surface) or surface.strip().lower()
        key = lexicon_key(surface) if fuzzy else None
        if late := late_relative(cleaned):
            key = late  # "my late dad": a person of their own, never "dad"
        if key in RELATIONS and kind in _NOT_PEOPLE:
            key = None  # 品牌市场经理 is a job, not the manager (经理) of the user
        review: tuple[str, float] | None = None
        if key is None:
            key = self._alias_owner(cleaned)
        if key is None and fuzzy:
            match = self._fuzzy(cleaned)
            if match is not None and match[1] >= self.merge_score:
                key = match[0]
            elif match is not None and match[1] >= self.review_score:
                review = (entity_id(self.user_id, match[0]), match[1])
        if key is None:
            key = cleaned
        is_new = key not in self.names
        kind = "user" if key == USER_KEY else (
            "person" if key in RELATIONS or late else "pet" if key in PETS else kind)
        display = "user" if key == USER_KEY else surface.strip()
        self.add(key, display, {cleaned, surface.strip().lower()}, kind)
        return Resolution(key, entity_id(self.user_id, key), self.names[key], is_new, review)

    def give_name(self, key: str, name: str) -> Resolution:
        """``name`` becomes an alias of entity ``key``; the name itself is stored as a
        plain value (never an entity of its own that could claim the alias)."""
        cleaned = clean_surface(name) or name.strip().lower()
        self.aliases.setdefault(key, set()).update({cleaned, name.strip().lower()})
        shown = self.names.get(key, "").strip().lower()
        if self.kinds.get(key) in {"person", "pet"} and (shown in _INDEX or shown == key):
            self.names[key] = name.strip()  # the daughter is shown as Kayla from now on
        literal = f"name:{cleaned}"
        is_new = literal not in self.names
        self.add(literal, name.strip(), set(), "name")
        return Resolution(literal, entity_id(self.user_id, literal), self.names[literal],
                          is_new)

    def name_of(self, subject: Resolution, name: str) -> tuple[Resolution, Resolution] | None:
        """``give_name`` for a ``name`` fact of ``subject``: the subject as shown from now
        on ("Kayla", the daughter) and the name's value — None when a person or pet
        already shown by a name gets another ("the friend" is Marlene: "Donna" is
        someone else, not a second name of hers)."""
        if (subject.key != USER_KEY and self.kinds.get(subject.key) in {"person", "pet"}
                and lexicon_key(subject.name) is None and late_relative(subject.name) is None
                and subject.name.lower() != name.strip().lower()):
            return None
        value = self.give_name(subject.key, name)
        return replace(subject, name=self.names[subject.key]), value

    def lookup(self, surface: str) -> str | None:
        """The entity id of a known surface form (lexicon, alias or exact key), else None."""
        cleaned = clean_surface(surface) or surface.strip().lower()
        key = lexicon_key(surface) or self._alias_owner(cleaned) or (
            cleaned if cleaned in self.names else None)
        if key is None or key not in self.names:
            return None
        return entity_id(self.user_id, key)

    def person_names(self) -> dict[str, str]:
        """The names given to people and pets ("kayla" → "daughter"): aliases of a person
        or pet entity that no lexicon entry claims (not "mom", "dog")."""
        return {alias: key for key, aliases in self.aliases.items()
                if self.kinds.get(key) in {"person", "pet"}
                for alias in aliases if alias.isalpha() and alias not in _INDEX}

    def _alias_owner(self, cleaned: str) -> str | None:
        """The entity an alias names; a person, pet or the user before a thing of the same
        name (a name given later outranks the bare name met before)."""
        owners = [key for key, aliases in self.aliases.items() if cleaned in aliases]
        rank = {"user": 0, "person": 1, "pet": 2}
        return min(owners, key=lambda k: rank.get(self.kinds.get(k, "thing"), 3), default=None)

    def _fuzzy(self, cleaned: str) -> tuple[str, float] | None:
        choices = {(key, alias): alias for key, aliases in self.aliases.items()
                   for alias in aliases if key != USER_KEY}
        if not choices or len(cleaned) < 2:
            return None
        best = process.extractOne(cleaned, choices, scorer=fuzz.WRatio)
        if best is None:
            return None
        (key, _alias), score = best[2], best[1]
        return key, float(score)


def alias_table(user_id: str, entities: Iterable[EntityRow], merge: float = 92.0,
                review: float = 80.0) -> AliasTable:
    """A user's alias table from their stored entities."""
    table = AliasTable(user_id, merge_score=merge, review_score=review)
    for e in entities:
        table.add(e.key, e.name, set(e.aliases), e.kind)
    return table


def entity_rows(user_id: str, table: AliasTable, resolutions: Sequence[Resolution]
                ) -> list[dict[str, Any]]:
    """The entities ``resolutions`` touched, as the store writes them (sorted by id)."""
    seen: dict[str, dict[str, Any]] = {}
    for res in resolutions:
        seen[res.entity_id] = {
            "entity_id": res.entity_id, "user_id": user_id, "key": res.key,
            "name": table.names[res.key], "kind": table.kinds.get(res.key, "thing"),
            "aliases": sorted(table.aliases.get(res.key, ())),
        }
    return [seen[k] for k in sorted(seen)]
