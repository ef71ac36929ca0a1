"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

import pgdb
from pgdb import fresh_database


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The address of a new, empty PostgreSQL database (skipped without a test cluster)."""
    with fresh_database() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a test's server keeps its games: an SQLite file, then (a second run of the test)
    a new PostgreSQL database (skipped without a test cluster)."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    url: str = request.getfixturevalue("pg_url")
    return url


def pytest_sessionfinish(session: pytest.Session) -> None:
    """The PostgreSQL databases dropped in the background (pgdb.py) are gone before the run
    ends (a failed drop fails it here)."""
    pgdb.finish()
