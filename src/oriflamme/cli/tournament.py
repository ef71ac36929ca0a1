"""``oriflamme tournament``: bots against bots over many games, with seats rotated, in parallel;
a Markdown report, a JSON file of every figure and game, and charts."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from oriflamme.bots import known_bots
from oriflamme.tournament import (
    BACKENDS,
    BackendError,
    GameFailed,
    GameRecord,
    Plan,
    Settings,
    SettingsError,
    build_results,
    milliseconds,
    plan,
    play,
    write_report,
)

from .common import CliError, progress, whole

DESCRIPTION = """\
Play bots against each other and report win shares with 95% intervals, mean scores, time per
decision, openskill ratings, the seat effect and per-card-type statistics.

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
        choices=BACKENDS,
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
        type=Path,
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


def command_line(args: argparse.Namespace, out: Path) -> str:
    """The command with every setting spelled out (it replays the same games)."""
    parts = ["oriflamme", "tournament", "--bots", args.bots, "--players", str(args.players)]
    parts += ["--games", str(args.games), "--cards", args.cards]
    if args.variant:
        parts += ["--variant", args.variant]
    parts += ["--edition", args.edition, "--seed", str(args.seed), "--jobs", str(args.jobs)]
    parts += ["--backend", args.backend]
    if args.ray_address:
        parts += ["--ray-address", args.ray_address]
    return shlex.join([*parts, "--out", str(out)])


def prepare_out(out: Path, force: bool) -> None:
    """Check, before any game is played, that the report can be written to ``out``: a folder
    that holds files already is refused unless ``force`` (its report files are then replaced).
    Nothing is created yet: an interrupted run leaves no empty folder."""
    if out.exists():
        if not out.is_dir():
            raise CliError(f"{out} exists and is not a directory")
        if any(out.iterdir()) and not force:
            raise CliError(
                f"{out} already holds files (an earlier report?): choose another --out,"
                " or add --force to replace its report"
            )
        if not os.access(out, os.W_OK):
            raise CliError(f"cannot write to the output directory {out}")
        return
    parent = next((p for p in out.absolute().parents if p.exists()), Path("/"))
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise CliError(f"cannot create the output directory {out} (no write access to {parent})")


def play_with_progress(laid_out: Plan, args: argparse.Namespace) -> list[GameRecord]:
    """Play the games, with a progress bar on a terminal, else a line on stderr every 10%."""
    with progress("tournament", laid_out.games, "games") as report:
        return play(laid_out, args.backend, args.jobs, args.ray_address, report)


def run_tournament(args: argparse.Namespace, console: Console | None = None) -> int:
    console = console or Console()
    settings = Settings(
        bots=tuple(spec.strip() for spec in args.bots.split(",")),
        players=args.players,
        cards=args.cards,
        variant=args.variant,
        edition=args.edition,
        seed=args.seed,
        games=args.games,
    )
    if args.jobs < 1:
        raise CliError(f"--jobs must be at least 1, not {args.jobs}")
    if args.ray_address and args.backend != "ray":
        raise CliError("--ray-address needs --backend ray")
    try:
        laid_out = plan(settings)
    except SettingsError as exc:
        raise CliError(str(exc)) from None
    out: Path = args.out or Path(f"tournament-{datetime.now():%Y%m%d-%H%M%S}")
    prepare_out(out, args.force)
    rotation = len(laid_out.lineups)
    if laid_out.games != settings.games:
        print(
            f"tournament: {settings.games} games rounded up to {laid_out.games}, a whole number"
            f" of seat rotations ({rotation} lineups each)",
            file=sys.stderr,
        )
    started = datetime.now().astimezone()
    clock = time.perf_counter()
    try:
        records = play_with_progress(laid_out, args)
    except BackendError as exc:
        raise CliError(str(exc)) from None
    except GameFailed as exc:
        print(f"oriflamme tournament: {exc}", file=sys.stderr)
        return 1
    run = {
        "command": command_line(args, out),
        "started": started.isoformat(timespec="seconds"),
        "seconds": round(time.perf_counter() - clock, 3),
        "backend": args.backend,
        "jobs": args.jobs,
    }
    results = build_results(settings, laid_out, records, run)
    try:
        out.mkdir(parents=True, exist_ok=True)
        write_report(results, out)
    except OSError as exc:
        raise CliError(f"cannot write the report into {out}: {exc.strerror}") from None
    if args.json:
        console.out(json.dumps(results), highlight=False)
        return 0
    console.print(bots_table(results))
    console.print(seats_table(results))
    console.print(
        f"{results['games']} games in {run['seconds']:.1f} s; report: {out / 'report.md'}",
        markup=False,
        highlight=False,
    )
    return 0


def bots_table(results: dict[str, Any]) -> Table:
    """Per bot: seats, win share with its interval, mean score, time, rating."""
    table = Table(title=f"{results['games']} games; Win: win share per seat played")
    for i, heading in enumerate(
        ("Bot", "Seats", "Win", "95% CI", "Score", "ms/dec", "μ", "σ", "μ−3σ")
    ):
        table.add_column(heading, justify="left" if i == 0 else "right", no_wrap=i == 0)
    for b in results["bots"]:
        low, high = b["win_share_ci95"]
        rating = b["rating"]
        table.add_row(
            b["bot"],
            str(b["seats"]),
            f"{b['win_share']:.1%}",
            f"{100 * low:.1f}–{high:.1%}",
            f"{b['mean_score']:.2f}",
            milliseconds(b["mean_decision_seconds"]),
            f"{rating['mu']:.1f}",
            f"{rating['sigma']:.1f}",
            f"{rating['ordinal']:.1f}",
        )
    return table


def seats_table(results: dict[str, Any]) -> Table:
    """Per seat: win share with its interval and mean score (seat 0 places first)."""
    table = Table(title="Seats (seat 0 places first)")
    for heading in ("Seat", "Win share", "95% CI", "Score"):
        table.add_column(heading, justify="right")
    for s in results["seats"]:
        low, high = s["win_share_ci95"]
        share, score = f"{s['win_share']:.1%}", f"{s['mean_score']:.2f}"
        table.add_row(str(s["seat"]), share, f"{100 * low:.1f}–{high:.1%}", score)
    return table
