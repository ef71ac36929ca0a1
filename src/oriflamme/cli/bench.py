"""``oriflamme bench``: the engine's speed, measured by :mod:`oriflamme.benchmark`."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from ..benchmark import SETUPS, run
from .common import CliError, progress

#: The columns shown, with their titles (``--json`` gives every figure).
HEADINGS = {
    "setup": "set-up",
    "games_per_s": "games/s",
    "decisions_per_s": "decisions/s",
    "decisions_per_game": "per game",
    "copy_us": "copy µs",
}


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
        return f"{value:,.0f}" if value >= 100 else f"{value:,.1f}"
    return str(value)


def run_bench(args: argparse.Namespace, console: Console | None = None) -> int:
    console = console or Console()
    if args.seconds <= 0:
        raise CliError(f"--seconds must be positive, not {args.seconds}")
    with progress("bench", len(SETUPS), "set-ups") as report:
        rows = run(args.seconds, progress=lambda _label: report(1))
    if args.json:
        console.out(json.dumps(rows), highlight=False)
    else:
        console.print(bench_table(rows))
    return 0
