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
from collections.abc import Callable, Iterator
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


class _Job:
    """``work()`` in a thread of its own (short-lived: no thread is left behind between
    jobs); ``wait`` joins it and raises what it raised."""

    def __init__(self, work: Callable[[], None]) -> None:
        self._failure: BaseException | None = None
        self._thread = threading.Thread(target=self._run, args=(work,), daemon=True)
        self._thread.start()

    def _run(self, work: Callable[[], None]) -> None:
        try:
            work()
        except BaseException as exc:  # handed to whoever waits
            self._failure = exc

    def wait(self) -> None:
        self._thread.join()
        if self._failure is not None:
            raise self._failure


class _Databases:
    """The databases of this process: one made in advance, and the drops under way."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._spare: tuple[str, _Job] | None = None
        self._drops: list[_Job] = []
        #: Every database this process made (handed out or in advance), for the helper's test.
        self.made: list[str] = []

    def take(self) -> str:
        """The name of a new, empty database (the one made in advance if there is one); the
        next one is started."""
        with self._lock:
            spare, self._spare = self._spare, None
            following = f"oriflamme_test_{uuid.uuid4().hex[:16]}"
            self._spare = (following, _Job(lambda: _create(following)))
            self.made.append(following)
        if spare is None:
            name = f"oriflamme_test_{uuid.uuid4().hex[:16]}"
            with self._lock:
                self.made.append(name)
            _create(name)
            return name
        name, made = spare
        made.wait()
        return name

    def give_back(self, name: str) -> None:
        """Drop ``name`` (its connections closed), without waiting."""
        with self._lock:
            self._drops.append(_Job(lambda: _drop(name)))

    def finish(self) -> None:
        """Wait for every drop, and drop the database made in advance; raise the first
        failure."""
        with self._lock:
            spare, self._spare = self._spare, None
            jobs, self._drops = self._drops, []
        failures: list[BaseException] = []
        if spare is not None:
            name, made = spare
            try:
                made.wait()
                jobs.append(_Job(lambda: _drop(name)))
            except BaseException as exc:
                failures.append(exc)
        for job in jobs:
            try:
                job.wait()
            except BaseException as exc:
                failures.append(exc)
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
