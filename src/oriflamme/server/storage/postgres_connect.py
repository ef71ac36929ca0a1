"""Reaching the PostgreSQL database (see :mod:`.postgres`): which errors mean it is away, a
pooled connection that reports a lost database as :class:`~.base.StoreUnavailable`, and the
small callbacks of the listening connection."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

import asyncpg

from .base import Change, StoreUnavailable

#: Errors that mean the database cannot be reached (or the connection broke), not a bad query.
UNREACHABLE: tuple[type[BaseException], ...] = (
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

LISTEN_ERRORS: tuple[type[BaseException], ...] = (*UNREACHABLE, asyncpg.PostgresError)


def redacted(url: str) -> str:
    """The DSN without its password, for messages and logs."""
    head, sep, tail = url.partition("://")
    if not sep or "@" not in tail:
        return url
    credentials, _, host = tail.rpartition("@")
    user = credentials.split(":", 1)[0]
    return f"{head}://{user}@{host}"


class Unreachable(StoreUnavailable):
    """The database cannot be reached; ``reason`` says how the connection failed."""

    def __init__(self, exc: BaseException) -> None:
        self.reason = f"{type(exc).__name__}: {exc}"
        super().__init__(f"the database cannot be reached ({self.reason})")


def unavailable(exc: BaseException) -> StoreUnavailable:
    return Unreachable(exc)


async def keep_session(connection: asyncpg.Connection) -> None:
    """Nothing to reset when a connection returns to the pool: the store keeps no session state
    on pooled connections (no LISTEN, no session locks, no settings), and the default reset would
    cost a round trip for every query."""


def receiver(changed: Callable[[Change], None]) -> Callable[[Any, int, str, object], None]:
    def receive(_connection: Any, _pid: int, _channel: str, payload: object) -> None:
        change = Change.decode(str(payload))
        if change is not None:
            changed(change)

    return receive


def setter(event: asyncio.Event) -> Callable[[Any], None]:
    return lambda _connection: event.set()


class Acquire:
    """``async with`` a pooled connection, mapping a lost database to StoreUnavailable. A
    connection that failed so is closed, never given to another query: it may still wait for
    the end of the failed one (the pool resets nothing, see :func:`keep_session`), and would
    fail that query with ``InternalClientError`` ("another operation is in progress")."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._context: Any = None
        self._connection: asyncpg.Connection | None = None

    async def __aenter__(self) -> asyncpg.Connection:
        self._context = self._pool.acquire()
        try:
            connection: asyncpg.Connection = await self._context.__aenter__()
        except UNREACHABLE as exc:
            raise unavailable(exc) from None
        self._connection = connection
        return connection

    async def __aexit__(self, kind: Any, exc: BaseException | None, tb: Any) -> bool:
        broken = isinstance(exc, (*UNREACHABLE, asyncpg.exceptions.InternalClientError))
        if broken and self._connection is not None:
            # (InterfaceError: already closed, and so given back to the pool.)
            with contextlib.suppress(asyncpg.exceptions.InterfaceError):
                self._connection.terminate()  # the pool opens a new one when needed
        await self._context.__aexit__(kind, exc, tb)
        if exc is not None and broken:
            raise unavailable(exc) from None
        return False
