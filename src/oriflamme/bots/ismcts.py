"""Information-Set Monte Carlo Tree Search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

At each decision the bot knows only its observation. It builds a :class:`WorldSampler` from it
once, then every iteration

1. samples a *world*: a full game that agrees with everything the bot knows, the cards it
   cannot see dealt at random (:class:`oriflamme.api.WorldSampler`);
2. descends one tree shared by all worlds, whose edges are actions: at each node it chooses among
   the actions legal *in this world* with UCB1, where an edge's exploration term counts how
   often it was *available* rather than how often its parent was visited (the paper's
   availability counts); decisions with a single option are played without a node;
3. expands one new edge, then plays the game out (uniformly random moves, or the greedy policy
   of :mod:`.evaluation`);
4. backpropagates a reward per player; each node keeps the reward of the player who chose the
   action leading to it, so every player maximises its own reward (N players, not zero-sum).

Edges are keyed by the acting player and the action. Actions are stable across worlds: card ids
stay where the observation shows them, so "place #12 at the end" means the same card in every
world for the bot itself. (For an opponent, whose hand the bot cannot see, the same id is a
different card in each world: the tree then models what the opponent does with "one of its
cards", averaged over the worlds.)

Rewards (option ``reward``): ``win`` gives 1 to the winner, shared equally among co-winners, 0
to the others; ``margin`` blends that (weight 1 - MARGIN_WEIGHT) with the score margin over the
best other player, clipped to ±MARGIN_SCALE points and mapped to [0, 1].

The budget is a number of iterations, a time per decision, or both (whichever ends first); with
iterations only, the same seed gives the same choices.

>>> from oriflamme.api import new_game
>>> from oriflamme.bots.runner import play_game
>>> game = new_game(players=3, seed=3)
>>> bots = {p: IsmctsBot(seed=p, iterations=20) for p in range(3)}
>>> play_game(game, bots) is not None
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from oriflamme.api import Action, Game, WorldSampler

from .base import Bot, BotSpecError, register_bot
from .evaluation import action_score, evaluate, greedy_action, projected_scores, state_of

#: Weight of the score margin in the ``margin`` reward, and the margin that counts as decisive.
MARGIN_WEIGHT = 0.5
MARGIN_SCALE = 10.0

ROLLOUTS = ("random", "greedy")
HORIZONS = ("end", "round")
REWARDS = ("win", "margin")


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What the last search did: iterations run and seconds spent (0 for a forced move)."""

    iterations: int
    seconds: float


