"""Self-play: games of the network against itself (and the heuristic), turned into samples.

Each game is dealt from its own seed. Every seat is played either by the network, greedy on
its action values, or, with chance ``heuristic`` per seat and game, by the one-step heuristic
(:func:`~oriflamme.bots.evaluation.greedy_state_action`), which keeps sensible lines in the
data from the first game on; every seat explores, playing a uniformly random legal action with
chance ``epsilon``. With ``heuristic`` 1 the network plays no seat: its action values learn
the heuristic's game (the value of each action when everyone then plays the heuristic), a step
of policy improvement over it, and its win shares the outcome of that game, which is what the
search's rollouts play. With ``play`` ``after`` the network's seats play as the ``network`` bot
(the ``learned`` level) does, by the win shares of each action's outcome, so the win shares
learn the outcome of the network's own play: TD-Gammon's loop of greedy play on a position
value and learning that value from the games it plays.

Every decision with a choice becomes a *sample*: the deciding player's canonical observation
vector, the canonical index of the action taken, and, once the game is over, that player's
share of victory (the Monte-Carlo return the action values learn) and every player's share
(what the value head learns), relative to the player. With chance ``observers``, a decision
also gives a value-only sample from another player's view, so that the value head knows
positions where someone else decides (the search asks it there).

The games are the workers' only work: :func:`play_games` takes the weights as bytes and
returns plain arrays, so it runs the same in this process, in a process pool or as a Ray task.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from oriflamme.api import Game, GameConfig, new_game
from oriflamme.bots.evaluation import greedy_state_action
from oriflamme.bots.learned import NetworkBot, Networks
from oriflamme.bots.network import Network
from oriflamme.search import apply_unchecked, current_player, legal_actions, result, state_of


@dataclass(frozen=True, slots=True)
class SelfPlay:
    """How the self-play games are played (see the module docstring)."""

    config: Mapping[str, Any]  #: ``GameConfig.to_dict()``
    epsilon: float = 0.1
    heuristic: float = 0.25
    observers: float = 0.5
    #: How the network's seats choose: ``action`` (greedy on the action values) or ``after``
    #: (the ``network`` bot's default: the action whose outcome the win shares rate best).
    play: str = "action"


@dataclass(slots=True)
class Samples:
    """Samples of a batch of games as arrays (``actions[i]`` is -1 for a value-only one)."""

    inputs: npt.NDArray[np.float16]
    actions: npt.NDArray[np.int32]
    returns: npt.NDArray[np.float32]
    shares: npt.NDArray[np.float32]
    games: int
    decisions: int

    @staticmethod
    def join(parts: list[Samples]) -> Samples:
        return Samples(
            np.concatenate([p.inputs for p in parts]),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.returns for p in parts]),
            np.concatenate([p.shares for p in parts]),
            sum(p.games for p in parts),
            sum(p.decisions for p in parts),
        )

    def __len__(self) -> int:
        return len(self.actions)


def dealt_game(config: GameConfig, rng: random.Random) -> Game:
    """A new game of ``config``, its first player and deal drawn from ``rng`` (the training's
    games: self-play and the teacher's)."""
    return new_game(players=config.players, cards=config.cards, variant=config.variant,
                    edition=config.edition, first_player=rng.randrange(config.players),
                    seed=rng.getrandbits(63), log=False)


def play_games(weights: bytes, settings: SelfPlay, seeds: list[int]) -> Samples:
    """Play one game per seed with the network of ``weights``; return their samples."""
    net = Network.from_bytes(weights)
    config = GameConfig.from_dict(settings.config)
    features = net.features
    inputs: list[npt.NDArray[np.float32]] = []
    actions: list[int] = []
    returns: list[float] = []
    shares: list[list[float]] = []
    decisions = 0
    n = config.players
    for seed in seeds:
        rng = random.Random(seed)
        game = dealt_game(config, rng)
        s = state_of(game)
        heuristic = [rng.random() < settings.heuristic for _ in range(n)]
        after = NetworkBot(Networks.of(net), seed=rng.getrandbits(32)) \
            if settings.play == "after" else None
        perspectives: list[int] = []
        while (player := current_player(s)) is not None:
            legal = legal_actions(s)
            if len(legal) == 1:
                apply_unchecked(s, legal[0])
                continue
            decisions += 1
            x, slots = features.state(s, player)
            indices = features.action_indices(legal, player, slots)
            if rng.random() < settings.epsilon:  # every seat explores
                choice = rng.randrange(len(legal))
            elif heuristic[player]:
                choice = legal.index(greedy_state_action(s, player, rng))
            elif after is not None:  # from the player's observation only, as in play
                choice = legal.index(after.act(game.observe(player), legal))
            else:
                choice = int(np.argmax(net.q_values(x)[indices]))
            inputs.append(x)
            actions.append(int(indices[choice]))
            perspectives.append(player)
            if rng.random() < settings.observers:
                other = (player + 1 + rng.randrange(n - 1)) % n
                inputs.append(features.state(s, other)[0])
                actions.append(-1)
                perspectives.append(other)
            apply_unchecked(s, legal[choice])
        outcome = result(s)
        assert outcome is not None
        won = [1.0 / len(outcome.winners) if p in outcome.winners else 0.0 for p in range(n)]
        for p in perspectives:
            returns.append(won[p])
            shares.append([won[(p + k) % n] for k in range(n)])  # relative to p
    width = features.size
    return Samples(
        np.array(inputs, dtype=np.float16).reshape(-1, width),
        np.array(actions, dtype=np.int32),
        np.array(returns, dtype=np.float32),
        np.array(shares, dtype=np.float32).reshape(-1, n),
        len(seeds),
        decisions,
    )
