"""A bot that picks uniformly among the legal actions, with its own random generator."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from oriflamme.api import Action

from .base import Bot, register_bot


class RandomBot:
    """Uniform over the legal actions; the same seed gives the same choices."""

    name = "random"
    #: It never reads its observation: the runner builds none (see ``needs_observation``).
    needs_observation = False

    def __init__(self, seed: int = 0) -> None:
        self._rng = random.Random(seed)

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        return legal[self._rng.randrange(len(legal))]

    def pick(self, count: int) -> int:
        """The position :meth:`act` would choose among ``count`` legal actions (the same draw
        of the generator): the runner asks this instead and builds no list
        (``picks_by_position``)."""
        if count < 1:
            raise ValueError("no legal action to choose from")
        # randrange(count), spelled out: the same draws from getrandbits (rejection below the
        # next power of two), two calls fewer; tests play the same games through act.
        k = count.bit_length()
        bits = self._rng.getrandbits
        r = bits(k)
        while r >= count:
            r = bits(k)
        return r


def _make_random(seed: int, options: Mapping[str, str]) -> Bot:
    return RandomBot(seed)


register_bot("random", _make_random, "uniform over the legal actions")
