"""``oriflamme simulate``: many bot games and a summary of their results."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

from oriflamme.api import Game, GameConfig, new_game
from oriflamme.bots import play_game
from oriflamme.bots.base import check_bot_setup

from .common import CliError, bot_seed, check_first_player, progress, seat_bots, seat_makers


@dataclass(slots=True)
class Tally:
    """What a run of games adds up to; counts only (shared victories by their number of
    co-winners), so that runs add up to the same summary in any grouping (``--jobs``)."""

    players: int
    games: int = 0
    totals: list[int] = field(default_factory=list)
    #: wins[p][k]: victories of seat p shared by k co-winners (k = 1: alone).
    wins: list[dict[int, int]] = field(default_factory=list)
    tied: int = 0
    decisions: int = 0
    names: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.totals = self.totals or [0] * self.players
        self.wins = self.wins or [{} for _ in range(self.players)]

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.totals = [a + b for a, b in zip(self.totals, other.totals, strict=True)]
        for mine, theirs in zip(self.wins, other.wins, strict=True):
            for k, n in theirs.items():
                mine[k] = mine.get(k, 0) + n
        self.tied += other.tied
        self.decisions += other.decisions
        self.names = self.names or other.names

    def win_shares(self) -> list[float]:
        """Each seat's wins, a shared victory counting 1/k (the same sum in any order)."""
        return [sum(n / k for k, n in sorted(w.items())) for w in self.wins]


def play_games(config: GameConfig, bots: str, seeds: range,
               on_game: Callable[[], None] | None = None) -> Tally:
    """Play the games dealt from ``seeds`` (bots seeded from each game's seed) and count."""
    tally = Tally(config.players)
    totals, wins = tally.totals, tally.wins
    players = range(config.players)
    makers = list(seat_makers(bots, players).values())  # the specs read once, not per game
    for seed in seeds:
        game = Game.new(config, seed, log=False)
        seat_of = {p: make(bot_seed(seed, p)) for p, make in enumerate(makers)}
        result = play_game(game, seat_of)
        assert result is not None
        for p, score in enumerate(result.scores):
            totals[p] += score
        k = len(result.winners)
        for p in result.winners:
            wins[p][k] = wins[p].get(k, 0) + 1
        tally.tied += k > 1
        tally.decisions += len(game.history)
        tally.games += 1
        if on_game is not None:
            on_game()
    tally.names = [seat_of[p].name for p in players] if seeds else []
    return tally


def simulate(
    players: int,
    cards: str,
    games: int,
    seed: int,
    variant: str | None = None,
    edition: str = "revised",
    first_player: int | None = 0,
    bots: str = "random",
    jobs: int = 1,
    on_games: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Play ``games`` games (seeds ``seed``, ``seed + 1``, ...) and summarise them.

    A shared victory counts 1/k for each of its k co-winners (``Result.shares``, as in
    tournaments), so ``sum(wins) == games``; ``tied_games`` counts the shared victories.
    With ``jobs`` > 1 the games are shared among that many processes; the summary is the same
    for any ``jobs`` (but ``seconds``). ``on_games`` is called with the number of games just
    finished (each game in one process, each chunk with several).
    """
    if games < 1:
        raise CliError(f"--games must be at least 1, not {games}")
    if jobs < 1:
        raise CliError(f"--jobs must be at least 1, not {jobs}")
    started = time.perf_counter()
    # The set-up once (it checks the options and the bots); then each game is dealt from its seed.
    config = new_game(
        players, cards, variant, edition, first_player=first_player, seed=seed, log=False
    ).config
    for bot in seat_bots(bots, range(players), seed).values():
        check_bot_setup(bot, config)
    seeds = range(seed, seed + games)
    if jobs == 1 or games == 1:
        each = None if on_games is None else (lambda: on_games(1))
        tally = play_games(config, bots, seeds, each)
    else:
        tally = _in_processes(config, bots, seeds, jobs, on_games)
    seconds = time.perf_counter() - started
    return {
        "games": games,
        "players": players,
        "cards": config.to_dict()["cards"],
        "variant": config.variant,
        "seed": seed,
        "bots": tally.names,
        "mean_scores": [t / games for t in tally.totals],
        "wins": [round(w, 6) for w in tally.win_shares()],
        "tied_games": tally.tied,
        "mean_decisions": tally.decisions / games,
        "seconds": round(seconds, 3),
    }


#: Chunks of games handed to each process (more: smoother progress; fewer: less overhead).
CHUNKS_PER_JOB = 8


def _in_processes(config: GameConfig, bots: str, seeds: range, jobs: int,
                  on_games: Callable[[int], None] | None) -> Tally:
    """:func:`play_games` over ``jobs`` processes, the chunks added up in seed order."""
    import multiprocessing  # imported here: a run in one process starts faster without them
    from concurrent.futures import ProcessPoolExecutor, as_completed

    size = max(1, -(-len(seeds) // (jobs * CHUNKS_PER_JOB)))
    chunks = [seeds[i:i + size] for i in range(0, len(seeds), size)]
    # Forked workers inherit bots registered at run time (a script, a test), as in tournaments.
    context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    parts: dict[int, Tally] = {}
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {pool.submit(play_games, config, bots, chunk): n
                   for n, chunk in enumerate(chunks)}
        for future in as_completed(futures):
            part = future.result()
            parts[futures[future]] = part
            if on_games is not None:
                on_games(part.games)
    tally = Tally(config.players)
    for n in range(len(chunks)):
        tally.add(parts[n])
    return tally


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
        "jobs": args.jobs,
    }
    check_first_player(args)
    with progress("simulate", args.games, "games") as report:
        summary = simulate(**kwargs, on_games=report)
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
        f" {summary['mean_decisions']:.1f} decisions per game; {_duration(summary['seconds'])}.",
        markup=False,
    )
    return 0


def _duration(seconds: float) -> str:
    """``"0.85 s"``, or in milliseconds below a second (a short run would read ``0.00 s``)."""
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.0f} ms"


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
