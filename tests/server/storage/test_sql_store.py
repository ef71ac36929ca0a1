"""The one SQL store (storage/sql_*.py) on both backends, where test_storage.py (beside) does not
look: a write whose later statement fails leaves nothing, lists of values of any length, a join
refused leaves the table as it was, and PostgreSQL announces only what changed."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from oriflamme.server.storage import (
    PRESENCE,
    SEATS,
    Change,
    SeatCount,
    SeatRecord,
    Store,
    StoreConflict,
    TableRecord,
    Turn,
    open_store,
)
from oriflamme.server.storage.postgres import PostgresStore

TWO = (
    SeatRecord(0, "human", "Ann", None, "a" * 64),
    SeatRecord(1, "bot", "Blue bot", "easy", None),
)
OPEN = (
    SeatRecord(0, "human", "Ann", None, "a" * 64),
    SeatRecord(1, "open", "", None, None),
    SeatRecord(2, "open", "", None, None),
)
TURN = Turn(0, 0, False)


def table(table_id: str, seats: tuple[SeatRecord, ...] = TWO, **fields: Any) -> TableRecord:
    return TableRecord(table_id, {"players": len(seats)}, "en", "c" * 64, "s" * 64, seats, **fields)


def run(url: str, test: Callable[[Store], Awaitable[None]]) -> None:
    async def main() -> None:
        store = await open_store(url)
        try:
            await test(store)
        finally:
            await store.close()

    asyncio.run(main())


def test_a_write_whose_later_statement_fails_stores_nothing(store_url: str) -> None:
    async def test(store: Store) -> None:
        twice = (TWO[0], SeatRecord(0, "human", "Ben", None, "b" * 64))  # one seat, twice
        with pytest.raises(StoreConflict):
            await store.create_table(table("t0", twice), 1, TURN)
        assert await store.load_table("t0") is None  # the table's own row went with it
        await store.create_table(table("t0"), 1, TURN)  # its id is free
        assert await store.load_table("t0") is not None

    run(store_url, test)


def test_lists_of_values_of_any_length(store_url: str) -> None:
    """Seats counted, tables listed and tables deleted: each list is one parameter, however
    long (no statement per value, no limit of parameters)."""

    async def test(store: Store) -> None:
        tables = [f"t{i}" for i in range(60)]
        for table_id in tables:
            await store.create_table(table(table_id, OPEN, public=True), 1, TURN)
        await store.heartbeat("s1", 20.0)
        await store.set_presence("s1", [SeatCount(t, seat, 1) for t in tables for seat in range(3)])
        assert await store.present_seats("t59", 20.0) == {0, 1, 2}
        # More than SQLite's parameters per statement (32766), were each a parameter.
        crowd = [SeatCount(f"x{i}", 0, 1) for i in range(12000)]
        await store.set_presence("s1", crowd)
        assert await store.present_seats("x11999", 20.0) == {0}
        await store.set_presence("s1", [SeatCount(c.table_id, 0, 0) for c in crowd])
        assert await store.present_seats("x11999", 20.0) == set()
        await store.set_presence("s1", [SeatCount(t, 1, 0) for t in tables])
        assert await store.present_seats("t59", 20.0) == {0, 2}
        entries = await store.lobby(3600, 100)
        assert len(entries) == 60 and all(len(entry.seats) == 3 for entry in entries)
        await store.set_presence("s1", [SeatCount(t, s, 0) for t in tables for s in (0, 2)])
        assert await store.present_seats("t0", 20.0) == set()
        assert not await store.seat_away("t0", [], 20.0)  # no seat named: none marked
        assert await store.seat_away("t0", [0, 1, 2], 20.0)  # the human seat
        await asyncio.sleep(0.05)
        assert sorted(await store.delete_abandoned(0.0, limit=100)) == sorted(tables)
        assert await store.lobby(3600, 100) == []

    run(store_url, test)


def test_a_join_refused_leaves_the_lobby_as_it_was(store_url: str) -> None:
    """A join for a name the table has already, or for a seat that is not open, changes
    nothing: the table keeps its place in the lobby (a join used to bump it on SQLite)."""

    async def test(store: Store) -> None:
        await store.create_table(table("o0", OPEN, public=True), 1, TURN)
        await asyncio.sleep(0.05)
        await store.create_table(table("o1", OPEN, public=True), 1, TURN)
        before = await store.lobby(3600, 10)
        assert [entry.table_id for entry in before] == ["o1", "o0"]  # the newest first
        await asyncio.sleep(0.05)
        assert await store.fill_seat("o0", SeatRecord(1, "human", "ANN", None, "b" * 64)) is None
        assert await store.fill_seat("o0", SeatRecord(0, "human", "Cid", None, "d" * 64)) is None
        assert await store.lobby(3600, 10) == before
        # A join that takes a seat does move the table up.
        assert await store.fill_seat("o0", SeatRecord(1, "human", "Ben", None, "b" * 64)) == 1
        assert [entry.table_id for entry in await store.lobby(3600, 10)] == ["o0", "o1"]

    run(store_url, test)


def test_postgresql_announces_what_changed_and_nothing_else(pg_url: str) -> None:
    async def main() -> None:
        writer, reader = await PostgresStore.open(pg_url), await PostgresStore.open(pg_url)
        seen: asyncio.Queue[Change] = asyncio.Queue()
        listening_since = asyncio.Event()
        listening = asyncio.create_task(reader.listen(seen.put_nowait, listening_since.set))
        try:
            await asyncio.wait_for(listening_since.wait(), 10)
            await writer.create_table(table("o0", OPEN, public=True), 1, TURN)
            await writer.create_table(table("o1", OPEN, public=True), 1, TURN)
            assert {(await asyncio.wait_for(seen.get(), 5)).table_id for _ in range(2)} == {
                "o0",
                "o1",
            }
            assert await writer.seat_back("o0", 0)  # its player comes for the first time
            # Changes of nothing: no announcement.
            assert not await writer.seat_back("o0", 0)
            assert await writer.fill_seat("o0", SeatRecord(1, "human", "Ann", None, None)) is None
            assert not await writer.close_table("missing")
            # One write of several tables' seats: one announcement per table.
            await writer.set_presence("s1", [SeatCount("o0", 0, 1), SeatCount("o1", 0, 2)])
            assert await writer.close_table("o1")
            announced = [await asyncio.wait_for(seen.get(), 5) for _ in range(4)]
            assert announced == [
                Change("o0", SEATS, 0, 0),  # the player who came
                Change("o0", PRESENCE, 0, 0),
                Change("o1", PRESENCE, 0, 0),
                Change("o1", SEATS, 0, 0),
            ]
            await asyncio.sleep(0.2)
            assert seen.empty()
        finally:
            listening.cancel()
            await asyncio.gather(listening, return_exceptions=True)
            await writer.close()
            await reader.close()

    asyncio.run(main())


def test_a_stand_in_waits_for_the_deadline_and_a_refused_action_moves_nothing(
    store_url: str,
) -> None:
    """A stand-in's action and the turn it leads to are one chain: while the human's clock
    runs the action is refused and the turn stays as it was (not handed to a bot); once the
    clock has run out the action is stored and the turn moves."""

    async def test(store: Store) -> None:
        await store.create_table(table("t0", clock=1.0), 1, Turn(0, 0, False, timed=True))
        place = {"kind": "place", "card": 3, "to": "end"}
        with pytest.raises(StoreConflict):
            await store.append_action("t0", 1, 0, place, Turn(1, 1, True), stand_in=True)
        loaded = await store.load_table("t0")
        assert loaded is not None and loaded[1].actions == ()
        assert await store.waiting_bot_turns() == 0  # still the human's, their clock running
        await asyncio.sleep(1.2)
        assert await store.waiting_bot_turns() == 1  # the clock ran out: the stand-in's turn
        await store.append_action("t0", 1, 0, place, Turn(1, 0, False), stand_in=True)
        loaded = await store.load_table("t0")
        assert loaded is not None and loaded[1].actions == (place,)
        assert await store.waiting_bot_turns() == 0

    run(store_url, test)
