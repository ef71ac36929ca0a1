"""Storage of tables and games: a small interface and its SQLite implementation.

A game is stored as the table's configuration, the game's seed and its accepted actions, in
order; that determines it completely (``Game.from_replay``). Every write is committed (and
synced to disk) before the call returns, so an action acknowledged to anyone survives a crash.
Tokens are stored only as SHA-256 digests.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

SCHEMA_VERSION = 1

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


class StoreConflict(RuntimeError):
    """A write that contradicts what is stored (e.g. a second action at the same index)."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: int
    kind: str  #: "human" or "bot"
    name: str
    level: str | None
    token_hash: str | None


@dataclass(frozen=True, slots=True)
class TableRecord:
    table_id: str
    config: Mapping[str, Any]  #: ``GameConfig.to_dict()``
    lang: str
    creator_hash: str
    spectator_hash: str
    seats: tuple[SeatRecord, ...]


@dataclass(frozen=True, slots=True)
class GameRecord:
    number: int
    seed: int
    actions: tuple[Mapping[str, Any], ...]  #: action JSON, in order


class Store(Protocol):
    """What the server needs from storage (a PostgreSQL backend would implement the same).

    Every method is blocking; the server calls them from a worker thread.
    """

    def create_table(self, table: TableRecord, seed: int) -> None:
        """Store a new table and its first game (number 1)."""
        ...

    def load_table(self, table_id: str) -> tuple[TableRecord, GameRecord] | None:
        """The table and its latest game, or None."""
        ...

    def unfinished_tables(self) -> list[str]:
        """Ids of the tables whose latest game is not over."""
        ...

    def append_action(
        self, table_id: str, game: int, index: int, action: Mapping[str, Any], finished: bool
    ) -> None:
        """Record action number ``index`` of a game; raises :class:`StoreConflict` if taken."""
        ...

    def new_game(self, table_id: str, game: int, seed: int) -> None:
        """Start game number ``game`` at a table."""
        ...

    def set_seat(self, table_id: str, seat: SeatRecord) -> None:
        """Replace a seat (a human seat handed to a bot)."""
        ...

    def close(self) -> None: ...


class SqliteStore:
    """:class:`Store` in one SQLite file (WAL journal, ``synchronous=FULL``); thread-safe."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        version = self._db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise RuntimeError(f"{path}: unknown storage version {version}")
        with self._lock:
            self._db.executescript(_SCHEMA)
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _write(self, statements: Sequence[tuple[str, tuple[Any, ...]]]) -> None:
        """Run the statements in one transaction, committed before returning."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    self._db.execute(sql, params)
            except sqlite3.IntegrityError as exc:
                self._db.execute("ROLLBACK")
                raise StoreConflict(str(exc)) from None
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def create_table(self, table: TableRecord, seed: int) -> None:
        statements: list[tuple[str, tuple[Any, ...]]] = [
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
            ("INSERT INTO games (table_id, number, seed) VALUES (?, 1, ?)", (table.table_id, seed)),
        ]
        statements += [_seat_insert(table.table_id, seat) for seat in table.seats]
        self._write(statements)

    def load_table(self, table_id: str) -> tuple[TableRecord, GameRecord] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT config, lang, creator_hash, spectator_hash FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
            if row is None:
                return None
            seats = self._db.execute(
                "SELECT seat, kind, name, level, token_hash FROM seats WHERE table_id = ?"
                " ORDER BY seat",
                (table_id,),
            ).fetchall()
            number, seed = self._db.execute(
                "SELECT number, seed FROM games WHERE table_id = ? ORDER BY number DESC LIMIT 1",
                (table_id,),
            ).fetchone()
            actions = self._db.execute(
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
        game = GameRecord(number, seed, tuple(json.loads(a[0]) for a in actions))
        return table, game

    def unfinished_tables(self) -> list[str]:
        with self._lock:
            rows = self._db.execute(
                "SELECT g.table_id FROM games g WHERE g.finished = 0 AND g.number ="
                " (SELECT MAX(number) FROM games WHERE table_id = g.table_id)"
            ).fetchall()
        return [r[0] for r in rows]

    def append_action(
        self, table_id: str, game: int, index: int, action: Mapping[str, Any], finished: bool
    ) -> None:
        statements: list[tuple[str, tuple[Any, ...]]] = [
            (
                "INSERT INTO actions (table_id, game, idx, action) VALUES (?, ?, ?, ?)",
                (table_id, game, index, json.dumps(action)),
            )
        ]
        if finished:
            statements.append(
                (
                    "UPDATE games SET finished = 1 WHERE table_id = ? AND number = ?",
                    (table_id, game),
                )
            )
        self._write(statements)

    def new_game(self, table_id: str, game: int, seed: int) -> None:
        self._write(
            [
                (
                    "INSERT INTO games (table_id, number, seed) VALUES (?, ?, ?)",
                    (table_id, game, seed),
                )
            ]
        )

    def set_seat(self, table_id: str, seat: SeatRecord) -> None:
        self._write(
            [
                ("DELETE FROM seats WHERE table_id = ? AND seat = ?", (table_id, seat.seat)),
                _seat_insert(table_id, seat),
            ]
        )

    def close(self) -> None:
        with self._lock:
            self._db.close()


def _seat_insert(table_id: str, seat: SeatRecord) -> tuple[str, tuple[Any, ...]]:
    return (
        "INSERT INTO seats (table_id, seat, kind, name, level, token_hash)"
        " VALUES (?, ?, ?, ?, ?, ?)",
        (table_id, seat.seat, seat.kind, seat.name, seat.level, seat.token_hash),
    )
