"""Consolidation (pipeline stage 6): distill closed episodes into versioned facts.

Never on the request path. For each unconsolidated episode, oldest first: extract
candidates (from the whole raw messages, however long; 64 episodes at a time when the
extractor has ``extract_many``, so their sentences are parsed in one batch), drop those below
``min_confidence``, normalize entities and predicates (a ``name`` fact makes the name an
alias of its entity), decide against the current versions (create / re-verify /
supersede / history, ``graphmem.facts.conflict``) and apply the changes — a chunk of episodes
in one transaction (one by one if Neo4j refuses it, so a bad episode costs only itself
and is given back for the next run).
Then embed new fact versions in batches and expire facts past their validity.
Repeated evidence across episodes raises confidence (cross-episode induction). With a
retention, versions that stopped being true longer ago than that are deleted. A batch
extractor (an LLM) gets several episodes per call; an episode whose extraction failed
is reported in ``errors`` and left for the next run (its claim lapses).
``graphmem.worker.start_scheduler`` runs this with APScheduler in the application's process.

Several consolidations at once (threads, processes, hosts) never fork a version chain:

- a run **claims** a user's episodes in chunks (``consolidate/claim_episodes``: a lease in
  Neo4j, so a crashed run frees them by itself) before extracting anything, so two runs
  do not distill the same episode;
- a chunk's facts are decided and stored in **one transaction that first locks the
  user** (``store/lock_users``) and marks its episodes consolidated — an episode another
  run got to first (a lease ran out) is skipped, so nothing is stored twice. Deciding
  against the current versions read *under that lock* means never two current heads of a
  single-valued fact;
- the user's alias table is kept in memory and reloaded when another process changed the
  user's entities (the ``facts_rev`` on the User node differs from the last one seen).

A fact whose predicate cannot be stored (no valid relationship type) is skipped, counted
and logged; the rest of its episode and the run go on.
"""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime, timedelta

from graphmem._errors import GraphmemError, StoreUnavailableError
from graphmem._models import Episode
from graphmem.embed import Embedder
from graphmem.extract import BatchExtractor, Candidate, Extractor
from graphmem.extract.candidate import (
    DEPARTMENT,
    ENGAGED,
    HOME_MOVED,
    JOB_END,
    MOVED,
    PARTNER_END,
)
from graphmem.extract.plans import PLAN_END
from graphmem.extract.vocab import ENGAGED_AS, ENGAGED_EN, ENGAGED_ZH
from graphmem.facts import vectors
from graphmem.facts.conflict import (
    Change,
    NewVersion,
)
from graphmem.facts.endings import (
    FULFILLING,
    decide_in_order,
    fiance_for,
    under_employer,
)
from graphmem.facts.forget import Forgotten, forget_user
from graphmem.facts.normalize import (
    USER_KEY,
    AliasTable,
    Resolution,
    alias_table,
    clean_surfaces,
    entity_id,
    entity_rows,
)
from graphmem.facts.predicates import canonical_predicate
from graphmem.facts.report import ConsolidationReport
from graphmem.facts.versions import new_version
from graphmem.store import facts as fact_store
from graphmem.store.cypher import relationship_type
from graphmem.store.episodes import episode_from_record
from graphmem.store.runner import QueryRunner, Tx
from graphmem.store.tombstones import Verify, forgotten_at

log = logging.getLogger("graphmem.facts.consolidate")

Progress = Callable[[int, int], None]
_EXACT_KINDS = {"amount", "date"}
_EXTRACT_BATCH = 64  # episodes extracted together (their sentences parsed in one batch)
CLAIM_BATCH = 64  # episodes claimed at a time
CLAIM_LEASE_S = 600  # a claim left by a crashed run frees itself after this long



