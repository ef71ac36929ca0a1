"""The periodic evaluation of a training run: the network against fixed opponents.

The network plays as the ``learned`` level does (the ``network`` bot: the action whose
outcome it values most) in one seat, the opponent's spec in every other seat. The seats
rotate: game ``i`` puts the network in seat ``i mod n`` and is dealt from the ``i // n``-th
evaluation deal, so each deal is played from every seat, and every evaluation of a run plays
the same deals (the curve then shows the network's progress, not the luck of new deals). The
figure is the network's mean share of victory, with its 95% Wilson interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from hashlib import blake2b
from typing import Any

from oriflamme.api import GameConfig, new_game
from oriflamme.bots import make_bot, play_game
from oriflamme.bots.learned import NetworkBot, Networks
from oriflamme.bots.network import Network

#: z of a two-sided 95% interval.
Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Evaluation:
    """The network's result against one opponent."""

    opponent: str
    games: int
    share: float  # mean share of victory of the network
    low: float
    high: float


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (shares of victory count as fractions).

    >>> [round(x, 3) for x in wilson(30, 100)]
    [0.219, 0.396]
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (
        1 + z * z / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def deal_seed(seed: int, deal: int) -> int:
    """The seed of evaluation deal ``deal`` of a run seeded ``seed``."""
    digest = blake2b(f"evaluation/{seed}/{deal}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


def evaluation_games(games: int, players: int) -> list[tuple[int, int]]:
    """``(deal, seat of the network)`` of each evaluation game (rounded up to whole
    rotations)."""
    rotations = -(-games // players)
    return [(i // players, i % players) for i in range(rotations * players)]


def play_evaluation(weights: bytes, config: dict[str, Any], opponent: str, seed: int,
                    games: Sequence[tuple[int, int]]) -> list[float]:
    """The network's share of victory in each of ``games`` (run by a worker)."""
    network = Network.from_bytes(weights)
    setup = GameConfig.from_dict(config)
    shares = []
    for deal, seat in games:
        dealt = deal_seed(seed, deal)
        game = new_game(players=setup.players, cards=setup.cards, variant=setup.variant,
                        edition=setup.edition, seed=dealt, log=False)
        bots = {p: make_bot(opponent, dealt * 8 + p) for p in range(setup.players)}
        bots[seat] = NetworkBot(Networks.of(network), dealt * 8 + seat)
        result = play_game(game, bots)
        assert result is not None  # played to the end
        shares.append(1.0 / len(result.winners) if seat in result.winners else 0.0)
    return shares


def summary(opponent: str, shares: Sequence[float]) -> Evaluation:
    total = sum(shares)
    low, high = wilson(total, len(shares))
    return Evaluation(opponent, len(shares), total / max(len(shares), 1), low, high)
