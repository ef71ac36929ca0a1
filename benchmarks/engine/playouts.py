"""Random-playout benchmark: games/s and decisions/s per set-up, and the cost of a copy.

Run: ``python benchmarks/engine/playouts.py [SECONDS]`` (the same figures as ``oriflamme bench``).
"""

from __future__ import annotations

import platform

from oriflamme.bench.engine import run, seconds_argument


def main() -> None:
    seconds = seconds_argument(3.0, __doc__)
    print(f"Python {platform.python_version()} on {platform.machine()}, one core, {seconds} s each")
    print("games/s and decisions/s: fastest of 5 trials; median games/s beside them")
    print(
        f"{'set-up':24} {'games/s':>9} {'median':>8} {'decisions/s':>12} {'dec/game':>9}"
        f" {'copy µs':>8}"
    )
    for row in run(seconds):
        print(
            f"{row['setup']:24} {row['games_per_s']:>9.0f} {row['median_games_per_s']:>8.0f}"
            f" {row['decisions_per_s']:>12.0f} {row['decisions_per_game']:>9.1f}"
            f" {row['copy_us']:>8.2f}"
        )


if __name__ == "__main__":
    main()
