"""Play a searching teacher's games and save their samples, in chunks, for imitation.

Every seat is the teacher (a bot spec); each chunk of games is one file
``DIR/chunk-SEED.npz`` (:mod:`oriflamme.training.teacher`), written as soon as its games are
over, so a stopped run keeps what it played and a second run with the same ``--out`` skips the
chunks already there. ``oriflamme train --teacher-data DIR`` trains on them.

Run: ``python benchmarks/training/teacher_data.py --teacher
ismcts:iterations=1000:opponents=greedy:value=fitted --players 3 --games 400 --chunk 5
--seed 1 --out DIR``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from oriflamme.api import GameConfig
from oriflamme.training.teacher import save, teacher_games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teacher", default="ismcts:iterations=1000:opponents=greedy:value=fitted")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--cards", default="base")
    parser.add_argument("--variant", default=None)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--chunk", type=int, default=5, help="games per file")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    config = GameConfig(players=args.players, cards=args.cards,
                        **({"variant": args.variant} if args.variant else {})).to_dict()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    start, played, samples = time.perf_counter(), 0, 0
    for first in range(args.seed, args.seed + args.games, args.chunk):
        seeds = list(range(first, min(first + args.chunk, args.seed + args.games)))
        path = out / f"chunk-{first}.npz"
        if path.exists():
            continue
        part = teacher_games(args.teacher, config, seeds)
        save(part, path)
        played += part.games
        samples += len(part)
        rate = played / (time.perf_counter() - start)
        print(f"{played} games, {samples} samples, {rate * 60:.1f} games a minute",
              file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
