"""Oriflamme as a PettingZoo AEC environment.

>>> from oriflamme.envs.pettingzoo import env
>>> e = env(players=3, cards="base")
>>> e.reset(seed=1)
>>> e.agent_selection
'player_0'
>>> observation, reward, terminated, truncated, info = e.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((996,), 7)

Agents are ``player_0 .. player_{n-1}``; the agent to act is the player the game waits for
(not a fixed rotation). Each observation is a dict: ``observation``, the player's view encoded
by :class:`~oriflamme.encoding.ObservationEncoder` (float32 in ``[0, 10]``; its fast path
``encode_state``, tested equal to encoding ``Game.observe(player)``), and
``action_mask`` (int8, 1 for the legal actions of the agent to act, all 0 for the others).
Actions are :class:`~oriflamme.encoding.ActionCodec` indices (``Discrete``). The reward
is the win share at the end (1/k to each of the k winners, 0 to the others), 0 before.
``reset(seed=...)`` deals from that seed (later resets without a seed continue the sequence);
``reset(options={"position": game.position()})`` starts from any position of the set-up (its
players, cards, variant and edition) instead.
``render_mode="ansi"`` renders the agent to act's view with the terminal renderer.
"""

from __future__ import annotations

import io
import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from rich.console import Console

from oriflamme.api import Action, Game, GameConfig
from oriflamme.encoding import HIGH, ActionCodec, Layout, Mask, ObservationEncoder
from oriflamme.search import state_of
from oriflamme.terminal.labels import GameLabels
from oriflamme.terminal.render import board, result_table

Observation = dict[str, Any]


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks (bounds and call order)."""
    wrapped: AECEnv = raw_env(**kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # type: ignore[misc]
    """The unwrapped AEC environment; ``players``, ``cards``, ``variant`` and ``edition`` as
    for :func:`oriflamme.api.new_game`."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"], "name": "oriflamme_v0", "is_parallelizable": False}

    def __init__(self, players: int = 3, cards: str = "base", variant: str | None = None,
                 edition: str = "revised", render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.render_mode = render_mode
        self.config = GameConfig(players=players, cards=cards, variant=variant, edition=edition)
        layout = Layout.of(self.config)
        self.codec = ActionCodec(layout)
        self.encoder = ObservationEncoder(layout)
        self.possible_agents = [f"player_{p}" for p in range(players)]
        self._player_of = {agent: p for p, agent in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        self.observation_spaces = {
            agent: spaces.Dict({
                "observation": spaces.Box(0.0, HIGH, (self.encoder.size,), np.float32),
                "action_mask": spaces.Box(0, 1, (self.codec.size,), np.int8),
            })
            for agent in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._deals = random.Random()
        self.game = Game.new(self.config, 0, log=False)
        #: Index -> action of the legal actions, once the mask was asked for.
        self._legal: dict[int, Action] | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        if seed is not None:
            self._deals = random.Random(seed)
        position = (options or {}).get("position")
        if position is not None:
            game = Game.from_position(position).copy(log=False)
            config = game.config
            if (game.is_over or Layout.of(config) is not self.encoder.layout
                    or config.edition != self.config.edition):
                raise ValueError("the position must be a game of this set-up, not over")
            self.game = game
        else:
            self.game = Game.new(self.config, self._deals.getrandbits(63), log=False)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._legal = None
        self._select()

    def _select(self) -> None:
        player = self.game.current_player
        if player is not None:
            self.agent_selection = self.possible_agents[player]

    def action_mask(self, agent: str) -> Mask:
        """The legal actions of ``agent`` now (all 0 unless it is the agent to act)."""
        mask = np.zeros(self.codec.size, dtype=np.int8)
        player = self._player_of[agent]
        if self.game.current_player == player:
            if self._legal is None:
                actions = self.game.legal_actions()
                self._legal = dict(zip(self.codec.encode_all(actions, player), actions,
                                       strict=True))
            for index in self._legal:  # item by item: faster than NumPy's fancy indexing
                mask[index] = 1  # for lists this short
        return mask

    def observe(self, agent: str) -> Observation:
        return {
            "observation": self.encoder.encode_state(state_of(self.game), self._player_of[agent]),
            "action_mask": self.action_mask(agent),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for finished agents")
        move = None if self._legal is None else self._legal.get(int(action))
        if move is not None:
            self.game.apply(move, check=False)
        else:
            decision = self.game.decision()
            assert decision is not None
            self.game.apply(self.codec.decode(int(action), decision.player, decision.card))
        self._legal = None
        self._cumulative_rewards[agent] = 0.0
        result = self.game.result()
        if result is None:  # rewards stay 0 until the end
            self._select()
            return
        share = 1.0 / len(result.winners)
        for p in result.winners:
            self.rewards[self.possible_agents[p]] = share
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        player = self.game.current_player
        buffer = io.StringIO()
        console = Console(file=buffer, width=100, color_system=None, force_terminal=False)
        labels = GameLabels(self.game)
        console.print(board(self.game.observe(player), labels))
        result = self.game.result()
        if result is not None:
            console.print(result_table(result, labels))
        return buffer.getvalue()

    def close(self) -> None:
        """Nothing to release."""
