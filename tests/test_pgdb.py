"""The test helper pgdb.py: each PostgreSQL test gets a new, empty database of its own, though
the next one is made in advance and the used ones are dropped in the background; by the end
of the session (``pgdb.finish``) none of them is left on the cluster."""

from __future__ import annotations

import asyncio

import pgdb


async def _rows(url: str, sql: str) -> list[tuple[object, ...]]:
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await connection.fetch(sql)]
    finally:
        await connection.close()


def _on_the_cluster(names: list[str]) -> set[str]:
    admin = pgdb.require_postgres()
    rows = asyncio.run(_rows(admin, "SELECT datname FROM pg_database"))
    return {str(row[0]) for row in rows} & set(names)


def test_each_database_is_new_and_empty_and_none_is_left_at_the_end() -> None:
    handed: list[str] = []
    for _ in range(3):
        with pgdb.fresh_database() as url:
            name = url.rpartition("/")[2]
            assert name not in handed
            tables = "SELECT count(*) FROM pg_tables WHERE schemaname = 'public'"
            assert asyncio.run(_rows(url, tables)) == [(0,)]
            asyncio.run(_rows(url, "CREATE TABLE mine (a int)"))  # this test's own table
            handed.append(name)
    spare = [name for name in pgdb.made() if name not in handed]
    assert spare, "no database made in advance"
    pgdb.finish()
    assert not _on_the_cluster(pgdb.made())
