"""The PostgreSQL :class:`~.base.Store` (asyncpg): one database shared by any number of servers.

Every write is one transaction; it is acknowledged once committed. The primary key of an action,
``(table_id, game, idx)``, is where concurrent servers are ordered: of two servers that store an
action at the same index of a game, one commits and the other gets :class:`StoreConflict`.
Each write also sends a notification on the channel :data:`CHANNEL` (``pg_notify`` in the same
transaction, so it is delivered only if and when the write commits): the other servers learn that
a table changed and refresh their copy (``listen``).

The schema is created on first start and migrated from older versions under an advisory lock (two
servers starting at once do it once); a database with a newer schema than this server knows is
refused before anything is written.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import asyncpg

from .base import GameRecord, SeatRecord, StoreConflict, StoreError, StoreUnavailable, TableRecord

log = logging.getLogger("oriflamme.server")

SCHEMA_VERSION = 2
#: The notification channel of table changes (payload: the table id).
CHANNEL = "oriflamme_tables"
#: ``application_name`` of the servers' connections (visible in ``pg_stat_activity``).
APPLICATION_NAME, LISTENER_NAME = "oriflamme", "oriflamme-listen"
#: Any constant: the advisory lock key that serialises schema creation and migrations.
_MIGRATION_LOCK = 0x0F1F1A33E
#: Seconds a query may take before the database counts as unreachable.
COMMAND_TIMEOUT = 10.0
CONNECT_TIMEOUT = 5.0
#: Seconds between checks that the listening connection still works.
LISTEN_CHECK = 5.0
#: Pauses (seconds) between attempts to listen again while the database is away.
RECONNECT_MIN, RECONNECT_MAX = 0.2, 5.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS oriflamme_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    lang TEXT NOT NULL,
    creator_hash TEXT NOT NULL,
    spectator_hash TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    level TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seed BIGINT NOT NULL,
    finished BOOLEAN NOT NULL DEFAULT FALSE,
    start TEXT,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, game, idx),
    FOREIGN KEY (table_id, game) REFERENCES games(table_id, number)
);
CREATE INDEX IF NOT EXISTS games_unfinished ON games (table_id) WHERE NOT finished;
"""

Statement = tuple[str, tuple[Any, ...]]

#: Errors that mean the database cannot be reached (or the connection broke), not a bad query.
_UNREACHABLE: tuple[type[BaseException], ...] = (
    OSError,
    asyncio.TimeoutError,
    asyncpg.exceptions.ConnectionDoesNotExistError,
    asyncpg.exceptions.ConnectionFailureError,
    asyncpg.exceptions.CannotConnectNowError,
    asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError,
    asyncpg.exceptions.TooManyConnectionsError,
    asyncpg.exceptions.InterfaceError,
)

_LISTEN_ERRORS: tuple[type[BaseException], ...] = (*_UNREACHABLE, asyncpg.PostgresError)


