"""How well the learned network's win shares predict outcomes, beside the fitted and the
hand-set values (the three estimates a search can stop its rollouts on).

Plays games where the one-step heuristic plays every seat (the search's rollout policy), with
seeds the training never used, records the position at the first decision of rounds 2 to 6
(where the rollouts of ``hard``, ``expert`` and ``guided:leaf=rollout`` stop), and prints, per
round, the mean log-loss of each estimate (and of the mean of the fitted value and the
network's, ``value=blend``) against the players' final shares of victory. The
network answers from every player's view in turn (each view counts as one prediction).

Run: ``python benchmarks/bots/value_check.py --weights src/oriflamme/bots/weights/3p-base.npz
--games 300 [--players 3] [--seed 900001]``.
"""

from __future__ import annotations

import argparse
import math
import random
import sys

from oriflamme.api import new_game
from oriflamme.bots.evaluation import evaluate_state_all, greedy_state_action
from oriflamme.bots.network import Network
from oriflamme.bots.value import fitted_state_values
from oriflamme.search import PLACEMENT, State, apply_unchecked, current_player, state_of


def log_loss(probabilities: list[float], shares: list[float]) -> float:
    return -sum(s * math.log(max(p, 1e-9)) for p, s in zip(probabilities, shares, strict=True))


def positions(players: int, cards: str, seed: int) -> tuple[list[State], list[float]]:
    """One heuristic self-play game: the states at the start of rounds 2 to 6, and the
    players' shares of victory."""
    rng = random.Random(seed)
    game = new_game(players=players, cards=cards, seed=seed, log=False)
    s = state_of(game)
    seen, found = s.round, []
    while (player := current_player(s)) is not None:
        if s.round != seen and s.phase == PLACEMENT and not s.placed:
            seen = s.round
            found.append(s.copy(keep_log=False))
        apply_unchecked(s, greedy_state_action(s, player, rng))
    result = game.result()
    assert result is not None
    return found, [1 / len(result.winners) if p in result.winners else 0.0
                   for p in range(players)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", required=True)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--cards", default="base")
    parser.add_argument("--seed", type=int, default=900001)
    args = parser.parse_args(argv)
    net = Network.load(args.weights)
    n = args.players
    totals: dict[int, list[float]] = {}
    for k in range(args.games):
        states, shares = positions(n, args.cards, args.seed + k)
        for s in states:
            row = totals.setdefault(s.round, [0.0] * 6)
            row[0] += 1
            row[1] += log_loss(evaluate_state_all(s), shares)
            fitted = fitted_state_values(s)
            row[2] += log_loss(fitted, shares)
            own = []
            for p in range(n):
                relative = net.win_shares(net.features.state(s, p)[0]).tolist()
                own.append(relative[0])
                mine = [relative[(q - p) % n] for q in range(n)]
                row[3] += log_loss(mine, shares) / n
                row[4] += log_loss([(a + b) / 2 for a, b in zip(mine, fitted, strict=True)],
                                   shares) / n
            row[5] += log_loss([share / sum(own) for share in own], shares)
    print("| round | positions | hand-set | fitted | network | mean of fitted and network |"
          " network, each player's own view |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for r in sorted(totals):
        count, hand, fitted, network, blend, views = totals[r]
        print(f"| {r} | {count:.0f} | {hand / count:.4f} | {fitted / count:.4f} |"
              f" {network / count:.4f} | {blend / count:.4f} | {views / count:.4f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
