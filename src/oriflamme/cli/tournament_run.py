"""``oriflamme tournament`` once its arguments are read: play the games, write the report."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from oriflamme.tournament import (
    BackendError,
    GameFailed,
    GameRecord,
    Plan,
    Settings,
    SettingsError,
    build_results,
    compact_json,
    milliseconds,
    plan,
    play,
    write_report,
)

from .common import CliError, progress

if TYPE_CHECKING:  # rich is imported when tables are printed: --json needs none of it
    from rich.console import Console
    from rich.table import Table


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
    parent = next((p for p in out.absolute().parents if p.exists()), out.absolute().parents[-1])
    if not parent.is_dir() or not os.access(parent, os.W_OK):
        raise CliError(f"cannot create the output directory {out} (no write access to {parent})")


def play_with_progress(laid_out: Plan, args: argparse.Namespace) -> list[GameRecord]:
    """Play the games, with a progress bar on a terminal, else a line on stderr every 10%."""
    with progress("tournament", laid_out.games, "games") as report:
        return play(laid_out, args.backend, args.jobs, args.ray_address, report)


def run(args: argparse.Namespace, console: Console | None = None) -> int:
    """``oriflamme tournament``: plan, play, report."""
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
        if console is None:  # plain print: JSON needs no rich
            print(compact_json(results))
        else:
            console.out(compact_json(results), highlight=False)
        return 0
    from rich.console import Console

    console = console or Console()
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
    from rich.table import Table

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
    from rich.table import Table

    table = Table(title="Seats (seat 0 places first)")
    for heading in ("Seat", "Win share", "95% CI", "Score"):
        table.add_column(heading, justify="right")
    for s in results["seats"]:
        low, high = s["win_share_ci95"]
        share, score = f"{s['win_share']:.1%}", f"{s['mean_score']:.2f}"
        table.add_row(str(s["seat"]), share, f"{100 * low:.1f}–{high:.1%}", score)
    return table
