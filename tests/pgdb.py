"""Throwaway PostgreSQL databases for the tests, on the cluster that scripts/test.sh starts.

``scripts/test.sh`` (and so CI) starts a PostgreSQL cluster in a temporary folder and exports
its address as ``ORIFLAMME_TEST_PG``; each test that asks for ``pg_url`` gets a new empty
database on it, dropped afterwards. Without that variable the PostgreSQL tests are skipped with
one reason, except in CI (``CI`` set), where they must run and so fail.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Iterator
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


@contextmanager
def fresh_database() -> Iterator[str]:
    """A new empty database on the test cluster, dropped on exit (its connections closed)."""
    admin = require_postgres()
    name = f"oriflamme_test_{uuid.uuid4().hex[:16]}"
    asyncio.run(_admin(f'CREATE DATABASE "{name}"'))
    try:
        yield database_url(admin, name)
    finally:
        asyncio.run(_admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
