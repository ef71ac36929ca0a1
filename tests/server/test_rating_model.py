"""The rating model and a finished game's outcome: pools, the displayed figure, ranks with
ties and leavers, OpenSkill's update, several seats of one bot level, and who ranks last."""

from __future__ import annotations

import random

from openskill.models import PlackettLuce

from oriflamme.api import Game, GameConfig
from oriflamme.server.rating_model import (
    Belief,
    RatedGame,
    RatedSeat,
    finishing_ranks,
    pool_of,
    rate,
    shown,
)
from oriflamme.server.rating_outcome import outcome
from oriflamme.server.storage import GameRecord, SeatRecord, TableRecord
from oriflamme.server.tables import Table


def test_pools_and_the_displayed_figure() -> None:
    assert pool_of(2, "two-families") == "2p" and pool_of(2, "standard") is None
    assert [pool_of(n, "standard") for n in (3, 4, 5)] == ["3-5p"] * 3
    assert shown(25.0, 25.0 / 3) == 1000  # a newcomer
    assert shown(25.0, 2.0) == 1570  # an established average player
    assert Belief().rating == 1000


def test_ranks_keep_ties_and_put_leavers_last() -> None:
    scores = [(7, 2), (9, 1), (7, 2), (9, 1), (12, 0)]
    assert finishing_ranks(scores, [False] * 5) == [3, 2, 3, 2, 1]
    assert finishing_ranks(scores, [False, False, False, False, True]) == [2, 1, 2, 1, 3]
    assert finishing_ranks(scores, [True, False, False, True, False]) == [4, 2, 3, 4, 1]


def test_the_update_is_openskills_plackett_luce_and_a_level_takes_its_seats_mean() -> None:
    game = RatedGame(
        "t",
        1,
        "3-5p",
        (
            RatedSeat(0, "account:a", 1, won=True),
            RatedSeat(1, "bot:hard", 2),
            RatedSeat(2, "bot:hard", 2),
            RatedSeat(3, "account:b", 4, left=True),
        ),
    )
    before = {"account:a": Belief(30.0, 5.0), "bot:hard": Belief(28.0, 3.0)}
    after = rate(before, game)
    model = PlackettLuce()
    teams = [[model.rating(mu=m, sigma=s)] for m, s in ((30, 5), (28, 3), (28, 3), (25, 25 / 3))]
    expected = model.rate(teams, ranks=[1.0, 2.0, 2.0, 4.0])
    assert after["account:a"] == Belief(expected[0][0].mu, expected[0][0].sigma)
    assert after["account:b"] == Belief(expected[3][0].mu, expected[3][0].sigma)
    hard = [expected[1][0], expected[2][0]]
    assert after["bot:hard"] == Belief(sum(r.mu for r in hard) / 2, sum(r.sigma for r in hard) / 2)
    assert after["account:a"].mu > 30.0 > after["bot:hard"].mu
    assert RatedGame.from_json("t", 1, "3-5p", game.to_json()) == game


def _finished_table(stand_in_share: float) -> tuple[Table, Game]:
    """A 3-player table (seat 0 an account's, seats 1 and 2 bots) one action before its
    game's end, seat 0's decisions made by the stand-in in about ``stand_in_share``."""
    config = GameConfig(players=3)
    game = Game.new(config, 11)
    rng = random.Random(4)
    actions, sources, players = [], [], []
    while not game.is_over:
        player = game.current_player
        action = game.random_action(rng)
        players.append(player)
        actions.append(action.to_json())
        game.apply(action)
    mine = [i for i, p in enumerate(players) if p == 0]
    by_stand_in = set(mine[: round(stand_in_share * len(mine))])
    for i, player in enumerate(players):
        sources.append(
            "stand_in:clock" if i in by_stand_in else ("player" if player == 0 else "bot")
        )
    seats = (
        SeatRecord(0, "human", "Ann", None, "a" * 64, account_id="a"),
        SeatRecord(1, "bot", "Blue bot", "easy", None),
        SeatRecord(2, "bot", "Red bot", "easy", None),
    )
    record = TableRecord("t", config.to_dict(), "en", "c" * 64, "s" * 64, seats, rated=True)
    table = Table(record, GameRecord(1, 11, tuple(actions[:-1]), sources=tuple(sources[:-1])))
    return table, game


def test_a_player_the_stand_in_mostly_played_for_ranks_last() -> None:
    for share, last in ((0.3, False), (0.8, True)):
        table, after = _finished_table(share)
        source = "player" if after.history and not last else "stand_in:clock"
        found = outcome(table, after, source)
        assert found is not None and found.pool == "3-5p"
        seat = found.seats[0]
        assert seat.player == "account:a" and seat.left is last
        if last:
            assert seat.rank == max(s.rank for s in found.seats) and not seat.won
        assert [s.player for s in found.seats[1:]] == ["bot:easy", "bot:easy"]


def test_a_game_without_accounts_at_an_unrated_table_has_no_outcome() -> None:
    table, after = _finished_table(0.0)
    table.seats[0] = SeatRecord(0, "human", "Ann", None, "a" * 64)
    table.rated = False
    assert outcome(table, after, "player") is None
    table.rated = True
    found = outcome(table, after, "player")
    assert found is not None and found.seats[0].player == "guest"


def test_an_accounts_seat_handed_to_a_bot_ranks_last() -> None:
    table, after = _finished_table(0.0)
    table.seats[0] = SeatRecord(0, "bot", "Red bot (easy)", "easy", "a" * 64, account_id="a")
    found = outcome(table, after, "bot")
    assert found is not None
    assert found.seats[0].player == "account:a" and found.seats[0].left
    assert found.seats[0].rank == max(s.rank for s in found.seats)
