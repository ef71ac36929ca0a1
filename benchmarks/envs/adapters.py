"""Decisions per second of the research adapters against the raw engine, random play.

Run: ``python benchmarks/envs/adapters.py [SECONDS]`` (needs the ``rl`` extra). Each loop
plays whole random games, the deal included, and counts the players' decisions; every figure is
the fastest of 5 trials of SECONDS / 5 each (the least disturbed on a shared machine), the trials
of the different loops taken in turn.

* ``engine``: ``legal_actions()`` then ``apply()`` (checked) through :mod:`oriflamme.api`.
* ``engine+observe``: the same plus ``observe(player)``, the view an agent needs to decide.
* ``engine+encode``: the same plus the observation vector of the player to act, made by the
  encoder's fast path (``ObservationEncoder.encode_state``): the least any adapter that hands
  out observation vectors can cost.
* ``openspiel``: ``legal_actions()`` then ``apply_action()`` on ``python_oriflamme`` states,
  chance outcomes drawn with ``chance_outcomes()`` (the deal is part of the game).
* ``openspiel-no-deal``: the same, timing only the decisions (not the 27-45 chance nodes
  and the building of the dealt game).
* ``openspiel+tensor``: ``openspiel`` plus ``observation_tensor()`` of the player to act (a
  Python list: pybind11 converts OpenSpiel's C++ vector).
* ``openspiel+observer``: ``openspiel`` plus ``make_observation(game).set_from(state, player)``,
  OpenSpiel's Python observation API, whose ``tensor`` is a NumPy array (no list built).
* ``pettingzoo``: the usual AEC loop, ``last()`` (observation and mask) then ``step()``, on
  ``env()`` with its standard wrappers.
* ``pettingzoo-raw``: the same loop on ``raw_env`` (no wrappers).
* ``pettingzoo-raw-mask``: ``raw_env`` with ``last(observe=False)`` and ``action_mask()``
  (no observation encoded).
"""

from __future__ import annotations

import os
import platform
import random
import time
from typing import Any

import pyspiel
from open_spiel.python.observation import make_observation

import oriflamme.envs.openspiel  # noqa: F401  (registers python_oriflamme)
from oriflamme.api import Game, GameConfig
from oriflamme.bench.engine import seconds_argument
from oriflamme.bench.envs import TRIALS, Loop, aec_loop, decisions_per_second
from oriflamme.encoding import Layout, ObservationEncoder
from oriflamme.envs.pettingzoo import env as make_env
from oriflamme.envs.pettingzoo import raw_env
from oriflamme.search import state_of

SETUPS: dict[str, dict[str, Any]] = {
    "3p base": {"players": 3, "cards": "base"},
    "5p embrasement": {"players": 5, "cards": "embrasement"},
    "2p two-families base": {"players": 2, "cards": "base"},
}


def engine_loop(config: GameConfig, observe: bool, encode: bool = False) -> Loop:
    rng = random.Random(1)
    encoder = ObservationEncoder(Layout.of(config))

    def play(seed: int) -> tuple[int, float]:
        start = time.perf_counter()
        game = Game.new(config, seed, log=False)
        state = state_of(game)
        n = 0
        while not game.is_over:
            if observe:
                game.observe(game.current_player)
            if encode:
                player = game.current_player
                assert player is not None
                encoder.encode_state(state, player)
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            n += 1
        return n, time.perf_counter() - start

    return play


def openspiel_loop(params: dict[str, Any], tensor: bool, deal: bool = True,
                   observer: bool = False) -> Loop:
    game = pyspiel.load_game("python_oriflamme", params)
    observation = make_observation(game)
    rng = random.Random(1)

    def play(seed: int) -> tuple[int, float]:
        start = time.perf_counter()
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        if not deal:
            start = time.perf_counter()
        n = 0
        while not state.is_terminal():
            if tensor:
                state.observation_tensor()
            if observer:
                observation.set_from(state, state.current_player())
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        return n, time.perf_counter() - start

    return play


def pettingzoo_loop(params: dict[str, Any], observe: bool, wrapped: bool) -> Loop:
    return aec_loop(make_env(**params) if wrapped else raw_env(**params), observe)


def main() -> None:
    seconds = seconds_argument(5.0, __doc__)
    print(f"Python {platform.python_version()} on {platform.machine()}, one core, {seconds} s"
          f" per figure (fastest of {TRIALS} trials); load average"
          f" {os.getloadavg()[0]:.2f}")
    print(f"{'set-up':22} {'loop':20} {'decisions/s':>12} {'µs/decision':>12} {'× engine':>9}")
    for name, params in SETUPS.items():
        config = GameConfig(**params)
        loops: dict[str, Loop] = {
            "engine": engine_loop(config, observe=False),
            "engine+observe": engine_loop(config, observe=True),
            "engine+encode": engine_loop(config, observe=False, encode=True),
            "openspiel": openspiel_loop(params, tensor=False),
            "openspiel-no-deal": openspiel_loop(params, tensor=False, deal=False),
            "openspiel+tensor": openspiel_loop(params, tensor=True),
            "openspiel+observer": openspiel_loop(params, tensor=False, observer=True),
            "pettingzoo": pettingzoo_loop(params, observe=True, wrapped=True),
            "pettingzoo-raw": pettingzoo_loop(params, observe=True, wrapped=False),
            "pettingzoo-raw-mask": pettingzoo_loop(params, observe=False, wrapped=False),
        }
        rates = decisions_per_second(loops, seconds)
        for loop_name, rate in rates.items():
            print(f"{name:22} {loop_name:20} {rate:>12,.0f} {1e6 / rate:>12.1f}"
                  f" {rates['engine'] / rate:>9.2f}")
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
