"""Backups of a game database (``oriflamme db backup`` / ``restore``; docs/server.md, "Backups").

A backup is one consistent snapshot of every stored table, game, action, account and rating,
whichever database it comes from: SQLite's online backup API copies the file while a server
keeps writing to it; PostgreSQL's rows are read in one repeatable-read, read-only transaction.
It is written as gzip-compressed JSON lines:

1. a header: ``{"format": "oriflamme-backup", "version": 1, "schema": 9, "created": …,
   "source": "sqlite" | "postgresql"}``;
2. for each table, in an order where every row comes after the rows it refers to:
   ``{"table": name, "columns": [...]}``, then one JSON array per row;
3. a last line ``{"complete": {table: rows, …}}``: a file cut short is refused.

The file (and the partial file it is written as) is its owner's alone (mode 0600): it holds
password hashes, session digests and the push service's private key.

A restore goes into an empty database of the same storage version (its schema is created),
in one transaction: everything or, on any error, nothing. What a running server keeps only
while it runs (its heartbeat, its connections, its periodic jobs' claims, sign-in attempts,
passkey ceremonies under way) is not backed up.
"""

from __future__ import annotations

import gzip
import json
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Protocol

from . import is_postgres_url
from .base import StoreError
from .copy import pg_value, sqlite_path
from .sqlite import SqliteStore
from .sqlite_schema import SCHEMA_VERSION

FORMAT, FORMAT_VERSION = "oriflamme-backup", 1
#: Tables of a running server's own state, not of the games: not backed up.
RUNTIME_TABLES = frozenset({"servers", "presence", "jobs", "challenges", "sign_in_failures"})
#: A backup file's mode: its owner's alone (it holds password hashes and private keys).
PRIVATE_MODE = 0o600
#: Rows read or written at a time.
BATCH = 2000

Progress = Callable[[str, int], None]


class Sink(Protocol):
    """Where a backup is written (a gzip file)."""

    def write(self, data: bytes, /) -> int: ...


@dataclass(frozen=True, slots=True)
class Summary:
    """What a backup or restore held: rows per table, in order, and the storage version."""

    rows: tuple[tuple[str, int], ...]
    schema: int


def _order(names: list[str], parents: dict[str, set[str]]) -> list[str]:
    """``names``, each after the tables its foreign keys name."""
    order: list[str] = []
    while len(order) < len(names):
        ready = [n for n in names if n not in order and parents[n] & set(names) <= set(order)]
        order.extend(ready or [n for n in names if n not in order])
    return order


# -- writing --------------------------------------------------------------------------------


