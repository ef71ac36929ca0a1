"""``oriflamme simulate``: many bot games and a summary of their results."""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

from oriflamme.api import Game, new_game
from oriflamme.bots import play_game

from .common import CliError, check_first_player, progress, seat_bots


def simulate(
    players: int,
    cards: str,
    games: int,
    seed: int,
    variant: str | None = None,
    edition: str = "revised",
    first_player: int | None = 0,
    bots: str = "random",
    on_game: Callable[[], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, ...) and summarise them.

    A shared victory counts 1/k for each of its k co-winners (``Result.shares``, as in
    tournaments), so ``sum(wins) == games``; ``tied_games`` counts the shared victories.
    """
    if games < 1:
        raise CliError(f"--games must be at least 1, not {games}")
    totals = [0] * players
    wins = [0.0] * players
    tied = 0
    decisions = 0
    names: list[str] = []
    started = time.perf_counter()
    # The set-up once (it checks the options); then each game is dealt from its seed.
    config = new_game(
        players, cards, variant, edition, first_player=first_player, seed=seed, log=False
    ).config
    for i in range(games):
        game = Game.new(config, seed + i, log=False)
        seat_of = seat_bots(bots, range(players), seed + i)
        names = [seat_of[p].name for p in range(players)]
        result = play_game(game, seat_of)
        assert result is not None
        for p, score in enumerate(result.scores):
            totals[p] += score
        for p, share in enumerate(result.shares()):
            wins[p] += share
        tied += len(result.winners) > 1
        decisions += len(game.history)
        if on_game is not None:
            on_game()
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "players": players,
        "cards": config.to_dict()["cards"],
        "variant": config.variant,
        "seed": seed,
        "bots": names,
        "mean_scores": [t / games for t in totals],
        "wins": [round(w, 6) for w in wins],
        "tied_games": tied,
        "mean_decisions": decisions / games,
        "seconds": round(seconds, 3),
    }


def run_simulate(args: argparse.Namespace, console: Console | None = None) -> int:
    kwargs: dict[str, Any] = {
        "players": args.players,
        "cards": args.cards,
        "games": args.games,
        "seed": args.seed,
        "variant": args.variant,
        "edition": args.edition,
        "first_player": args.first_player,
        "bots": args.bots,
    }
    check_first_player(args)
    with progress("simulate", args.games, "games") as report:
        summary = simulate(**kwargs, on_game=lambda: report(1))
    if args.json:
        if console is None:  # plain print: JSON needs no rich (part of a short run's start-up)
            print(json.dumps(summary))
        else:
            console.out(json.dumps(summary), highlight=False)
        return 0
    from rich.console import Console

    console = console or Console()
    console.print(summary_table(summary))
    console.print(
        f"{summary['games']} games, {summary['tied_games']} with a shared victory (each"
        " co-winner counts 1/k of a win);"
        f" {summary['mean_decisions']:.1f} decisions per game; {summary['seconds']:.2f} s.",
        markup=False,
    )
    return 0


def summary_table(summary: dict[str, Any]) -> Table:
    from rich.table import Table

    games = summary["games"]
    table = Table(title=f"{games} games, {summary['players']} players, {summary['cards']} cards")
    for heading in ("Seat", "Bot", "Mean score", "Wins", "Win share"):
        table.add_column(heading, justify="right")
    for p, (bot, mean, wins) in enumerate(
        zip(summary["bots"], summary["mean_scores"], summary["wins"], strict=True)
    ):
        table.add_row(str(p), bot, f"{mean:.2f}", f"{wins:g}", f"{wins / games:.1%}")
    return table
