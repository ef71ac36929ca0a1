"""The ``master`` level: information-set MCTS guided by the learned network.

The search is :mod:`oriflamme.bots.ismcts`'s, with the settings of the ``hard`` and ``expert``
levels (worlds sampled from the observation with the token inference, the opponents played by
the one-step heuristic inside the tree, so that the tree holds the bot's own decisions only),
and the network (:mod:`oriflamme.bots.network`) in two places:

* **prior** (``prior=on``): when a node is first reached, the network reads the bot's view of
  that world and gives each legal action a value ``q``; the tree then chooses by PUCT
  (AlphaZero's rule) with availability counts, ``Q + c * P * sqrt(A) / (1 + N)``, where ``P``
  is the softmax of the values at temperature ``temperature``, ``N`` the edge's visits, ``A``
  how often it was legal, and ``Q`` its mean reward, or the network's ``q`` until it has been
  tried (first-play urgency). ``prior=root`` asks the network at the root only;
  ``prior=off`` nowhere: the tree policy is then ``ismcts``'s UCB1 (an untried action first,
  then the mean reward plus ``c * sqrt(log(A) / N)``, ``c`` 0.7).
* **leaf** (``leaf=value``): the new node is not played out: the value (below) of that world
  is the reward, so an iteration costs network evaluations instead of a rollout.
  ``leaf=rollout``: the heuristic plays every seat to the end of the round (as the levels'
  rollouts), where the value estimates every player's share of victory.
* **value**: ``views``, from every player's own view of that world, each player's estimate of
  its own share, normalised to sum to 1 (each estimate then uses that player's own cards as
  the world deals them); ``net``, the bot's own view alone; ``fitted``, the fitted value
  (``expert``'s); ``blend``, the mean of ``net`` and ``fitted``; ``auto`` (default), the one
  that predicts outcomes best with the set-up's shipped network (:data:`VALUE_BY_SETUP`:
  ``blend`` for 2 players with two families, ``views`` otherwise).
* **noise** (``noise=P``, default 0): as ``ismcts:noise``, each opponent decision inside the
  tree is a random legal action with chance ``P`` instead of the model's.
* **opponents** (default ``heuristic``): the model of the opponents inside the tree, the
  one-step heuristic; or a *policy network* (trained to imitate a searching player,
  :mod:`oriflamme.training.imitation`; ``policy=FILE``, else the set-up's shipped
  ``SETUP.policy.npz``) reading the opponent's own view of the sampled world: its most likely
  action (``policy``) or an action drawn from its softmax (``sample``); ``auto``: ``policy``
  where the set-up has a shipped policy (or ``policy=FILE`` is given), the heuristic elsewhere.

Everything the network reads is the bot's observation or a world the search sampled from it
(the other players' views of such a world hold cards dealt at random, like the worlds of every
search bot): the search uses nothing but what the bot's observation allows (R-INFO-1). With an
iteration budget, a seed fixes the choices.

>>> from oriflamme.api import new_game
>>> from oriflamme.bots import make_bot
>>> game = new_game(players=3, seed=5)
>>> bot = make_bot("guided:iterations=50", seed=1)
>>> bot.act(game.observe(0), game.legal_actions()) in game.legal_actions()
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np

from oriflamme.api import Action, GameConfig, Observation
from oriflamme.search import (
    State,
    apply_unchecked,
    current_player,
    legal_actions,
    randbelow,
    state_of,
)

from .base import (
    ON_OFF,
    Bot,
    BotSpecError,
    budget_options,
    check_budget,
    choice_option,
    number_option,
    observer,
    whole_option,
)
from .evaluation import (
    evaluate_state_all,
    modelled_opponent_action,
    play_heuristic_state,
)
from .ismcts import SearchStats, Worlds
from .learned import Networks, networks_option
from .network import Network
from .shipped import packaged_path, setup_key
from .value import fitted_state_values

#: The options' values, the default first (``master``'s choices: docs/bots.md says why).
PRIORS: Final = ("off", "root", "on")
LEAVES: Final = ("rollout", "value")
VALUES: Final = ("auto", "views", "net", "fitted", "blend")
#: The model of the opponents inside the tree: the one-step heuristic, or a policy network
#: (a network trained to imitate a searching player): its most likely action (``policy``), or
#: an action drawn from its softmax (``sample``: the teacher's own spread of choices);
#: ``auto``: ``policy`` for the set-ups with a shipped policy, the heuristic for the others.
OPPONENTS: Final = ("heuristic", "policy", "sample", "auto")
#: ``value=auto``: the value that predicts outcomes best for each set-up's shipped network
#: (``benchmarks/bots/value_check.py``, docs/bots.md); ``views`` for the others.
VALUE_BY_SETUP: Final = {"2p-base-two-families": "blend"}
DEFAULT_ITERATIONS: Final = 1000
#: The exploration constant of PUCT (with a prior) and of UCB1 (``prior=off``, as ``ismcts``).
DEFAULT_EXPLORATION: Final = 1.0
DEFAULT_UCB_EXPLORATION: Final = 0.7
DEFAULT_TEMPERATURE: Final = 0.05


class _Node:
    """A node of the bot's own decisions: the statistics of the edge that leads here, and,
    once reached, the edges below with the network's prior and value for each."""

    __slots__ = ("available", "children", "prior", "q", "reward", "visits")

    def __init__(self, prior: float, q: float) -> None:
        self.visits = 0
        self.available = 0
        self.reward = 0.0  # summed rewards of the bot
        self.prior = prior
        self.q = q  # the network's value of the edge (first-play urgency)
        self.children: dict[Action, _Node] | None = None


