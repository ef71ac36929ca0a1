"""The SQLite store: group commits, a conflict fails only its own write, older files open."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path

import pytest

from oriflamme.server.storage import (
    GameRecord,
    SeatRecord,
    SqliteStore,
    StoreConflict,
    TableRecord,
)
from oriflamme.server.storage.sqlite import _Write

SEATS = (
    SeatRecord(0, "human", "Ann", None, "a" * 64),
    SeatRecord(1, "bot", "Blue bot", "easy", None),
)


def table(number: int) -> TableRecord:
    return TableRecord(f"t{number}", {"players": 2}, "en", "c" * 64, "s" * 64, SEATS)


def action(card: int) -> dict[str, object]:
    return {"kind": "place", "card": card, "to": "end"}


class CountingStore(SqliteStore):
    """Records the size of each transaction."""

    def __init__(self, path: Path) -> None:
        self.batches: list[int] = []
        super().__init__(path)

    def _commit(self, batch: Sequence[_Write]) -> None:
        self.batches.append(len(batch))
        super()._commit(batch)


def test_writes_waiting_together_share_one_transaction(tmp_path: Path) -> None:
    store = CountingStore(tmp_path / "db.sqlite3")
    for i in range(40):
        store.create_table(table(i), seed=i).result(timeout=10)
    store.batches.clear()
    pending = [store.append_action(f"t{i}", 1, 0, action(i), finished=False) for i in range(40)]
    for future in pending:
        assert future.result(timeout=10) is None
    assert sum(store.batches) == 40 and len(store.batches) < 40, store.batches
    store.close()
    reopened = SqliteStore(tmp_path / "db.sqlite3")
    for i in range(40):
        loaded = reopened.load_table(f"t{i}")
        assert loaded is not None and loaded[1] == GameRecord(1, i, (action(i),))
    reopened.close()


def test_a_conflict_fails_only_its_own_write(tmp_path: Path) -> None:
    store = CountingStore(tmp_path / "db.sqlite3")
    for i in range(2):
        store.create_table(table(i), seed=i).result(timeout=10)
    # Hold the writer back so that the three writes wait, then go in one transaction.
    gate: Future[None] = Future()
    store._queue.put(_Write([], gate))
    with store._write_lock:
        first = store.append_action("t0", 1, 0, action(1), finished=False)
        second = store.append_action("t0", 1, 0, action(2), finished=False)
        other = store.append_action("t1", 1, 0, action(3), finished=True)
    for future in (gate, first, other):
        assert future.result(timeout=10) is None
    with pytest.raises(StoreConflict):
        second.result(timeout=10)
    assert store.batches[-1] >= 3  # the three writes went in one transaction
    loaded = store.load_table("t0")
    assert loaded is not None and loaded[1].actions == (action(1),)
    assert store.unfinished_tables() == ["t0"]
    store.close()


def test_a_game_continued_from_a_position_keeps_its_start(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "db.sqlite3")
    start = {"format": "oriflamme-save", "version": 1, "position": {"round": 2}, "history": None}
    store.create_table(table(0), seed=7, start=start, actions=[action(4)]).result(timeout=10)
    loaded = store.load_table("t0")
    assert loaded is not None
    assert loaded[1] == GameRecord(1, 7, (action(4),), start)
    store.new_game("t0", 2, 8).result(timeout=10)
    loaded = store.load_table("t0")
    assert loaded is not None and loaded[1] == GameRecord(2, 8, ())
    store.close()


def test_a_file_of_the_first_version_opens(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    old.executescript(
        """
        CREATE TABLE tables (id TEXT PRIMARY KEY, config TEXT NOT NULL, lang TEXT NOT NULL,
            creator_hash TEXT NOT NULL, spectator_hash TEXT NOT NULL, created REAL NOT NULL);
        CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, kind TEXT NOT NULL,
            name TEXT NOT NULL, level TEXT, token_hash TEXT, PRIMARY KEY (table_id, seat));
        CREATE TABLE games (table_id TEXT NOT NULL, number INTEGER NOT NULL,
            seed INTEGER NOT NULL, finished INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (table_id, number));
        CREATE TABLE actions (table_id TEXT NOT NULL, game INTEGER NOT NULL,
            idx INTEGER NOT NULL, action TEXT NOT NULL, PRIMARY KEY (table_id, game, idx));
        INSERT INTO tables VALUES ('old', '{"players": 2}', 'fr', 'c', 's', 0);
        INSERT INTO seats VALUES ('old', 0, 'human', 'Ann', NULL, 'h');
        INSERT INTO seats VALUES ('old', 1, 'bot', 'Bot (easy)', 'easy', NULL);
        INSERT INTO games VALUES ('old', 1, 42, 0);
        INSERT INTO actions VALUES ('old', 1, 0, '{"kind": "place", "card": 3, "to": "end"}');
        PRAGMA user_version = 1;
        """
    )
    old.close()
    store = SqliteStore(path)
    loaded = store.load_table("old")
    assert loaded is not None
    assert loaded[0].lang == "fr" and loaded[0].seats[1].name == "Bot (easy)"
    assert loaded[1] == GameRecord(1, 42, (action(3),))
    store.close()
    with pytest.raises(RuntimeError, match="unknown storage version"):
        bad = sqlite3.connect(path)
        bad.execute("PRAGMA user_version = 9")
        bad.close()
        SqliteStore(path)
