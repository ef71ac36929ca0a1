"""Named levels of play: ``easy``, ``medium``, ``hard``, ``expert``, ``learned`` and ``master``.

Each level is a registered bot (``--bots hard``) built from a bot of this package with a fixed
budget:

==========  ====================================================================
level       bot and budget
==========  ====================================================================
``easy``    :class:`NoisyHeuristicBot`: the one-step heuristic
            (:func:`~oriflamme.bots.evaluation.greedy_state_action`) on one sampled
            world, but a uniformly random legal action one time in three
``medium``  ``greedy``: heuristics with a one-round look-ahead on 4 sampled worlds
``hard``    ``ismcts``: 3000 iterations, at most 1.5 s, the opponents played by the
            one-step heuristic inside the tree (``opponents=greedy``); greedy
            rollouts to the round's end, win reward, token inference
``expert``  the same search with 6000 iterations, at most 2 s, and the position value
            fitted to game outcomes (``value=fitted``, :mod:`oriflamme.bots.value`)
            instead of the hand-set one
``learned`` the network trained by self-play alone (:mod:`oriflamme.bots.learned`),
            in the set-ups the package ships a network for
``master``  the search guided by that network (:mod:`oriflamme.bots.guided`), the
            opponents inside its tree played by the policy that imitates ``expert``'s
            search where one ships (3 players), at most 1 s per decision
==========  ====================================================================

Their time per decision and strength are measured in ``docs/benchmarks.md`` and
``docs/bots.md``.

The search levels are budgeted by iterations, so that a seed fixes their play, with a time cap
for slow or busy machines (a capped search is no longer reproducible).

>>> bot = make_bot("hard", seed=1)
>>> bot.name, type(bot).__name__
('hard', 'IsmctsBot')
>>> bot = make_bot("master", seed=1)
>>> bot.name, type(bot).__name__, bot.seconds
('master', 'GuidedBot', 1.0)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from oriflamme.api import Action, Observation, WorldSampler

from .base import Bot, make_bot, observer
from .catalog import LEVELS as LEVELS  # re-exported: the levels are read from here too
from .evaluation import greedy_state_action, state_of

#: Chance that the easy level plays a uniformly random legal action.
EASY_NOISE = 1 / 3

class NoisyHeuristicBot:
    """The one-step heuristic on a sampled world, with random moves mixed in (``noise``)."""

    def __init__(self, seed: int = 0, noise: float = EASY_NOISE, name: str = "noisy") -> None:
        if not 0 <= noise <= 1:
            raise ValueError(f"noise is a probability, not {noise}")
        self.name = name
        self.noise = noise
        self._rng = random.Random(seed)

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        if self._rng.random() < self.noise:
            return legal[self._rng.randrange(len(legal))]
        world = WorldSampler(observation).sample(self._rng)
        return greedy_state_action(state_of(world), observer(observation), self._rng)


def make_level(level: str, seed: int) -> Bot:
    """The bot of a named level, carrying the level's name."""
    spec, _ = LEVELS[level]
    bot = NoisyHeuristicBot(seed) if spec is None else make_bot(spec, seed)
    bot.name = level
    return bot


def level_from_options(level: str, seed: int, options: Mapping[str, str]) -> Bot:
    """The bot of ``level`` (registered by :mod:`oriflamme.bots.catalog`; levels take no
    options)."""
    return make_level(level, seed)
