"""``oriflamme bench``: the speed figures of issue #13 in one run, for the build in use.

Random playouts of every set-up (:mod:`oriflamme.bench.engine`), the 3-player engine loops
and random-bot games through the runner, ISMCTS iterations per second
(:mod:`oriflamme.bench.bots`) and the adapters' step cost (:mod:`oriflamme.bench.envs`, with
the ``rl`` extra). ``--other PYTHON`` runs the same benchmark in another installed build
(for instance a pure install beside a compiled one) and prints the two side by side.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from .. import __version__
from ..api import GameConfig
from ..bench.bots import measure_ismcts, measure_simulate
from ..bench.engine import SETUPS, measure_loop, run
from ..bench.envs import measure_adapters
from ..build import build_name
from .common import CliError, progress

#: The columns shown, with their titles (``--json`` gives every figure).
HEADINGS = {
    "setup": "set-up",
    "games_per_s": "games/s",
    "decisions_per_s": "decisions/s",
    "decisions_per_game": "per game",
    "copy_us": "copy µs",
}
#: The set-up of the engine, search and adapter figures.
ENGINE_SETUP: dict[str, Any] = {"players": 3, "cards": "base"}
#: The figures compared with ``--other``: (section, key, label, higher is better).
COMPARED = (
    ("engine", "playout_games_per_s", "playouts, games/s", True),
    ("engine", "loop_games_per_s", "legal_actions/apply loop, games/s", True),
    ("engine", "simulate_games_per_s", "random bots through the runner, games/s", True),
    ("search", "iterations_per_s", "ISMCTS iterations/s", True),
    ("adapters", "openspiel_us", "OpenSpiel step µs", False),
    ("adapters", "pettingzoo_observe_us", "PettingZoo step with observation µs", False),
)


def bench_table(rows: Sequence[dict[str, Any]]) -> Table:
    """The usual figures of each set-up; any other row layout is shown key by key."""
    keys = [k for k in HEADINGS if any(k in row for row in rows)]
    if not keys:
        keys = list(dict.fromkeys(k for row in rows for k in row))
    table = Table(title="Random playouts, one core")
    for i, key in enumerate(keys):
        first = i == 0
        table.add_column(
            HEADINGS.get(key, key), justify="left" if first else "right", no_wrap=True
        )
    for row in rows:
        table.add_row(*(_cell(row.get(key, "")) for key in keys))
    return table


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.0f}" if value >= 100 else f"{value:,.2f}"
    return str(value)


def measure_all(seconds: float) -> dict[str, Any]:
    """Every figure of ``oriflamme bench`` (about 15 x ``seconds`` in all)."""
    config = GameConfig(**ENGINE_SETUP)
    figures: dict[str, Any] = {"version": __version__, "build": build_name(),
                               "python": platform.python_version()}
    with progress("bench", len(SETUPS) + 4, "parts") as report:
        figures["playouts"] = run(seconds, progress=lambda _label: report(1))
        loop = measure_loop(config, seconds)
        report(1)
        simulate = measure_simulate(config, seconds)
        report(1)
        figures["engine"] = {
            "setup": "3p base",
            "playout_games_per_s": figures["playouts"][0]["games_per_s"],
            "loop_games_per_s": loop["games_per_s"],
            "simulate_games_per_s": simulate["games_per_s"],
        }
        figures["search"] = measure_ismcts(config, positions=max(1, round(2 * seconds)))
        report(1)
        figures["adapters"] = measure_adapters(ENGINE_SETUP, 2 * seconds)
        report(1)
    return figures


def _other_figures(python: str, seconds: float) -> dict[str, Any]:
    """The same benchmark run by another installed build (its own process, no PYTHONPATH)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    try:
        done = subprocess.run(
            [python, "-m", "oriflamme", "bench", "--json", "--seconds", str(seconds)],
            capture_output=True, text=True, env=env, timeout=3600,
        )
    except OSError as error:
        raise CliError(f"--other {python}: cannot run it ({error.strerror or error})") from None
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise CliError(f"--other {python}: its benchmark failed ({last})")
    try:
        figures = json.loads(done.stdout)
    except json.JSONDecodeError:
        figures = None
    if not isinstance(figures, dict) or "build" not in figures:
        raise CliError(f"--other {python}: its oriflamme does not give these figures (too old?)")
    return figures


def summary_table(figures: dict[str, Any]) -> Table:
    table = Table(title=f"oriflamme {figures['version']}, {figures['build']}, 3p base, one core")
    table.add_column("figure", no_wrap=True)
    table.add_column("value", justify="right")
    table.add_column("× engine step", justify="right")
    engine, search, adapters = figures["engine"], figures["search"], figures["adapters"]
    table.add_row("playouts, games/s", _cell(engine["playout_games_per_s"]), "")
    table.add_row("legal_actions/apply loop, games/s", _cell(engine["loop_games_per_s"]), "")
    table.add_row("random bots through the runner, games/s",
                  _cell(engine["simulate_games_per_s"]), "")
    table.add_row(f"{search['bot']}: iterations/s", _cell(search["iterations_per_s"]), "")
    table.add_row(f"{search['bot']}: ms per decision", _cell(search["ms_per_decision"]), "")
    if "missing" in adapters:
        table.add_row("adapters", f"not measured: {adapters['missing']}", "")
    else:
        for key, label in (("engine", "engine step (legal, checked apply) µs"),
                           ("openspiel", "OpenSpiel step (deal included) µs"),
                           ("pettingzoo_mask", "PettingZoo raw_env step, mask only µs"),
                           ("pettingzoo_observe", "PettingZoo raw_env step, observation µs"),
                           ("openspiel_floor", "OpenSpiel protocol alone (trivial game) µs"),
                           ("pettingzoo_floor", "PettingZoo protocol alone (trivial game) µs")):
            table.add_row(label, _cell(adapters[f"{key}_us"]), f"{adapters[f'{key}_x']:.2f}")
    return table


def comparison_table(mine: dict[str, Any], other: dict[str, Any]) -> Table:
    table = Table(title="Side by side (ratio: how many times faster this build is)")
    table.add_column("figure", no_wrap=True)
    table.add_column(mine["build"], justify="right")
    table.add_column(other["build"], justify="right")
    table.add_column("ratio", justify="right")
    for section, key, label, higher in COMPARED:
        a, b = mine[section].get(key), other[section].get(key)
        if a is None or b is None:
            continue
        ratio = a / b if higher else b / a
        table.add_row(label, _cell(a), _cell(b), f"{ratio:.2f}")
    return table


def run_bench(args: argparse.Namespace, console: Console | None = None) -> int:
    console = console or Console()
    if args.seconds <= 0:
        raise CliError(f"--seconds must be positive, not {args.seconds}")
    others = [_other_figures(python, args.seconds) for python in args.other or []]
    figures = measure_all(args.seconds)
    if others:
        figures["others"] = others
    if args.json:
        console.out(json.dumps(figures), highlight=False)
        return 0
    console.print(f"oriflamme {figures['version']} ({figures['build']}), Python"
                  f" {figures['python']}; pin it to one core for stable figures"
                  " (taskset -c 1 oriflamme bench)", markup=False, highlight=False)
    console.print(bench_table(figures["playouts"]))
    console.print(summary_table(figures))
    for other in others:
        console.print(comparison_table(figures, other))
    return 0
