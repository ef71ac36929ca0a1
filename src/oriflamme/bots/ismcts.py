"""Information-Set Monte Carlo Tree Search (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).

At each decision the bot knows only its observation. It builds a :class:`WorldSampler` from it
once, then every iteration

1. samples a *world*: a full game that agrees with everything the bot knows, the cards it
   cannot see dealt at random (:class:`oriflamme.api.WorldSampler`), then kept or redrawn by
   the evidence of the tokens (``infer``, below);
2. descends one tree shared by all worlds, choosing at each node among the actions legal *in
   this world* with UCB1, where an edge's exploration term counts how often the edge was
   *available* rather than how often its parent was visited (the paper's availability counts);
   decisions with a single option are played without a node;
3. expands one new edge, then plays on with a rollout policy (``rollout``): the one-step
   heuristic :func:`~oriflamme.bots.evaluation.greedy_state_action` for every player, or uniformly
   random moves; up to the end of the round being played (``horizon=round``) or of the next
   one (``next``), where :func:`~oriflamme.bots.evaluation.evaluate_state` estimates each player's
   share of victory, or to the end of the game (``end``);
4. backpropagates one reward per player; each node keeps the rewards of the player who chose
   the action leading to it, so every player maximises its own reward (N players, no zero sum).

Opponents (``opponents``): ``tree`` (default) gives the opponents' decisions nodes of their own,
chosen by UCB1 for their own reward as above; ``greedy`` plays them with the one-step heuristic
inside the tree as well, so the tree holds the bot's own decisions only and grows deeper on them
(a fresh opponent node would otherwise try a random untried move first); with ``noise=P`` each
of those heuristic replies is a uniformly random legal action instead, with chance P.
``candidates=K`` keeps only the K placements the heuristic rates best at the root (0, the
default: all).

Edges are keyed by the acting player and the action. Actions are stable across worlds (card ids
stay where the observation shows them), so the bot's own edges mean the same in every world. An
opponent's action on one of its own cards, which the bot cannot see, is a different card in each
world: its edge is keyed by the card's type in that world too, so that the tree models what the
opponent does knowing its cards ("it reveals its Soldier", not "it reveals card #23").

Inference (``infer``, on by default): tokens on a face-down card are public and count the times
its owner chose to leave it hidden, which a player does far more often with an Ambush, a Trap or
a Conspiracy than with a card worth revealing. Each sampled world is accepted with probability
``prod(LEAVE_ODDS[type] ** tokens)`` over the opponents' face-down cards (rejection sampling),
so the worlds follow that evidence instead of dealing those cards uniformly.

Rewards (``reward``): ``win`` is the share of victory (1 for a win, shared equally among
co-winners, else 0; or its estimate when the rollout stops at a round's end: ``value=hand``,
the hand-set :func:`~oriflamme.bots.evaluation.evaluate_state_all`, or ``value=fitted``,
:func:`~oriflamme.bots.value.fitted_state_values`, fitted to game outcomes); ``margin`` blends
it half and half with the score margin over the best other player (clipped to ±MARGIN_SCALE
points, mapped to [0, 1]).

The defaults and the figures that chose them are in docs/bots.md ("How the defaults were
chosen").

The budget is a number of iterations, a time per decision, or both (whichever ends first); with
iterations only, the same seed gives the same choices. The answer is the most visited action.
``workers=N`` shares the budget among N searches with their own seeds on N cores (root
parallelisation, :mod:`oriflamme.bots.parallel`) and sums their root statistics.

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
from collections.abc import Hashable, Mapping, Sequence
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeAlias

from oriflamme.api import Action, ActionKind, CardType, Game, Observation, WorldSampler
from oriflamme.search import apply_unchecked, current_player, legal_actions, randbelow, state_of

from .base import (
    ON_OFF,
    BotSpecError,
    budget_options,
    check_budget,
    choice_option,
    number_option,
    observer,
    whole_option,
)
from .catalog import DEFAULT_ITERATIONS, ISMCTS_OPTIONS
from .evaluation import (
    action_score,
    evaluate_state_all,
    greedy_state_action,
    modelled_opponent_action,
    play_heuristic_state,
    projected_state_scores,
)
from .parallel import discard_pool, shared_pool
from .value import fitted_state_values

# Final: compiled code reads these as constants, not by a dict lookup in the module's globals.
#: Weight of the score margin in the ``margin`` reward, and the margin that counts as decisive.
MARGIN_WEIGHT: Final = 0.5
MARGIN_SCALE: Final = 10.0

#: The values of the choice options (see the module docstring); each tuple's first is the
#: default.
Rollout: TypeAlias = Literal["greedy", "random"]
Horizon: TypeAlias = Literal["round", "next", "end"]
Reward: TypeAlias = Literal["win", "margin"]
Opponents: TypeAlias = Literal["tree", "greedy"]
Expansion: TypeAlias = Literal["random", "greedy"]
ValueModel: TypeAlias = Literal["hand", "fitted"]
ROLLOUTS: Final[tuple[Rollout, ...]] = ("greedy", "random")
HORIZONS: Final[tuple[Horizon, ...]] = ("round", "next", "end")
REWARDS: Final[tuple[Reward, ...]] = ("win", "margin")
OPPONENTS: Final[tuple[Opponents, ...]] = ("tree", "greedy")
EXPANSIONS: Final[tuple[Expansion, ...]] = ("random", "greedy")
VALUES: Final[tuple[ValueModel, ...]] = ("hand", "fitted")
LAST_ROUND: Final = 6  # R-END-1
DEFAULT_EXPLORATION: Final = 0.7


@dataclass(frozen=True, slots=True)
class IsmctsSettings:
    """How the search plays (not its budget, seed or name): the options of the module
    docstring, checked when made (``ValueError``)."""

    rollout: Rollout = "greedy"
    horizon: Horizon = "round"
    exploration: float = DEFAULT_EXPLORATION
    reward: Reward = "win"
    infer: bool = True
    candidates: int = 0
    opponents: Opponents = "tree"
    expand: Expansion = "random"
    normalize: bool = False
    noise: float = 0.0
    value: ValueModel = "hand"

    def __post_init__(self) -> None:
        choices: tuple[tuple[str, tuple[str, ...]], ...] = (
            (self.rollout, ROLLOUTS), (self.horizon, HORIZONS), (self.reward, REWARDS),
            (self.opponents, OPPONENTS), (self.expand, EXPANSIONS), (self.value, VALUES))
        for value, allowed in choices:
            if value not in allowed:
                raise ValueError(f"unknown option {value!r} (choose from {', '.join(allowed)})")
        if self.candidates < 0:
            raise ValueError(
                f"candidates must be >= 0 (0: every placement), not {self.candidates}")
        if not self.exploration >= 0:
            raise ValueError(f"the exploration constant must be >= 0, not {self.exploration}")
        if not 0 <= self.noise <= 1:
            raise ValueError(f"noise must be a probability from 0 to 1, not {self.noise}")

    def as_dict(self) -> dict[str, Any]:
        """The settings as keyword arguments of :class:`IsmctsBot` (or of this class)."""
        return {name: getattr(self, name) for name in SETTING_NAMES}

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt by its constructor: the compiled build cannot set a frozen instance's fields
        # one by one, as unpickling does.
        return (IsmctsSettings, tuple(getattr(self, name) for name in SETTING_NAMES))


#: The fields of :class:`IsmctsSettings`, in order.
SETTING_NAMES: Final = ("rollout", "horizon", "exploration", "reward", "infer", "candidates",
                        "opponents", "expand", "normalize", "noise", "value")


@dataclass(frozen=True, slots=True)
class SearchStats:
    """What the last search did: iterations run, seconds spent (0 for a forced move), and how
    often the root tried each action (summed over the workers)."""

    iterations: int
    seconds: float
    visits: Mapping[Action, int] = field(default_factory=dict)

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt by its constructor: the compiled build cannot set a frozen instance's fields
        # one by one, as unpickling and copy.deepcopy do (a bot that is copied or pickled).
        return (SearchStats, (self.iterations, self.seconds, dict(self.visits)))


class _Node:
    """A tree node: the statistics of the edge that leads to it, and its children by mover."""

    __slots__ = ("available", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the player who chose the action leading here
        self.visits = 0
        self.available = 1  # created when first available
        self.reward = 0.0  # summed rewards of ``mover``
        self.children: dict[int, dict[Hashable, _Node]] = {}


class IsmctsBot:
    """SO-ISMCTS over sampled worlds; see the module docstring for the algorithm and options."""

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        rollout: Rollout = "greedy",
        horizon: Horizon = "round",
        exploration: float = DEFAULT_EXPLORATION,
        reward: Reward = "win",
        infer: bool = True,
        candidates: int = 0,
        opponents: Opponents = "tree",
        expand: Expansion = "random",
        normalize: bool = False,
        workers: int = 1,
        noise: float = 0.0,
        value: ValueModel = "hand",
        name: str = "ismcts",
    ) -> None:
        check_budget(iterations, seconds)
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        if iterations is not None and iterations < workers:
            raise ValueError(f"workers={workers}: more workers than the {iterations} iterations"
                             " to share")
        #: How it searches, fixed for the bot's life (each option also reads as an attribute).
        self.options = IsmctsSettings(rollout, horizon, exploration, reward, infer, candidates,
                                      opponents, expand, normalize, noise, value)
        self.name = name
        self.iterations = iterations
        self.seconds = seconds
        self.workers = workers
        self.last_search = SearchStats(0, 0.0)
        self._rng = random.Random(seed)

    # The options, read-only (the search reads ``self.options`` once per iteration).
    @property
    def rollout(self) -> Rollout:
        return self.options.rollout

    @property
    def horizon(self) -> Horizon:
        return self.options.horizon

    @property
    def exploration(self) -> float:
        return self.options.exploration

    @property
    def reward(self) -> Reward:
        return self.options.reward

    @property
    def infer(self) -> bool:
        return self.options.infer

    @property
    def candidates(self) -> int:
        return self.options.candidates

    @property
    def opponents(self) -> Opponents:
        return self.options.opponents

    @property
    def expand(self) -> Expansion:
        return self.options.expand

    @property
    def normalize(self) -> bool:
        return self.options.normalize

    @property
    def noise(self) -> float:
        return self.options.noise

    @property
    def value(self) -> ValueModel:
        return self.options.value

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            self.last_search = SearchStats(0, 0.0)
            return legal[0]
        start = time.perf_counter()
        candidates = self.options.candidates
        if candidates and len(legal) > candidates and legal[0].kind == ActionKind.PLACE:
            worlds = Worlds(observation, self.options.infer)
            legal = best_placements(worlds.draw(self._rng), observer(observation), legal,
                                    candidates)
        if self.workers == 1:
            stats, done = self.search(observation, legal, self.iterations, self.seconds)
        else:
            stats, done = self._search_in_parallel(observation, legal)
        visits = {a: v for a, (v, _) in stats.items()}
        self.last_search = SearchStats(done, time.perf_counter() - start, visits)
        return max(legal, key=lambda a: _preference(stats.get(a)))

    def search(
        self,
        observation: Observation,
        legal: Sequence[Action],
        iterations: int | None,
        seconds: float | None,
        totals: dict[Action, list[float]] | None = None,
    ) -> tuple[dict[Action, tuple[int, float]], int]:
        """One search of this decision among ``legal`` with this budget: the root's statistics
        (visits, summed reward) by action, and the iterations run. With ``totals``, every
        player's rewards are also summed there, by the root action each iteration tried (what
        the bot expects for everyone after each of its moves: its advice, ``bots.advice``)."""
        start = time.perf_counter()
        me = observer(observation)
        worlds = Worlds(observation, self.options.infer)
        root = _Node(me)
        deadline = math.inf if seconds is None else start + seconds
        limit = math.inf if iterations is None else iterations
        done = 0
        allowed = frozenset(legal)
        first_action: dict[int, Action] = {}  #: root edges by node id (for ``totals``)
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            path, rewards = self._iterate(worlds.draw(self._rng), root, me, allowed)
            done += 1
            if totals is not None:
                _add_totals(totals, root.children.get(me, {}), first_action, path, rewards,
                            legal)
        edges = root.children.get(me, {})
        stats = {a: (node.visits, node.reward) for a in legal
                 if (node := edges.get(a)) is not None}
        return stats, done

    def _search_in_parallel(
        self, observation: Observation, legal: Sequence[Action]
    ) -> tuple[dict[Action, tuple[int, float]], int]:
        """Root parallelisation: ``workers`` searches with their own seeds and shares of the
        iterations (N - 1 in the shared pool, one here), their root statistics summed."""
        n = self.workers
        # one wall-clock deadline for all (comparable across processes, unlike perf_counter)
        until = None if self.seconds is None else time.time() + self.seconds
        seeds = [self._rng.getrandbits(64) for _ in range(n)]
        shares: list[int | None] = [None] * n
        if self.iterations is not None:
            shares = [self.iterations // n + (i < self.iterations % n) for i in range(n)]
        settings = self.settings()
        observation = observation.copy()  # a plain dict, for the pool's pickling
        parts: list[Any] = []
        pool = shared_pool(n - 1)
        if pool is not None:
            try:
                parts = [pool.submit(search_part, settings, seeds[i], observation, list(legal),
                                     shares[i], until) for i in range(1, n)]
            except RuntimeError:  # a broken or shut-down pool: start another next time
                discard_pool()
                parts = []
        results = [search_part(settings, seeds[0], observation, legal, shares[0], until)]
        try:
            results += [part.result() for part in parts]
        except (BrokenProcessPool, OSError):
            discard_pool()
            results = results[:1]
        # whatever the pool could not run, this process runs (the same answer, later)
        for i in range(len(results), n):
            results.append(search_part(settings, seeds[i], observation, legal, shares[i], until))
        stats: dict[Action, tuple[int, float]] = {}
        for part_stats, _ in results:
            for action, (visits, reward) in part_stats.items():
                seen, total = stats.get(action, (0, 0.0))
                stats[action] = (seen + visits, total + reward)
        return stats, sum(done for _, done in results)

    def settings(self) -> dict[str, Any]:
        """The options of this search (not its budget, seed or name), as keyword arguments:
        ``self.options.as_dict()``."""
        return self.options.as_dict()

    # -- one iteration ------------------------------------------------------------------
    def _iterate(
        self, world: Game, root: _Node, me: int, allowed: frozenset[Action]
    ) -> tuple[list[_Node], list[float]]:
        """One iteration; at the root only ``allowed`` actions are searched. Returns the nodes
        it went through and every player's reward."""
        rng = self._rng
        options = self.options
        c = options.exploration
        opponents_greedy = options.opponents == "greedy"
        noise = options.noise
        expand_greedy = options.expand == "greedy"
        normalize = options.normalize
        # The world is the search's own: its raw state is played directly (search.apply_unchecked),
        # without the Game wrapper's bookkeeping at every move.
        s = state_of(world)
        types = s.card_type
        size = world.config.family_size
        players = world.config.players
        node = root
        path: list[_Node] = []
        at_root = True  # the first decision only: a forced move there leaves the node root
        while True:
            mover = current_player(s)
            if mover is None:
                break
            legal = legal_actions(s)
            if at_root:
                legal = [a for a in legal if a in allowed]
                at_root = False
            if len(legal) == 1:
                apply_unchecked(s, legal[0])
                continue
            if mover != me and opponents_greedy:
                apply_unchecked(s, modelled_opponent_action(s, mover, legal, noise, rng))
                continue
            edges = node.children.get(mover)
            if edges is None:
                edges = node.children[mover] = {}
            untried: list[tuple[Action, Hashable]] = []
            present: list[_Node] = []
            for action in legal:
                key: Hashable = action
                card = action[1]
                if mover != me and card >= 0 and card // size % players == mover:
                    key = (action, types[card])  # what the opponent knows of its own card
                child = edges.get(key)
                if child is None:
                    untried.append((action, key))
                else:
                    child.available += 1
                    present.append(child)
            if untried:
                action, key = untried[randbelow(rng, len(untried))]
                if expand_greedy and len(untried) > 1:
                    # the heuristic's choice first: a fresh node's first visit then follows
                    # a sensible line instead of a random one
                    choice = greedy_state_action(s, mover, rng)
                    for tried_action, tried_key in untried:
                        if tried_action == choice:
                            action, key = tried_action, tried_key
                            break
                child = edges[key] = _Node(mover)
                apply_unchecked(s, action)
                path.append(child)
                break
            best_value = -math.inf
            best = 0
            means = [child.reward / child.visits for child in present]
            low, scale = 0.0, 1.0
            if normalize:  # the children's mean rewards rescaled to [0, 1]
                low = min(means)
                span = max(means) - low
                scale = 1.0 / span if span > 1e-9 else 0.0
            for i, child in enumerate(present):
                value = (means[i] - low) * scale + c * math.sqrt(
                    math.log(child.available) / child.visits
                )
                if value > best_value:
                    best_value, best = value, i
            apply_unchecked(s, legal[best])  # nothing untried: present[i] is legal[i]
            node = present[best]
            path.append(node)
        rewards = self._play_out(world)
        for node in path:
            node.visits += 1
            node.reward += rewards[node.mover]
        return path, rewards

    def _play_out(self, world: Game) -> list[float]:
        """Play the rollout policy to the horizon; return every player's reward."""
        rng = self._rng
        options = self.options
        if options.rollout == "random" and options.horizon == "end":
            world.playout(rng)
        else:
            last = {"round": world.round, "next": world.round + 1}.get(options.horizon,
                                                                        LAST_ROUND)
            if options.rollout == "greedy":
                play_heuristic_state(state_of(world), last, rng)
            else:
                while world.decision() is not None and world.round <= last:
                    world.apply(world.random_action(rng), check=False)
        return self._rewards(world)

    def _rewards(self, world: Game) -> list[float]:
        """Each player's reward: its share of victory (evaluated if the game is not over),
        blended with its score margin for the ``margin`` reward."""
        n = world.config.players
        result = world.result()
        options = self.options
        scores: Sequence[float]
        if result is None:
            s = state_of(world)
            wins = fitted_state_values(s) if options.value == "fitted" else evaluate_state_all(s)
            if options.reward == "win":
                return wins
            scores = projected_state_scores(s)
        else:
            share = 1.0 / len(result.winners)
            wins = [share if p in result.winners else 0.0 for p in range(n)]
            if options.reward == "win":
                return wins
            scores = result.scores
        out = []
        for p in range(n):
            margin = scores[p] - max(scores[q] for q in range(n) if q != p)
            clipped = max(-MARGIN_SCALE, min(MARGIN_SCALE, margin))
            out.append((1 - MARGIN_WEIGHT) * wins[p] + MARGIN_WEIGHT * (0.5 + clipped / (
                2 * MARGIN_SCALE)))
        return out


