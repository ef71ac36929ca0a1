"""The random-playout benchmark behind ``oriflamme bench`` (figures in docs/benchmarks.md).

Plays uniformly random full games through the public API on one core, for each set-up, and
measures the cost of copying a mid-game state (search bots copy millions of them).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from .api import Game, GameConfig

#: (label, configuration) of every set-up measured.
SETUPS: tuple[tuple[str, GameConfig], ...] = (
    ("3p base", GameConfig(players=3, cards="base")),
    ("4p base", GameConfig(players=4, cards="base")),
    ("5p base", GameConfig(players=5, cards="base")),
    ("3p embrasement", GameConfig(players=3, cards="embrasement")),
    ("4p embrasement", GameConfig(players=4, cards="embrasement")),
    ("5p embrasement", GameConfig(players=5, cards="embrasement")),
    ("2p two-families base", GameConfig(players=2, cards="base")),
    ("2p two-families embrasement", GameConfig(players=2, cards="embrasement")),
)


def measure_playouts(config: GameConfig, seconds: float, seed: int = 0) -> dict[str, Any]:
    """Random full games (deal included, no event log) for about ``seconds``."""
    rng = random.Random(seed)
    games = decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            decisions += Game.new(config, seed + games, log=False).playout(rng)
            games += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "games": games,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed, 1),
        "decisions_per_game": round(decisions / games, 2),
    }


def measure_copy(config: GameConfig, samples: int = 20000, seed: int = 0) -> float:
    """Mean microseconds to copy a state in the middle of round 4 (log dropped)."""
    rng = random.Random(seed)
    game = Game.new(config, seed, log=False)
    while game.round < 4 and not game.is_over:
        game.apply(game.random_action(rng))
    start = time.perf_counter()
    for _ in range(samples):
        game.copy(log=False)
    return (time.perf_counter() - start) / samples * 1e6


def run(
    seconds: float = 2.0,
    setups: tuple[tuple[str, GameConfig], ...] = SETUPS,
    progress: Callable[[str], None] | None = None,
) -> list[dict[str, Any]]:
    """Measure every set-up for about ``seconds`` each; one dict of figures per set-up."""
    rows = []
    for label, config in setups:
        if progress is not None:
            progress(label)
        row: dict[str, Any] = {"setup": label, **measure_playouts(config, seconds)}
        row["copy_us"] = round(measure_copy(config), 2)
        rows.append(row)
    return rows
