"""Fit the weights of the search's position value to the outcomes of self-play games.

The search bots stop each rollout at the first decision of the next round and ask
:func:`~oriflamme.bots.evaluation.evaluate_all` for every player's share of victory: a
softmax of hand-set projected scores. This script fits the same kind of model to real outcomes
instead: for each round it learns the weight of each part of the projected score
and a few more facts
(:data:`~oriflamme.bots.value.VALUE_FEATURES`) in a conditional logit,

    P(player p wins) = exp(w_r . parts_p) / sum over q of exp(w_r . parts_q),

by maximum likelihood (Newton's method, a light ridge), on positions recorded at the start of
rounds 2 to 6 of self-play games, with each player's share of victory as the target. It holds
a fifth of the games out and prints the mean log-loss of the fitted and of the hand-set values
on them, per round, so that the fit is judged on games it has not seen.

Run: ``python tools/fit_value.py --games 4000 --players 2,3,4 --jobs 2 [--bot greedy]
[--seed 1] [--write src/oriflamme/bots/value_weights.py]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from oriflamme.api import new_game
from oriflamme.bots import make_bot
from oriflamme.bots.evaluation import evaluate_state_all, softmax
from oriflamme.bots.runner import bot_move
from oriflamme.bots.value import VALUE_FEATURES, value_features
from oriflamme.search import state_of

#: One recorded position: its round, each player's score parts, the hand-set value, and each
#: player's final share of victory.
Sample = tuple[int, list[list[float]], list[float], list[float]]

FIRST_ROUND, LAST_ROUND = 2, 6
RIDGE = 1e-3


def play_and_record(spec: str, players: int, seed: int) -> list[Sample]:
    """One self-play game of ``spec`` bots; the positions at the start of rounds 2 to 6."""
    game = new_game(players=players, seed=seed)
    bots = [make_bot(spec, seed * 10 + p) for p in range(players)]
    seen = game.round
    positions: list[tuple[int, list[list[float]], list[float]]] = []
    while (d := game.decision()) is not None:
        if game.round != seen:
            seen = game.round
            s = state_of(game)
            positions.append((game.round, value_features(s), evaluate_state_all(s)))
        bot_move(game, bots[d.player])
    result = game.result()
    assert result is not None
    shares = [1.0 / len(result.winners) if p in result.winners else 0.0 for p in range(players)]
    return [(r, parts, hand, shares) for r, parts, hand in positions]


def _job(args: tuple[str, int, int]) -> list[Sample]:
    return play_and_record(*args)


def fit_round(samples: list[Sample]) -> np.ndarray:
    """The conditional-logit weights that best predict the winners of ``samples``."""
    k = len(VALUE_FEATURES)
    w = np.zeros(k)
    for _ in range(50):
        grad = RIDGE * len(samples) * w
        hess = RIDGE * len(samples) * np.eye(k)
        for _, parts, _, shares in samples:
            x = np.asarray(parts)
            u = x @ w
            p = np.exp(u - u.max())
            p /= p.sum()
            y = np.asarray(shares)
            grad += x.T @ (p - y)
            mean = p @ x
            hess += (x * p[:, None]).T @ x - np.outer(mean, mean)
        step = np.linalg.solve(hess, grad)
        w -= step
        if float(np.abs(step).max()) < 1e-9:
            break
    return w


def log_loss(probabilities: list[float], shares: list[float]) -> float:
    """Cross-entropy of predicted win chances against the actual shares of victory."""
    return -sum(y * math.log(max(p, 1e-12)) for p, y in zip(probabilities, shares, strict=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per player count")
    parser.add_argument("--players", default="2,3,4", help="player counts, comma-separated")
    parser.add_argument("--bot", default="greedy", help="the bot spec of the self-play games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--write", type=Path, help="write the weights as a Python module here")
    args = parser.parse_args(argv)
    counts = [int(p) for p in args.players.split(",")]
    jobs = [(args.bot, n, args.seed * 1_000_000 + n * 100_000 + g)
            for n in counts for g in range(args.games)]
    start = time.perf_counter()
    games: list[list[Sample]] = []
    pool = ProcessPoolExecutor(max_workers=args.jobs) if args.jobs > 1 else None
    played = pool.map(_job, jobs, chunksize=8) if pool is not None else map(_job, jobs)
    for i, samples in enumerate(played):
        games.append(samples)
        if (i + 1) % 200 == 0 or i + 1 == len(jobs):
            print(f"played {i + 1}/{len(jobs)} games ({time.perf_counter() - start:.0f} s)",
                  file=sys.stderr)
    if pool is not None:
        pool.shutdown()
    # every fifth game is held out
    train = [s for i, g in enumerate(games) if i % 5 for s in g]
    test = [s for i, g in enumerate(games) if not i % 5 for s in g]
    weights: dict[int, list[float]] = {}
    print(f"\n{len(train)} positions to fit, {len(test)} held out\n")
    print("| round | positions | log-loss, hand-set | log-loss, fitted | weights |")
    print("| ---: | ---: | ---: | ---: | --- |")
    for r in range(FIRST_ROUND, LAST_ROUND + 1):
        w = fit_round([s for s in train if s[0] == r])
        weights[r] = [round(float(v), 4) for v in w]
        held = [s for s in test if s[0] == r]
        hand = sum(log_loss(s[2], s[3]) for s in held) / len(held)
        fitted = sum(log_loss(softmax(list(np.asarray(s[1]) @ w)), s[3])
                     for s in held) / len(held)
        print(f"| {r} | {len(held)} | {hand:.4f} | {fitted:.4f} | {weights[r]} |")
    if args.write:
        lines = [
            '"""Weights of the fitted position value (written by tools/fit_value.py).',
            "",
            f"Self-play of ``{args.bot}``, {args.games} games for each of {args.players}"
            f" players, seed {args.seed}.",
            '"""',
            "",
            "#: Round -> the weight of each feature (VALUE_FEATURES order).",
            "WEIGHTS: dict[int, tuple[float, ...]] = {",
            *(f"    {r}: {tuple(w)}," for r, w in weights.items()),
            "}",
            "",
        ]
        args.write.write_text("\n".join(lines))
        print(f"\nwrote {args.write}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
