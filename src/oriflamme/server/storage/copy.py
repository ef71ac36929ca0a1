"""Copy a whole SQLite game database into an empty PostgreSQL one (``oriflamme db copy``).

Every row of every table is copied as stored, so every table, seat link (token digests), game,
action and cached record keeps working on the new database. The copy is one PostgreSQL
transaction: it is all there, or (on any error) nothing is.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg

from .base import StoreError
from .postgres import PostgresStore
from .sqlite import SqliteStore

#: Rows per batch sent to PostgreSQL.
BATCH = 5000


@dataclass(frozen=True, slots=True)
class Copied:
    """What was copied: rows per table, in copy order."""

    rows: tuple[tuple[str, int], ...]


def sqlite_path(url: str) -> Path:
    """``sqlite:PATH`` or a plain path."""
    return Path(url.removeprefix("sqlite:")).expanduser()


def pg_value(value: Any, kind: str) -> Any:
    """A SQLite (or JSON) value as the PostgreSQL column type ``kind`` wants it."""
    if value is None:
        return None
    if kind == "boolean":
        return bool(value)
    if kind in ("integer", "bigint", "smallint"):
        return int(value)
    if kind in ("double precision", "real", "numeric"):
        return float(value)
    return value


async def copy_sqlite_to_postgres(
    source: str, target: str, progress: Callable[[str, int], None] | None = None
) -> Copied:
    """Copy the SQLite database ``source`` (``sqlite:PATH`` or a path) into the PostgreSQL
    database ``target``, which must hold no table yet (its schema is created if needed).

    Raises :class:`StoreError` with a clear message (nothing written) if the source is missing
    or not a game database, or the target already holds games.
    """
    path = sqlite_path(source)
    if not path.is_file():
        raise StoreError(f"{path}: no such file")
    try:
        SqliteStore(path).close_now()  # brings an older file to the current schema
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except (sqlite3.Error, RuntimeError) as exc:
        raise StoreError(f"{path}: not an oriflamme game database ({exc})") from None
    store = await PostgresStore.open(target)
    copied: list[tuple[str, int]] = []
    try:
        async with store.connection() as pg, pg.transaction():
            if await pg.fetchval("SELECT EXISTS (SELECT 1 FROM tables)"):
                raise StoreError("the target database already holds games: copy into an empty one")
            for name in _copy_order(db):
                columns = [row[1] for row in db.execute(f'PRAGMA table_info("{name}")')]
                kinds = dict(
                    await pg.fetch(
                        "SELECT column_name, data_type FROM information_schema.columns"
                        " WHERE table_schema = current_schema() AND table_name = $1",
                        name,
                    )
                )
                if not kinds:
                    continue  # a table this server version does not keep in PostgreSQL
                missing = [c for c in columns if c not in kinds]
                if missing:
                    raise StoreError(f"{name}: column {missing[0]} has no place in the target")
                count = 0
                cursor = db.execute(f'SELECT {", ".join(columns)} FROM "{name}"')
                while rows := cursor.fetchmany(BATCH):
                    records = [
                        tuple(pg_value(v, kinds[c]) for v, c in zip(row, columns, strict=True))
                        for row in rows
                    ]
                    await pg.copy_records_to_table(name, records=records, columns=columns)
                    count += len(records)
                    if progress is not None:
                        progress(name, count)
                copied.append((name, count))
    except asyncpg.PostgresError as exc:
        raise StoreError(f"the copy failed, nothing was written: {exc}") from None
    finally:
        db.close()
        await store.close()
    return Copied(tuple(copied))


def _copy_order(db: sqlite3.Connection) -> list[str]:
    """The source's tables, each after the tables its foreign keys name."""
    names = [
        row[0]
        for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
    ]
    parents = {
        name: {row[2] for row in db.execute(f'PRAGMA foreign_key_list("{name}")')} - {name}
        for name in names
    }
    order: list[str] = []
    while len(order) < len(names):
        ready = [n for n in names if n not in order and parents[n] <= set(order)]
        if not ready:  # a cycle: keep the remaining order (cannot happen with our schema)
            ready = [n for n in names if n not in order]
        order.extend(ready)
    return order
