"""The random-playout benchmark behind ``oriflamme bench`` (figures in docs/benchmarks.md).

Plays uniformly random full games through the public API on one core, for each set-up, and
measures the cost of copying a mid-game state (search bots copy millions of them).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

from oriflamme.api import Game, GameConfig

#: (label, configuration) of every set-up measured.
SETUPS: tuple[tuple[str, GameConfig], ...] = (
    ("3p base", GameConfig(players=3, cards="base")),
    ("4p base", GameConfig(players=4, cards="base")),
    ("5p base", GameConfig(players=5, cards="base")),
    ("3p embrasement", GameConfig(players=3, cards="embrasement")),
    ("4p embrasement", GameConfig(players=4, cards="embrasement")),
    ("5p embrasement", GameConfig(players=5, cards="embrasement")),
    ("2p 2-family base", GameConfig(players=2, cards="base")),
    ("2p 2-family embrasement", GameConfig(players=2, cards="embrasement")),
)


def seconds_argument(default: float, doc: str | None) -> float:
    """The optional SECONDS (time per figure) of a benchmark script's command line, a positive
    number; ``--help`` describes the script from the first paragraph of ``doc``."""
    parser = argparse.ArgumentParser(description=(doc or "").split("\n\n")[0])
    parser.add_argument("seconds", nargs="?", type=float, default=default,
                        help=f"time per figure, in seconds (default {default:g})")
    seconds: float = parser.parse_args().seconds
    if not seconds > 0:
        parser.error(f"SECONDS must be a positive number, not {seconds:g}")
    return seconds


def measure_playouts(
    config: GameConfig, seconds: float, seed: int = 0, trials: int = 5
) -> dict[str, Any]:
    """Random full games (deal included, no event log) for about ``seconds`` in all.

    The time is split into ``trials``; like ``timeit``, the figures are those of the fastest
    trial (the least disturbed by other work on the machine), with the median beside them.
    """
    rng = random.Random(seed)

    def play(game_seed: int) -> int:
        return Game.new(config, game_seed, log=False).playout(rng)

    rates, games, decisions = _trials(play, seed, seconds, trials, batch=20)
    best, median = rates[-1], rates[len(rates) // 2]
    return {
        "games": games,
        "games_per_s": round(best[0], 1),
        "decisions_per_s": round(best[1], 1),
        "median_games_per_s": round(median[0], 1),
        "decisions_per_game": round(decisions / games, 2),
    }


def measure_loop(
    config: GameConfig, seconds: float, seed: int = 0, trials: int = 5
) -> dict[str, Any]:
    """Random full games played by a loop of ``legal_actions()`` and ``apply(action,
    check=False)`` (what search code does, where :meth:`Game.playout` does not fit): games/s and
    decisions/s of the fastest trial, as :func:`measure_playouts`."""
    rng = random.Random(seed)

    def play(game_seed: int) -> int:
        game = Game.new(config, game_seed, log=False)
        n = 0
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))], check=False)
            n += 1
        return n

    rates = _trials(play, seed, seconds, trials, batch=10)[0]
    best = rates[-1]
    return {"games_per_s": round(best[0], 1), "decisions_per_s": round(best[1], 1)}


def _trials(
    play: Callable[[int], int], seed: int, seconds: float, trials: int, batch: int
) -> tuple[list[tuple[float, float]], int, int]:
    """Games ``play(seed + i)`` (each returns its decisions) in ``trials`` timed trials of
    ``seconds / trials``, ``batch`` games between looks at the clock: the (games/s,
    decisions/s) of each trial, slowest first, and the games and decisions in all."""
    games = decisions = 0
    rates: list[tuple[float, float]] = []
    for _ in range(trials):
        trial_games = trial_decisions = 0
        start = time.perf_counter()
        deadline = start + seconds / trials
        while True:
            for _ in range(batch):
                trial_decisions += play(seed + games)
                trial_games += 1
                games += 1
            if time.perf_counter() >= deadline:
                break
        elapsed = time.perf_counter() - start
        rates.append((trial_games / elapsed, trial_decisions / elapsed))
        decisions += trial_decisions
    rates.sort()
    return rates, games, decisions


def measure_copy(config: GameConfig, samples: int = 5000, seed: int = 0) -> float:
    """Microseconds to copy a state in the middle of round 4 (log dropped; best of 5)."""
    rng = random.Random(seed)
    game = Game.new(config, seed, log=False)
    while game.round < 4 and not game.is_over:
        game.apply(game.random_action(rng))
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(samples):
            game.copy(log=False)
        best = min(best, (time.perf_counter() - start) / samples * 1e6)
    return best


def run(
    seconds: float = 2.0,
    setups: tuple[tuple[str, GameConfig], ...] = SETUPS,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Measure every set-up for about ``seconds`` each; one dict of figures per set-up.
    ``progress(label)`` is called as each set-up is done."""
    rows = []
    for label, config in setups:
        row: dict[str, Any] = {"setup": label, **measure_playouts(config, seconds)}
        row["copy_us"] = round(measure_copy(config), 2)
        rows.append(row)
        if progress is not None:
            progress(label)
    return rows