class _Node:
    """A tree node: the statistics of the edge that leads to it, and its children by mover."""

    __slots__ = ("available", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the player who chose the action leading here
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed rewards of ``mover``
        self.children: dict[int, dict[Action, _Node]] = {}


class IsmctsBot:
    """SO-ISMCTS over sampled worlds; see the module docstring for the algorithm."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = 1000,
        seconds: float | None = None,
        rollout: str = "random",
        exploration: float = 0.7,
        reward: str = "win",
        horizon: str = "end",
        typed: bool = False,
        prior: bool = False,
        name: str = "ismcts",
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("ISMCTS needs a budget: iterations, seconds or both")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations}")
        if seconds is not None and not seconds > 0:
            raise ValueError(f"the time per decision must be positive, not {seconds}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"unknown rollout {rollout!r} (choose from {', '.join(ROLLOUTS)})")
        if reward not in REWARDS:
            raise ValueError(f"unknown reward {reward!r} (choose from {', '.join(REWARDS)})")
        if not exploration >= 0:
            raise ValueError(f"the exploration constant must be >= 0, not {exploration}")
        self.name = name
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.exploration = exploration
        self.reward = reward
        self.horizon = horizon
        self.typed = typed
        self.prior = prior
        self._me = -1
        self.last_search = SearchStats(0, 0.0)
        self._rng = random.Random(seed)

    def act(self, observation: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            self.last_search = SearchStats(0, 0.0)
            return legal[0]
        start = time.perf_counter()
        me: int = observation["viewer"]
        self._me = me
        sampler = WorldSampler(observation)
        root = _Node(-1)
        deadline = math.inf if self.seconds is None else start + self.seconds
        limit = self.iterations if self.iterations is not None else math.inf
        done = 0
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            self._iterate(sampler.sample(self._rng), root)
            done += 1
        self.last_search = SearchStats(done, time.perf_counter() - start)
        edges = root.children.get(me, {})
        best = max(legal, key=lambda a: _preference(edges.get(a)))
        return best

    # -- one iteration ------------------------------------------------------------------
    def _iterate(self, world: Game, root: _Node) -> None:
        rng = self._rng
        c = self.exploration
        typed = self.typed
        types = state_of(world).card_type
        players = world.config.players
        node = root
        path: list[_Node] = []
        while True:
            decision = world.decision()
            if decision is None:
                break
            legal = world.legal_actions()
            if len(legal) == 1:
                world.apply(legal[0], check=False)
                continue
            mover = decision.player
            edges = node.children.get(mover)
            if edges is None:
                edges = node.children[mover] = {}
            untried: list[tuple[Action, Any]] = []
            present: list[_Node] = []
            for action in legal:
                key: Any = action
                if typed and mover != self._me and action[1] >= 0:
                    card = action[1]
                    if world_family(card, types, world) % players == mover:
                        key = (action, types[card])
                child = edges.get(key)
                if child is None:
                    untried.append((action, key))
                else:
                    child.available += 1
                    present.append(child)
            if untried:
                if self.prior and len(untried) > 1:
                    st = state_of(world)
                    scored = [action_score(st, mover, a) for a, _ in untried]
                    top = max(scored)
                    untried = [u for u, v in zip(untried, scored) if v >= top - 1e-9]
                action, key = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = edges[key] = _Node(mover)
                child.available = 1
                world.apply(action, check=False)
                path.append(child)
                break
            best_value = -math.inf
            best_index = 0
            for i, child in enumerate(present):
                value = child.reward / child.visits + c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if value > best_value:
                    best_value, best_index = value, i
            world.apply(legal[best_index], check=False)  # no untried: present[i] is legal[i]
            node = present[best_index]
            path.append(node)
        rewards = self._rollout(world)
        root.visits += 1
        for node in path:
            node.visits += 1
            node.reward += rewards[node.mover]

    def _rollout(self, world: Game) -> list[float]:
        rng = self._rng
        if self.rollout == "random" and self.horizon == "end":
            world.playout(rng)
        else:
            stop = world.round
            while True:
                decision = world.decision()
                if decision is None or (self.horizon == "round" and world.round != stop):
                    break
                if self.rollout == "random":
                    world.apply(world.random_action(rng), check=False)
                else:
                    world.apply(greedy_action(world, decision.player, rng), check=False)
        return self._rewards(world)

    def _rewards(self, world: Game) -> list[float]:
        """The reward of each player at the end of ``world`` (or its evaluation if not over)."""
        result = world.result()
        n = world.config.players
        if result is None:
            wins = [evaluate(world, p) for p in range(n)]
            scores: Sequence[float] = projected_scores(world)
        else:
            share = 1.0 / len(result.winners)
            wins = [share if p in result.winners else 0.0 for p in range(n)]
            scores = result.scores
        if self.reward == "win":
            return wins
        out = []
        for p in range(n):
            margin = scores[p] - max(scores[q] for q in range(n) if q != p)
            clipped = max(-MARGIN_SCALE, min(MARGIN_SCALE, margin))
            scaled = 0.5 + clipped / (2 * MARGIN_SCALE)
            out.append((1 - MARGIN_WEIGHT) * wins[p] + MARGIN_WEIGHT * scaled)
        return out


def world_family(card: int, types: Any, world: Game) -> int:
    return card // world.config.family_size


def _preference(node: _Node | None) -> tuple[int, float]:
    """Root choice: the most visited action, ties broken by the higher mean reward."""
    if node is None or node.visits == 0:
        return (0, 0.0)
    return (node.visits, node.reward / node.visits)


# -- the spec ``ismcts:key=value`` ----------------------------------------------------------------
OPTIONS = ("iterations", "time", "rollout", "c", "reward", "seed", "horizon", "typed", "prior")


def parse_count(key: str, text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise BotSpecError(f"option {key}={text!r}: expected a whole number") from None
    if value < 1:
        raise BotSpecError(f"option {key}={text!r}: must be at least 1")
    return value


def parse_number(key: str, text: str, allow_zero: bool = False) -> float:
    try:
        value = float(text)
    except ValueError:
        raise BotSpecError(f"option {key}={text!r}: expected a number") from None
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        kind = "non-negative" if allow_zero else "positive"
        raise BotSpecError(f"option {key}={text!r}: must be a {kind} number")
    return value


def parse_choice(key: str, text: str, allowed: Sequence[str]) -> str:
    value = text.strip().lower()
    if value not in allowed:
        raise BotSpecError(f"option {key}={text!r}: choose from {', '.join(allowed)}")
    return value


def ismcts_from_options(seed: int, options: Mapping[str, str], name: str = "ismcts") -> IsmctsBot:
    """Build an :class:`IsmctsBot` from spec options (strings), with clear errors."""
    iterations = parse_count("iterations", options["iterations"]) if "iterations" in options else None
    seconds = parse_number("time", options["time"]) if "time" in options else None
    if iterations is None and seconds is None:
        iterations = 1000
    return IsmctsBot(
        seed=parse_count_or_zero("seed", options["seed"]) if "seed" in options else seed,
        iterations=iterations,
        seconds=seconds,
        rollout=parse_choice("rollout", options.get("rollout", "random"), ROLLOUTS),
        exploration=parse_number("c", options.get("c", "0.7"), allow_zero=True),
        reward=parse_choice("reward", options.get("reward", "win"), REWARDS),
        horizon=parse_choice("horizon", options.get("horizon", "end"), HORIZONS),
        typed=options.get("typed", "0") == "1",
        prior=options.get("prior", "0") == "1",
        name=name,
    )


def parse_count_or_zero(key: str, text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise BotSpecError(f"option {key}={text!r}: expected a whole number") from None


def _make_ismcts(seed: int, options: Mapping[str, str]) -> Bot:
    return ismcts_from_options(seed, options)


register_bot(
    "ismcts",
    _make_ismcts,
    "information-set Monte Carlo tree search over sampled worlds (1000 iterations unless told)",
    options=OPTIONS,
)