def is_postgres_url(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


def redacted(url: str) -> str:
    """The DSN without its password, for messages and logs."""
    head, sep, tail = url.partition("://")
    if not sep or "@" not in tail:
        return url
    credentials, _, host = tail.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{head}://{user}@{host}"


def _unavailable(exc: BaseException) -> StoreUnavailable:
    return StoreUnavailable(f"the database cannot be reached ({type(exc).__name__}: {exc})")


class PostgresStore:
    """:class:`~.base.Store` over a PostgreSQL database (a pool of asyncpg connections).

    Open it with :meth:`open` inside the event loop that will use it.
    """

    def __init__(self, pool: asyncpg.Pool, url: str) -> None:
        self._pool = pool
        self.url = url
        self._listener: asyncpg.Connection | None = None
        self._listen_task: asyncio.Task[None] | None = None

    @classmethod
    async def open(cls, url: str, *, max_size: int = 10) -> PostgresStore:
        """Connect, create or migrate the schema; :class:`StoreError` with a clear message if
        the database cannot be reached, refuses the login, or has a newer schema."""
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=1,
                max_size=max_size,
                command_timeout=COMMAND_TIMEOUT,
                timeout=CONNECT_TIMEOUT,
                server_settings={"application_name": APPLICATION_NAME},
            )
        except _UNREACHABLE as exc:
            raise StoreUnavailable(
                f"cannot reach the database {redacted(url)} ({type(exc).__name__}: {exc})"
            ) from None
        except (asyncpg.PostgresError, ValueError) as exc:  # bad login, no such database, bad DSN
            raise StoreError(f"cannot open the database {redacted(url)}: {exc}") from None
        store = cls(pool, url)
        try:
            await store._migrate()
        except BaseException:
            await pool.close()
            raise
        return store

    async def _migrate(self) -> None:
        async with self.connection() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            exists = await db.fetchval("SELECT to_regclass('oriflamme_meta') IS NOT NULL")
            found = 0
            if exists:
                value = await db.fetchval(
                    "SELECT value FROM oriflamme_meta WHERE key = 'schema_version'"
                )
                found = int(value) if value is not None else 0
            if found > SCHEMA_VERSION:
                raise StoreError(
                    f"the database has storage version {found}, newer than this server's "
                    f"({SCHEMA_VERSION}): upgrade oriflamme"
                )
            if found == SCHEMA_VERSION:
                return
            await db.execute(_SCHEMA)
            await db.execute(
                "INSERT INTO oriflamme_meta (key, value) VALUES ('schema_version', $1)"
                " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                str(SCHEMA_VERSION),
            )

    def connection(self) -> Any:
        """A pooled connection (``async with``); a broken database is :class:`StoreUnavailable`."""
        return _Acquire(self._pool)

    # -- writing ---------------------------------------------------------------------------
    async def _write(self, table_id: str, statements: Sequence[Statement]) -> None:
        """Run ``statements`` in one transaction that also notifies the table's change."""
        try:
            async with self.connection() as db, db.transaction():
                for sql, params in statements:
                    await db.execute(sql, *params)
                await db.execute("SELECT pg_notify($1, $2)", CHANNEL, table_id)
        except asyncpg.exceptions.UniqueViolationError as exc:
            raise StoreConflict(str(exc)) from None
        except asyncpg.exceptions.ForeignKeyViolationError as exc:
            raise StoreConflict(str(exc)) from None

    async def create_table(
        self,
        table: TableRecord,
        seed: int,
        start: Mapping[str, Any] | None = None,
        actions: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        statements: list[Statement] = [
            (
                "INSERT INTO tables (id, config, lang, creator_hash, spectator_hash, created)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                (
                    table.table_id,
                    json.dumps(table.config),
                    table.lang,
                    table.creator_hash,
                    table.spectator_hash,
                    time.time(),
                ),
            ),
            (
                "INSERT INTO games (table_id, number, seed, start) VALUES ($1, 1, $2, $3)",
                (table.table_id, seed, None if start is None else json.dumps(start)),
            ),
        ]
        statements += [_seat_insert(table.table_id, seat) for seat in table.seats]
        statements += [_action_insert(table.table_id, 1, i, a) for i, a in enumerate(actions)]
        await self._write(table.table_id, statements)

    async def append_action(
        self, table_id: str, game: int, index: int, action: Mapping[str, Any], finished: bool
    ) -> None:
        statements = [_action_insert(table_id, game, index, action)]
        if finished:
            statements.append(
                (
                    "UPDATE games SET finished = TRUE WHERE table_id = $1 AND number = $2",
                    (table_id, game),
                )
            )
        await self._write(table_id, statements)

    async def new_game(self, table_id: str, game: int, seed: int) -> None:
        await self._write(
            table_id,
            [
                (
                    "INSERT INTO games (table_id, number, seed) VALUES ($1, $2, $3)",
                    (table_id, game, seed),
                )
            ],
        )

    async def set_seat(self, table_id: str, seat: SeatRecord) -> None:
        await self._write(
            table_id,
            [
                ("DELETE FROM seats WHERE table_id = $1 AND seat = $2", (table_id, seat.seat)),
                _seat_insert(table_id, seat),
            ],
        )

    # -- reading ---------------------------------------------------------------------------
    async def load_table(self, table_id: str) -> tuple[TableRecord, GameRecord] | None:
        async with self.connection() as db, db.transaction(isolation="repeatable_read"):
            row = await db.fetchrow(
                "SELECT config, lang, creator_hash, spectator_hash FROM tables WHERE id = $1",
                table_id,
            )
            if row is None:
                return None
            seats = await db.fetch(
                "SELECT seat, kind, name, level, token_hash FROM seats WHERE table_id = $1"
                " ORDER BY seat",
                table_id,
            )
            game = await db.fetchrow(
                "SELECT number, seed, start FROM games WHERE table_id = $1"
                " ORDER BY number DESC LIMIT 1",
                table_id,
            )
            actions = await db.fetch(
                "SELECT action FROM actions WHERE table_id = $1 AND game = $2 ORDER BY idx",
                table_id,
                game["number"],
            )
        table = TableRecord(
            table_id=table_id,
            config=json.loads(row["config"]),
            lang=row["lang"],
            creator_hash=row["creator_hash"],
            spectator_hash=row["spectator_hash"],
            seats=tuple(SeatRecord(*seat) for seat in seats),
        )
        start = game["start"]
        record = GameRecord(
            game["number"],
            game["seed"],
            tuple(json.loads(a["action"]) for a in actions),
            None if start is None else json.loads(start),
        )
        return table, record

    async def unfinished_tables(self) -> list[str]:
        async with self.connection() as db:
            rows = await db.fetch(
                "SELECT g.table_id FROM games g WHERE NOT g.finished AND g.number ="
                " (SELECT MAX(number) FROM games WHERE table_id = g.table_id)"
            )
        return [r["table_id"] for r in rows]

    async def ping(self) -> None:
        """Raise :class:`StoreUnavailable` unless the database answers."""
        async with self.connection() as db:
            await db.fetchval("SELECT 1")

    # -- notifications ---------------------------------------------------------------------
    async def listen(self, changed: Callable[[str], None], reset: Callable[[], None]) -> None:
        """Until cancelled: call ``changed(table_id)`` for every committed change of a table, by
        any server, and ``reset()`` each time listening (re)starts (changes made while nobody
        listened are unknown: every cached table is suspect).

        Listening uses a connection of its own, outside the pool; it is checked every
        :data:`LISTEN_CHECK` seconds (a connection that broke silently never says so) and
        opened again, with a growing pause, while the database is away.
        """
        pause = RECONNECT_MIN
        while True:
            try:
                connection = await asyncpg.connect(
                    self.url,
                    timeout=CONNECT_TIMEOUT,
                    server_settings={"application_name": LISTENER_NAME},
                )
            except _LISTEN_ERRORS as exc:
                log.warning("cannot listen for table changes (%s); retrying", type(exc).__name__)
                await asyncio.sleep(pause)
                pause = min(pause * 2, RECONNECT_MAX)
                continue
            lost = asyncio.Event()
            connection.add_termination_listener(_setter(lost))
            try:
                await connection.add_listener(
                    CHANNEL, lambda _connection, _pid, _channel, payload: changed(payload)
                )
                reset()
                pause = RECONNECT_MIN
                while not lost.is_set():
                    try:
                        await asyncio.wait_for(lost.wait(), LISTEN_CHECK)
                    except TimeoutError:
                        await connection.fetchval("SELECT 1", timeout=LISTEN_CHECK)
            except _LISTEN_ERRORS as exc:
                log.warning("stopped listening for table changes (%s)", type(exc).__name__)
            finally:
                connection.terminate()

    async def close(self) -> None:
        await self._pool.close()


