"""The PostgreSQL :class:`~.base.Store` (asyncpg): one database shared by any number of servers.

The store's methods are written once for both backends (:mod:`.sql_store`); this backend runs
their plans on a pool of connections. Every write is one transaction (or one statement); it is
acknowledged once committed. The primary key of an action,
``(table_id, game, idx)``, is where concurrent servers are ordered: of two servers that store an
action at the same index of a game, one commits and the other gets :class:`StoreConflict`.
Each write also sends a notification on the channel :data:`CHANNEL` (``pg_notify`` in the same
transaction, so it is delivered only if and when the write commits): the other servers learn that
a table changed and refresh their copy (``listen``).

The schema is created on first start and migrated from older versions under an advisory lock (two
servers starting at once do it once); a database with a newer schema than this server knows is
refused before anything is written (:mod:`.postgres_schema`); reaching the database is in
:mod:`.postgres_connect`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import asyncpg

from ..errors import QuietLog
from .base import Change, StoreConflict, StoreError, StoreUnavailable
from .dialect import POSTGRES, Statement, chain_part
from .plans import Announce, Chain, Plan, Rows, Step, drive_async
from .postgres_connect import (
    LISTEN_ERRORS,
    Acquire,
    Unreachable,
    keep_session,
    receiver,
    setter,
)
from .postgres_connect import redacted as redacted  # re-exported (messages, the CLI)
from .postgres_schema import SCHEMA_VERSION as SCHEMA_VERSION  # re-exported
from .postgres_schema import migrate
from .sql_store import SqlStore

T = TypeVar("T")
log = logging.getLogger("oriflamme.server")
quiet = QuietLog(log)

#: The notification channel of table changes (payload: the table id).
CHANNEL = "oriflamme_tables"
#: ``application_name`` of the servers' connections (visible in ``pg_stat_activity``).
APPLICATION_NAME, LISTENER_NAME = "oriflamme", "oriflamme-listen"
#: Seconds a query may take before the database counts as unreachable.
COMMAND_TIMEOUT = 10.0
CONNECT_TIMEOUT = 5.0
#: Seconds between checks that the listening connection still works.
LISTEN_CHECK = 5.0
#: Pauses (seconds) between attempts to listen again while the database is away.
RECONNECT_MIN, RECONNECT_MAX = 0.2, 5.0


def chained(chain: Chain) -> Statement:
    """A chain as one statement: each statement a ``WITH`` part (linked by their results, see
    :meth:`~.dialect.Sql.after_previous`), then the last one's rows, announcing the change."""
    parts = ", ".join(
        f"{chain_part(i)} AS ({statement.sql})" for i, statement in enumerate(chain.statements)
    )
    last, params = chain_part(len(chain.statements) - 1), chain.statements[-1].params
    if chain.announce is None:
        return Statement(f"WITH {parts} SELECT * FROM {last}", params)
    n = len(params)
    return Statement(
        f"WITH {parts} SELECT {last}.*, pg_notify(${n + 1}, ${n + 2}) FROM {last}",
        (*params, CHANNEL, chain.announce.encode()),
    )


class PostgresStore(SqlStore):
    """:class:`~.base.Store` over a PostgreSQL database (a pool of asyncpg connections).

    Open it with :meth:`open` inside the event loop that will use it.
    """

    dialect = POSTGRES
    shared = True

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
                min_size=0,  # no floor to restore in the background while the database is away
                max_size=max_size,
                command_timeout=COMMAND_TIMEOUT,
                timeout=CONNECT_TIMEOUT,
                server_settings={"application_name": APPLICATION_NAME},
                reset=keep_session,
            )
            store = cls(pool, url)
        except (asyncpg.PostgresError, ValueError) as exc:  # a malformed address
            raise StoreError(f"cannot open the database {redacted(url)}: {exc}") from None
        try:
            await store._migrate()  # the first connection
        except Unreachable as exc:
            await pool.close()
            raise StoreUnavailable(
                f"cannot reach the database {redacted(url)} ({exc.reason})"
            ) from None
        except (asyncpg.PostgresError, ValueError) as exc:  # bad login, no such database
            await pool.close()
            raise StoreError(f"cannot open the database {redacted(url)}: {exc}") from None
        except BaseException:
            await pool.close()
            raise
        return store

    async def _migrate(self) -> None:
        async with self.connection() as db, db.transaction():
            await migrate(db)

    def describe(self) -> str:
        return f"PostgreSQL database {redacted(self.url)}"

    def pool_use(self) -> tuple[int, int]:
        idle = self._pool.get_idle_size()
        return self._pool.get_size() - idle, idle

    def connection(self) -> Any:
        """A pooled connection (``async with``); a broken database is :class:`StoreUnavailable`."""
        return Acquire(self._pool)

    # -- running plans ---------------------------------------------------------------------
    async def _run(self, plan: Plan[T], *, write: bool, atomic: bool) -> T:
        try:
            async with self.connection() as db:
                if not atomic:
                    return await drive_async(plan, lambda step: self._step(db, step))
                # A read of several statements sees one snapshot.
                async with db.transaction(isolation=None if write else "repeatable_read"):
                    return await drive_async(plan, lambda step: self._step(db, step))
        except asyncpg.exceptions.UniqueViolationError as exc:
            raise StoreConflict(str(exc)) from None
        except asyncpg.exceptions.ForeignKeyViolationError as exc:
            raise StoreConflict(str(exc)) from None

    async def _step(self, db: asyncpg.Connection, step: Step) -> Rows:
        if isinstance(step, Announce):
            # Sent when (and only if) the transaction commits.
            await db.execute(
                "SELECT pg_notify($1, c) FROM unnest($2::text[]) AS u(c)",
                CHANNEL,
                [change.encode() for change in step.changes],
            )
            return []
        if isinstance(step, Chain):
            sql, params = chained(step)
            return await db.fetch(sql, *params)
        return await db.fetch(step.sql, *step.params)

    # -- notifications ---------------------------------------------------------------------
    async def listen(self, changed: Callable[[Change], None], reset: Callable[[], None]) -> None:
        """Until cancelled: call ``changed`` for every committed change of a table, by any
        server, and ``reset()`` each time listening (re)starts (changes made while nobody
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
            except LISTEN_ERRORS as exc:
                quiet.warning("listen", "cannot listen for table changes (%s); retrying",
                              type(exc).__name__)
                await asyncio.sleep(pause)
                pause = min(pause * 2, RECONNECT_MAX)
                continue
            lost = asyncio.Event()
            connection.add_termination_listener(setter(lost))
            try:
                await connection.add_listener(CHANNEL, receiver(changed))
                reset()
                pause = RECONNECT_MIN
                while not lost.is_set():
                    try:
                        await asyncio.wait_for(lost.wait(), LISTEN_CHECK)
                    except TimeoutError:
                        await connection.fetchval("SELECT 1", timeout=LISTEN_CHECK)
            except LISTEN_ERRORS as exc:
                log.warning("stopped listening for table changes (%s)", type(exc).__name__)
            finally:
                connection.terminate()

    async def close(self) -> None:
        await self._pool.close()
