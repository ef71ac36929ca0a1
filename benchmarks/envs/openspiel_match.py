"""An external check: one of our bots against OpenSpiel's generic ISMCTS bots (issue #30).

OpenSpiel's ISMCTS (``open_spiel.python.algorithms.ismcts``, Cowling et al.'s single-observer
search, written for any imperfect-information game) plays through our OpenSpiel game
(``oriflamme.envs.openspiel``, which resamples worlds from a player's observation), with random
rollouts (``mcts.RandomRolloutEvaluator``) and a fixed number of simulations per decision. Our
bot plays one seat through ``BotPlayer`` (its player's observation only), OpenSpiel's bots the
others. The seats rotate: game ``i`` gives our bot seat ``i mod n`` and is dealt from deal
``i // n`` (chance outcomes drawn with the deal's own generator), so each deal is played from
every seat. Prints our bot's share of victory with its 95% Wilson interval, and writes one JSON
line per game to ``--out`` (appended; an interrupted run goes on where it stopped). ``--first``
starts at another game, so that processes share a match (one per core, each its own ``--out``);
``--summary`` sums such files.

Run: ``python benchmarks/envs/openspiel_match.py --bot master --games 60 --simulations 1000
--players 3 --out matches/openspiel.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from oriflamme.bots import make_bot
from oriflamme.envs.openspiel import BotPlayer

Z95 = 1.959963984540054


def wilson(successes: float, trials: int) -> tuple[float, float]:
    if not trials:
        return 0.0, 1.0
    p, z = successes / trials, Z95
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (
        1 + z * z / trials)
    return centre - half, centre + half


def share_line(rows: list[dict[str, object]], who: str = "") -> str:
    """``N games: [WHO ]share S (LOW - HIGH)`` of the games ``rows``."""
    total = sum(float(str(r["share"])) for r in rows)
    low, high = wilson(total, len(rows))
    return (f"{len(rows)} games: {who}share {total / max(len(rows), 1):.3f}"
            f" ({low:.3f} - {high:.3f})")


def play(game: pyspiel.Game, spec: str, seat: int, deal: int, simulations: int,
         players: int) -> dict[str, object]:
    """One game: our bot at ``seat``; returns its share of victory and its time per move."""
    chance = np.random.RandomState(1000 + deal)
    bots: list[pyspiel.Bot] = []
    for p in range(players):
        if p == seat:
            bots.append(BotPlayer(make_bot(spec, deal * 8 + p), p))
        else:
            rng = np.random.RandomState(deal * 8 + p)
            bots.append(ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                                         max_simulations=simulations, random_state=rng))
    state = game.new_initial_state()
    ours_time, ours_moves = 0.0, 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(chance.choice(outcomes, p=probabilities)))
            continue
        player = state.current_player()
        if len(state.legal_actions()) == 1:
            state.apply_action(state.legal_actions()[0])
            continue
        start = time.perf_counter()
        action = bots[player].step(state)
        if player == seat:
            ours_time += time.perf_counter() - start
            ours_moves += 1
        state.apply_action(action)
    return {"deal": deal, "seat": seat, "share": state.returns()[seat],
            "seconds_per_move": ours_time / max(ours_moves, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="master", help="our bot's spec (default master)")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--first", type=int, default=0,
                        help="index of this process's first game (default 0)")
    parser.add_argument("--out", type=Path, required=True, nargs="+",
                        help="the games' JSON lines (with --summary, every file to sum)")
    parser.add_argument("--summary", action="store_true", help="sum the --out files and stop")
    args = parser.parse_args(argv)
    if args.summary:
        rows = [json.loads(line) for path in args.out for line in path.read_text().splitlines()
                if line]
        seconds = sum(float(r["seconds_per_move"]) for r in rows) / max(len(rows), 1)
        print(f"{share_line(rows)}, {seconds:.2f} s per move")
        return 0
    if len(args.out) != 1:
        parser.error("one --out file, unless --summary")
    out_path: Path = args.out[0]
    import oriflamme.envs.openspiel  # noqa: F401  (registers python_oriflamme)

    game = pyspiel.load_game(f"python_oriflamme(players={args.players},cards=base)")
    done = []
    if out_path.exists():
        done = [json.loads(line) for line in out_path.read_text().splitlines() if line]
    n = args.players
    for i in range(args.first + len(done), args.first + args.games):
        row = play(game, args.bot, i % n, i // n, args.simulations, n)
        done.append(row)
        with out_path.open("a") as out:
            out.write(json.dumps(row) + "\n")
        print(f"{share_line(done, args.bot + ' ')}, {row['seconds_per_move']:.2f} s per move",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
