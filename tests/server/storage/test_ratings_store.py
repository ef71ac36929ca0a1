"""Players across tables in storage, on both backends: a game's results and ratings stored
with its last action, exactly once; the rebuild that reproduces them; leaderboards,
reputation, an account's games, leaving a game."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, cast

import pytest

from oriflamme.server.rating_model import (
    Belief,
    RatedGame,
    RatedSeat,
    account_player,
    bot_player,
    rate,
)
from oriflamme.server.rating_rebuild import rebuild
from oriflamme.server.storage import SeatRecord, Store, StoreConflict, TableRecord, Turn
from oriflamme.server.storage.dialect import Sql
from test_storage import run

Opener = Callable[[], Awaitable[Store]]
OVER = Turn(1, None, False)
PLACE = {"kind": "place", "card": 1, "to": "end"}




async def execute(store: Store, text: str, *values: object) -> None:
    """One statement written straight into the database (what the tests set up or break)."""
    runner = cast(Any, store)
    q = Sql(runner.dialect)
    marks = [q(value) for value in values]
    await runner._write_one(q.statement(text.format(*marks)))


async def add_account(store: Store, account_id: str, name: str) -> None:
    await store.create_account(account_id, name, None)


def rated_table(
    table_id: str, owners: list[str | None], rated: bool = True, bot: str = "hard"
) -> TableRecord:
    seats = tuple(
        SeatRecord(i, "human", f"P{owner}", None, f"{i}" * 64, account_id=owner)
        if owner is not None
        else SeatRecord(i, "bot", f"Bot {i}", bot, None)
        for i, owner in enumerate(owners)
    )
    return TableRecord(
        table_id, {"players": len(seats)}, "en", "c" * 64, "s" * 64, seats, rated=rated
    )


def finished(
    table_id: str, seats: list[tuple[str, int]], pool: str | None = "3-5p", left: int = -1
) -> RatedGame:
    return RatedGame(
        table_id,
        1,
        pool,
        tuple(
            RatedSeat(i, player, rank, i == left, rank == 1 and i != left)
            for i, (player, rank) in enumerate(seats)
        ),
    )


def test_a_rated_game_is_rated_once_with_its_last_action(opener: Opener) -> None:
    a, b, hard = account_player("a"), account_player("b"), bot_player("hard")

    async def test(store: Store) -> None:
        await add_account(store, "a", "Ann")
        await add_account(store, "b", "Bob")
        await store.create_table(rated_table("t", ["a", "b", None]), 1, Turn(0, 0, False))
        game = finished("t", [(a, 2), (b, 1), (hard, 2)])
        await store.append_action("t", 1, 0, PLACE, OVER, finished=game)
        expected = rate({}, game)
        rows = {r.player: r for r in await store.ratings([a, b, hard])}
        assert {p: Belief(r.mu, r.sigma) for p, r in rows.items()} == expected
        assert (rows[b].games, rows[b].wins, rows[a].wins) == (1, 1, 0)
        assert rows[hard].bot and rows[hard].name == "hard" and rows[a].name == "Ann"
        # The same last action again (another server, a retry): refused, nothing counted twice.
        with pytest.raises(StoreConflict):
            await store.append_action("t", 1, 0, PLACE, OVER, finished=game)
        again = {r.player: (r.mu, r.games) for r in await store.ratings([a, b, hard])}
        assert again == {p: (r.mu, 1) for p, r in rows.items()}
        board, total = await store.leaderboard("3-5p", 1, 10, 0)
        assert total == 3 and board[0].player == b
        assert await store.leaderboard("2p", 1, 10, 0) == ([], 0)
        assert await store.leaderboard("3-5p", 2, 10, 0) == ([], 0)
        history = await store.rating_history(b, "3-5p", 10)
        assert [(p.table_id, p.game, p.mu) for p in history] == [("t", 1, expected[b].mu)]
        assert (await store.reputations(["a", "b"]))["a"].share == 1.0
        assert await store.results_by_players("b") == {3: (1, 1)}

    run(opener, test)


def test_a_stand_in_ending_refused_stores_neither_the_end_nor_the_ratings(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await add_account(store, "a", "Ann")
        await store.create_table(
            rated_table("t", ["a", None, None]), 1, Turn(0, 0, False, timed=True)
        )
        game = finished(
            "t", [(account_player("a"), 1), (bot_player("hard"), 2), (bot_player("hard"), 3)]
        )
        with pytest.raises(StoreConflict):  # the human's deadline has not passed: no stand-in
            await store.append_action("t", 1, 0, PLACE, OVER, stand_in=True, finished=game)
        assert await store.ratings([account_player("a")]) == []
        assert await store.reputations(["a"]) == {}
        loaded = await store.load_game("t", 1)
        assert loaded is not None and loaded[0].actions == () and not loaded[1]

    run(opener, test)


def test_unrated_games_of_accounts_count_for_reputation_not_ratings(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await add_account(store, "a", "Ann")
        await store.create_table(rated_table("t", ["a", None], rated=False), 1, Turn(0, 0, False))
        game = finished("t", [(account_player("a"), 2), (bot_player("hard"), 1)], pool=None)
        await store.append_action("t", 1, 0, PLACE, OVER, finished=game)
        assert await store.ratings([account_player("a"), bot_player("hard")]) == []
        assert (await store.reputations(["a"]))["a"].finished == 1
        games, total = await store.account_games("a", True, 10, 0)
        assert total == 1 and not games[0].rated and games[0].rank == 2 and not games[0].won

    run(opener, test)


def test_rebuild_reproduces_the_stored_ratings_exactly(opener: Opener) -> None:
    players = [account_player(x) for x in "abcd"]

    async def test(store: Store) -> None:
        for x in "abcd":
            await add_account(store, x, x.upper() * 3)
        ranks = [[1, 2, 2], [3, 1, 2], [1, 1, 3], [2, 3, 1], [1, 2, 3], [2, 1, 3]]
        for n, order in enumerate(ranks):
            who = [players[(n + i) % 4] for i in range(2)] + [bot_player("hard")]
            owners: list[str | None] = [p.removeprefix("account:") for p in who[:2]] + [None]
            await store.create_table(rated_table(f"t{n}", owners), 1, Turn(0, 0, False))
            game = finished(f"t{n}", list(zip(who, order, strict=True)), left=n % 3 - 1)
            await store.append_action(f"t{n}", 1, 0, PLACE, OVER, finished=game)
        checked = await rebuild(store, write=False)
        assert checked.results == 6 and checked.differences == []
        # A stored rating changed behind the server's back: found, and put right.
        await execute(store, "UPDATE ratings SET mu = mu + 1 WHERE player = {0}", players[0])
        found = await rebuild(store)
        assert [(d.player, d.pool) for d in found.differences] == [(players[0], "3-5p")]
        assert (await rebuild(store, write=False)).differences == []

    run(opener, test)


def test_games_ending_together_are_all_rated_in_one_order(opener: Opener) -> None:
    a = account_player("a")

    async def test(store: Store) -> None:
        await add_account(store, "a", "Ann")
        for n in range(8):
            await store.create_table(rated_table(f"t{n}", ["a", None, None]), 1, Turn(0, 0, False))

        async def finish(n: int) -> None:
            game = finished(
                f"t{n}", [(a, 1 + n % 2), (bot_player("hard"), 2), (bot_player("hard"), 3)]
            )
            await store.append_action(f"t{n}", 1, 0, PLACE, OVER, finished=game)

        await asyncio.gather(*(finish(n) for n in range(8)))
        row = (await store.ratings([a]))[0]
        assert (row.games, row.wins) == (8, 4)
        results = await store.rating_results()
        assert [r.seq for r in results] == list(range(1, 9))
        assert (await rebuild(store, write=False)).differences == []

    run(opener, test)


def test_a_player_who_leaves_hands_the_seat_to_the_stand_in(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await add_account(store, "a", "Ann")
        await add_account(store, "b", "Bob")
        await store.create_table(
            rated_table("t", ["a", "b", None]), 1, Turn(0, 0, False, timed=True)
        )
        await store.create_table(rated_table("u", ["a", None, None]), 1, Turn(0, 1, True))
        ongoing, total = await store.account_games("a", False, 10, 0)
        assert total == 2 and [(g.table_id, g.your_turn) for g in ongoing] == [
            ("t", True),
            ("u", False),
        ]
        assert ongoing[0].names == ("Pa", "Pb", "Bot 2")
        assert await store.leave_seat("t", 0, "Stand-in", "medium")
        assert not await store.leave_seat("t", 0, "Stand-in", "medium")  # once
        loaded = await store.load_table("t")
        assert loaded is not None
        seat = loaded[0].seats[0]
        assert (seat.kind, seat.level, seat.account_id) == ("bot", "medium", "a")
        assert seat.left_at is not None
        claimed = await store.claim_bot_turns("me", 10, 30.0)
        assert {(c.table_id, c.step) for c in claimed} == {("t", 0), ("u", 0)}
        ongoing, total = await store.account_games("a", False, 10, 0)
        assert total == 1 and ongoing[0].table_id == "u"
        game = finished(
            "t",
            [(account_player("a"), 3), (account_player("b"), 1), (bot_player("hard"), 2)],
            left=0,
        )
        await store.append_action("t", 1, 0, PLACE, OVER, finished=game)
        reputation = await store.reputations(["a", "b"])
        assert (reputation["a"].finished, reputation["a"].left, reputation["a"].share) == (
            1,
            1,
            0.0,
        )
        assert reputation["b"].share == 1.0
        done, _ = await store.account_games("a", True, 10, 0)
        assert done[0].left and done[0].rank == 3
        # The next game at the table: the seat that left is no longer the account's.
        await store.new_game("t", 2, 5, Turn(0, 0, True))
        reloaded = await store.load_table("t")
        assert reloaded is not None and reloaded[0].seats[0].account_id is None

    run(opener, test)