def _setter(event: asyncio.Event) -> Callable[[Any], None]:
    return lambda _connection: event.set()


class _Acquire:
    """``async with`` a pooled connection, mapping a lost database to StoreUnavailable."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._context: Any = None

    async def __aenter__(self) -> asyncpg.Connection:
        self._context = self._pool.acquire()
        try:
            connection: asyncpg.Connection = await self._context.__aenter__()
        except _UNREACHABLE as exc:
            raise _unavailable(exc) from None
        return connection

    async def __aexit__(self, kind: Any, exc: BaseException | None, tb: Any) -> bool:
        await self._context.__aexit__(kind, exc, tb)
        if exc is not None and isinstance(exc, _UNREACHABLE):
            raise _unavailable(exc) from None
        return False


def _seat_insert(table_id: str, seat: SeatRecord) -> Statement:
    return (
        "INSERT INTO seats (table_id, seat, kind, name, level, token_hash)"
        " VALUES ($1, $2, $3, $4, $5, $6)",
        (table_id, seat.seat, seat.kind, seat.name, seat.level, seat.token_hash),
    )


def _action_insert(
    table_id: str, game: int, index: int, action: Mapping[str, Any]
) -> Statement:
    return (
        "INSERT INTO actions (table_id, game, idx, action) VALUES ($1, $2, $3, $4)",
        (table_id, game, index, json.dumps(action)),
    )
