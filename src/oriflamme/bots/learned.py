"""The ``learned`` level: the learned network alone, the action whose outcome it values most.

:class:`NetworkBot` reads the network (:mod:`oriflamme.bots.network`) without search: by
default (``choose=after``) it plays each legal action in a world dealt at random from its
observation and takes the action after which the network's win share for the bot is highest
(one evaluation per action: a few milliseconds per decision); ``choose=action`` takes the
action of highest *action value* instead (one evaluation in all: well under a millisecond, and
weaker: docs/bots.md). The spec ``network`` takes the weights file to play
(``network:weights=FILE``); without it the bot plays the weights shipped for the game's set-up
(``oriflamme/bots/weights/``): the set-up's own network for play alone where there is one
(``SETUP.play.npz``), else the search's. The level ``learned`` is ``network`` with the
shipped weights.

Weights are checked when the bot is made (a wrong or corrupt file is a refused spec,
:class:`~oriflamme.bots.base.BotSpecError`), and the set-up when a game is known:
:meth:`NetworkBot.check_setup`, which the tournament and the terminal call before the first
game, refuses a set-up the network was not trained for (or one without shipped weights).

>>> from oriflamme.api import new_game
>>> from oriflamme.bots import make_bot
>>> game = new_game(players=3, seed=4)
>>> bot = make_bot("learned", seed=1)
>>> bot.act(game.observe(0), game.legal_actions()) in game.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from oriflamme.api import Action, GameConfig, Observation
from oriflamme.search import apply_unchecked, current_player, legal_actions, state_of

from .base import Bot, BotSpecError, choice_option, number_option, observer, whole_option
from .evaluation import evaluate_state_all, greedy_state_action
from .ismcts import Worlds
from .network import Network, WeightsError, load_cached
from .shipped import packaged_path, packaged_setups, setup_key


class Networks:
    """Where a bot's network comes from: one file given by the user, or the shipped file of
    each set-up for the bot's ``use`` (found when the set-up is first seen)."""

    __slots__ = ("_fixed", "_path", "_use")

    def __init__(self, path: str | Path | None = None, network: Network | None = None,
                 use: str = "search") -> None:
        self._path = None if path is None else str(Path(path).resolve())
        self._fixed = network if self._path is None else _load(self._path)
        self._use = use

    @staticmethod
    def of(network: Network) -> Networks:
        """A network in memory (training evaluates its current network so)."""
        return Networks(network=network)

    def for_setup(self, config: GameConfig | Mapping[str, Any]) -> Network:
        """The network that plays ``config``; :class:`WeightsError` if there is none."""
        if self._fixed is not None:
            self._fixed.check_setup(config)
            return self._fixed
        path = packaged_path(config, self._use)
        if path is None and self._use == "policy":
            raise WeightsError(f"no shipped policy network for {setup_key(config)}; give one"
                               " with policy=FILE (oriflamme train --imitate writes them)")
        if path is None:
            shipped = ", ".join(packaged_setups()) or "none"
            raise WeightsError(f"no shipped network for {setup_key(config)} (shipped: {shipped});"
                               " give one with weights=FILE (oriflamme train writes them)")
        return _load(str(path))

    def check_setup(self, config: GameConfig) -> None:
        try:
            self.for_setup(config)
        except WeightsError as exc:
            raise BotSpecError(str(exc)) from None

    def __reduce__(self) -> tuple[Any, ...]:
        if self._path is None and self._fixed is not None:
            return (_from_bytes, (self._fixed.to_bytes(),))
        return (Networks, (self._path, None, self._use))


def _from_bytes(data: bytes) -> Networks:
    return Networks.of(Network.from_bytes(data))


def _load(path: str) -> Network:
    """A weights file, read once per process while it is unchanged."""
    try:
        stat = Path(path).stat()
    except OSError as exc:
        raise WeightsError(f"cannot read {path}: {exc.strerror or exc}") from None
    return load_cached(path, stat.st_mtime_ns, stat.st_size)


#: What ``network`` ranks the legal actions by (the first is the default: docs/bots.md):
#: ``auto`` is ``action`` for a network whose ``q`` head is a policy (trained to imitate a
#: searching teacher) and ``after`` for the others.
CHOICES = ("auto", "after", "action")
#: ``choose=after``: the worlds sampled per decision unless told.
DEFAULT_WORLDS = 1
#: ``choose=after``: who plays between the bot's action and the position the network reads:
#: nobody (``none``: the position right after the action), or the one-step heuristic for the
#: other players until the bot's next decision (``heuristic``: their answers).
REPLIES = ("none", "heuristic")


