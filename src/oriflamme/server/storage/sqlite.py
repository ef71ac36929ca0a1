"""The SQLite :class:`~.base.Store`: one file, WAL journal, one writer thread (group commit)."""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .base import GameRecord, SeatRecord, StoreConflict, TableRecord

SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    lang TEXT NOT NULL,
    creator_hash TEXT NOT NULL,
    spectator_hash TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT NOT NULL,
    level TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL REFERENCES tables(id),
    number INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    start TEXT,
    PRIMARY KEY (table_id, number)
);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    game INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (table_id, game, idx),
    FOREIGN KEY (table_id, game) REFERENCES games(table_id, number)
);
"""

#: Version 1 had no starting positions: every game was dealt from its seed.
_MIGRATE_FROM_1 = "ALTER TABLE games ADD COLUMN start TEXT"

Statement = tuple[str, tuple[Any, ...]]


@dataclass
class _Write:
    """Statements to run in one transaction, and the future that reports the outcome."""

    statements: Sequence[Statement]
    done: Future[None] = field(default_factory=Future)


class SqliteStore:
    """:class:`Store` in one SQLite file (WAL journal, ``synchronous=FULL``); thread-safe.

    One writer thread commits every write queued so far in one transaction (group commit: under
    load many actions share one disk sync), each in its own savepoint so that a conflict fails
    only its own write. Reads use a second connection.
    """

    def __init__(self, path: str | Path) -> None:
        memory = str(path) == ":memory:"
        if not memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = self._connect(path)
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, 1, SCHEMA_VERSION):
            raise RuntimeError(f"{path}: unknown storage version {version}")
        if version == 1:
            self._db.execute(_MIGRATE_FROM_1)
        self._db.executescript(_SCHEMA)
        self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        self._write_lock = threading.Lock()
        # An in-memory database has one connection: reads then share the writer's lock.
        self._reader = self._db if memory else self._connect(path)
        self._read_lock = self._write_lock if memory else threading.Lock()
        self._queue: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._writer = threading.Thread(target=self._write_loop, name="sqlite-writer", daemon=True)
        self._writer.start()

    @staticmethod
    def _connect(path: str | Path) -> sqlite3.Connection:
        db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=FULL")
        db.execute("PRAGMA foreign_keys=ON")
        db.execute("PRAGMA busy_timeout=5000")
        return db

    # -- writing ---------------------------------------------------------------------------
    def _submit(self, statements: Sequence[Statement]) -> Future[None]:
        write = _Write(statements)
        self._queue.put(write)
        return write.done

    def _write_loop(self) -> None:
        """Commit the queued writes, as many at a time as are waiting."""
        while True:
            first = self._queue.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while not self._queue.empty():
                write = self._queue.get()
                if write is None:
                    stop = True
                    break
                batch.append(write)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: Sequence[_Write]) -> None:
        failed: dict[int, BaseException] = {}
        with self._write_lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                for i, write in enumerate(batch):
                    self._db.execute("SAVEPOINT one_write")
                    try:
                        for sql, params in write.statements:
                            self._db.execute(sql, params)
                    except sqlite3.Error as exc:
                        self._db.execute("ROLLBACK TO one_write")
                        conflict = isinstance(exc, sqlite3.IntegrityError)
                        failed[i] = StoreConflict(str(exc)) if conflict else exc
                    self._db.execute("RELEASE one_write")
                self._db.execute("COMMIT")
            except Exception as exc:  # the transaction failed: nothing of the batch is stored
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                for write in batch:
                    write.done.set_exception(exc)
                return
        for i, write in enumerate(batch):
            if i in failed:
                write.done.set_exception(failed[i])
            else:
                write.done.set_result(None)

    def create_table(
        self,
        table: TableRecord,
        seed: int,
        start: Mapping[str, Any] | None = None,
        actions: Sequence[Mapping[str, Any]] = (),
    ) -> Future[None]:
        statements: list[Statement] = [
            (
                "INSERT INTO tables (id, config, lang, creator_hash, spectator_hash, created)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (
                    table.table_id,
                    json.dumps(table.config),
                    table.lang,
                    table.creator_hash,
                    table.spectator_hash,
                    time.time(),
                ),
            ),
            (
                "INSERT INTO games (table_id, number, seed, start) VALUES (?, 1, ?, ?)",
                (table.table_id, seed, None if start is None else json.dumps(start)),
            ),
        ]
        statements += [_seat_insert(table.table_id, seat) for seat in table.seats]
        statements += [_action_insert(table.table_id, 1, i, a) for i, a in enumerate(actions)]
        return self._submit(statements)

    def append_action(
        self, table_id: str, game: int, index: int, action: Mapping[str, Any], finished: bool
    ) -> Future[None]:
        statements = [_action_insert(table_id, game, index, action)]
        if finished:
            statements.append(
                (
                    "UPDATE games SET finished = 1 WHERE table_id = ? AND number = ?",
                    (table_id, game),
                )
            )
        return self._submit(statements)

    def new_game(self, table_id: str, game: int, seed: int) -> Future[None]:
        return self._submit(
            [
                (
                    "INSERT INTO games (table_id, number, seed) VALUES (?, ?, ?)",
                    (table_id, game, seed),
                )
            ]
        )

    def set_seat(self, table_id: str, seat: SeatRecord) -> Future[None]:
        return self._submit(
            [
                ("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat.seat)),
                _seat_insert(table_id, seat),
            ]
        )

    # -- reading ---------------------------------------------------------------------------
    def load_table(self, table_id: str) -> tuple[TableRecord, GameRecord] | None:
        with self._read_lock:
            db = self._reader
            row = db.execute(
                "SELECT config, lang, creator_hash, spectator_hash FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            seats = db.execute(
                "SELECT seat, kind, name, level, token_hash FROM seats WHERE table_id = ?"
                " ORDER BY seat",
                (table_id,),
            ).fetchall()
            number, seed, start = db.execute(
                "SELECT number, seed, start FROM games WHERE table_id = ?"
                " ORDER BY number DESC LIMIT 1",
                (table_id,),
            ).fetchone()
            actions = db.execute(
                "SELECT action FROM actions WHERE table_id = ? AND game = ? ORDER BY idx",
                (table_id, number),
            ).fetchall()
        table = TableRecord(
            table_id=table_id,
            config=json.loads(row[0]),
            lang=row[1],
            creator_hash=row[2],
            spectator_hash=row[3],
            seats=tuple(SeatRecord(*seat) for seat in seats),
        )
        game = GameRecord(
            number,
            seed,
            tuple(json.loads(a[0]) for a in actions),
            None if start is None else json.loads(start),
        )
        return table, game

    def unfinished_tables(self) -> list[str]:
        with self._read_lock:
            rows = self._reader.execute(
                "SELECT g.table_id FROM games g WHERE g.finished = 0 AND g.number ="
                " (SELECT MAX(number) FROM games WHERE table_id = g.table_id)"
            ).fetchall()
        return [r[0] for r in rows]

    def close(self) -> None:
        """Commit what is queued, then close the connections."""
        if self._writer.is_alive():
            self._queue.put(None)
            self._writer.join()
        if self._reader is not self._db:
            with self._read_lock:
                self._reader.close()
        with self._write_lock:
            self._db.close()


def _seat_insert(table_id: str, seat: SeatRecord) -> Statement:
    return (
        "INSERT INTO seats (table_id, seat, kind, name, level, token_hash)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, seat.seat, seat.kind, seat.name, seat.level, seat.token_hash),
    )


def _action_insert(table_id: str, game: int, index: int, action: Mapping[str, Any]) -> Statement:
    return (
        "INSERT INTO actions (table_id, game, idx, action) VALUES (?, ?, ?, ?)",
        (table_id, game, index, json.dumps(action)),
    )
