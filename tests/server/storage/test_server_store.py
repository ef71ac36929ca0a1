"""The SQLite store: group commits, a conflict fails only its own write, older files open.

What every store does is tested on both backends in tests/server/storage/test_storage.py."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from oriflamme.server.storage import (
    BotTurn,
    GameRecord,
    SeatRecord,
    SqliteStore,
    StoreConflict,
    StoreError,
    TableRecord,
    Turn,
)
from oriflamme.server.storage.sqlite import _Write

SEATS = (
    SeatRecord(0, "human", "Ann", None, "a" * 64),
    SeatRecord(1, "bot", "Blue bot", "easy", None),
)


TURN, OVER = Turn(1, 0, False), Turn(1, None, False)


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
    async def run() -> None:
        store = CountingStore(tmp_path / "db.sqlite3")
        for i in range(40):
            await store.create_table(table(i), i, TURN)
        store.batches.clear()
        await asyncio.gather(
            *(store.append_action(f"t{i}", 1, 0, action(i), TURN) for i in range(40))
        )
        assert sum(store.batches) == 40 and len(store.batches) < 40, store.batches
        await store.close()
        reopened = SqliteStore(tmp_path / "db.sqlite3")
        for i in range(40):
            loaded = await reopened.load_table(f"t{i}")
            assert loaded is not None and loaded[1] == GameRecord(
                1, i, (action(i),), sources=(None,)
            )
        await reopened.close()

    asyncio.run(run())


def test_a_conflict_fails_only_its_own_write(tmp_path: Path) -> None:
    async def run() -> None:
        store = CountingStore(tmp_path / "db.sqlite3")
        for i in range(2):
            await store.create_table(table(i), i, TURN)
        # Hold the writer back so that the three writes wait, then go in one transaction.
        gate: Future[list[Any]] = Future()
        store._queue.put(_Write([], gate))
        with store._write_lock:
            first = store.append_action("t0", 1, 0, action(1), TURN)
            second = store.append_action("t0", 1, 0, action(2), TURN)
            other = store.append_action("t1", 1, 0, action(3), OVER)
            results = asyncio.gather(first, second, other, return_exceptions=True)
            await asyncio.sleep(0.05)  # the writes are queued behind the gate
        assert gate.result(timeout=10) == []
        done = await results
        assert done[0] is None and done[2] is None and isinstance(done[1], StoreConflict)
        assert store.batches[-1] >= 3  # the three writes went in one transaction
        loaded = await store.load_table("t0")
        assert loaded is not None and loaded[1].actions == (action(1),)
        assert await store.unfinished_tables() == ["t0"]
        await store.close()

    asyncio.run(run())


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

    async def run() -> None:
        store = SqliteStore(path)
        loaded = await store.load_table("old")
        assert loaded is not None
        assert loaded[0].lang == "fr" and loaded[0].seats[1].name == "Bot (easy)"
        assert loaded[1] == GameRecord(1, 42, (action(3),), sources=(None,))  # by whom: unknown
        # Its turn is unknown: a server claims it to look (and corrects it).
        assert await store.claim_bot_turns("s", 5, ttl=30) == [BotTurn("old", 1, -1)]
        await store.close()

    asyncio.run(run())
    bad = sqlite3.connect(path)
    bad.execute("PRAGMA user_version = 10")
    bad.close()
    with pytest.raises(StoreError, match="newer than this server"):
        SqliteStore(path)


#: Undo version 9 (accounts, rated tables, when games ended): a file of version 8.
TO_VERSION_8 = """
DROP TABLE game_results; DROP TABLE rating_results; DROP TABLE ratings;
DROP TABLE rating_history;
DROP INDEX seats_account;
DROP TABLE chat_mutes; DROP TABLE chat_reports; DROP TABLE chat;
DROP TABLE push_sent; DROP TABLE push_subscriptions; DROP TABLE server_keys;
DROP TABLE sign_in_failures; DROP TABLE challenges; DROP TABLE passkeys; DROP TABLE sessions;
DROP TABLE accounts;
ALTER TABLE tables DROP COLUMN rated; ALTER TABLE tables DROP COLUMN min_reputation;
ALTER TABLE tables DROP COLUMN chat; ALTER TABLE tables DROP COLUMN bank;
ALTER TABLE tables DROP COLUMN increment;
ALTER TABLE seats DROP COLUMN account_id; ALTER TABLE seats DROP COLUMN left_at;
ALTER TABLE seats DROP COLUMN bank_left; ALTER TABLE seats DROP COLUMN ran_out;
ALTER TABLE games DROP COLUMN ended;
PRAGMA user_version = 8;
"""
#: Undo version 8 (who played each action): a file of version 7.
TO_VERSION_7 = TO_VERSION_8 + "ALTER TABLE actions DROP COLUMN source; PRAGMA user_version = 7;"
#: Undo version 7 (who asked for each analysis, when each started): a file of version 6.
TO_VERSION_6 = TO_VERSION_7 + """
DROP INDEX analyses_origin;
ALTER TABLE analyses DROP COLUMN origin; ALTER TABLE analyses DROP COLUMN started;
PRAGMA user_version = 6;
"""
#: Undo version 6 (secret deals, no-show limits, replay tokens, name keys) of an SQLite file.
TO_VERSION_5 = """
ALTER TABLE tables DROP COLUMN no_show_after; ALTER TABLE tables DROP COLUMN replay_key;
ALTER TABLE seats DROP COLUMN arrived; ALTER TABLE seats DROP COLUMN name_key;
ALTER TABLE games DROP COLUMN custom_deal;
PRAGMA user_version = 5;
"""
#: Undo version 5 (open seats, clocks, absent players) too: a file of version 4.
TO_VERSION_4 = """
DROP INDEX games_deadlines; DROP INDEX tables_lobby; DROP INDEX seats_origin;
ALTER TABLE tables DROP COLUMN public; ALTER TABLE tables DROP COLUMN listed;
ALTER TABLE tables DROP COLUMN closed; ALTER TABLE tables DROP COLUMN clock;
ALTER TABLE tables DROP COLUMN absent_after; ALTER TABLE tables DROP COLUMN stand_in;
ALTER TABLE seats DROP COLUMN away_since; ALTER TABLE seats DROP COLUMN origin;
ALTER TABLE seats DROP COLUMN joined; ALTER TABLE games DROP COLUMN turn_deadline;
CREATE INDEX games_bot_turns ON games (turn_since) WHERE turn_bot = 1;
PRAGMA user_version = 4;
"""
#: Undo version 4 (learning tables, analyses) too: a file of version 3.
TO_VERSION_3 = "DROP TABLE analyses; ALTER TABLE tables DROP COLUMN hints; PRAGMA user_version = 3;"


@pytest.mark.parametrize("version", [3, 4, 5, 6])
def test_an_older_file_gains_hints_analyses_open_seats_and_deadlines(
    tmp_path: Path, version: int
) -> None:
    path = tmp_path / f"v{version}.sqlite3"

    async def make() -> None:
        store = SqliteStore(path)
        await store.create_table(
            TableRecord("old", {"players": 2}, "en", "c", "s", SEATS), 5, Turn(0, 0, False)
        )
        # A bot's decision waiting in the old file.
        bots = TableRecord("bots", {"players": 2}, "en", "c", "s", SEATS)
        await store.create_table(bots, 6, Turn(0, 1, True))
        await store.request_analysis("bots", 1)  # asked for before the upgrade
        await store.close()

    asyncio.run(make())
    old = sqlite3.connect(path)
    undo = {6: TO_VERSION_6, 5: TO_VERSION_6 + TO_VERSION_5}
    undo[4] = undo[5] + TO_VERSION_4
    old.executescript(undo.get(version, undo[4] + TO_VERSION_3))
    assert old.execute("PRAGMA user_version").fetchone()[0] == version
    old.close()

    async def run() -> None:
        store = SqliteStore(path)
        loaded = await store.load_table("old")
        assert loaded is not None and loaded[0].hints is False
        assert not loaded[0].public and loaded[0].clock is None and loaded[0].stand_in == "medium"
        assert (await store.request_analysis("old", 1, origin="x")).status == "queued"
        # The old bot decision is claimable at once (its deadline: when its turn began).
        assert await store.claim_bot_turns("s", 5, ttl=30) == [BotTurn("bots", 1, 0)]
        # An analysis asked for before the upgrade (from no known address) keeps its turn.
        first = await store.claim_analysis("s", 60)
        assert first is not None and first.table_id == ("bots" if version > 3 else "old")
        await store.close()

    asyncio.run(run())
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 9


def test_a_file_of_version_7_gains_who_played_each_action(tmp_path: Path) -> None:
    """#26: the step 7 -> 8: the actions stored before it keep an unknown source, the new ones
    say who played them."""
    path = tmp_path / "v7.sqlite3"

    async def make() -> None:
        store = SqliteStore(path)
        await store.create_table(table(0), 5, TURN)
        await store.append_action("t0", 1, 0, action(1), TURN)
        await store.close()

    asyncio.run(make())
    old = sqlite3.connect(path)
    old.executescript(TO_VERSION_7)
    old.close()

    async def run() -> None:
        store = SqliteStore(path)
        await store.append_action("t0", 1, 1, action(2), TURN, source="stand_in:away")
        loaded = await store.load_table("t0")
        assert loaded is not None and loaded[1].sources == (None, "stand_in:away")
        assert await store.load_sources("t0", 1, 0) == [None, "stand_in:away"]
        await store.close()

    asyncio.run(run())
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 9


def test_a_file_of_version_8_gains_accounts_and_rated_tables(tmp_path: Path) -> None:
    """#28: the step 8 -> 9: old seats belong to no account, old tables are not rated, and a
    game that ends after the upgrade records when."""
    path = tmp_path / "v8.sqlite3"

    async def make() -> None:
        store = SqliteStore(path)
        await store.create_table(table(0), 5, TURN)
        await store.close()

    asyncio.run(make())
    old = sqlite3.connect(path)
    old.executescript(TO_VERSION_8)
    assert old.execute("PRAGMA user_version").fetchone()[0] == 8
    old.close()

    async def run() -> None:
        store = SqliteStore(path)
        await store.append_action("t0", 1, 0, action(1), Turn(1, None, False))
        await store.close()

    asyncio.run(run())
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 9
    assert db.execute("SELECT rated, min_reputation FROM tables").fetchall() == [(0, None)]
    assert db.execute("SELECT chat, bank, increment FROM tables").fetchall() == [
        ("on", None, None)
    ]
    assert db.execute("SELECT DISTINCT bank_left, ran_out FROM seats").fetchall() == [(None, 0)]
    assert db.execute("SELECT DISTINCT account_id, left_at FROM seats").fetchall() == [
        (None, None)
    ]
    ended = db.execute("SELECT finished, ended FROM games").fetchall()
    assert ended[0][0] == 1 and ended[0][1] is not None
    assert db.execute("SELECT COUNT(*) FROM accounts").fetchone()[0] == 0


def test_a_file_of_version_5_gains_replay_keys_custom_deals_and_no_show_limits(
    tmp_path: Path,
) -> None:
    """#26: the step 5 -> 6 keeps every old table working under the old rules."""
    path = tmp_path / "v5.sqlite3"
    public_seats = (SEATS[0], SeatRecord(1, "open", "", None, None))

    async def make() -> None:
        store = SqliteStore(path)
        await store.create_table(table(0), 5, TURN)
        saved = TableRecord("saved", {"players": 2}, "en", "c" * 64, "s" * 64, SEATS)
        await store.create_table(saved, 6, TURN, start={"format": "oriflamme-save"})
        lobby = TableRecord(
            "lobby", {"players": 2}, "en", "c" * 64, "s" * 64, public_seats, public=True
        )
        await store.create_table(lobby, 7, TURN)
        await store.close()

    asyncio.run(make())
    old = sqlite3.connect(path)
    old.executescript(TO_VERSION_6 + TO_VERSION_5)
    old.close()

    async def run() -> None:
        store = SqliteStore(path)
        found = {name: await store.load_table(name) for name in ("t0", "saved", "lobby")}
        keys = {name: loaded[0].replay_key for name, loaded in found.items() if loaded}
        assert len(set(keys.values())) == 3 and all(len(key) >= 32 for key in keys.values())
        assert [loaded[1].custom_deal for loaded in found.values() if loaded] == [
            False, True, False
        ]
        t0, lobby = found["t0"], found["lobby"]
        assert t0 is not None and lobby is not None
        assert t0[0].seats[0].arrived is not None  # old players keep the old rules
        assert t0[0].no_show_after is None and lobby[0].no_show_after == 300
        # Names got their keys: a joiner may not take Ann's.
        assert await store.fill_seat("lobby", SeatRecord(1, "human", "ANN", None, "b" * 64)) is None
        assert await store.fill_seat("lobby", SeatRecord(1, "human", "Ben", None, "b" * 64)) == 1
        await store.close()

    asyncio.run(run())
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 9