class NetworkBot:
    """Plays the legal action the network values most: by the win share of the position each
    action leads to (``choose="after"``), or by the action values, or a policy's logits
    (``choose="action"``; ``auto``, the default, takes ``action`` for a policy network);
    ``temperature`` > 0 draws from the softmax of the values instead (seeded), for variety.

    ``after`` deals the hidden cards at random from the observation (``worlds`` times, as the
    search bots do), plays each legal action in each world, then any move that follows with
    no choice, and reads the network's estimate of the bot's own share from the bot's view of
    the position reached (the exact share if the game is over); the mean over the worlds
    ranks the actions. No tree and no rollout: one network evaluation per action and world.
    """

    def __init__(self, networks: Networks, seed: int = 0, temperature: float = 0.0,
                 name: str = "network", choose: str = CHOICES[0],
                 worlds: int = DEFAULT_WORLDS, reply: str = REPLIES[0]) -> None:
        if not temperature >= 0:
            raise ValueError(f"temperature must be >= 0, not {temperature}")
        if choose not in CHOICES:
            raise ValueError(f"choose must be one of {', '.join(CHOICES)}, not {choose!r}")
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {worlds}")
        if reply not in REPLIES:
            raise ValueError(f"reply must be one of {', '.join(REPLIES)}, not {reply!r}")
        self.reply = reply
        self.name = name
        self.networks = networks
        self.temperature = temperature
        self.choose, self.worlds = choose, worlds
        self._rng = random.Random(seed)

    def check_setup(self, config: GameConfig) -> None:
        """Refuse (:class:`BotSpecError`) a set-up this bot has no network for."""
        self.networks.check_setup(config)

    def act(self, observation: Observation, legal: Sequence[Action]) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        if len(legal) == 1:
            return legal[0]
        net = self.networks.for_setup(observation["config"])
        choose = self.choose
        if choose == "auto":
            choose = "action" if net.is_policy else "after"
        if choose == "after":
            values = np.array(self._after_values(net, observation, legal))
        else:
            x, slots = net.features.observation(observation)
            values = net.q_values(x)[net.features.action_indices(
                legal, observer(observation), slots)].astype(np.float64)
        if self.temperature > 0:
            z = (values - values.max()) / self.temperature
            weights = np.exp(z).tolist()
            return self._rng.choices(legal, weights=weights)[0]
        return legal[int(np.argmax(values))]

    def _after_values(self, net: Network, observation: Observation,
                      legal: Sequence[Action]) -> list[float]:
        """Each legal action's mean win share for the bot, over ``worlds`` sampled worlds."""
        me = observer(observation)
        worlds = Worlds(observation)
        totals = [0.0] * len(legal)
        answer = self.reply == "heuristic"
        for _ in range(self.worlds):
            world = state_of(worlds.draw(self._rng))
            for i, action in enumerate(legal):
                state = world.copy()
                apply_unchecked(state, action)
                while (options := legal_actions(state)) and len(options) == 1:
                    apply_unchecked(state, options[0])  # nothing to choose: played through
                if answer:
                    while (player := current_player(state)) is not None and player != me:
                        apply_unchecked(state, greedy_state_action(state, player, self._rng))
                if current_player(state) is None:
                    totals[i] += evaluate_state_all(state)[me]  # over: the exact share
                else:
                    totals[i] += net.own_share_in(state, me)
        return [total / self.worlds for total in totals]


def network_from_options(seed: int, options: Mapping[str, str]) -> Bot:
    """The ``network`` bot of a spec (registered by :mod:`oriflamme.bots.catalog`)."""
    return NetworkBot(networks_option(options, "network", use="play"), seed,
                      number_option("temperature", options.get("temperature", "0"),
                                    positive=False),
                      choose=choice_option("choose", options.get("choose", CHOICES[0]),
                                           CHOICES),
                      worlds=whole_option("worlds", options.get("worlds", str(DEFAULT_WORLDS)),
                                          least=1),
                      reply=choice_option("reply", options.get("reply", REPLIES[0]), REPLIES))


def networks_option(options: Mapping[str, str], bot: str, use: str = "search") -> Networks:
    """The ``weights`` option of a spec, loaded and checked now (a refused spec otherwise);
    without it, the shipped network of each set-up for ``use``."""
    path = options.get("weights")
    if path is not None and not path:
        raise BotSpecError(f"{bot}: weights= needs a file (written by oriflamme train)")
    try:
        return Networks(path, use=use)
    except WeightsError as exc:
        raise BotSpecError(f"{bot}: {exc}") from None
