"""Throwaway PostgreSQL databases for the tests, on the cluster that scripts/test.sh starts.

``scripts/test.sh`` (and so CI) starts a PostgreSQL cluster in a temporary folder and exports
its address as ``ORIFLAMME_TEST_PG``; each test that asks for ``pg_url`` gets a new empty
database on it, dropped afterwards. Without that variable the PostgreSQL tests are skipped with
one reason, except in CI (``CI`` set), where they must run and so fail.

Making and dropping a database waits on the disk (``CREATE DATABASE`` writes the template
through the WAL, ``DROP DATABASE`` forces a checkpoint): with several test processes on one
cluster each took about a second, spent by the test waiting. So they happen in threads, beside
the tests: the next database is made while a test runs (it is still new and empty when it is
handed out: nobody else knows its name) and a used one is dropped after its test, without the
next test waiting. :func:`finish` (at the end of the session) waits for them and drops the
database made in advance; a failure of any of them fails the run there.
"""

from __future__ import annotations

import asyncio
import os
import threading
import uuid
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager

import pytest

ADMIN_URL = os.environ.get("ORIFLAMME_TEST_PG", "")
NOT_RUNNING = (
    "PostgreSQL tests need a server: run them through scripts/test.sh, which starts one "
    "(or set ORIFLAMME_TEST_PG to a postgresql:// address whose user may create databases)"
)


def require_postgres() -> str:
    """The admin address of the test cluster; skips (fails in CI) when there is none."""
    if not ADMIN_URL:
        if os.environ.get("CI"):
            pytest.fail(f"{NOT_RUNNING}: CI must run them", pytrace=False)
        pytest.skip(NOT_RUNNING)
    return ADMIN_URL


def database_url(admin: str, name: str) -> str:
    """``admin`` with its database replaced by ``name``."""
    base, _, _ = admin.rpartition("/")
    return f"{base}/{name}"


async def _admin(sql: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(ADMIN_URL)
    try:
        await connection.execute(sql)
    finally:
        await connection.close()


def _create(name: str) -> None:
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))


def _drop(name: str) -> None:
    asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def _new_name() -> str:
    return f"oriflamme_test_{uuid.uuid4().hex[:16]}"


class _Databases:
    """The databases of this process: one made in advance, and the drops under way (each a
    future of a small thread pool, which hands a failure to whoever waits)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="pgdb")
        self._spare: tuple[str, Future[None]] | None = None
        self._drops: list[Future[None]] = []
        #: Every database this process made (handed out or in advance), for the helper's test.
        self.made: list[str] = []

    def _make(self) -> tuple[str, Future[None]]:
        name = _new_name()
        self.made.append(name)
        return name, self._pool.submit(_create, name)

    def take(self) -> str:
        """The name of a new, empty database (the one made in advance if there is one); the
        next one is started."""
        with self._lock:
            name, made = self._spare or self._make()
            self._spare = self._make()
        made.result()
        return name

    def give_back(self, name: str) -> None:
        """Drop ``name`` (its connections closed), without waiting."""
        with self._lock:
            self._drops.append(self._pool.submit(_drop, name))

    def finish(self) -> None:
        """Wait for every drop, and drop the database made in advance; raise the first
        failure."""
        with self._lock:
            spare, self._spare = self._spare, None
            drops, self._drops = self._drops, []
        failures: list[BaseException] = []
        if spare is not None:
            name, made = spare
            if (failure := made.exception()) is None:
                drops.append(self._pool.submit(_drop, name))
            else:
                failures.append(failure)
        failures += [f for f in (drop.exception() for drop in drops) if f is not None]
        if failures:
            raise failures[0]


_DATABASES = _Databases()


@contextmanager
def fresh_database() -> Iterator[str]:
    """A new empty database on the test cluster, dropped after the ``with`` (in the background:
    :func:`finish` waits for it)."""
    admin = require_postgres()
    name = _DATABASES.take()
    try:
        yield database_url(admin, name)
    finally:
        _DATABASES.give_back(name)


def made() -> list[str]:
    """The names of every database this process made so far."""
    return list(_DATABASES.made)


def finish() -> None:
    """At the end of the session: the databases made or used by this process are dropped."""
    _DATABASES.finish()
