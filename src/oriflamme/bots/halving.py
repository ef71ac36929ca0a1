"""Sequential halving over paired worlds: a flat search for the bot's own decision.

At a decision with several options the bot, knowing only its observation,

1. draws worlds consistent with it (:class:`~oriflamme.bots.ismcts.Worlds`: the cards it
   cannot see dealt at random, weighted by the evidence of the tokens);
2. plays **every** remaining option in **the same** worlds, each followed by the one-step
   heuristic for every player up to the horizon (the end of the round, or of the next one),
   where :func:`~oriflamme.bots.evaluation.evaluate_state_all` gives its share of victory. The
   rollouts after each option reuse the same random numbers too, so two options are compared
   on the same luck: the deal's and the rollout's ("common random numbers"), which removes
   most of the noise that separates them in an unpaired search;
3. keeps the better half of the options and repeats with the budget left, doubling the worlds
   per option each time (Sequential Halving, Karnin, Koren & Somekh 2013), until one is left.

Compared with :class:`~oriflamme.bots.ismcts.IsmctsBot` it has no tree below the root (the
bot's later decisions in the rollout are the heuristic's), and spends the budget on telling
the options of this decision apart. ``iterations`` counts rollouts; ``time`` caps the seconds
per decision, shared equally among the halving phases.

>>> from oriflamme.api import new_game
>>> from oriflamme.bots.runner import play_game
>>> game = new_game(players=3, seed=3)
>>> bots = {p: HalvingBot(seed=p, iterations=40) for p in range(3)}
>>> play_game(game, bots) is not None
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence

from oriflamme.api import Action, Game, Observation
from oriflamme.search import state_of

from .base import (
    ON_OFF,
    budget_options,
    check_budget,
    choice_option,
    observer,
    whole_option,
)
from .catalog import DEFAULT_ROLLOUTS, HALVING_OPTIONS
from .evaluation import evaluate_state_all, play_heuristic_state
from .ismcts import Worlds

HORIZONS = ("round", "next")


class HalvingBot:
    """Sequential halving with paired worlds; see the module docstring."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = DEFAULT_ROLLOUTS,
        seconds: float | None = None,
        horizon: str = "round",
        infer: bool = True,
        name: str = "halving",
    ) -> None:
        check_budget(iterations, seconds)
        if horizon not in HORIZONS:
            raise ValueError(f"unknown horizon {horizon!r} (choose from {', '.join(HORIZONS)})")
        self.name = name
        self.iterations = iterations
        self.seconds = seconds
        self.horizon = horizon
        self.infer = infer
        self.last_rollouts = 0
        self._rng = random.Random(seed)

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        self.last_rollouts = 0
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        me = observer(observation)
        worlds = Worlds(observation, self.infer)
        options = list(legal)
        totals = dict.fromkeys(options, 0.0)
        phases = math.ceil(math.log2(len(options)))
        budget = math.inf if self.iterations is None else self.iterations
        for phase in range(phases):
            # this phase's share of what is left: the budget left over the phases left
            left = phases - phase
            share = (budget - self.last_rollouts) / left
            rounds = max(1, int(share // len(options))) if math.isfinite(share) else 1 << 30
            deadline = (math.inf if self.seconds is None else
                        time.perf_counter() + (start + self.seconds - time.perf_counter()) / left)
            for done in range(rounds):
                if done and time.perf_counter() >= deadline:
                    break
                world = worlds.draw(self._rng)
                luck = self._rng.getrandbits(64)
                for action in options:
                    totals[action] += self._value(world, action, me, luck)
                self.last_rollouts += len(options)
            # sorted() is stable: ties keep the order of the legal options
            options = sorted(options, key=lambda a: -totals[a])[: math.ceil(len(options) / 2)]
        return options[0]

    def _value(self, world: Game, action: Action, me: int, luck: int) -> float:
        """``me``'s share of victory after ``action`` in ``world`` and a heuristic rollout."""
        rng = random.Random(luck)
        game = world.copy(log=False)
        game.apply(action, check=False)
        # a copy of its own: the rollout plays its raw state (no history kept)
        last = game.round + (1 if self.horizon == "next" else 0)
        play_heuristic_state(state_of(game), last, rng)
        result = game.result()
        if result is None:
            return evaluate_state_all(state_of(game))[me]
        return 1.0 / len(result.winners) if me in result.winners else 0.0


OPTIONS = HALVING_OPTIONS


def halving_from_options(seed: int, options: Mapping[str, str]) -> HalvingBot:
    """Build a :class:`HalvingBot` from the options of a spec (strings), with clear errors."""
    iterations, seconds = budget_options(options, DEFAULT_ROLLOUTS)
    return HalvingBot(
        seed=whole_option("seed", options["seed"]) if "seed" in options else seed,
        iterations=iterations,
        seconds=seconds,
        horizon=choice_option("horizon", options.get("horizon", HORIZONS[0]), HORIZONS),
        infer=choice_option("infer", options.get("infer", "on"), ON_OFF) == "on",
    )
