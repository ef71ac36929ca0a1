"""A bot level's rated games in storage, on both backends (its profile: docs/server.md,
"Ratings"): the games found through its rating history, its best seat's rank and whether one of
its seats won, paging, and its games and wins by player count."""

from __future__ import annotations

import json
import sqlite3

from oriflamme.server.rating_model import RatedGame, RatedSeat, account_player, bot_player
from oriflamme.server.storage import Store, Turn
from oriflamme.server.storage.sql_bot_games import won_pattern
from test_ratings_store import OVER, PLACE, Opener, add_account, finished, rated_table
from test_storage import run

HARD, EASY = bot_player("hard"), bot_player("easy")


def test_the_won_pattern_matches_the_stored_seats_of_a_win_only() -> None:
    game = RatedGame(
        "t", 1, "3-5p",
        (
            RatedSeat(0, HARD, 2),
            RatedSeat(1, EASY, 1, won=True),
            RatedSeat(2, account_player("a"), 3),
        ),
    )
    stored = json.dumps(game.to_json())  # as the store writes a result
    like = sqlite3.connect(":memory:")
    assert like.execute("SELECT ? LIKE ?", (stored, won_pattern(EASY))).fetchone() == (1,)
    assert like.execute("SELECT ? LIKE ?", (stored, won_pattern(HARD))).fetchone() == (0,)


def test_a_bot_levels_games_are_its_rated_games(opener: Opener) -> None:
    async def test(store: Store) -> None:
        await add_account(store, "a", "Ann")
        a = account_player("a")
        # t1: hard's two seats, one of them wins; t2: hard last of four; t3: unrated (not
        # counted); t4: easy alone with Ann (not hard's).
        games = {
            "t1": (["a", None, None], [(a, 3), (HARD, 1), (HARD, 2)], "3-5p"),
            "t2": (["a", None, None, None], [(a, 1), (HARD, 4), (EASY, 2), (EASY, 3)], "3-5p"),
            "t3": (["a", None, None], [(a, 2), (HARD, 1), (HARD, 3)], None),
            "t4": (["a", None], [(a, 2), (EASY, 1)], "2p"),
        }
        for table_id, (owners, seats, pool) in games.items():
            await store.create_table(
                rated_table(table_id, owners, rated=pool is not None), 1, Turn(0, 0, False)
            )
            game = finished(table_id, seats, pool=pool)
            await store.append_action(table_id, 1, 0, PLACE, OVER, finished=game)
        hard, total = await store.bot_games(HARD, 10, 0)
        assert total == 2
        assert [(g.table_id, g.seat, g.rank, g.won, g.rated, g.finished) for g in hard] == [
            ("t2", 1, 4, False, True, True),
            ("t1", 1, 1, True, True, True),
        ]
        assert hard[1].names == ("Pa", "Bot 1", "Bot 2") and hard[1].config == {"players": 3}
        page, total = await store.bot_games(HARD, 1, 1)
        assert total == 2 and [g.table_id for g in page] == ["t1"]
        assert await store.bot_results_by_players(HARD) == {3: (1, 1), 4: (1, 0)}
        assert await store.bot_results_by_players(EASY) == {2: (1, 1), 4: (1, 0)}
        assert await store.bot_games(bot_player("expert"), 10, 0) == ([], 0)
        assert await store.bot_results_by_players(bot_player("expert")) == {}

    run(opener, test)
