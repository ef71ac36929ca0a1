"""This engine against the fastest public Python Oriflamme engine, side by side (issue #13).

The reference is jojolebarjos/oriflamme-simulator (its pure-Python HEAD; its package is also
named ``oriflamme``, so it lives in a virtual environment of its own and is measured in a
separate process). Install it there and point this script at that environment's python::

    python3 -m venv REF && REF/bin/pip install git+https://github.com/jojolebarjos/oriflamme-simulator
    python benchmarks/engine/reference.py --reference-python REF/bin/python --core 1

(or set ``ORIFLAMME_REFERENCE_PYTHON``). Without it the script says so and exits 0.

Its rules are simplified: no deal (every player holds the same cards, here the first
``--hand`` 7 kinds of its ``Kind``: Archer, Heir, Lord, Shapeshifter, Soldier, Spy, Ambush; its
own ``State.begin()`` deals 4), so it is compared with this engine's 3-player base game
(random deal of 7 cards each, 10 types), both played uniformly at random to the end:

* ``playouts``: ours ``Game.new(config, seed, log=False).playout(rng)``; the reference has no
  playout function, its loop (``state.actions`` then ``action.next_state``) is its playout.
* ``loop``: ours ``legal_actions()`` then ``apply(action, check=False)``, against the same
  reference loop.
* ``simulate``: whole processes, start-up included: ``oriflamme simulate --players 3 --cards
  base --games N`` (random bots) against a ``python -c`` that imports the reference and plays
  N games; the ratio is the reference's wall time over ours. ``1 game s`` is the same
  command for one game: its start-up.
* ``tournament``: whole processes, ``oriflamme tournament`` of three random bots, N games,
  one process (``--jobs 1``), its report and charts written; ratio as for ``simulate``.

Each in-process figure is the fastest of 5 trials (the least disturbed by other work); whole
processes take the fastest of ``--repeat`` runs. The different measures are taken in turn, so
that a change of load hits them all alike. ``--ours PYTHON`` (repeatable) measures other builds
of this engine, e.g. a pure and a compiled install (``oriflamme --version`` names the build),
or a build of before issue #27 (whose timings were ``oriflamme.benchmark``) beside one of
now; ``PYTHONPATH`` is passed only to the python running this script.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REFERENCE_LOOP = """
import json, random, sys, time
from oriflamme import Board, Kind, PlaceState
hand = list(Kind)[:{hand}]
def play(n, rng):
    decisions = 0
    for _ in range(n):
        s = PlaceState(Board([], [hand] * 3, [1] * 3), 0)
        while not s.has_ended:
            a = s.actions
            s = a[rng.randrange(len(a))].next_state
            decisions += 1
    return decisions
"""

REFERENCE_RATE = REFERENCE_LOOP + """
rng = random.Random(0)
best = 0.0
games = decisions = 0
for _ in range(5):
    start = time.perf_counter()
    n = 0
    while True:
        decisions += play(20, rng)
        n += 20
        if time.perf_counter() - start >= {seconds} / 5:
            break
    games += n
    best = max(best, n / (time.perf_counter() - start))
print(json.dumps({{"games_per_s": best, "decisions_per_game": decisions / games,
                  "hand": [k.name.lower() for k in hand]}}))
"""

REFERENCE_PROCESS = REFERENCE_LOOP + """
play({games}, random.Random(0))
"""

OURS_RATE = """
import json
from oriflamme.api import GameConfig
try:
    from oriflamme.bench.engine import measure_loop, measure_playouts
except ImportError:  # a build of before issue #27, for a before/after comparison
    from oriflamme.benchmark import measure_loop, measure_playouts
