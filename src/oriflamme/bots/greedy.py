"""The greedy bot: rule-of-thumb heuristics plus one step of look-ahead on sampled worlds.

For each candidate action the bot draws a few worlds consistent with its observation
(:class:`~oriflamme.api.WorldSampler`), applies the action in each, lets the rest of the round
play out with the one-step policy :func:`~oriflamme.bots.evaluation.greedy_state_action` (so a
placed card shows what it will do this round, a revealed one what its ability brings), and
evaluates the result with :func:`~oriflamme.bots.evaluation.evaluate_state`. The best mean
wins; ties are broken with the bot's own seeded generator, so a seed fixes every choice.

Where the look-ahead is blind it keeps hand-written priors (:func:`prior`): an Ambush or a Trap
stays face down (it pays when attacked, which the short look-ahead rarely shows).

>>> from oriflamme.api import new_game
>>> from oriflamme.bots.runner import play_game
>>> game = new_game(players=3, seed=3)
>>> result = play_game(game, {0: GreedyBot(1), 1: GreedyBot(2), 2: GreedyBot(3)})
>>> game.is_over
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from oriflamme.api import Action, ActionKind, CardType, Game, Observation, WorldSampler

from .base import Bot, BotSpecError, observer
from .catalog import WORLDS
from .evaluation import action_score, evaluate_state, greedy_state_action, state_of

#: Worlds sampled per decision (the same worlds for every candidate action).
#: Placements kept for the look-ahead, the best by the one-step heuristic.
PLACEMENT_CANDIDATES = 6
#: Weight of the one-step heuristic score added to the look-ahead's share of victory.
HEURISTIC_WEIGHT = 0.01
#: Steps of a look-ahead rollout at most (the rest of the round is far shorter in practice).
MAX_ROLLOUT = 60


class GreedyBot:
    """Heuristics and a one-round look-ahead on a few sampled worlds; deterministic per seed."""

    name = "greedy"

    def __init__(self, seed: int = 0, worlds: int = WORLDS) -> None:
        if worlds < 1:
            raise ValueError("the greedy bot needs at least one world")
        self._rng = random.Random(seed)
        self._worlds = worlds

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        me = observer(observation)
        sampler = WorldSampler(observation)
        worlds = [sampler.sample(self._rng) for _ in range(self._worlds)]
        seeds = [self._rng.getrandbits(32) for _ in worlds]
        s = state_of(worlds[0])
        scores = {a: HEURISTIC_WEIGHT * action_score(s, me, a) + prior(worlds[0], a)
                  for a in candidates(worlds[0], me, legal)}
        for action in scores:
            scores[action] += sum(
                look_ahead(world, me, action, random.Random(seed))
                for world, seed in zip(worlds, seeds, strict=True)
            ) / len(worlds)
        best = max(scores.values())
        ties = [a for a, v in scores.items() if v >= best - 1e-12]
        return ties[self._rng.randrange(len(ties))] if len(ties) > 1 else ties[0]


def candidates(world: Game, player: int, legal: Sequence[Action]) -> list[Action]:
    """The actions worth a look-ahead: all of them, but only the best few placements."""
    if legal[0].kind is not ActionKind.PLACE or len(legal) <= PLACEMENT_CANDIDATES:
        return list(legal)
    s = state_of(world)
    ranked = sorted(legal, key=lambda a: action_score(s, player, a), reverse=True)
    return ranked[:PLACEMENT_CANDIDATES]


def prior(world: Game, action: Action) -> float:
    """Hand-written preferences where the look-ahead is blind: keep an Ambush or Trap hidden."""
    s = state_of(world)
    if action.kind is ActionKind.LEAVE and s.card_type[action.card] in _GUARDS and s.round < 6:
        return 0.05
    return 0.0


def look_ahead(world: Game, player: int, action: Action, rng: random.Random) -> float:
    """``player``'s share of victory after ``action`` and the rest of the round played greedily."""
    game = world.copy(log=False)
    start = game.round
    game.apply(action, check=False)
    for _ in range(MAX_ROLLOUT):
        d = game.decision()
        if d is None or game.round != start:
            break
        game.apply(greedy_state_action(state_of(game), d.player, rng), check=False)
    return evaluate_state(state_of(game), player)


_GUARDS = frozenset({CardType.AMBUSH, CardType.TRAP})


def greedy_from_options(seed: int, options: Mapping[str, str]) -> Bot:
    """The ``greedy`` bot of a spec (registered by :mod:`oriflamme.bots.catalog`)."""
    worlds = options.get("worlds", str(WORLDS))
    try:
        return GreedyBot(seed, int(worlds))
    except ValueError:
        raise BotSpecError(f"greedy: worlds must be a positive integer, not {worlds!r}") from None
