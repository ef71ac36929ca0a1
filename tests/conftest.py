"""Fixtures shared by the whole suite."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from pgdb import fresh_database


@pytest.fixture
def pg_url() -> Iterator[str]:
    """The address of a new, empty PostgreSQL database (skipped without a test cluster)."""
    with fresh_database() as url:
        yield url