#: Odds, relative to an Ambush, that a player leaves a face-down card of a type unrevealed when
#: the resolution reaches it (the guards pay only if attacked, a Conspiracy grows; most other
#: cards are worth revealing). Guesses, not fitted; see :class:`Worlds`.
LEAVE_ODDS: Final = {CardType.AMBUSH: 1.0, CardType.TRAP: 1.0, CardType.CONSPIRACY: 0.9}
CHARACTER_LEAVE_ODDS: Final = 0.3
INTRIGUE_LEAVE_ODDS: Final = 0.5
_ODDS_BY_TYPE: Final = tuple(
    LEAVE_ODDS.get(t, CHARACTER_LEAVE_ODDS if t.is_character else INTRIGUE_LEAVE_ODDS)
    for t in CardType
)
#: Worlds drawn at most for one accepted world (the last one is kept after that).
MAX_ATTEMPTS: Final = 30


class Worlds:
    """The worlds of one decision, drawn from the observation with the inference of ``infer``.

    A world is weighted by ``prod(LEAVE_ODDS[type] ** tokens)`` over the face-down cards the
    viewer cannot identify, and accepted with probability ``weight / ceiling`` (rejection
    sampling), where the ceiling is the highest weight drawn so far for this decision.
    """

    __slots__ = ("_ceiling", "_evidence", "_sampler")

    def __init__(self, observation: Observation, infer: bool = True) -> None:
        self._sampler = WorldSampler(observation)
        self._evidence = _left_cards(observation) if infer else []
        self._ceiling = 0.0

    @property
    def evidence(self) -> list[tuple[int, int]]:
        """The face-down cards the viewer cannot identify that carry tokens, and their tokens."""
        return list(self._evidence)

    def draw(self, rng: random.Random) -> Game:
        if not self._evidence:
            return self._sampler.sample(rng)
        # only the dealt types decide: the world is built once, for the deal kept
        for _ in range(MAX_ATTEMPTS):
            types = self._sampler.deal(rng)
            weight = 1.0
            for card, tokens in self._evidence:
                weight *= _ODDS_BY_TYPE[types[card]] ** tokens
            self._ceiling = max(self._ceiling, weight)
            if rng.random() * self._ceiling < weight:
                break
        return self._sampler.sample(rng, deal=types)


