"""Adapter benchmark behind ``oriflamme bench``: the cost of an OpenSpiel or PettingZoo step
against an engine step (``benchmarks/envs/adapters.py`` has every variant; docs/benchmarks.md).

Random whole games, the deal included, counting the players' decisions; each figure is the
fastest of 5 trials, the loops taken in turn. Needs the ``rl`` extra; without it
:func:`measure_adapters` says so instead of measuring.

The *floors* run the same loops on a trivial game (54 decisions of 8 options, no rules, no
chance): what the OpenSpiel and PettingZoo protocols cost by themselves per decision, which
no adapter of any game can go below (OpenSpiel: C++ to Python calls for the current player,
the legal actions and the move; PettingZoo: ``agent_iter``, ``last``, a NumPy mask).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, ClassVar

from oriflamme.api import Game, GameConfig

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

    return spiel_loop(pyspiel.load_game("python_oriflamme", params))


def spiel_loop(game: Any) -> Loop:
    """Random games of the OpenSpiel ``game``, chance outcomes drawn with ``chance_outcomes()``
    (timed, not counted as decisions)."""
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


#: The trivial game of the floors: decisions per game and legal actions per decision.
FLOOR_DECISIONS, FLOOR_OPTIONS = 54, 8


def openspiel_floor_loop() -> Loop:
    """:func:`openspiel_loop` on a trivial Python OpenSpiel game (registered on first use)."""
    import pyspiel

    name = "python_protocol_floor"
    if name not in pyspiel.registered_names():
        _register_openspiel_floor(name)
    return spiel_loop(pyspiel.load_game(name))


def _register_openspiel_floor(name: str) -> None:
    import pyspiel

    players = 3
    game_type = pyspiel.GameType(
        short_name=name, long_name="Protocol floor (trivial game)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=players, min_num_players=players,
        provides_information_state_string=False, provides_information_state_tensor=False,
        provides_observation_string=False, provides_observation_tensor=False,
        parameter_specification={},
    )
    options = list(range(FLOOR_OPTIONS))

    class FloorState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: pyspiel.Game) -> None:
            super().__init__(game)
            self.moves = 0

        def current_player(self) -> int:
            if self.moves >= FLOOR_DECISIONS:
                return int(pyspiel.PlayerId.TERMINAL)
            return self.moves % players

        def _legal_actions(self, player: int) -> list[int]:
            return options

        def _apply_action(self, action: int) -> None:
            self.moves += 1

        def is_terminal(self) -> bool:
            return self.moves >= FLOOR_DECISIONS

        def returns(self) -> list[float]:
            return [1.0 / players] * players

    class FloorGame(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            info = pyspiel.GameInfo(
                num_distinct_actions=FLOOR_OPTIONS, max_chance_outcomes=0, num_players=players,
                min_utility=0.0, max_utility=1.0, utility_sum=1.0,
                max_game_length=FLOOR_DECISIONS)
            super().__init__(game_type, info, params or {})

        def new_initial_state(self) -> FloorState:
            return FloorState(self)

    pyspiel.register_game(game_type, FloorGame)


def pettingzoo_floor_loop() -> Loop:
    """:func:`pettingzoo_loop` (mask only) on a trivial AEC environment."""
    import numpy as np
    from pettingzoo import AECEnv

    size = 551  # the action space of the 3-player base game

    class FloorEnv(AECEnv):  # type: ignore[misc]
        metadata: ClassVar[dict[str, Any]] = {"name": "protocol_floor"}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = ["player_0", "player_1", "player_2"]
            self.moves = 0

        def reset(self, seed: int | None = None, options: Any = None) -> None:
            self.agents = self.possible_agents[:]
            self.moves = 0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
            self.agent_selection = self.agents[0]

        def observe(self, agent: str) -> None:
            return None

        def action_mask(self, agent: str) -> Any:
            mask = np.zeros(size, dtype=np.int8)
            mask[list(range(0, 8 * FLOOR_OPTIONS, 8))] = 1
            return mask

        def step(self, action: int | None) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            self._cumulative_rewards[agent] = 0.0
            self.moves += 1
            if self.moves < FLOOR_DECISIONS:
                self.agent_selection = self.possible_agents[self.moves % 3]
                return
            self.rewards[self.possible_agents[0]] = 1.0
            self.terminations = dict.fromkeys(self.agents, True)
            self._accumulate_rewards()

    return aec_loop(FloorEnv(), observe=False)


def pettingzoo_loop(params: dict[str, Any], observe: bool) -> Loop:
    """PettingZoo's AEC loop on ``raw_env``: ``last()`` then ``step()``; with ``observe`` the
    observation vector and its action mask, else only the mask (``action_mask()``)."""
    from oriflamme.envs.pettingzoo import raw_env

    return aec_loop(raw_env(**params), observe)


def aec_loop(env: Any, observe: bool) -> Loop:
    """Random games of the AEC environment ``env``: ``last(observe)`` then ``step()``, the
    mask taken from the observation or, without one, from ``env.action_mask(agent)``."""
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
            "openspiel_floor": openspiel_floor_loop(),
            "pettingzoo_floor": pettingzoo_floor_loop(),
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