from oriflamme.build import build_name
config = GameConfig(players=3, cards="base")
measure = measure_playouts if {which!r} == "playouts" else measure_loop
row = measure(config, {seconds})
row["build"] = build_name()
print(json.dumps(row))
"""


def child_env(python: str) -> dict[str, str]:
    env = dict(os.environ)
    if os.path.abspath(python) != os.path.abspath(sys.executable):  # venvs share one binary
        env.pop("PYTHONPATH", None)  # an installed build is measured as installed
    return env


def run_json(python: str, code: str) -> dict[str, Any]:
    done = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, env=child_env(python)
    )
    if done.returncode != 0:
        raise SystemExit(f"{python} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def wall_time(command: list[str], python: str) -> float:
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=child_env(python))
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reference-python", default=os.environ.get("ORIFLAMME_REFERENCE_PYTHON"),
                        help="python of the environment where the reference engine is installed"
                             " (default: $ORIFLAMME_REFERENCE_PYTHON)")
    parser.add_argument("--ours", action="append", metavar="PYTHON",
                        help="python of a build of this engine (repeatable; default: this one)")
    parser.add_argument("--seconds", type=float, default=5.0, help="per in-process figure")
    parser.add_argument("--games", type=int, default=3000, help="games per whole process")
    parser.add_argument("--repeat", type=int, default=3, help="runs per whole process")
    parser.add_argument("--hand", type=int, default=7, help="the reference's hand size")
    parser.add_argument("--core", type=int, help="pin every process to this CPU core")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    ref = args.reference_python
    if not ref or not Path(ref).is_file():
        print("reference engine not installed: give --reference-python PATH (or set"
              " ORIFLAMME_REFERENCE_PYTHON) to the python of a venv where"
              " jojolebarjos/oriflamme-simulator is installed; nothing measured")
        return 0
    if args.core is not None:
        os.sched_setaffinity(0, {args.core})  # inherited by every process started below
    ours = args.ours or [sys.executable]
    builds = {
        python: subprocess.run(
            [python, "-m", "oriflamme", "--version"], capture_output=True, text=True, check=True,
            env=child_env(python),
        ).stdout.strip()
        for python in ours
    }
    print(f"reference: {ref}; ours: " + "; ".join(f"{p} ({v})" for p, v in builds.items()),
          file=sys.stderr)
    ref_rate = run_json(ref, REFERENCE_RATE.format(hand=args.hand, seconds=args.seconds))
    rates: dict[str, dict[str, Any]] = {}
    for python in ours:
        for which in ("playouts", "loop"):
            code = OURS_RATE.format(which=which, seconds=args.seconds)
            rates[f"{python} {which}"] = run_json(python, code)
    # A second reference figure after ours: the better of the two (load changes both ways).
    again = run_json(ref, REFERENCE_RATE.format(hand=args.hand, seconds=args.seconds))
    ref_rate["games_per_s"] = max(ref_rate["games_per_s"], again["games_per_s"])
    ref_process = [ref, "-c", REFERENCE_PROCESS.format(hand=args.hand, games=args.games)]
    simulate = ["-m", "oriflamme", "simulate", "--players", "3", "--cards", "base",
                "--games", str(args.games), "--json"]
    startup = ["-m", "oriflamme", "simulate", "--players", "3", "--cards", "base",
               "--games", "1", "--json"]
    ref_times: list[float] = []
    our_times: dict[str, list[float]] = {python: [] for python in ours}
    start_times: dict[str, list[float]] = {python: [] for python in ours}
    tournament_times: dict[str, list[float]] = {python: [] for python in ours}
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(args.repeat):
            ref_times.append(wall_time(ref_process, ref))
            for python in ours:
                our_times[python].append(wall_time([python, *simulate], python))
                start_times[python].append(wall_time([python, *startup], python))
                # A tournament of three random bots, one process, report and charts included.
                tournament = ["-m", "oriflamme", "tournament", "--bots", "random,random,random",
                              "--players", "3", "--games", str(args.games), "--jobs", "1",
                              "--out", str(Path(scratch, "t")), "--force", "--json"]
                tournament_times[python].append(wall_time([python, *tournament], python))
    figures: dict[str, Any] = {
        "reference": {"games_per_s": round(ref_rate["games_per_s"], 1),
                      "decisions_per_game": round(ref_rate["decisions_per_game"], 1),
                      "hand": ref_rate["hand"],
                      "process_s": round(min(ref_times), 4)},
        "ours": [],
    }
    for python in ours:
        playouts, loop = rates[f"{python} playouts"], rates[f"{python} loop"]
        process = min(our_times[python])
        figures["ours"].append({
            "python": python, "version": builds[python],
            "playouts_games_per_s": playouts["games_per_s"],
            "loop_games_per_s": loop["games_per_s"],
            "simulate_process_s": round(process, 4),
            "simulate_one_game_s": round(min(start_times[python]), 4),
            "tournament_process_s": round(min(tournament_times[python]), 4),
            "tournament_x": round(min(ref_times) / min(tournament_times[python]), 2),
            "playouts_x": round(playouts["games_per_s"] / ref_rate["games_per_s"], 2),
            "loop_x": round(loop["games_per_s"] / ref_rate["games_per_s"], 2),
            "simulate_x": round(min(ref_times) / process, 2),
        })
    if args.json:
        print(json.dumps(figures))
        return 0
    r = figures["reference"]
    print(f"reference: {r['games_per_s']:,.0f} games/s ({r['decisions_per_game']} decisions a"
          f" game, hands of {', '.join(r['hand'])}); {args.games} games in a process:"
          f" {r['process_s']:.2f} s")
    print(f"{'build':44} {'playouts/s':>10} {'x':>5} {'loop/s':>8} {'x':>5}"
          f" {'simulate s':>10} {'x':>5} {'1 game s':>8} {'tournament s':>12} {'x':>5}")
    for row in figures["ours"]:
        print(f"{row['version']:44} {row['playouts_games_per_s']:>10,.0f} {row['playouts_x']:>5}"
              f" {row['loop_games_per_s']:>8,.0f} {row['loop_x']:>5}"
              f" {row['simulate_process_s']:>10.2f} {row['simulate_x']:>5}"
              f" {row['simulate_one_game_s']:>8.2f} {row['tournament_process_s']:>12.2f}"
              f" {row['tournament_x']:>5}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
