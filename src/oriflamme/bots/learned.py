"""The ``learned`` level: the learned network alone, its best action by value.

:class:`NetworkBot` encodes its observation (:mod:`oriflamme.bots.features`), evaluates the
network once (:mod:`oriflamme.bots.network`) and plays the legal action with the highest value;
well under a millisecond per decision. The spec ``network`` takes the weights file to play
(``network:weights=FILE``); without it the bot plays the weights shipped for the game's set-up
(``oriflamme/bots/weights/``). The level ``learned`` is ``network`` with the shipped weights.

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

from .base import Bot, BotSpecError, number_option, observer
from .network import Network, WeightsError, load_cached
from .shipped import packaged_path, packaged_setups, setup_key


class Networks:
    """Where a bot's network comes from: one file given by the user, or the shipped file of
    each set-up (found when the set-up is first seen)."""

    __slots__ = ("_fixed", "_path")

    def __init__(self, path: str | Path | None = None, network: Network | None = None) -> None:
        self._path = None if path is None else str(Path(path).resolve())
        self._fixed = network if self._path is None else _load(self._path)

    @staticmethod
    def of(network: Network) -> Networks:
        """A network in memory (training evaluates its current network so)."""
        return Networks(network=network)

    def for_setup(self, config: GameConfig | Mapping[str, Any]) -> Network:
        """The network that plays ``config``; :class:`WeightsError` if there is none."""
        if self._fixed is not None:
            self._fixed.check_setup(config)
            return self._fixed
        path = packaged_path(config)
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
        return (Networks, (self._path,))


def _from_bytes(data: bytes) -> Networks:
    return Networks.of(Network.from_bytes(data))


def _load(path: str) -> Network:
    """A weights file, read once per process while it is unchanged."""
    try:
        stat = Path(path).stat()
    except OSError as exc:
        raise WeightsError(f"cannot read {path}: {exc.strerror or exc}") from None
    return load_cached(path, stat.st_mtime_ns, stat.st_size)


class NetworkBot:
    """Plays the legal action of highest value; ``temperature`` > 0 draws from the softmax of
    the values instead (seeded), for variety."""

    def __init__(self, networks: Networks, seed: int = 0, temperature: float = 0.0,
                 name: str = "network") -> None:
        if not temperature >= 0:
            raise ValueError(f"temperature must be >= 0, not {temperature}")
        self.name = name
        self.networks = networks
        self.temperature = temperature
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
        x, slots = net.features.observation(observation)
        values = net.q_values(x)[net.features.action_indices(legal, observer(observation),
                                                             slots)]
        if self.temperature > 0:
            z = (values - values.max()) / self.temperature
            weights = np.exp(z.astype(np.float64)).tolist()
            return self._rng.choices(legal, weights=weights)[0]
        return legal[int(np.argmax(values))]


def network_from_options(seed: int, options: Mapping[str, str]) -> Bot:
    """The ``network`` bot of a spec (registered by :mod:`oriflamme.bots.catalog`)."""
    return NetworkBot(networks_option(options, "network"), seed,
                      number_option("temperature", options.get("temperature", "0"),
                                    positive=False))


def networks_option(options: Mapping[str, str], bot: str) -> Networks:
    """The ``weights`` option of a spec, loaded and checked now (a refused spec otherwise)."""
    path = options.get("weights")
    if path is not None and not path:
        raise BotSpecError(f"{bot}: weights= needs a file (written by oriflamme train)")
    try:
        return Networks(path)
    except WeightsError as exc:
        raise BotSpecError(f"{bot}: {exc}") from None