def best_placements(
    world: Game, player: int, legal: Sequence[Action], count: int
) -> list[Action]:
    """The ``count`` placements that the one-step heuristic rates best for ``player``.

    The heuristic reads only what ``player`` may know, so any world sampled from its
    observation gives the same choice.
    """
    s = state_of(world)
    ranked = sorted(legal, key=lambda a: -action_score(s, player, a))
    return ranked[:count]


def _left_cards(observation: Observation) -> list[tuple[int, int]]:
    """See :attr:`Worlds.evidence`."""
    return [(e["id"], e["tokens"]) for stack in observation["queue"] for e in stack
            if e["type"] is None and e["tokens"] > 0]


def _add_totals(
    totals: dict[Action, list[float]],
    edges: Mapping[Hashable, _Node],
    first_action: dict[int, Action],
    path: Sequence[_Node],
    rewards: Sequence[float],
    legal: Sequence[Action],
) -> None:
    """Add one iteration's rewards to the root action it tried (see ``search``)."""
    if len(first_action) != len(edges):
        first_action.update({id(node): key for key, node in edges.items()
                             if isinstance(key, Action)})
    action = first_action.get(id(path[0])) if path else None
    if action is None or len(legal) == 1:  # a forced root: its edges are later decisions'
        if len(legal) != 1:
            return  # the root's options were all forced away in this world: nothing to add
        action = legal[0]
    found = totals.get(action)
    if found is None:
        totals[action] = list(rewards)
    else:
        for p, reward in enumerate(rewards):
            found[p] += reward