class _Writer:
    def __init__(self, out: Sink, source: str, schema: int) -> None:
        self._out = out
        self._counts: dict[str, int] = {}
        self._line({"format": FORMAT, "version": FORMAT_VERSION, "schema": schema,
                    "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                    "source": source})

    def _line(self, value: Any) -> None:
        self._out.write(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())
        self._out.write(b"\n")

    def table(self, name: str, columns: list[str]) -> None:
        self._counts[name] = 0
        self._line({"table": name, "columns": columns})

    def rows(self, name: str, rows: list[tuple[Any, ...]]) -> int:
        for row in rows:
            self._line(list(row))
        self._counts[name] += len(rows)
        return self._counts[name]

    def finish(self) -> tuple[tuple[str, int], ...]:
        self._line({"complete": self._counts})
        return tuple(self._counts.items())


def _sqlite_tables(db: sqlite3.Connection) -> list[str]:
    names = [
        row[0] for row in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " ORDER BY name"
        )
        if row[0] not in RUNTIME_TABLES
    ]
    parents = {
        name: {row[2] for row in db.execute(f'PRAGMA foreign_key_list("{name}")')} - {name}
        for name in names
    }
    return _order(names, parents)


def _backup_sqlite(url: str, out: Sink, progress: Progress | None) -> Summary:
    path = sqlite_path(url)
    if not path.is_file():
        raise StoreError(f"{path}: no such file")
    try:
        SqliteStore(path).close_now()  # an older file is brought to the current schema first
        source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except (sqlite3.Error, RuntimeError) as exc:
        raise StoreError(f"{path}: not an oriflamme game database ({exc})") from None
    with tempfile.TemporaryDirectory(prefix="oriflamme-backup-") as folder:
        snapshot = sqlite3.connect(Path(folder) / "snapshot.sqlite3")
        try:
            source.backup(snapshot)  # the online backup API: a consistent copy of the file
            source.close()
            schema = snapshot.execute("PRAGMA user_version").fetchone()[0]
            writer = _Writer(out, "sqlite", schema)
            for name in _sqlite_tables(snapshot):
                columns = [row[1] for row in snapshot.execute(f'PRAGMA table_info("{name}")')]
                writer.table(name, columns)
                cursor = snapshot.execute(f'SELECT {", ".join(columns)} FROM "{name}"')
                while batch := cursor.fetchmany(BATCH):
                    count = writer.rows(name, batch)
                    if progress is not None:
                        progress(name, count)
            return Summary(writer.finish(), schema)
        finally:
            snapshot.close()


async def _pg_tables(pg: Any) -> list[str]:
    names = [
        row["table_name"] for row in await pg.fetch(
            "SELECT table_name FROM information_schema.tables WHERE table_schema ="
            " current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name"
        )
        if row["table_name"] not in RUNTIME_TABLES | {"oriflamme_meta"}
    ]
    links = await pg.fetch(
        "SELECT tc.table_name AS child, ccu.table_name AS parent"
        " FROM information_schema.table_constraints tc"
        " JOIN information_schema.constraint_column_usage ccu"
        " ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema"
        " WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema()"
    )
    parents: dict[str, set[str]] = {name: set() for name in names}
    for link in links:
        if link["child"] in parents and link["child"] != link["parent"]:
            parents[link["child"]].add(link["parent"])
    return _order(names, parents)


async def _pg_columns(pg: Any, name: str) -> dict[str, str]:
    rows = await pg.fetch(
        "SELECT column_name, data_type FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
        name,
    )
    return {row["column_name"]: row["data_type"] for row in rows}


async def _backup_postgres(url: str, out: Sink, progress: Progress | None) -> Summary:
    from .postgres import PostgresStore

    store = await PostgresStore.open(url)  # an older schema is upgraded first
    try:
        async with store.connection() as pg, pg.transaction(
            isolation="repeatable_read", readonly=True
        ):
            schema = int(await pg.fetchval(
                "SELECT value FROM oriflamme_meta WHERE key = 'schema_version'"
            ))
            writer = _Writer(out, "postgresql", schema)
            for name in await _pg_tables(pg):
                columns = list(await _pg_columns(pg, name))
                writer.table(name, columns)
                quoted = ", ".join(f'"{c}"' for c in columns)
                batch: list[tuple[Any, ...]] = []
                async for record in pg.cursor(f'SELECT {quoted} FROM "{name}"', prefetch=BATCH):
                    batch.append(tuple(record))
                    if len(batch) == BATCH:
                        count = writer.rows(name, batch)
                        batch = []
                        if progress is not None:
                            progress(name, count)
                count = writer.rows(name, batch)
                if progress is not None:
                    progress(name, count)
            return Summary(writer.finish(), schema)
    finally:
        await store.close()


def _private(path: Path) -> BinaryIO:
    """``path`` opened for writing, readable by its owner only (0600, whatever the umask): a
    backup holds password hashes, session digests and the push service's private key."""
    path.unlink(missing_ok=True)  # a partial file left behind keeps its own mode otherwise
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE)
    try:
        os.fchmod(fd, PRIVATE_MODE)  # os.open's mode is filtered by the umask
        return os.fdopen(fd, "wb")
    except BaseException:
        os.close(fd)
        raise


async def backup(url: str, file: str | Path, progress: Progress | None = None) -> Summary:
    """Write a backup of the database ``url`` (``postgresql://…``, or an SQLite file) to
    ``file`` (replaced only once the backup is whole; readable by its owner only, mode 0600);
    :class:`StoreError` with a clear message if it cannot be read."""
    target = Path(file)
    partial = target.with_name(target.name + ".partial")
    try:
        try:
            raw = _private(partial)
        except OSError as exc:  # no such folder, not allowed to write there
            raise StoreError(f"{target}: cannot write the backup ({exc.strerror})") from None
        with raw, gzip.GzipFile(fileobj=raw, mode="wb") as out:
            if is_postgres_url(url):
                summary = await _backup_postgres(url, out, progress)
            else:
                summary = _backup_sqlite(url, out, progress)
        try:
            partial.replace(target)  # the file keeps the partial file's mode
        except OSError as exc:  # FILE is a folder, say
            raise StoreError(f"{target}: cannot write the backup ({exc.strerror})") from None
    finally:
        partial.unlink(missing_ok=True)
    return summary


# -- reading ----------------------------------------------------------------------------------


@dataclass(slots=True)
class _Section:
    table: str
    columns: list[str]
    rows: list[list[Any]]


def _sections(file: Path) -> tuple[dict[str, Any], list[_Section]]:
    """The header and the tables of a backup, checked whole; :class:`StoreError` if it is not a
    backup, is cut short or was made by a newer version."""
    try:
        with gzip.open(file, "rt", encoding="utf-8") as lines:
            header = json.loads(next(lines, "null"))
            if not isinstance(header, dict) or header.get("format") != FORMAT:
                raise StoreError(f"{file}: not an oriflamme backup")
            if header.get("version") != FORMAT_VERSION:
                raise StoreError(
                    f"{file}: backup format {header.get('version')} is not this version's"
                    f" ({FORMAT_VERSION}): use the oriflamme that made it"
                )
            sections: list[_Section] = []
            complete: dict[str, int] | None = None
            for line in lines:
                value = json.loads(line)
                if isinstance(value, list):
                    if not sections or len(value) != len(sections[-1].columns):
                        raise StoreError(f"{file}: a row does not fit its table")
                    sections[-1].rows.append(value)
                elif isinstance(value, dict) and "table" in value:
                    sections.append(_Section(str(value["table"]), list(value["columns"]), []))
                elif isinstance(value, dict) and "complete" in value:
                    complete = value["complete"]
                    break
                else:
                    raise StoreError(f"{file}: an unexpected line")
    except (OSError, EOFError, ValueError, KeyError, TypeError) as exc:
        raise StoreError(f"{file}: not a readable oriflamme backup ({exc})") from None
    if complete != {s.table: len(s.rows) for s in sections}:
        raise StoreError(f"{file}: the backup is cut short (made while the disk was full?)")
    return header, sections


