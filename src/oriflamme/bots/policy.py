"""The ``policy`` bot: a trained policy network playing from the research encoding.

The network is a small multilayer perceptron over the observation vector of
:class:`~oriflamme.encoding.ObservationEncoder`: one tanh hidden layer, then one logit per
action index of :class:`~oriflamme.encoding.ActionCodec`; the illegal actions are masked
out. ``examples/train_policy.py`` trains one with NumPy and saves it with :meth:`save`; the
bot plays it with ``policy:path=FILE`` (``:sample=1`` draws from the policy instead of taking
its most likely action). A network fits one set-up's sizes (players, card set, variant).

>>> import random
>>> from oriflamme.api import new_game
>>> game = new_game(players=3, seed=2)
>>> net = PolicyNetwork.initial(game.config, hidden=8, rng=random.Random(0))
>>> bot = PolicyBot(net, seed=1)
>>> bot.act(game.observe(0), game.legal_actions()) in game.legal_actions()
True
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from oriflamme.api import Action, GameConfig
from oriflamme.encoding import ActionCodec, Layout, ObservationEncoder

from .base import Bot, BotSpecError

Matrix = npt.NDArray[np.float32]
#: Names of the weight arrays in a weights file, in :attr:`PolicyNetwork.weights` order.
WEIGHT_NAMES = ("w1", "b1", "w2", "b2")


class PolicyNetwork:
    """Weights ``w1`` (hidden x observation), ``b1``, ``w2`` (actions x hidden), ``b2`` of a
    policy for one set-up, with the encoders of that set-up."""

    def __init__(self, config: GameConfig, weights: Sequence[Matrix]) -> None:
        self.config = config
        self.layout = Layout.of(config)
        self.encoder = ObservationEncoder(self.layout)
        self.codec = ActionCodec(self.layout)
        w1, b1, w2, b2 = (np.asarray(w, dtype=np.float32) for w in weights)
        hidden = b1.shape[0]
        expected = [(hidden, self.encoder.size), (hidden,), (self.codec.size, hidden),
                    (self.codec.size,)]
        if [w1.shape, b1.shape, w2.shape, b2.shape] != expected:
            raise ValueError(f"weights of shapes {[w.shape for w in (w1, b1, w2, b2)]} do not"
                             f" fit this set-up (expected {expected})")
        self.weights = [w1, b1, w2, b2]

    @classmethod
    def initial(cls, config: GameConfig, hidden: int, rng: random.Random) -> PolicyNetwork:
        """Small random weights (the output layer starts at zero: a uniform policy)."""
        size = ObservationEncoder(Layout.of(config)).size
        actions = ActionCodec(Layout.of(config)).size
        gen = np.random.default_rng(rng.getrandbits(64))
        scale = 1.0 / math.sqrt(size)
        w1 = gen.normal(0.0, scale, (hidden, size)).astype(np.float32)
        return cls(config, [w1, np.zeros(hidden, np.float32),
                            np.zeros((actions, hidden), np.float32),
                            np.zeros(actions, np.float32)])

    @classmethod
    def load(cls, path: str | Path) -> PolicyNetwork:
        with np.load(path, allow_pickle=False) as data:
            config = GameConfig.from_dict(json.loads(str(data["config"])))
            return cls(config, [data[name] for name in WEIGHT_NAMES])

    def save(self, path: str | Path) -> None:
        w1, b1, w2, b2 = self.weights
        with open(path, "wb") as out:
            np.savez(out, config=np.array(json.dumps(self.config.to_dict())),
                     w1=w1, b1=b1, w2=w2, b2=b2)

    def forward(self, observation: Matrix) -> tuple[Matrix, Matrix]:
        """Hidden activations and logits of one encoded observation (or a batch of rows)."""
        w1, b1, w2, b2 = self.weights
        hidden = np.tanh(observation @ w1.T + b1)
        return hidden, hidden @ w2.T + b2

    def probabilities(self, observation: Matrix, legal: Sequence[int]) -> Matrix:
        """The policy over the action indices ``legal`` (softmax of their logits)."""
        logits = self.forward(observation)[1][list(legal)]
        exp = np.exp(logits - logits.max())
        result: Matrix = exp / exp.sum()
        return result


class PolicyBot:
    """Plays a :class:`PolicyNetwork`: its most likely legal action, or a draw from it."""

    name = "policy"

    def __init__(self, network: PolicyNetwork, seed: int = 0, sample: bool = False) -> None:
        self._network = network
        self._rng = random.Random(seed)
        self._sample = sample

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        net = self._network
        if Layout.of(observation["config"]) is not net.layout:
            raise ValueError(f"this policy plays {net.config.to_dict()}, not"
                             f" {observation['config']}")
        player = observation["viewer"]
        probs = net.probabilities(net.encoder.encode(observation),
                                  net.codec.encode_all(legal, player))
        if self._sample:
            return self._rng.choices(legal, weights=probs.tolist())[0]
        return legal[int(np.argmax(probs))]


@lru_cache(maxsize=8)
def _load(path: str) -> PolicyNetwork:
    return PolicyNetwork.load(path)


def make_policy(seed: int, options: Mapping[str, str]) -> Bot:
    """The ``policy`` bot of a spec (registered by :mod:`oriflamme.bots`, which imports this
    module, and NumPy, only when such a bot is made)."""
    path = options.get("path")
    if not path:
        raise BotSpecError("policy: give the weights file, e.g. policy:path=policy.npz")
    sample = options.get("sample", "0")
    if sample not in ("0", "1"):
        raise BotSpecError(f"policy: sample must be 0 or 1, not {sample!r}")
    try:
        network = _load(str(Path(path).resolve()))
    except (OSError, ValueError, KeyError) as exc:
        raise BotSpecError(f"policy: cannot load {path}: {exc}") from None
    return PolicyBot(network, seed, sample == "1")

