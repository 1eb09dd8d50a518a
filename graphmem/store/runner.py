"""The one place graphmem talks to the Neo4j driver.

Every statement is run by name (``cypher/<name>.cypher``) with values only as
parameters. Driver exceptions become graphmem's here — ``StoreUnavailableError`` when
Neo4j cannot be reached, ``QueryRefusedError`` when it refuses a statement — naming the
query, never its parameters. Reads are marked as reads so clusters route them.

Every read carries a server-side timeout (``read_timeout_s``, the ``neo4j_read_timeout_s``
setting, 30 s by default): Neo4j stops a read that runs longer, and the driver does not
retry it (a timed-out transaction is a client error) — it becomes a
``QueryRefusedError`` naming the query and the setting.

Every write transaction first takes graphmem's one write turn (``store/take_write_turn``;
``serial_writes``, the ``neo4j_serial_writes`` setting, on by default): the writers of every
process commit one at a time, and questions asked beside them are not starved. Schema
statements (``schema_change``) take no turn: they cannot share a transaction with a write.

The driver retries a transaction that failed transiently (a deadlock, a leader switch);
each retry is counted in ``retries`` by error code, so a test can tell that graphmem's
lock ordering (every write locks its users first, ``store/lock_users``) leaves nothing
for the driver to hide.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

import neo4j
from neo4j.exceptions import ClientError, DriverError, Neo4jError, ServiceUnavailable

from graphmem._config import redact_uri
from graphmem._errors import ConfigError, QueryRefusedError, StoreUnavailableError
from graphmem.store import cypher
from graphmem.store.server import ServerInfo, detect

Tracer = Callable[[str], None]
T = TypeVar("T")
log = logging.getLogger("graphmem.store")
DEFAULT_READ_TIMEOUT_S = 30.0
MAX_DETAIL_CHARS = 300  # of Neo4j's own text in an error message
_TIMED_OUT = ("Neo.ClientError.Transaction.TransactionTimedOut",
              "Neo.ClientError.Transaction.TransactionTimedOutClientConfiguration")


def timed_out(exc: QueryRefusedError) -> bool:
    """Whether Neo4j stopped the statement for running past its timeout."""
    return exc.code in _TIMED_OUT


class Tx:
    """Named statements inside one managed write transaction (see ``QueryRunner.transaction``)."""

    def __init__(self, tx: neo4j.ManagedTransaction, turn: str | None = None) -> None:
        self._tx = tx
        if turn is not None:  # the write turn, before anything else is locked
            tx.run(turn).consume()

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return [record.data() for record in self._tx.run(cypher.load(name), params)]

    write = read

    def write_many(self, steps: list[tuple[str, dict[str, Any]]], name: str = "") -> None:
        for step_name, params in steps:
            self._tx.run(cypher.load(step_name), params).consume()


class QueryRunner:
    """Runs named statements through managed transactions (retried when transient)."""

    def __init__(
        self,
        uri: str,
        auth: tuple[str, str] | None,
        database: str | None = None,
        tracer: Tracer | None = None,
        retry_s: float = 30.0,
        connect_timeout_s: float | None = None,
        read_timeout_s: float = DEFAULT_READ_TIMEOUT_S,
        serial_writes: bool = True,
    ) -> None:
        self.uri = redact_uri(uri)  # for messages: never a password
        self.read_timeout_s = read_timeout_s
        self._turn = cypher.load("store/take_write_turn") if serial_writes else None
        self._secret = auth[1] if auth and auth[1] else None
        self.database = database
        self.tracer = tracer
        # The driver bounds a TCP connect by connection_timeout but waits for the Bolt
        # handshake up to connection_acquisition_timeout (60 s): a server that accepts and
        # never answers would hang that long. One setting bounds both.
        timeouts = ({} if connect_timeout_s is None else
                    {"connection_timeout": connect_timeout_s,
                     "connection_acquisition_timeout": connect_timeout_s})
        self._server: ServerInfo | None = None
        self.retries: Counter[str] = Counter()  # transient failures the driver retried, by code
        self._retries_lock = threading.Lock()
        try:
            self.driver = neo4j.GraphDatabase.driver(
                uri, auth=auth, max_transaction_retry_time=retry_s,
                notifications_min_severity="OFF",  # "property does not exist yet" on a new db
                **timeouts,
            )
        except (ValueError, DriverError) as exc:
            raise ConfigError(f"cannot use Neo4j URI {self.uri!r}: {self._mask(exc)}") from None

    def _mask(self, exc: BaseException) -> str:
        """An error's text with the URI and the password masked (``***``)."""
        text = redact_uri(str(exc))
        return text.replace(self._secret, "***") if self._secret else text

    def close(self) -> None:
        try:
            self.driver.close()
        except (DriverError, Neo4jError, OSError, BufferError) as exc:  # closing anyway
            log.warning("closing the Neo4j driver: %s", self._mask(exc))

    def verify(self) -> None:
        try:
            self.driver.verify_connectivity()
        except (DriverError, Neo4jError, OSError) as exc:
            raise StoreUnavailableError(
                f"Neo4j is not reachable at {self.uri}: {self._mask(exc)}. Start it with "
                "`scripts/neo4j-local start` (or `docker compose -f docker/compose.yml up -d`)."
            ) from exc

    def server(self, refresh: bool = False) -> ServerInfo:
        """What the server can do (detected on first use, then remembered)."""
        if self._server is None or refresh:
            self._server = detect(self)
        return self._server

    def know_server(self, info: ServerInfo) -> None:
        """Remember what the server can do, as recorded when the schema was applied
        (``store.schema.ensure_schema``), instead of detecting it again."""
        self._server = info

    def read(self, name: str, **params: Any) -> list[dict[str, Any]]:
        return self._run(name, cypher.load(name), params, write=False)

    def read_values(self, name: str, **params: Any) -> list[dict[str, Any]]:
        """``read`` for a statement that returns only values, lists and maps (no nodes or
        relationships): the rows as the driver made them, without ``Record.data()``'s walk
        over every nested value (a question's recall returns thousands of them)."""
        return self._run(name, cypher.load(name), params, write=False, plain=True)

    def write(self, name: str, **params: Any) -> list[dict[str, Any]]:
        # a schema statement (cypher/schema*.cypher) cannot share a transaction with the turn
        return self._run(name, cypher.load(name), params, write=True,
                         turn=not name.startswith("schema"))

    def schema_change(self, name: str, text: str | None = None, **params: Any) -> None:
        """Run a schema statement (a named one, or ``text`` built from a named template:
        only validated parts vary), without the write turn."""
        self._run(name, cypher.load(name) if text is None else text, params, write=True,
                  turn=False)

    def write_many(self, steps: list[tuple[str, dict[str, Any]]], name: str) -> None:
        """Several named statements in one transaction (all or nothing)."""

        def work(tx: neo4j.ManagedTransaction) -> None:
            Tx(tx, self._turn).write_many(steps)

        self._execute(name, lambda session: session.execute_write(self._counted(work)))

    def transaction(self, name: str, work: Callable[[Tx], T]) -> T:
        """Run ``work`` in one write transaction (retried as a whole when transient, so
        ``work`` must not keep side effects of a failed attempt)."""
        return self._execute(
            name, lambda session: session.execute_write(
                self._counted(lambda tx: work(Tx(tx, self._turn)))))

    def _counted(self, work: Callable[[neo4j.ManagedTransaction], T]
                 ) -> Callable[[neo4j.ManagedTransaction], T]:
        def run(tx: neo4j.ManagedTransaction) -> T:
            try:
                return work(tx)
            except Neo4jError as exc:
                if exc.is_retryable():
                    with self._retries_lock:
                        self.retries[exc.code or type(exc).__name__] += 1
                raise
        return run

    def _run(
        self, name: str, text: str, params: dict[str, Any], *, write: bool, turn: bool = True,
        plain: bool = False,
    ) -> list[dict[str, Any]]:
        def work(tx: neo4j.ManagedTransaction) -> list[dict[str, Any]]:
            if write and turn and self._turn is not None:
                tx.run(self._turn).consume()
            if plain:
                return [dict(record.items()) for record in tx.run(text, params)]
            return [record.data() for record in tx.run(text, params)]

        def call(session: neo4j.Session) -> list[dict[str, Any]]:
            counted = self._counted(work)
            if write:
                return session.execute_write(counted)
            return session.execute_read(neo4j.unit_of_work(timeout=self.read_timeout_s)(counted))

        return self._execute(name, call, write=write)

    def _execute(self, name: str, call: Callable[[neo4j.Session], Any], write: bool = True) -> Any:
        started = time.perf_counter()
        access = neo4j.WRITE_ACCESS if write else neo4j.READ_ACCESS
        try:
            with self.driver.session(database=self.database, default_access_mode=access) as s:
                return call(s)
        except ClientError as exc:  # the query or its parameters are wrong: not an outage
            if exc.code in _TIMED_OUT:
                raise QueryRefusedError(
                    f"query {name!r} took longer than {self.read_timeout_s:g} s and Neo4j "
                    "stopped it (setting neo4j_read_timeout_s); it was not retried",
                    query=name, code=exc.code) from exc
            detail = self._mask(exc.message or "")
            if len(detail) > MAX_DETAIL_CHARS:
                detail = detail[:MAX_DETAIL_CHARS] + "…"
            raise QueryRefusedError(
                f"query {name!r} was refused by Neo4j: {exc.code}: {detail}",
                query=name, code=exc.code) from exc
        except (ServiceUnavailable, DriverError, Neo4jError, OSError) as exc:
            raise StoreUnavailableError(
                f"query {name!r} failed: Neo4j at {self.uri} is unavailable ({self._mask(exc)})",
                query=name
            ) from exc
        finally:
            if self.tracer is not None:
                self.tracer(f"{name} {(time.perf_counter() - started) * 1000:.1f} ms")
