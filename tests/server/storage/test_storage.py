"""The Store interface, one suite run on both backends: SQLite and a real PostgreSQL server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from oriflamme.server.storage import (
    DONE,
    FAILED,
    QUEUED,
    RUNNING,
    AnalysisRecord,
    BotTurn,
    GameRecord,
    HandOverGrace,
    Heartbeat,
    SeatCount,
    SeatRecord,
    SqliteStore,
    Store,
    StoreConflict,
    TableRecord,
    Turn,
)

SEATS = (
    SeatRecord(0, "human", "Ann", None, "a" * 64),
    SeatRecord(1, "bot", "Blue bot", "easy", None),
)
HUMAN_TURN = Turn(0, 0, False)
BOT_TURN = Turn(0, 1, True)
#: Hand-over limits where a table has none, and seconds a server's connections count.
GRACE, ALIVE = HandOverGrace(absent=120.0, no_show=300.0), 20.0

Opener = Callable[[], Awaitable[Store]]


def table(number: int) -> TableRecord:
    return TableRecord(f"t{number}", {"players": 2}, "en", "c" * 64, "s" * 64, SEATS)


def action(card: int) -> dict[str, object]:
    return {"kind": "place", "card": card, "to": "end"}


def run(opener: Opener, test: Callable[[Store], Awaitable[Any]]) -> None:
    async def main() -> None:
        store = await opener()
        try:
            await test(store)
        finally:
            await store.close()

    asyncio.run(main())


def test_tables_games_and_actions_round_trip(opener: Opener) -> None:
    async def test(store: Store) -> None:
        start = {"format": "oriflamme-save", "version": 1, "position": {"round": 2}}
        await store.create_table(table(0), 2**62, HUMAN_TURN, start, [action(4)])
        await store.create_table(table(1), 5, HUMAN_TURN)
        await store.append_action("t1", 1, 0, action(1), Turn(1, 1, True), source="player")
        await store.append_action("t1", 1, 1, action(2), Turn(2, None, False), source="bot")
        loaded = await store.load_table("t0")
        # The action of the saved game was played before the table: by nobody known.
        assert loaded == (table(0), GameRecord(1, 2**62, (action(4),), start, sources=(None,)))
        assert await store.unfinished_tables() == ["t0"]
        assert await store.load_actions("t1", 1, 1) == [action(2)]
        assert await store.load_actions("t1", 1, 0) == [action(1), action(2)]
        assert await store.load_sources("t1", 1, 0) == ["player", "bot"]
        assert await store.load_sources("t1", 1, 1) == ["bot"]
        found = await store.load_game("t1", 1)
        assert found is not None and found[0].sources == ("player", "bot")
        await store.new_game("t1", 2, 9, HUMAN_TURN)
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded[1] == GameRecord(2, 9, ())
        assert sorted(await store.unfinished_tables()) == ["t0", "t1"]
        bot = SeatRecord(0, "bot", "Red bot (hard)", "hard", "a" * 64)
        assert await store.hand_over("t1", bot, Turn(0, 0, True), GRACE, ALIVE)
        loaded = await store.load_table("t1")
        assert loaded is not None and loaded[0].seats == (bot, SEATS[1])
        assert await store.load_table("nope") is None
        await store.ping()

    run(opener, test)


def test_a_second_action_at_the_same_index_conflicts(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await store.create_table(table(0), 1, HUMAN_TURN)
        results = await asyncio.gather(
            *(store.append_action("t0", 1, 0, action(i), BOT_TURN) for i in range(8)),
            return_exceptions=True,
        )
        assert results.count(None) == 1
        assert all(isinstance(r, StoreConflict) for r in results if r is not None)
        assert len(await store.load_actions("t0", 1, 0)) == 1
        with pytest.raises(StoreConflict):
            await store.new_game("t0", 1, 3, HUMAN_TURN)  # game 1 exists
        with pytest.raises(StoreConflict):
            await store.create_table(table(0), 1, HUMAN_TURN)

    run(opener, test)


def test_a_bot_decision_is_claimed_by_one_owner_at_a_time(opener: Opener) -> None:
    async def test(store: Store) -> None:
        for i in range(3):
            await store.create_table(table(i), i, Turn(0, 1, True))
            await asyncio.sleep(0.01)  # t0 waits longest
        await store.create_table(table(3), 3, HUMAN_TURN)
        claimed = await store.claim_bot_turns("a", 2, ttl=30)
        assert claimed == [BotTurn("t0", 1, 0), BotTurn("t1", 1, 0)]
        assert await store.claim_bot_turns("b", 5, ttl=30) == [BotTurn("t2", 1, 0)]
        assert await store.claim_bot_turns("c", 5, ttl=30) == []
        assert not await store.claim_bot_turn("c", BotTurn("t0", 1, 0), ttl=30)
        assert await store.claim_bot_turn("a", BotTurn("t0", 1, 0), ttl=30)  # its own
        assert not await store.claim_bot_turn("c", BotTurn("t3", 1, 0), ttl=30)  # a human's
        assert await store.renew_claim("a", BotTurn("t0", 1, 0), ttl=0.2)
        assert not await store.renew_claim("b", BotTurn("t0", 1, 0), ttl=30)
        await asyncio.sleep(0.3)  # a's claim of t0 expired: anyone may take it
        assert await store.claim_bot_turns("c", 5, ttl=30) == [BotTurn("t0", 1, 0)]
        assert not await store.renew_claim("a", BotTurn("t0", 1, 0), ttl=30)
        # The decision made (the action stored) ends the claim; the next one is free.
        await store.append_action("t0", 1, 0, action(1), Turn(1, 1, True))
        assert not await store.renew_claim("c", BotTurn("t0", 1, 0), ttl=30)
        assert await store.claim_bot_turns("d", 5, ttl=30) == [BotTurn("t0", 1, 1)]
        await store.release_claim("d", BotTurn("t0", 1, 0))  # an older step: the claim stays
        assert not await store.claim_bot_turn("e", BotTurn("t0", 1, 1), ttl=30)
        await store.release_claim("b", BotTurn("t2", 1, 0))
        assert await store.claim_bot_turn("d", BotTurn("t2", 1, 0), ttl=30)
        # A human's decision is never claimed; a seat handed to a bot makes it claimable.
        bot = SeatRecord(0, "bot", "Red bot", "easy", "a" * 64)
        assert await store.hand_over("t3", bot, BOT_TURN, GRACE, ALIVE)
        assert await store.claim_bot_turns("e", 5, ttl=30) == [BotTurn("t3", 1, 0)]

    run(opener, test)


def test_a_turn_is_corrected_only_while_no_action_followed(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await store.create_table(table(0), 1, BOT_TURN)
        assert await store.set_turn("t0", 1, HUMAN_TURN)
        assert await store.claim_bot_turns("a", 5, ttl=30) == []
        await store.append_action("t0", 1, 0, action(1), Turn(1, 1, True))
        assert not await store.set_turn("t0", 1, HUMAN_TURN)  # step 0 is past
        assert await store.claim_bot_turns("a", 5, ttl=30) == [BotTurn("t0", 1, 1)]

    run(opener, test)


def test_connections_count_while_their_server_beats(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await store.create_table(table(0), 1, HUMAN_TURN)
        assert await store.heartbeat("s1", alive=30) == Heartbeat(kept=False)  # new
        await store.heartbeat("s2", alive=30)
        assert await store.heartbeat("s1", alive=30) == Heartbeat(kept=True)
        await store.create_table(table(1), 1, HUMAN_TURN)
        await store.set_presence("s1", [SeatCount("t0", 0, 2)])
        await store.set_presence("s2", [SeatCount("t0", 1, 1), SeatCount("t1", 0, 3)])
        assert await store.present_seats("t0", alive=30) == {0, 1}
        assert await store.present_seats("t1", alive=30) == {0}
        await store.set_presence("s2", [SeatCount("t0", 1, 0), SeatCount("t1", 1, 1)])
        assert await store.present_seats("t0", alive=30) == {0}
        assert await store.present_seats("t1", alive=30) == {0, 1}
        await store.set_presence("s2", [SeatCount("t0", 1, 1)])
        # (a window long enough that a loaded machine's pause between two calls stays inside it)
        await asyncio.sleep(1.5)
        # s2 fell silent: its connections are gone, and the seats that had them are named.
        forgotten = (("t0", 1), ("t1", 0), ("t1", 1))
        assert await store.heartbeat("s1", alive=1.2) == Heartbeat(True, forgotten)
        assert await store.present_seats("t0", alive=1.2) == {0}
        assert await store.present_seats("t1", alive=1.2) == set()
        # s2 wakes up: its beat says it was forgotten (it must publish its connections again).
        assert await store.heartbeat("s2", alive=1.2) == Heartbeat(kept=False)
        await store.set_presence("s2", [SeatCount("t1", 1, 1)])
        assert await store.present_seats("t1", alive=1.2) == {1}
        # Alive 0: the connections of every other server are forgotten (one server per file,
        # started again), never its own.
        assert await store.heartbeat("s3", alive=0) == Heartbeat(False, (("t0", 0), ("t1", 1)))
        await store.set_presence("s3", [SeatCount("t0", 1, 1)])
        assert await store.heartbeat("s3", alive=0) == Heartbeat(kept=True)
        assert await store.present_seats("t0", alive=30) == {1}

    run(opener, test)


def test_watched_tables_bots_come_first_and_overload_shows(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await store.create_table(table(0), 0, Turn(0, 1, True))
        await asyncio.sleep(0.01)
        await store.create_table(table(1), 1, Turn(0, 1, True, watched=True))
        assert await store.waiting_bot_turns() == 2
        assert await store.claim_bot_turns("a", 1, ttl=30) == [BotTurn("t1", 1, 0)]
        assert await store.waiting_bot_turns() == 1
        assert await store.claim_bot_turns("a", 1, ttl=30) == [BotTurn("t0", 1, 0)]
        assert await store.waiting_bot_turns() == 0

    run(opener, test)


def test_quotas_count_an_origins_tables(opener: Opener) -> None:
    async def test(store: Store) -> None:
        bots = tuple(SeatRecord(i, "bot", f"bot {i}", "easy", None) for i in range(2))
        for i in range(3):
            record = TableRecord(
                f"t{i}",
                {"players": 2},
                "en",
                "c" * 64,
                "s" * 64,
                SEATS if i == 0 else bots,
                origin="here",
            )
            await store.create_table(record, i, BOT_TURN)
        await store.create_table(table(9), 9, HUMAN_TURN)  # no origin
        assert await store.origin_counts("here", within=3600) == (3, 2)
        await asyncio.sleep(0.05)
        assert await store.origin_counts("here", within=0.01) == (0, 2)  # created before
        await store.append_action("t1", 1, 0, action(1), Turn(1, None, False))  # t1 is over
        assert await store.origin_counts("here", within=3600) == (3, 1)
        assert await store.origin_counts("elsewhere", within=3600) == (0, 0)

    run(opener, test)


def test_abandoned_tables_are_deleted_and_jobs_have_one_owner(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await store.create_table(table(0), 0, HUMAN_TURN)
        await store.append_action("t0", 1, 0, action(1), BOT_TURN)
        await asyncio.sleep(0.05)
        cut = await _db_now(store)
        await asyncio.sleep(0.3)
        await store.create_table(table(1), 1, HUMAN_TURN)  # created after the cut
        # Idle since before the cut, by the database's clock (the call comes a little later).
        idle = await _db_now(store) - cut
        assert await store.delete_abandoned(idle, limit=10) == ["t0"]
        assert await store.load_table("t0") is None
        assert await store.load_actions("t0", 1, 0) == []
        assert await store.load_table("t1") is not None
        assert await store.delete_abandoned(idle, limit=10) == []
        assert await store.claim_job("expire", "a", ttl=0.2)
        assert not await store.claim_job("expire", "b", ttl=30)
        assert await store.claim_job("expire", "a", ttl=0.2)  # its owner renews it
        await asyncio.sleep(0.3)
        assert await store.claim_job("expire", "b", ttl=30)

    run(opener, test)


async def _db_now(store: Store) -> float:
    """The database's clock (PostgreSQL keeps its own time; SQLite's is its server's)."""
    from oriflamme.server.storage.postgres import PostgresStore

    if isinstance(store, SqliteStore):
        return time.time()
    assert isinstance(store, PostgresStore)
    async with store.connection() as db:
        return float(await db.fetchval("SELECT extract(epoch from clock_timestamp())"))