class GuidedBot:
    """ISMCTS with the network's prior and values; see the module docstring."""

    def __init__(
        self,
        networks: Networks,
        seed: int = 0,
        iterations: int | None = DEFAULT_ITERATIONS,
        seconds: float | None = None,
        exploration: float | None = None,
        temperature: float = DEFAULT_TEMPERATURE,
        prior: str = PRIORS[0],
        leaf: str = LEAVES[0],
        value: str = "auto",
        infer: bool = True,
        noise: float = 0.0,
        name: str = "guided",
        opponents: str = OPPONENTS[0],
        policy: Networks | None = None,
    ) -> None:
        check_budget(iterations, seconds)
        if prior not in PRIORS or leaf not in LEAVES or value not in VALUES:
            raise ValueError(f"unknown prior {prior!r}, leaf {leaf!r} or value {value!r}")
        if exploration is None:
            exploration = DEFAULT_UCB_EXPLORATION if prior == "off" else DEFAULT_EXPLORATION
        if not exploration >= 0 or not temperature > 0:
            raise ValueError("the exploration must be >= 0 and the temperature positive")
        if not 0 <= noise <= 1:
            raise ValueError(f"noise must be a probability from 0 to 1, not {noise}")
        if opponents not in OPPONENTS:
            raise ValueError(f"opponents must be one of {', '.join(OPPONENTS)}, not"
                             f" {opponents!r}")
        #: The opponents' model in the tree, and where its policy network comes from.
        self.opponents = opponents
        self.policy = policy if policy is not None else Networks(use="policy")
        self.name = name
        self.networks = networks
        self.iterations, self.seconds = iterations, seconds
        self.exploration, self.temperature = exploration, temperature
        self.prior, self.leaf, self.value, self.infer = prior, leaf, value, infer
        #: The chance that a modelled opponent plays a random legal action inside the tree.
        self.noise = noise
        self._value = value  # ``value`` with ``auto`` resolved for the set-up being played
        self.last_search = SearchStats(0, 0.0)
        self._rng = random.Random(seed)

    def check_setup(self, config: GameConfig) -> None:
        """Refuse (:class:`BotSpecError`) a set-up this bot has no network for."""
        self.networks.check_setup(config)
        if self._models_by_policy(config):
            self.policy.check_setup(config)

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            self.last_search = SearchStats(0, 0.0)
            return legal[0]
        start = time.perf_counter()
        stats, done = self.search(observation, legal, self.iterations, self.seconds)
        self.last_search = SearchStats(done, time.perf_counter() - start,
                                       {a: v for a, (v, _) in stats.items()})
        return max(legal, key=lambda a: _preference(stats.get(a)))

    def search(
        self,
        observation: Observation,
        legal: Sequence[Action],
        iterations: int | None,
        seconds: float | None,
        totals: dict[Action, list[float]] | None = None,
    ) -> tuple[dict[Action, tuple[int, float]], int]:
        """One search of this decision (as :meth:`IsmctsBot.search
        <oriflamme.bots.ismcts.IsmctsBot.search>`): the root's visits and summed reward by
        action, the iterations run, and with ``totals`` every player's rewards summed by root
        action."""
        start = time.perf_counter()
        net = self.networks.for_setup(observation["config"])
        self._value = (VALUE_BY_SETUP.get(setup_key(net.config), "views")
                       if self.value == "auto" else self.value)
        policy = self._opponents_policy(observation["config"])
        me = observer(observation)
        worlds = Worlds(observation, self.infer)
        root = _Node(1.0, 0.5)
        allowed = frozenset(legal)
        deadline = math.inf if seconds is None else start + seconds
        limit = math.inf if iterations is None else iterations
        done = 0
        while done < limit and (done == 0 or time.perf_counter() < deadline):
            first, rewards = self._iterate(net, state_of(worlds.draw(self._rng)), root, me,
                                           allowed, policy)
            done += 1
            if totals is not None and first is not None:
                found = totals.get(first)
                if found is None:
                    totals[first] = list(rewards)
                else:
                    for p, reward in enumerate(rewards):
                        found[p] += reward
        edges = root.children or {}
        stats = {a: (node.visits, node.reward) for a in legal
                 if (node := edges.get(a)) is not None and node.visits}
        return stats, done

    def _models_by_policy(self, config: GameConfig | Mapping[str, Any]) -> bool:
        """Whether a policy network plays the opponents in the tree (``auto``: where one ships
        for the set-up; a shipped file that cannot be read is then an error, not a fallback)."""
        if self.opponents == "auto":
            return packaged_path(config, "policy") is not None
        return self.opponents != "heuristic"

    def _opponents_policy(self, config: Mapping[str, Any]) -> Network | None:
        """The policy network that plays the opponents in the tree, or None (the heuristic)."""
        return self.policy.for_setup(config) if self._models_by_policy(config) else None

    # -- one iteration ------------------------------------------------------------------
    def _iterate(self, net: Network, state: State, root: _Node, me: int,
                 allowed: frozenset[Action], policy: Network | None = None
                 ) -> tuple[Action | None, list[float]]:
        """One iteration in world ``state``: the root action it tried and every player's
        reward. An opponent's decision in the tree is ``policy``'s most likely action from
        that opponent's view of the world, or the heuristic's without ``policy`` (either
        replaced by a random legal action with chance ``noise``)."""
        rng = self._rng
        node = root
        path: list[_Node] = []
        first: Action | None = None
        rewards: list[float] | None = None
        rollout = self.leaf == "rollout"
        noise = self.noise
        sample = self.opponents == "sample"
        last_round = state.round
        at_root = True  # the first decision is the bot's own, among ``allowed``
        while True:
            mover = current_player(state)
            if mover is None or (rollout and state.round > last_round):
                break
            legal = legal_actions(state)
            if at_root:
                legal = [a for a in legal if a in allowed]
                if len(legal) == 1:
                    first = legal[0]
                at_root = False
            if len(legal) == 1:
                apply_unchecked(state, legal[0])
                continue
            if mover != me:
                if policy is None:
                    choice = modelled_opponent_action(state, mover, legal, noise, rng)
                elif noise and rng.random() < noise:
                    choice = legal[randbelow(rng, len(legal))]
                elif sample:
                    choice = _draw(legal, policy.action_logits_in(state, mover, legal), rng)
                else:
                    choice = policy.best_action_in(state, mover, legal)
                apply_unchecked(state, choice)
                continue
            children = node.children
            if children is None:  # first reached: the network's prior (and value)
                children = node.children = {}
                use_prior = self.prior == "on" or (self.prior == "root" and node is root)
                if rollout and not use_prior:
                    for action in legal:  # no network call: uniform, the node's mean
                        children[action] = _Node(1.0 / len(legal), _mean(node))
                else:
                    shares = self._expand(net, state, me, legal, children, use_prior)
                    if not rollout and node is not root:
                        rewards = self._value_here(net, state, shares)
                        break
            action, child = self._select(node, children, legal)
            apply_unchecked(state, action)
            if node is root:
                first = action
            path.append(child)
            node = child
            if rollout and child.visits == 0:
                break
        if rewards is None:
            rewards = self._leaf_rewards(net, state, me, last_round)
        reward = rewards[me]
        for step in path:
            step.visits += 1
            step.reward += reward
        return first, rewards

    def _expand(self, net: Network, state: State, me: int, legal: Sequence[Action],
                children: dict[Action, _Node], use_prior: bool) -> list[float]:
        """Create the edges of ``legal`` with the network's prior; return the win shares."""
        features = net.features
        x, slots = features.state(state, me)
        q, shares = net.evaluate(x)
        if use_prior:
            values = q[features.action_indices(legal, me, slots)].astype(np.float64)
            z = np.exp((values - values.max()) / self.temperature)
            priors = (z / z.sum()).tolist()
            for action, p, v in zip(legal, priors, values.tolist(), strict=True):
                children[action] = _Node(p, v)
        else:
            uniform = 1.0 / len(legal)
            mean = float(shares[0])
            for action in legal:
                children[action] = _Node(uniform, mean)
        n = len(shares)
        relative = shares.tolist()
        return [relative[(p - me) % n] for p in range(n)]

    def _select(self, node: _Node, children: dict[Action, _Node],
                legal: Sequence[Action]) -> tuple[Action, _Node]:
        """The tree policy over the actions legal in this world, with availability counts:
        PUCT with the prior, or (``prior=off``) UCB1 as ``ismcts``: an untried action first,
        at random."""
        c = self.exploration
        ucb = self.prior == "off"
        best_score = -math.inf
        best: tuple[Action, _Node] | None = None
        untried: list[tuple[Action, _Node]] = []
        for action in legal:
            child = children.get(action)
            if child is None:  # legal here, not where the node was first reached
                child = children[action] = _Node(1.0 / len(legal), _mean(node))
            child.available += 1
            visits = child.visits
            if ucb:
                if not visits:
                    untried.append((action, child))
                    continue
                score = child.reward / visits + c * math.sqrt(
                    math.log(child.available) / visits)
            else:
                mean = child.reward / visits if visits else child.q
                score = mean + c * child.prior * math.sqrt(child.available) / (1 + visits)
            if score > best_score:
                best_score, best = score, (action, child)
        if untried:
            return untried[randbelow(self._rng, len(untried))]
        assert best is not None
        return best

    def _value_here(self, net: Network, state: State, shares: list[float]) -> list[float]:
        """The reward at a new node (``leaf=value``): the bot's view's win shares
        (``shares``), or another estimate as ``value`` says."""
        if self._value == "views":
            return _own_views(net, state)
        if self._value == "fitted":
            return fitted_state_values(state)
        if self._value == "blend":
            return [(a + b) / 2 for a, b in zip(shares, fitted_state_values(state), strict=True)]
        return shares

    def _leaf_rewards(self, net: Network, state: State, me: int, last_round: int) -> list[float]:
        """Every player's reward where the descent stopped: the outcome if the game is over;
        with ``leaf=rollout``, the heuristic to the end of the round, then the value."""
        if current_player(state) is None:
            return evaluate_state_all(state)  # the game is over: the exact shares
        if self.leaf == "rollout":
            play_heuristic_state(state, last_round, self._rng)
            if current_player(state) is None:
                return evaluate_state_all(state)
            if self._value == "fitted":
                return fitted_state_values(state)
            if self._value == "views":
                return _own_views(net, state)
        shares = net.shares_in(state, me)
        n = len(shares)
        mine = [shares[(p - me) % n] for p in range(n)]
        if self.leaf == "rollout" and self._value == "blend":
            fitted = fitted_state_values(state)
            return [(a + b) / 2 for a, b in zip(mine, fitted, strict=True)]
        return mine