def _sqlite_value(value: Any) -> Any:
    return int(value) if isinstance(value, bool) else value


def _restore_sqlite(url: str, sections: list[_Section], progress: Progress | None) -> None:
    path = sqlite_path(url)
    existed = path.exists()
    try:
        SqliteStore(path).close_now()  # the current schema, created if the file is new
    except (sqlite3.Error, RuntimeError, OSError) as exc:
        raise StoreError(f"{path}: cannot open it as a game database ({exc})") from None
    db = sqlite3.connect(path, isolation_level=None)
    restored = False
    try:
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("BEGIN IMMEDIATE")
        _refuse_non_empty(
            [db.execute(f'SELECT EXISTS (SELECT 1 FROM "{t}")').fetchone()[0]
             for t in _sqlite_tables(db)]
        )
        for section in sections:
            columns = {row[1] for row in db.execute(f'PRAGMA table_info("{section.table}")')}
            _check_columns(section, columns)
            marks = ", ".join("?" for _ in section.columns)
            names = ", ".join(f'"{c}"' for c in section.columns)
            for start in range(0, len(section.rows), BATCH):
                db.executemany(
                    f'INSERT INTO "{section.table}" ({names}) VALUES ({marks})',
                    [[_sqlite_value(v) for v in row]
                     for row in section.rows[start:start + BATCH]],
                )
                if progress is not None:
                    progress(section.table, min(start + BATCH, len(section.rows)))
        db.execute("COMMIT")
        restored = True
    except sqlite3.Error as exc:
        raise StoreError(f"the restore failed, nothing was written: {exc}") from None
    finally:
        if not restored and db.in_transaction:
            db.execute("ROLLBACK")
        db.close()
        if not restored and not existed:
            for suffix in ("", "-wal", "-shm"):
                Path(f"{path}{suffix}").unlink(missing_ok=True)


def _refuse_non_empty(found: list[Any]) -> None:
    if any(found):
        raise StoreError("the target database already holds data: restore into an empty one")


def _check_columns(section: _Section, columns: set[str] | dict[str, str]) -> None:
    if not columns:
        raise StoreError(f"the backup's table {section.table} has no place in this version")
    missing = [c for c in section.columns if c not in columns]
    if missing:
        raise StoreError(f"{section.table}: column {missing[0]} has no place in the target")


async def _restore_postgres(url: str, sections: list[_Section], progress: Progress | None) -> None:
    import asyncpg

    from .postgres import PostgresStore

    store = await PostgresStore.open(url)
    try:
        async with store.connection() as pg, pg.transaction():
            names = await _pg_tables(pg)
            _refuse_non_empty(
                [await pg.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{t}")') for t in names]
            )
            for section in sections:
                kinds = await _pg_columns(pg, section.table)
                _check_columns(section, kinds)
                for start in range(0, len(section.rows), BATCH):
                    records = [
                        tuple(pg_value(v, kinds[c]) for v, c in zip(row, section.columns,
                                                                     strict=True))
                        for row in section.rows[start:start + BATCH]
                    ]
                    await pg.copy_records_to_table(
                        section.table, records=records, columns=section.columns
                    )
                    if progress is not None:
                        progress(section.table, start + len(records))
    except asyncpg.PostgresError as exc:
        raise StoreError(f"the restore failed, nothing was written: {exc}") from None
    finally:
        await store.close()


async def restore(file: str | Path, url: str, progress: Progress | None = None) -> Summary:
    """Restore the backup ``file`` into the empty database ``url`` (its schema created), in one
    transaction; :class:`StoreError` with a clear message (nothing written) if the file is not
    a whole backup of this storage version or the database is not empty."""
    header, sections = _sections(Path(file))
    schema = header.get("schema")
    if schema != SCHEMA_VERSION:
        raise StoreError(
            f"{file}: made with storage version {schema}; this oriflamme restores version"
            f" {SCHEMA_VERSION}: restore it with the version that made it, then upgrade"
        )
    if is_postgres_url(url):
        await _restore_postgres(url, sections, progress)
    else:
        _restore_sqlite(url, sections, progress)
    return Summary(tuple((s.table, len(s.rows)) for s in sections), SCHEMA_VERSION)

