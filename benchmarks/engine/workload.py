"""A fixed, deterministic workload for instruction counts: compare two builds or two commits
where timings are too noisy (a shared machine), with callgrind's total, ``PART SIZE`` minus
``none 0`` (the imports):

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        python benchmarks/engine/workload.py playout 30

The parts: ``playout`` (Game.playout, 3 players, base cards, SIZE games), ``loop``
(legal_actions + apply(check=False), SIZE games), ``observe`` (every viewer's observation at
every step of SIZE 4-player Embrasement games), ``ismcts`` (the ``hard`` level's search, SIZE
iterations, on 3 decisions), ``greedy`` (the greedy bot on SIZE decisions), ``none`` (the
imports only). The garbage collector is off: its collections would fall at different points
in two builds. See docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import gc
import random

from oriflamme.api import new_game
from oriflamme.bots import greedy as _greedy  # imported before the work, not during it
from oriflamme.bots import ismcts as _ismcts
from oriflamme.bots import levels as _levels
from oriflamme.bots import make_bot

IMPORTED = (_greedy, _ismcts, _levels)
PARTS = ("none", "playout", "loop", "observe", "ismcts", "greedy")


def run(part: str, size: int) -> None:
    if part == "playout":
        for seed in range(size):
            new_game(players=3, seed=seed).playout(random.Random(seed))
    elif part == "loop":
        for seed in range(size):
            game, rng = new_game(players=3, seed=seed), random.Random(seed)
            while not game.is_over:
                legal = game.legal_actions()
                game.apply(legal[rng.randrange(len(legal))], check=False)
    elif part == "observe":
        for seed in range(size):
            game, rng = new_game(players=4, cards="embrasement", seed=seed), random.Random(seed)
            while not game.is_over:
                for viewer in (None, 0, 1, 2, 3):
                    game.observe(viewer)
                game.apply(game.random_action(rng))
    elif part == "ismcts":
        game = new_game(players=3, seed=5)
        bot = make_bot(f"ismcts:iterations={size}:opponents=greedy:seed=1", 1)
        for _ in range(3):
            player = game.current_player
            assert player is not None
            game.apply(bot.act(game.observe(player), tuple(game.legal_actions())))
    elif part == "greedy":
        game, bot = new_game(players=3, seed=7), make_bot("greedy", 1)
        for _ in range(size):
            player = game.current_player
            if player is None:
                break
            game.apply(bot.act(game.observe(player), tuple(game.legal_actions())))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("part", choices=PARTS)
    parser.add_argument("size", type=int, help="games, iterations or decisions (see above)")
    args = parser.parse_args()
    gc.disable()
    run(args.part, args.size)


if __name__ == "__main__":
    main()