def _own_views(net: Network, state: State) -> list[float]:
    """Each player's estimate of its own share from its own view of world ``state``, normalised:
    every player's private cards (as this world deals them) count in its estimate."""
    own_share = net.own_share_in
    own = [own_share(state, p) for p in range(state.config.players)]
    total = sum(own)
    return [share / total for share in own]


def _draw(legal: Sequence[Action], logits: np.ndarray, rng: random.Random) -> Action:
    """An action drawn from the softmax of ``logits``."""
    weights = np.exp(logits - logits.max()).tolist()
    return rng.choices(legal, weights=weights)[0]


def _mean(node: _Node) -> float:
    return node.reward / node.visits if node.visits else node.q


def _preference(stats: tuple[int, float] | None) -> tuple[int, float]:
    """The answer: the most visited action, ties broken by the higher mean reward."""
    if stats is None or stats[0] == 0:
        return (0, 0.0)
    return (stats[0], stats[1] / stats[0])


# -- the spec ``guided:key=value`` (registered by :mod:`oriflamme.bots.catalog`) --------------
def guided_from_options(seed: int, options: Mapping[str, str]) -> Bot:
    """Build a :class:`GuidedBot` from the options of a spec, with clear errors."""
    iterations, seconds = budget_options(options, DEFAULT_ITERATIONS)
    settings: dict[str, Any] = dict(
        seed=whole_option("seed", options["seed"]) if "seed" in options else seed,
        iterations=iterations,
        seconds=seconds,
        exploration=(number_option("c", options["c"], positive=False) if "c" in options
                     else None),
        temperature=number_option("temperature",
                                  options.get("temperature", str(DEFAULT_TEMPERATURE)),
                                  positive=True),
        prior=choice_option("prior", options.get("prior", PRIORS[0]), PRIORS),
        leaf=choice_option("leaf", options.get("leaf", LEAVES[0]), LEAVES),
        value=choice_option("value", options.get("value", VALUES[0]), VALUES),
        infer=choice_option("infer", options.get("infer", "on"), ON_OFF) == "on",
        noise=number_option("noise", options.get("noise", "0"), positive=False),
        opponents=choice_option("opponents", options.get("opponents", OPPONENTS[0]),
                                OPPONENTS),
    )
    networks = networks_option(options, "guided")
    policy = None
    if "policy" in options:
        policy = networks_option({"weights": options["policy"]}, "guided: policy",
                                 use="policy")
        if settings["opponents"] == "heuristic":
            raise BotSpecError("guided: policy=FILE is the opponents' model: add"
                               " opponents=policy (or opponents=sample)")
        if settings["opponents"] == "auto":  # a file given: its set-up only, as policy
            settings["opponents"] = "policy"
    try:
        return GuidedBot(networks, policy=policy, **settings)
    except ValueError as exc:
        raise BotSpecError(f"option {exc}") from None
