"""A bot that picks uniformly among the legal actions, with its own random generator."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from oriflamme.api import Action, Draws, Observation

from .base import Bot, Pick, register_bot


class RandomBot:
    """Uniform over the legal actions; the same seed gives the same choices.

    Its generator is :class:`~oriflamme.api.Draws`, which costs next to nothing to
    seed: simulations make a bot per seat per game.
    """

    name = "random"
    #: It never reads its observation: the runner builds none (see ``needs_observation``).
    needs_observation = False

    def __init__(self, seed: int = 0) -> None:
        self._draws = Draws(seed)

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        return legal[self._draws.below(len(legal))]

    @property
    def pick(self) -> Pick:
        """``pick(count)``: the position :meth:`act` would choose among ``count`` legal
        actions (the same draw): the runner asks this instead and builds no list
        (``picks_by_position``). It is the generator itself (a ``Draws`` is a pick), which
        the rules' loop (``Game.play_by_position``) calls directly. A subclass may override
        ``pick`` with a method."""
        return self._draws


def _make_random(seed: int, options: Mapping[str, str]) -> Bot:
    return RandomBot(seed)


register_bot("random", _make_random, "uniform over the legal actions")