def _preference(stats: tuple[int, float] | None) -> tuple[int, float]:
    """The root's answer: the most visited action, ties broken by the higher mean reward."""
    if stats is None or stats[0] == 0:
        return (0, 0.0)
    return (stats[0], stats[1] / stats[0])


def search_part(
    settings: Mapping[str, Any],
    seed: int,
    observation: Observation,
    legal: Sequence[Action],
    iterations: int | None,
    until: float | None,
) -> tuple[dict[Action, tuple[int, float]], int]:
    """One of the searches of a root-parallel decision (run in a worker process or here),
    stopped at the wall-clock time ``until`` if given (after one iteration at least)."""
    seconds = None if until is None else max(until - time.time(), 1e-6)
    bot = IsmctsBot(seed=seed, iterations=iterations, seconds=seconds, **settings)
    return bot.search(observation, legal, iterations, seconds)


# -- the spec ``ismcts:key=value`` (registered by :mod:`oriflamme.bots.catalog`) --------------
#: The options of an ``ismcts`` spec; a bare number is the first (``ismcts:500``).
OPTIONS: Final = ISMCTS_OPTIONS


def ismcts_from_options(seed: int, options: Mapping[str, str]) -> IsmctsBot:
    """Build an :class:`IsmctsBot` from the options of a spec (strings), with clear errors.

    Without ``iterations`` nor ``time`` the budget is DEFAULT_ITERATIONS iterations; with
    ``time`` only, the search runs for that many seconds per decision.
    """
    iterations, seconds = budget_options(options, DEFAULT_ITERATIONS)
    # every option read (and refused) before the bot is made, in this order
    bot_seed = whole_option("seed", options["seed"]) if "seed" in options else seed
    rollout = choice_option("rollout", options.get("rollout", ROLLOUTS[0]), ROLLOUTS)
    horizon = choice_option("horizon", options.get("horizon", HORIZONS[0]), HORIZONS)
    exploration = number_option("c", options.get("c", str(DEFAULT_EXPLORATION)), positive=False)
    reward = choice_option("reward", options.get("reward", REWARDS[0]), REWARDS)
    infer = choice_option("infer", options.get("infer", "on"), ON_OFF) == "on"
    candidates = whole_option("candidates", options.get("candidates", "0"), 0)
    opponents = choice_option("opponents", options.get("opponents", OPPONENTS[0]), OPPONENTS)
    expand = choice_option("expand", options.get("expand", EXPANSIONS[0]), EXPANSIONS)
    normalize = choice_option("normalize", options.get("normalize", "off"), ON_OFF) == "on"
    workers = whole_option("workers", options.get("workers", "1"), 1)
    noise = number_option("noise", options.get("noise", "0"), positive=False)
    value = choice_option("value", options.get("value", VALUES[0]), VALUES)
    try:
        return IsmctsBot(
            seed=bot_seed, iterations=iterations, seconds=seconds, rollout=rollout,
            horizon=horizon, exploration=exploration, reward=reward, infer=infer,
            candidates=candidates, opponents=opponents, expand=expand, normalize=normalize,
            workers=workers, noise=noise, value=value,
        )
    except ValueError as exc:  # options that are valid alone but not together
        raise BotSpecError(f"option {exc}") from None