class Consolidator:
    def __init__(
        self,
        runner: QueryRunner,
        embedder: Embedder,
        extractor: Extractor,
        min_confidence: float = 0.7,
        merge_score: float = 92.0,
        review_score: float = 80.0,
        retention: timedelta | None = None,
    ) -> None:
        self.runner = runner
        self.embedder = embedder
        self.extractor = extractor
        self.min_confidence = min_confidence
        self.merge_score = merge_score
        self.review_score = review_score
        self.retention = retention
        self._tables: dict[str, AliasTable] = {}
        self._revs: dict[str, str] = {}  # facts_rev each cached alias table matches
        self._lock = threading.RLock()

    def run(self, now: datetime, user_id: str | None = None,
            on_progress: Progress | None = None) -> ConsolidationReport:
        report = ConsolidationReport()
        users = self.runner.read("consolidate/list_users_to_consolidate", user_id=user_id)
        total = sum(int(r["episodes"]) for r in users)
        token = uuid.uuid4().hex
        per_call = (self.extractor.episodes_per_call
                    if isinstance(self.extractor, BatchExtractor) else _EXTRACT_BATCH)
        done = 0
        failed: list[str] = []  # given back at the end, so the next run retries them
        for row in users:
            self._tell_names(row["user_id"])
            while claimed := self._claim(row["user_id"], token):
                nothing: list[str] = []  # episodes without facts: marked together
                for start in range(0, len(claimed), per_call):
                    chunk = claimed[start:start + per_call]
                    with_facts: list[tuple[Episode, list[Candidate]]] = []
                    for episode, candidates in zip(chunk, self._extract(chunk, report),
                                                   strict=True):
                        if candidates is None:  # failed: unmarked, retried by a later run
                            failed.append(episode.event_id)
                            continue
                        report.episodes += 1
                        kept = self._kept(candidates, episode.event_id, report)
                        if kept:
                            with_facts.append((episode, kept))
                        else:
                            nothing.append(episode.event_id)
                    failed += self._consolidate_chunk(with_facts, now, report)
                    done += len(chunk)
                    if on_progress is not None:
                        on_progress(min(done, total), max(done, total))
                if nothing:
                    self._mark(row["user_id"], nothing, now)
        if on_progress is not None and done < total:  # the rest went to another run: done
            on_progress(done, done)
        if failed:
            self.runner.write("consolidate/release_claims", event_ids=failed, token=token)
        if isinstance(self.extractor, BatchExtractor):
            report.extraction = self.extractor.take_stats()
        report.embedded = vectors.embed_new_facts(self.runner, self.embedder)
        report.messages_embedded = vectors.embed_new_messages(self.runner, self.embedder,
                                                              user_id)
        report.expired = self.expire(now, user_id)
        if self.retention is not None:
            report.deleted = int(self.runner.write(
                "consolidate/delete_retired_facts", before=now - self.retention,
                user_id=user_id)[0]["deleted"])
        return report

    def _extract(self, chunk: Sequence[Episode],
                 report: ConsolidationReport) -> list[list[Candidate] | None]:
        """Each episode's candidates, or None where the extractor failed: a failure is
        reported, never stops the run, and leaves the episode for the next run. A rule
        extractor parses the chunk in one batch (much faster); when the batch fails, it
        goes one by one, so that an extractor bug costs only its own episode."""
        if isinstance(self.extractor, BatchExtractor):
            try:
                return list(self.extractor.extract_many(chunk))
            except Exception as exc:
                for e in chunk:
                    report.fail(e.event_id, exc)
                return [None] * len(chunk)
        many = getattr(self.extractor, "extract_many", None)
        if many is not None:
            try:
                return list(many(chunk))
            except Exception:  # find the episode that fails, below
                pass
        found: list[list[Candidate] | None] = []
        for episode in chunk:
            try:
                found.append(self.extractor.extract(episode))
            except Exception as exc:  # an extractor bug must not stop the batch
                report.fail(episode.event_id, exc)
                found.append(None)
        return found

    def _tell_names(self, user_id: str) -> None:
        """The extractor learns the names of the user's people and pets ("kayla")."""
        if remember := getattr(self.extractor, "remember_names", None):
            remember(user_id, self.person_names(user_id))

    def person_names(self, user_id: str) -> dict[str, str]:
        """The names the user's people and pets have been given ("kayla" → "daughter"),
        as consolidation knows them (the online path reads new messages with them)."""
        with self._lock:
            return self._cached_table(user_id).person_names()

    def distill_many(self, items: Sequence[tuple[str, str, str, Sequence[Candidate]]],
                     claims: Sequence[dict] = (), verify: Verify | None = None) -> set[str]:
        """Normalize, decide and apply episodes' candidates ``(user_id, session_id,
        episode_id, candidates)`` in one transaction, in order (the online path: its
        backlog together, or one item alone). ``claims`` say what each episode begins with
        and what each fact was said in (``store/find_foreign_episodes``): the facts of an
        episode another raw buffer stored first are refused. Returns those episodes.
        ``verify`` checks the users' tombstones under their locks (``store.tombstones``)."""
        kept = [(u, s, e, self._kept(cands, e, None)) for u, s, e, cands in items]
        kept = [item for item in kept if item[3]]
        if not kept:
            return set()
        return self._distill(kept, None, claims, verify)[2]

    def _kept(self, candidates: Sequence[Candidate], episode_id: str,
              report: ConsolidationReport | None) -> list[Candidate]:
        """The candidates sure enough to store, whose predicate can be stored."""
        return [c for c in candidates if c.confidence >= self.min_confidence
                and self._storable(c, episode_id, report)]

    def _load_table(self, tx: Tx, user_id: str, rev: str | None, attempts: int) -> None:
        """Read the user's alias table again unless the cached one is of revision ``rev``
        (a retried transaction always reads it again)."""
        if attempts > 1 or rev is None or self._revs.get(user_id) != rev:
            self._tables[user_id] = alias_table(
                user_id, fact_store.list_entities(tx, user_id), self.merge_score,
                self.review_score)

    def forget(self, user_id: str,
               before_delete: Callable[[datetime], None] | None = None) -> Forgotten:
        """Tombstone the user, delete their whole graph, forget their alias table
        (``graphmem.facts.forget``)."""
        with self._lock:
            self.drop_cached(user_id)
            return forget_user(self.runner, user_id, before_delete)

    def drop_cached(self, user_id: str) -> None:
        """Forget the user's cached alias table (read again from the graph when needed)."""
        with self._lock:
            self._tables.pop(user_id, None)
            self._revs.pop(user_id, None)

    def lookup_entity(self, user_id: str, surface: str) -> str | None:
        """The entity id a surface form names for this user, without creating one."""
        with self._lock:
            return self._cached_table(user_id).lookup(surface)

    def _cached_table(self, user_id: str) -> AliasTable:
        if user_id not in self._tables:
            self._tables[user_id] = alias_table(user_id, fact_store.list_entities(
                self.runner, user_id), self.merge_score, self.review_score)
        return self._tables[user_id]

    # -- one episode ---------------------------------------------------------------------

    def _claim(self, user_id: str, token: str) -> list[Episode]:
        def work(tx: Tx) -> list[dict]:
            tx.write("store/lock_existing_users", user_ids=[user_id])
            return tx.write("consolidate/claim_episodes", user_id=user_id, token=token,
                            lease_s=CLAIM_LEASE_S, limit=CLAIM_BATCH)

        rows = self.runner.transaction("consolidate/claim_episodes", work)
        return [episode_from_record(r["episode"], r["messages"]) for r in rows]

    def _mark(self, user_id: str, event_ids: list[str], now: datetime) -> None:
        self.runner.write_many([("store/lock_existing_users", {"user_ids": [user_id]}),
                                ("consolidate/mark_consolidated",
                                 {"event_ids": event_ids, "at": now})],
                               name="consolidate/mark_consolidated")

    def _consolidate_chunk(self, items: Sequence[tuple[Episode, list[Candidate]]],
                           now: datetime, report: ConsolidationReport) -> list[str]:
        """Distill claimed episodes' kept candidates in one transaction (one commit for a
        chunk, not one per episode: at 10k messages the commits were most of the time);
        if Neo4j refuses it, one by one, so one bad episode costs only itself. Returns the
        episodes refused (their claims are given back: the next run retries them)."""
        if not items:
            return []
        try:
            changes, skipped, _, unconfirmed = self._distill(
                [(e.user_id, e.session_id, e.event_id, kept) for e, kept in items], now)
        except StoreUnavailableError:
            raise
        except GraphmemError as exc:
            if len(items) > 1:
                return [refused for item in items
                        for refused in self._consolidate_chunk([item], now, report)]
            event_id = items[0][0].event_id  # refused by Neo4j: waits for a later run
            report.errors.append(f"{event_id}: {exc}")
            log.error("episode %s was not consolidated: %s", event_id, exc)
            return [event_id]
        report.skipped_episodes += skipped
        report.unconfirmed += unconfirmed
        report.tally(changes)
        return []

    @staticmethod
    def _storable(c: Candidate, episode_id: str, report: ConsolidationReport | None) -> bool:
        """A fact whose predicate has no valid relationship type is skipped (and counted),
        never allowed to stop its episode or the run."""
        try:
            relationship_type(canonical_predicate(c.predicate))
            return True
        except ValueError as exc:
            log.warning("fact skipped in episode %s: %s", episode_id, exc)
            if report is not None:
                report.skipped_facts += 1
                report.errors.append(f"{episode_id}: fact skipped: {exc}")
            return False

    def _distill(self, items: Sequence[tuple[str, str, str, Sequence[Candidate]]],
                 consolidated_at: datetime | None, claims: Sequence[dict] = (),
                 verify: Verify | None = None) -> tuple[list[Change], int, set[str], int]:
        """Episodes' kept candidates ``(user_id, session_id, episode_id, kept)`` decided and
        applied in one transaction, their users locked first (sorted), and the changes
        made. With ``consolidated_at`` the episodes are marked too, and an episode another
        consolidation marked meanwhile is skipped (its facts are not stored twice): how
        many were is the second value; the episodes ``claims`` find foreign (the online
        path, ``distill_many``) the third; the online facts the whole episodes did not
        say, retracted (``fact_store.retract_unconfirmed``), the fourth. Resolving
        surfaces is slow the first time (spaCy loads, lemmas are computed): done before
        the locks, not inside them — a first online fact once held its user's lock for
        seconds and stalled the episode writer behind it (``clean_surfaces`` keeps the
        results for ``resolve``)."""
        clean_surfaces([s for _, _, _, kept in items for c in kept for s in (c.entity, c.value)])
        users = sorted({u for u, _, _, _ in items})
        attempts = 0

        def work(tx: Tx) -> tuple[list[Change], int, set[str], dict[str, str], int]:
            nonlocal attempts
            attempts += 1
            lock = "store/lock_users" if consolidated_at is None else "store/lock_existing_users"
            revs = {r["user_id"]: r["facts_rev"] for r in tx.write(lock, user_ids=users)}
            if verify is not None:
                verify(forgotten_at(tx, users))
            foreign = fact_store.foreign_episodes(tx, claims)
            mine = [item for item in items if item[2] not in foreign]
            if consolidated_at is not None:
                marked = set(tx.write("consolidate/mark_consolidated",
                                      event_ids=[e for _, _, e, _ in items],
                                      at=consolidated_at)[0]["marked"])
                mine = [item for item in mine if item[2] in marked]
            deciding = {u for u, _, _, kept in mine if kept}
            for user_id in sorted(deciding):
                self._load_table(tx, user_id, revs.get(user_id), attempts)
            changes, read = self._decide_episodes(
                tx, [item for item in mine if item[3]],
                {c["event_id"]: c["anchor"] for c in claims})
            unconfirmed = 0
            if consolidated_at is not None:  # (a retraction leaves the entities as they are)
                read_by_user: dict[str, dict[str, set[str]]] = {}
                for user_id, _, event_id, _ in mine:
                    read_by_user.setdefault(user_id, {})[event_id] = read.get(event_id, set())
                for user_id, episodes in sorted(read_by_user.items()):
                    unconfirmed += fact_store.retract_unconfirmed(
                        tx, user_id, episodes, consolidated_at)
            new = {user_id: uuid.uuid4().hex for user_id in deciding}
            for user_id, rev in new.items():
                tx.write("store/set_facts_revision", user_id=user_id, rev=rev)
            return changes, len(items) - len(mine), foreign, new, unconfirmed

        with self._lock:
            try:
                changes, skipped, foreign, new, unconfirmed = self.runner.transaction(
                    "consolidate/distill", work)
            except Exception:
                for user_id in users:  # the tables may hold what was not stored
                    self._tables.pop(user_id, None)
                    self._revs.pop(user_id, None)
                raise
            self._revs.update(new)
            return changes, skipped, foreign, unconfirmed

    def _decide_episodes(self, tx: Tx, items: Sequence[tuple[str, str, str,
                                                             Sequence[Candidate]]],
                         anchors: dict[str, str]) -> tuple[list[Change], dict[str, set[str]]]:
        """Episodes' kept candidates resolved, decided in order against the current
        versions (read once for all of them) and applied in one set of writes; with the
        ids of the versions read in each episode (an online fact has the id its episode's
        reading gives it: ``fact_version_id``)."""
        resolutions: dict[str, list[Resolution]] = {}
        maybe_same: list[dict] = []
        versions: dict[str, list[NewVersion]] = {}
        closing: set[str] = set()  # "考完了", "he dumped me": versions that only end a plan
        # or a partner the user has (nothing to store when there is none)
        employers = self._employers(tx, items)
        fiances = self._fiances(tx, items)  # what an engagement makes the partner
        engaged: set[str] = set()
        moves: set[str] = set()
        read: dict[str, set[str]] = {}
        for user_id, session_id, episode_id, kept in items:
            table = self._tables[user_id]
            for c in kept:
                subject = table.resolve(c.entity, "event" if c.entity != USER_KEY else "user")
                if c.value_kind == DEPARTMENT:  # 调到急诊科: under the employer they have
                    c = replace(c, value=under_employer(c.value, employers.get(
                        (user_id, subject.entity_id), "")), value_kind="organization")
                home_moved = c.value_kind == HOME_MOVED
                if home_moved:  # a home the message tells a move of
                    c = replace(c, value_kind="place")
                engagement = c.value_kind == ENGAGED
                if engagement:  # "she said yes": the girlfriend is a fiancée
                    if not (word := fiances.get(user_id) or (
                            "" if c.value in (ENGAGED_EN, ENGAGED_ZH) else c.value)):
                        continue  # (no partner known, none said: nothing to store)
                    c = replace(c, value=word, value_kind="person")
                predicate = canonical_predicate(c.predicate)
                if predicate == "works_at":  # (said earlier in the batch)
                    employers[(user_id, subject.entity_id)] = "" if c.negated else c.value
                elif predicate == "has_relation" and subject.key == USER_KEY and (
                        not c.negated and c.value.lower() in ENGAGED_AS):
                    fiances[user_id] = ENGAGED_AS[c.value.lower()]
                shown = subject.name  # "Dana" finds the user, "Kayla" shows the daughter:
                if predicate == "name":  # None: Donna is not Marlene
                    if (named := table.name_of(subject, c.value)) is None:
                        continue
                    subject, value = named
                else:
                    value = table.resolve(c.value, c.value_kind,
                                          fuzzy=c.value_kind not in _EXACT_KINDS)
                # (the words of a job left are no new entity: "nero", "工作")
                touched = (subject,) if c.value_kind == JOB_END else (subject, value)
                resolutions.setdefault(user_id, []).extend(touched)
                for res in touched:
                    if res.maybe_same_as is not None:
                        maybe_same.append({"entity_id": res.entity_id, "other_id":
                                           res.maybe_same_as[0], "score": res.maybe_same_as[1]})
                version = new_version(  # "the daughter's name is"
                    user_id, session_id, episode_id, c, subject, value, shown)
                if c.value_kind in (PLAN_END, PARTNER_END, JOB_END):
                    closing.add(version.fact_id)
                elif engagement:
                    engaged.add(version.fact_id)
                elif (version.predicate == "lives_in" and subject.key == USER_KEY
                      and not c.negated and (home_moved or MOVED.search(c.evidence))):
                    moves.add(version.fact_id)  # a move: the flatmates stay behind
                versions.setdefault(user_id, []).append(version)
                read.setdefault(episode_id, set()).add(version.fact_id)
        every = [(u, v) for u, vs in versions.items() for v in vs]
        stored = fact_store.current_versions(  # and the plans a state may fulfil, the
            tx, {(u, v.entity_id, v.predicate) for u, v in every}  # flatmates a move leaves
            | {(u, v.entity_id, "plans_to") for u, v in every
               if v.predicate in FULFILLING or v.fact_id in engaged}
            | {(u, v.entity_id, "has_relation") for u, v in every if v.fact_id in moves})
        changes: list[Change] = []
        for user_id, mine in versions.items():
            changes += decide_in_order(  # (the table loaded by _distill under the lock)
                user_id, self._tables[user_id], mine, stored, closing, moves, engaged)
        entities = [row for user_id, resolved in sorted(resolutions.items())
                    for row in entity_rows(user_id, self._tables[user_id], resolved)]
        fact_store.apply_changes(tx, entities, maybe_same, changes, anchors=anchors)
        return changes, read

    def expire(self, now: datetime, user_id: str | None = None) -> int:
        rows = self.runner.write("consolidate/expire_facts", now=now, user_id=user_id)
        return int(rows[0]["expired"])

    def _fiances(self, tx: Tx, items: Sequence[tuple[str, str, str, Sequence[Candidate]]]
                 ) -> dict[str, str]:
        """What an engagement makes the boyfriend or girlfriend each user has, as stored
        before this batch (fiancé, 未婚妻), by user_id: users with an engagement only."""
        wanted = {(user_id, entity_id(user_id, USER_KEY), "has_relation")
                  for user_id, _, _, kept in items for c in kept if c.value_kind == ENGAGED}
        return {user_id: word for (user_id, _, _), held in fact_store.current_versions(
            tx, wanted).items() if (word := fiance_for(held, self._tables[user_id].words_by_id()))}

    def _employers(self, tx: Tx, items: Sequence[tuple[str, str, str, Sequence[Candidate]]]
                   ) -> dict[tuple[str, str], str]:
        """Where each person a department move is said of works, as stored before this
        batch (their latest current ``works_at``), by (user_id, entity_id)."""
        wanted = {(user_id, self._tables[user_id].resolve(
            c.entity, "event" if c.entity != USER_KEY else "user").entity_id, "works_at")
            for user_id, _, _, kept in items for c in kept if c.value_kind == DEPARTMENT}
        employers: dict[tuple[str, str], str] = {}
        for (user_id, entity, _), held in fact_store.current_versions(tx, wanted).items():
            names = self._tables[user_id].names_by_id()
            if now := [v for v in held if not v.negated and v.value_id in names]:
                employers[(user_id, entity)] = names[max(now, key=lambda v: v.valid_from).value_id]
        return employers
