"""Fixtures of the store suites (tests/server/storage): a store opened on each backend."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from oriflamme.server.storage import Store, open_store
from pgdb import fresh_database

Opener = Callable[[], Awaitable[Store]]


@pytest.fixture(params=["sqlite", "postgresql"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Opener]:
    """Opens a store on one database (the same one each time it is called)."""
    if request.param == "sqlite":
        path = str(tmp_path / "games.sqlite3")
        yield lambda: open_store(path)
    else:
        with fresh_database() as url:
            yield lambda: open_store(url)
