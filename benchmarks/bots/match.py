"""A long head-to-head match, played in chunks that survive an interruption.

Measuring a small difference between two strong bots takes hundreds of games and hours. This
script plays them as a series of ``oriflamme tournament`` runs of a few games each (``--chunk``
games, seats swapped on each deal), one output directory per chunk, and skips the chunks already
done: run the same command again after a stop and it carries on. Then it sums all the chunks:

- the first bot's win share with its 95% Wilson interval;
- per deal (both games of one deal, seats swapped), how often the first bot won both, lost both
  or split them, and the two-sided sign test on the deals not split (a paired test: the luck of
  the deal cancels);
- each bot's mean time per decision.

Run: ``python benchmarks/bots/match.py --bots A,B --chunks N [--chunk 10] [--players 2]
[--cards base] [--seed 81] [--jobs 1] --out DIR``; ``--summary`` only sums the chunks found
in ``DIR``. With more players, give one spec per seat (``--bots master,expert,expert
--players 3``: one against two, a spec given twice being two entrants); the seats then rotate
over each deal, and the per-deal counts read "won every game of the deal", "lost every one"
or "split". ``--cards`` is ``oriflamme tournament``'s (``embrasement``, or ten card names);
the summary refuses chunks of another set-up, as it does those of other bots.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from oriflamme.tournament.stats import wilson_interval


def chunk_dir(out: Path, seed: int) -> Path:
    """Where the chunk of tournament seed ``seed`` writes its report."""
    return out / f"chunk-{seed}"


def play_chunks(bots: str, players: int, chunks: int, chunk: int, seed: int, jobs: int,
                out: Path, cards: str = "base") -> None:
    """Play the chunks not yet done (seeds ``seed`` .. ``seed + chunks - 1``)."""
    for k in range(chunks):
        target = chunk_dir(out, seed + k)
        if (target / "results.json").exists():
            continue
        command = [sys.executable, "-m", "oriflamme", "tournament", "--bots", bots,
                   "--players", str(players), "--cards", cards, "--games", str(chunk),
                   "--jobs", str(jobs), "--seed", str(seed + k), "--out", str(target)]
        print(f"chunk {k + 1}/{chunks}: {' '.join(command[2:])}", flush=True)
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)


def summarise(out: Path) -> dict[str, Any]:
    """The figures of all the chunks in ``out`` (see the module docstring)."""
    files = sorted(out.glob("chunk-*/results.json"))
    if not files:
        raise SystemExit(f"no finished chunk in {out}")
    first: str | None = None
    setup: dict[str, Any] | None = None
    games = 0
    wins = 0.0
    by_deal: dict[tuple[str, int], float] = defaultdict(float)
    seconds: dict[str, list[tuple[float, int]]] = defaultdict(list)
    for path in files:
        data = json.loads(path.read_text())
        names = [b["bot"] for b in data["bots"]]
        if first is None:
            first = names[0]
        elif names[0] != first:
            raise SystemExit(f"{path} is a match of {names}, not of {first}")
        config = {k: v for k, v in data["settings"]["config"].items() if k != "first_player"}
        if setup is None:
            setup = config
        elif config != setup:
            raise SystemExit(f"{path} is a match of the set-up {config}, not {setup}")
        for b in data["bots"]:
            seconds[b["bot"]].append((b["mean_decision_seconds"], b["games"]))
        for record in data["records"]:
            seat = record["bots"].index(first)
            share = 1 / len(record["winners"]) if seat in record["winners"] else 0.0
            wins += share
            games += 1
            by_deal[(path.parent.name, record["seed"])] += share
    per_deal = games / max(len(by_deal), 1)  # the games of one deal: one per rotation
    both = sum(1 for v in by_deal.values() if v >= per_deal - 1e-9)
    neither = sum(1 for v in by_deal.values() if v <= 1e-9)
    low, high = wilson_interval(wins, games)
    return {
        "first": first, "setup": setup, "chunks": len(files), "games": games,
        "win_share": wins / games,
        "interval": [low, high], "deals": len(by_deal), "won_both": both,
        "lost_both": neither, "split": len(by_deal) - both - neither,
        "sign_test_p": sign_test(both, neither),
        "seconds_per_decision": {
            bot: sum(s * g for s, g in runs) / sum(g for _, g in runs)
            for bot, runs in seconds.items()
        },
    }


def sign_test(wins: int, losses: int) -> float:
    """Two-sided exact sign test of ``wins`` against ``losses`` (1.0 with neither).

    >>> sign_test(9, 1) < 0.05 < sign_test(8, 2)
    True
    """
    n = wins + losses
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(max(wins, losses), n + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", help="two bot specs, or one per seat, comma-separated (first:"
                        " the one judged)")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--cards", default="base", help="'base' (default), 'embrasement', or"
                        " ten card names separated by commas")
    parser.add_argument("--chunks", type=int, default=10, help="number of chunks (default 10)")
    parser.add_argument("--chunk", type=int, default=10, help="games per chunk (default 10)")
    parser.add_argument("--seed", type=int, default=81, help="seed of the first chunk")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes per chunk")
    parser.add_argument("--out", type=Path, required=True, help="directory of the chunks")
    parser.add_argument("--summary", action="store_true", help="only sum the chunks found")
    args = parser.parse_args(argv)
    if not args.summary:
        specs = (args.bots or "").split(",")
        if len(specs) < 2 or (len(specs) > 2 and len(specs) != args.players):
            parser.error("--bots takes two bot specs, or one per seat, separated by commas")
        play_chunks(args.bots, args.players, args.chunks, args.chunk, args.seed, args.jobs,
                    args.out, args.cards)
    s = summarise(args.out)
    low, high = s["interval"]
    print(f"{s['first']}: {s['win_share']:.1%} of {s['games']} games ({low:.1%} - {high:.1%}),"
          f" {s['chunks']} chunks")
    print(f"deals: {s['deals']}; won both {s['won_both']}, lost both {s['lost_both']},"
          f" split {s['split']}; sign test p = {s['sign_test_p']:.3f}")
    for bot, sec in s["seconds_per_decision"].items():
        print(f"{bot}: {sec:.2f} s per decision")
    return 0


if __name__ == "__main__":
    sys.exit(main())
