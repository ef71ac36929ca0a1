"""Adapter benchmark behind ``oriflamme bench``: the cost of an OpenSpiel or PettingZoo step
against an engine step (``benchmarks/envs.py`` has every variant; docs/benchmarks.md).

Random whole games, the deal included, counting the players' decisions; each figure is the
fastest of 5 trials, the loops taken in turn. Needs the ``rl`` extra; without it
:func:`measure_adapters` says so instead of measuring.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from .api import Game, GameConfig

#: Plays one game from a seed; returns its decisions and the seconds they took.
Loop = Callable[[int], tuple[int, float]]
TRIALS = 5


def engine_loop(config: GameConfig) -> Loop:
    """``legal_actions()`` then a checked ``apply()``: an engine step."""
    rng = random.Random(1)

    def play(seed: int) -> tuple[int, float]:
        start = time.perf_counter()
        game = Game.new(config, seed, log=False)
        n = 0
        while not game.is_over:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
            n += 1
        return n, time.perf_counter() - start

    return play


def openspiel_loop(params: dict[str, Any]) -> Loop:
    """OpenSpiel's ``legal_actions()`` then ``apply_action()``, chance nodes of the deal
    included (no observation asked: OpenSpiel builds them on request)."""
    import pyspiel

    import oriflamme.envs.openspiel  # noqa: F401  (registers python_oriflamme)

    game = pyspiel.load_game("python_oriflamme", params)
    rng = random.Random(1)

    def play(seed: int) -> tuple[int, float]:
        start = time.perf_counter()
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        return n, time.perf_counter() - start

    return play


def pettingzoo_loop(params: dict[str, Any], observe: bool) -> Loop:
    """PettingZoo's AEC loop on ``raw_env``: ``last()`` then ``step()``; with ``observe`` the
    observation vector and its action mask, else only the mask (``action_mask()``)."""
    from .envs.pettingzoo import raw_env

    env = raw_env(**params)
    rng = random.Random(1)

    def play(seed: int) -> tuple[int, float]:
        start = time.perf_counter()
        env.reset(seed=seed)
        n = 0
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last(observe)
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"] if observe else env.action_mask(agent)
            legal = mask.nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            n += 1
        return n, time.perf_counter() - start

    return play


def decisions_per_second(loops: dict[str, Loop], seconds: float) -> dict[str, float]:
    """For each loop, the fastest of :data:`TRIALS` trials of ``seconds / TRIALS`` each."""
    best = dict.fromkeys(loops, 0.0)
    seed = 0
    for _ in range(TRIALS):
        for name, loop in loops.items():
            decisions, timed = 0, 0.0
            start = time.perf_counter()
            while time.perf_counter() - start < seconds / TRIALS:
                n, spent = loop(seed)
                decisions, timed, seed = decisions + n, timed + spent, seed + 1
            best[name] = max(best[name], decisions / timed)
    return best


def measure_adapters(params: dict[str, Any], seconds: float) -> dict[str, Any]:
    """µs per decision of each loop and its cost in engine steps, or ``{"missing": ...}``."""
    try:
        loops = {
            "engine": engine_loop(GameConfig(**params)),
            "openspiel": openspiel_loop(params),
            "pettingzoo_mask": pettingzoo_loop(params, observe=False),
            "pettingzoo_observe": pettingzoo_loop(params, observe=True),
        }
    except ImportError as error:
        return {"missing": f"{error.name or error} (install the rl extra)"}
    rates = decisions_per_second(loops, seconds)
    engine_us = 1e6 / rates["engine"]
    row: dict[str, Any] = {}
    for name, rate in rates.items():
        row[f"{name}_us"] = round(1e6 / rate, 2)
        row[f"{name}_x"] = round(1e6 / rate / engine_us, 2)
    return row
