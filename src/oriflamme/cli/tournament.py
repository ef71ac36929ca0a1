"""``oriflamme tournament``: bots against bots over many games, with seats rotated, in parallel;
a Markdown report, a JSON file of every figure and game, and charts."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any

from oriflamme.bots import known_bots

from .common import file_path, whole

if TYPE_CHECKING:
    from rich.console import Console

#: ``oriflamme.tournament.BACKENDS``, spelled out so that ``oriflamme --help`` does not import
#: the tournament package (a test checks they agree).
BACKEND_CHOICES = ("local", "ray")

DESCRIPTION = """\
Play bots against each other and report win shares with 95% intervals, mean scores, time per
decision, Plackett-Luce ratings, the seat effect and per-card-type statistics.

Seats are rotated so that every bot takes every seat equally often. With B bots and P players:
if B <= P, B lineups where seat s of lineup r is bot (r + s) mod B (B == P: the P cyclic
rotations; B < P: the list repeated to fill the seats, one bot alone is self-play); if B > P,
every set of P bots in its P cyclic rotations. The games are rounded up to a whole number of
rotations; the games of one rotation share their deal. Results are the same for any --jobs.
"""


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Register the ``tournament`` command."""
    parser = commands.add_parser(
        "tournament",
        help="play many bot games with seats rotated; report, ratings and charts",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--bots",
        required=True,
        metavar="SPECS",
        help="comma list of bot specs, each an entrant, e.g. 'greedy,ismcts,random'; a spec listed"
        " twice is two entrants ('hard,greedy,greedy': one against two)"
        f" (known bots: {', '.join(known_bots())})",
    )
    parser.add_argument(
        "--players", type=whole(2, 5), default=3, metavar="N",
        help="players per game, 2 to 5 (default 3)",
    )
    parser.add_argument(
        "--games",
        type=int,
        required=True,
        metavar="K",
        help="number of games (rounded up to a whole number of seat rotations)",
    )
    parser.add_argument(
        "--cards",
        default="base",
        metavar="SET",
        help="'base', 'embrasement', or 10 card names separated by commas (default base)",
    )
    parser.add_argument(
        "--variant",
        choices=("two-families", "standard"),
        default=None,
        help="two-families (the 2-player variant, default for 2 players) or standard",
    )
    parser.add_argument(
        "--edition", choices=("revised", "first"), default="revised", help="default revised"
    )
    parser.add_argument(
        "--seed", type=whole(0, 2**63 - 1), default=0, metavar="S",
        help="tournament seed (default 0)",
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=os.cpu_count() or 1,
        metavar="N",
        help="worker processes or Ray CPUs (default: the number of CPUs)",
    )
    parser.add_argument(
        "--backend",
        choices=BACKEND_CHOICES,
        default="local",
        help="local processes or Ray (default local)",
    )
    parser.add_argument(
        "--ray-address",
        default=None,
        metavar="ADDR",
        help="with --backend ray: the cluster to join ('auto' or host:port; default: start a"
        " local Ray)",
    )
    parser.add_argument(
        "--out",
        type=file_path,
        default=None,
        metavar="DIR",
        help="where to write report.md, results.json and the charts"
        " (default tournament-<timestamp>)",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="write the report into --out even if that folder holds files already",
    )
    parser.add_argument(
        "--json", action="store_true", help="print the results JSON instead of the summary"
    )


def run_tournament(args: argparse.Namespace, console: Console | None = None) -> int:
    """Run the command (its module is imported here: the tournament package is large)."""
    from .tournament_run import run

    return run(args, console)