# -- open seats, clocks and absent players (#16) ----------------------------------------------
OPEN_SEATS = (
    SeatRecord(0, "human", "Ann", None, "a" * 64),
    SeatRecord(1, "open", "", None, None),
    SeatRecord(2, "open", "", None, None),
)


def open_table(number: int, **options: Any) -> TableRecord:
    return TableRecord(
        f"o{number}", {"players": 3}, "en", "c" * 64, "s" * 64, OPEN_SEATS, public=True, **options
    )


def test_one_of_two_joins_for_a_seat_wins_and_the_last_starts_the_game(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await store.create_table(open_table(0, clock=60.0), 1, Turn(0, 1, False))
        [listed] = await store.lobby(3600, 10)
        assert (listed.table_id, [s.kind for s in listed.seats]) == (
            "o0",
            ["human", "open", "open"],
        )
        assert listed.seats[0].token_hash is None  # the lobby shows no token
        ben = SeatRecord(1, "human", "Ben", None, "b" * 64)
        cid = SeatRecord(1, "human", "Cid", None, "d" * 64)
        results = await asyncio.gather(store.fill_seat("o0", ben), store.fill_seat("o0", cid))
        assert sorted(results, key=str) == [1, None]
        # Nobody plays while a seat is open.
        assert await store.claim_bot_turns("x", 10, 5.0) == []
        bot = SeatRecord(-1, "bot", "Yellow bot", "easy", None)  # the first open seat
        assert await store.fill_seat("o0", bot) == 2
        assert await store.fill_seat("o0", bot) is None  # none open any more
        assert await store.lobby(3600, 10) == []
        found = await store.load_table("o0")
        assert found is not None
        assert [s.kind for s in found[0].seats] == ["human", "human", "bot"]
        assert found[0].clock == 60.0 and found[0].public

    run(opener, test)


def test_a_game_starting_with_a_bot_to_move_is_claimable(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await store.create_table(open_table(1), 1, Turn(0, 2, False))
        await store.fill_seat("o1", SeatRecord(1, "human", "Ben", None, "b" * 64))
        assert await store.claim_bot_turns("x", 10, 5.0) == []
        await store.fill_seat("o1", SeatRecord(2, "bot", "Bot", "easy", None))
        assert await store.claim_bot_turns("x", 10, 5.0) == [BotTurn("o1", 1, 0)]

    run(opener, test)


def test_a_closed_table_leaves_the_lobby_and_old_listings_expire(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await store.create_table(open_table(2), 1, Turn(0, 0, False))
        await store.create_table(open_table(3), 1, Turn(0, 0, False))
        assert {e.table_id for e in await store.lobby(3600, 10)} == {"o2", "o3"}
        await asyncio.sleep(0.05)
        assert await store.lobby(0.01, 10) == []  # listed too long ago
        assert await store.close_table("o2")
        assert not await store.close_table("o2")
        assert [e.table_id for e in await store.lobby(3600, 10)] == ["o3"]
        found = await store.load_table("o2")
        assert found is not None and found[0].closed

    run(opener, test)


def test_a_clock_and_an_absence_make_a_decision_claimable(opener: Opener) -> None:
    async def test(store: Store) -> None:
        full = (
            SeatRecord(0, "human", "Ann", None, "a" * 64),
            SeatRecord(1, "bot", "B", "easy", None),
        )
        clocked = TableRecord("k0", {"players": 2}, "en", "c" * 64, "s" * 64, full, clock=0.3)
        await store.create_table(clocked, 1, Turn(0, 0, False, timed=True))
        assert await store.claim_bot_turns("x", 10, 5.0) == []
        await asyncio.sleep(0.4)
        assert await store.claim_bot_turns("x", 10, 5.0) == [BotTurn("k0", 1, 0)]
        # A stand-in's action is stored while the deadline has passed...
        await store.append_action("k0", 1, 0, action(1), Turn(1, 0, False, timed=True), True)
        # ... and not before: the next decision's clock has just started.
        with pytest.raises(StoreConflict):
            await store.append_action("k0", 1, 1, action(2), Turn(2, 1, True), True)

        absent = TableRecord("k1", {"players": 2}, "en", "c" * 64, "s" * 64, full, absent_after=0.3)
        await store.create_table(absent, 1, Turn(0, 0, False, timed=True))
        await store.heartbeat("server", 20.0)
        await store.set_presence("server", [SeatCount("k1", 0, 1)])
        assert not await store.seat_away("k1", [0], 20.0)  # connected: not away
        await store.set_presence("server", [SeatCount("k1", 0, 0)])
        assert await store.seat_away("k1", [0], 20.0)
        assert not await store.seat_away("k1", [0], 20.0)  # away already, since then
        found = await store.load_table("k1")
        assert found is not None and found[0].seats[0].away_since is not None
        assert all(t.table_id != "k1" for t in await store.claim_bot_turns("y", 10, 5.0))
        await asyncio.sleep(0.4)
        assert "k1" in [t.table_id for t in await store.claim_bot_turns("y", 10, 5.0)]
        # Back: the decision is the player's again, and a stand-in's action is refused.
        assert await store.seat_back("k1", 0)
        assert not await store.seat_back("k1", 0)
        with pytest.raises(StoreConflict):
            await store.append_action("k1", 1, 0, action(1), Turn(1, 1, True), True)
        await store.append_action("k1", 1, 0, action(1), Turn(1, 1, True))  # the human's own

    run(opener, test)


def test_older_games_load_and_learning_tables_keep_their_hints(opener: Opener) -> None:
    async def test(store: Store) -> None:
        learning = TableRecord("t9", {"players": 2}, "fr", "c" * 64, "s" * 64, SEATS, hints=True)
        await store.create_table(learning, 4, HUMAN_TURN)
        await store.append_action("t9", 1, 0, action(1), Turn(1, None, False))
        await store.new_game("t9", 2, 8, HUMAN_TURN)
        loaded = await store.load_table("t9")
        assert loaded is not None and loaded[0].hints and loaded[1].number == 2
        assert await store.load_game("t9", 1) == (
            GameRecord(1, 4, (action(1),), sources=(None,)),
            True,
        )
        assert await store.load_game("t9", 2) == (GameRecord(2, 8, ()), False)
        assert await store.load_game("t9", 3) is None
        await store.create_table(table(0), 1, HUMAN_TURN)
        plain = await store.load_table("t0")
        assert plain is not None and not plain[0].hints

    run(opener, test)


def test_an_analysis_is_queued_once_claimed_by_one_server_and_resumed(opener: Opener) -> None:
    async def test(store: Store) -> None:
        assert await store.load_analysis("t0", 1) is None
        assert await store.claim_analysis("a", ttl=30) is None
        queued = await store.request_analysis("t0", 1)
        assert queued == AnalysisRecord("t0", 1, QUEUED)
        await asyncio.sleep(0.01)
        await store.request_analysis("t1", 1)  # asked later: claimed later
        assert await store.request_analysis("t0", 1) == queued
        claimed = await store.claim_analysis("a", ttl=0.3)
        assert claimed == AnalysisRecord("t0", 1, RUNNING)
        second = await store.claim_analysis("b", ttl=30)
        assert second is not None and second.table_id == "t1"
        assert await store.claim_analysis("b", ttl=30) is None  # nothing else is free
        half = AnalysisRecord("t0", 1, RUNNING, 0.5, ({"step": 3, "loss": 0.1},))
        assert not await store.save_analysis("b", half, ttl=30)  # not b's
        assert await store.save_analysis("a", half, ttl=0.3)
        assert await store.load_analysis("t0", 1) == half
        await asyncio.sleep(0.5)  # a's claim expires: another server goes on from there
        taken = await store.claim_analysis("c", ttl=30)
        assert taken == half
        assert not await store.save_analysis("a", half, ttl=30)
        done = AnalysisRecord("t0", 1, DONE, 1.0, (*half.steps, {"step": 5, "loss": 0.0}))
        assert await store.save_analysis("c", done, ttl=30)
        assert await store.request_analysis("t0", 1) == done  # computed once
        assert await store.claim_analysis("d", ttl=30) is None
        failed = AnalysisRecord("t1", 1, FAILED, 0.2, ())
        assert await store.save_analysis("b", failed, ttl=30)
        assert await store.request_analysis("t1", 1) == AnalysisRecord("t1", 1, QUEUED)
        # Analyses go with their abandoned tables.
        await store.create_table(table(0), 0, HUMAN_TURN)
        await asyncio.sleep(0.05)
        assert await store.delete_abandoned(0.01, limit=10) == ["t0"]
        assert await store.load_analysis("t0", 1) is None

    run(opener, test)


# -- fair play with strangers (#26) ------------------------------------------------------------
def test_deals_keys_and_limits_round_trip(opener: Opener) -> None:
    async def test(store: Store) -> None:
        record = TableRecord(
            "f0", {"players": 2}, "en", "c" * 64, "s" * 64, SEATS, no_show_after=45.0,
            replay_key="k" * 32,
        )
        await store.create_table(record, 7, HUMAN_TURN, custom_deal=True)
        loaded = await store.load_table("f0")
        assert loaded is not None and loaded[0] == record and loaded[1].custom_deal
        assert loaded[0].created > 0
        await store.new_game("f0", 2, 8, HUMAN_TURN)
        assert await store.load_game("f0", 1) == (GameRecord(1, 7, (), None, True), False)
        assert await store.load_game("f0", 2) == (GameRecord(2, 8, ()), False)

    run(opener, test)


def test_a_joiner_may_not_take_a_name_of_the_table(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await store.create_table(open_table(5), 1, Turn(0, 0, False))
        ann = SeatRecord(1, "human", "ANN", None, "b" * 64)  # "Ann" has seat 0
        assert await store.fill_seat("o5", ann) is None
        ben = SeatRecord(-1, "human", "Ben", None, "b" * 64)
        assert await store.fill_seat("o5", ben) == 1
        assert await store.fill_seat("o5", SeatRecord(2, "human", "ben", None, "c" * 64)) is None
        found = await store.load_table("o5")
        assert found is not None and [s.name for s in found[0].seats] == ["Ann", "Ben", ""]

    run(opener, test)


def test_a_seat_is_handed_over_only_once_it_may_be(opener: Opener) -> None:
    async def test(store: Store) -> None:
        record = open_table(6, absent_after=0.3, no_show_after=0.3)
        await store.create_table(record, 1, Turn(0, 0, False))
        await store.fill_seat("o6", SeatRecord(1, "human", "Ben", None, "b" * 64))
        await store.fill_seat("o6", SeatRecord(2, "human", "Cid", None, "d" * 64))
        bot = SeatRecord(1, "bot", "Blue bot (easy)", "easy", "b" * 64)
        turn = Turn(0, 0, False, timed=True)
        # Ben joined and never came: not before the no-show limit.
        assert not await store.hand_over("o6", bot, turn, GRACE, ALIVE)
        await asyncio.sleep(0.4)
        assert await store.hand_over("o6", bot, turn, GRACE, ALIVE)
        assert not await store.hand_over("o6", bot, turn, GRACE, ALIVE)  # a bot already
        # Cid came (and is connected on a live server): never while connected.
        assert await store.seat_back("o6", 2)
        await store.heartbeat("server", ALIVE)
        await store.set_presence("server", [SeatCount("o6", 2, 1)])
        cid_bot = SeatRecord(2, "bot", "Green bot (easy)", "easy", "d" * 64)
        await asyncio.sleep(0.4)
        assert not await store.hand_over("o6", cid_bot, turn, GRACE, ALIVE)
        # Gone: once away for the table's limit.
        await store.set_presence("server", [SeatCount("o6", 2, 0)])
        assert await store.seat_away("o6", [2], ALIVE)
        assert not await store.hand_over("o6", cid_bot, turn, GRACE, ALIVE)
        await asyncio.sleep(0.4)
        assert await store.hand_over("o6", cid_bot, turn, GRACE, ALIVE)
        # Ann's seat was set at the creation: hers to give while nobody is connected to it.
        ann_bot = SeatRecord(0, "bot", "Red bot (easy)", "easy", "a" * 64)
        assert await store.hand_over("o6", ann_bot, Turn(0, 0, True), GRACE, ALIVE)
        found = await store.load_table("o6")
        assert found is not None and [s.kind for s in found[0].seats] == ["bot"] * 3
        assert [s.token_hash for s in found[0].seats] == ["a" * 64, "b" * 64, "d" * 64]
        assert await store.claim_bot_turns("x", 10, 5.0) == [BotTurn("o6", 1, 0)]

    run(opener, test)


def test_a_player_who_never_came_is_played_for_after_the_no_show_limit(opener: Opener) -> None:
    async def test(store: Store) -> None:
        record = open_table(7, no_show_after=0.3, clock=600.0)
        await store.create_table(record, 1, Turn(0, 1, False))
        await store.fill_seat("o7", SeatRecord(1, "human", "Ghost", None, "b" * 64))
        await store.fill_seat("o7", SeatRecord(2, "human", "Cid", None, "d" * 64))
        # The game started with the ghost to decide: its deadline is the no-show limit.
        assert await store.claim_bot_turns("x", 10, 5.0) == []
        await asyncio.sleep(0.4)
        assert await store.claim_bot_turns("x", 10, 5.0) == [BotTurn("o7", 1, 0)]
        await store.release_claim("x", BotTurn("o7", 1, 0))
        # It comes after all: its decision is its own again (only the clock runs).
        assert await store.seat_back("o7", 1)
        assert not await store.seat_back("o7", 1)
        assert await store.claim_bot_turns("x", 10, 5.0) == []
        with pytest.raises(StoreConflict):
            await store.append_action("o7", 1, 0, action(1), Turn(1, 2, False), True)
        found = await store.load_table("o7")
        assert found is not None and found[0].seats[1].arrived is not None

    run(opener, test)
