"""Bot benchmark: time per decision of each level, and ISMCTS iterations per second.

The bots answer the same positions: every decision with a choice met in a few ``greedy``
self-play games (3 players, base cards unless told), taken in order, so each bot sees early,
middle and late positions alike. Each bot thinks once per position, on one core.

Run: ``python benchmarks/bots/levels.py [--positions N] [--players P] [--cards SET] [--bots a,b]``.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from oriflamme.api import Action, GameConfig
from oriflamme.bench.bots import search_positions
from oriflamme.bots import make_bot

DEFAULT_BOTS = "easy,medium,hard,expert"
#: A decision as a bot receives it: the observation and the legal actions.
Position = tuple[dict[str, Any], list[Action]]
WIDTHS = (9, 10, 8, 8, 9)


def positions(players: int, cards: str, count: int, seed: int) -> list[Position]:
    """``count`` decisions with a choice, as (observation, legal actions), from greedy
    self-play: about a quarter of the sample per game."""
    config = GameConfig(players=players, cards=cards, first_player=0)
    return search_positions(config, count, seed, per_game=count // 4)


def measure(spec: str, sample: Sequence[Position]) -> dict[str, Any]:
    """Seconds per decision (mean, median, max) and, for ISMCTS bots, iterations per second."""
    bot = make_bot(spec, seed=1)
    times: list[float] = []
    iterations = 0
    for i, (observation, legal) in enumerate(sample, 1):
        start = time.perf_counter()
        bot.act(observation, legal)
        times.append(time.perf_counter() - start)
        searched = getattr(bot, "last_search", None)  # the ISMCTS and the guided search
        if searched is not None:
            iterations += searched.iterations
        print(f"\r  {spec}: {i}/{len(sample)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    total = sum(times)
    return {
        "bot": spec,
        "mean_s": total / len(times),
        "median_s": statistics.median(times),
        "max_s": max(times),
        "iterations_per_s": iterations / total if hasattr(bot, "last_search") else None,
        "mean_iterations": iterations / len(times) if hasattr(bot, "last_search") else None,
    }


def _row(cells: Sequence[str]) -> str:
    numbers = zip(cells[1:], WIDTHS, strict=True)
    return f"{cells[0]:33} " + " ".join(f"{cell:>{width}}" for cell, width in numbers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=40, help="positions per bot (default 40)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--cards", default="base")
    parser.add_argument("--bots", default=DEFAULT_BOTS, help=f"default {DEFAULT_BOTS}")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sample = positions(args.players, args.cards, args.positions, args.seed)
    print(f"Python {platform.python_version()}, {args.players} players, {args.cards} cards, "
          f"{len(sample)} positions with a choice")
    header = ("bot", "mean ms", "median ms", "max ms", "iter/s", "iter/dec")
    print(_row(header))
    for spec in args.bots.split(","):
        row = measure(spec.strip(), sample)
        ips = "" if row["iterations_per_s"] is None else f"{row['iterations_per_s']:.0f}"
        ipd = "" if row["mean_iterations"] is None else f"{row['mean_iterations']:.0f}"
        cells = (f"{1000 * row['mean_s']:.2f}", f"{1000 * row['median_s']:.2f}",
                 f"{1000 * row['max_s']:.1f}", ips, ipd)
        print(_row((row["bot"], *cells)))


if __name__ == "__main__":
    main()
