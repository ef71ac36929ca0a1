"""The PettingZoo environment: PettingZoo's API and seed tests on every set-up, win-share
rewards at the end, observations blind to hidden cards, the ANSI rendering."""

from __future__ import annotations

import random
import re
import warnings
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test

from doctests import check_examples
from oriflamme.api import Action, WorldSampler, new_game
from oriflamme.encoding import ActionCodec, Layout
from oriflamme.envs import pettingzoo as module
from oriflamme.envs.pettingzoo import env, raw_env
from scenarios import (
    OWN_AMBUSH_BY_EDITION,
    OWN_AMBUSH_MOVES,
    SHARED_VICTORY,
    assert_own_ambush_outcome,
)

SETUPS: list[dict[str, Any]] = [
    {"players": p, "cards": c} for p in (3, 4, 5) for c in ("base", "embrasement")
] + [
    {"players": 2, "cards": "base"},
    {"players": 2, "cards": "embrasement"},
    {"players": 2, "cards": "base", "variant": "standard"},
    {"players": 3, "cards": "base", "edition": "first"},
]
#: What PettingZoo's api_test says of every environment with dict observations that is not
#: one of its own (its list of names); nothing else may be reported.
EXPECTED_WARNINGS = (
    "Observation space for each agent probably should be gymnasium.spaces.box",
    "Observation is not a NumPy array",
)


def ids(setup: dict[str, Any]) -> str:
    return "-".join(str(v) for v in setup.values())


def play_random(e: raw_env, rng: random.Random, moves: int) -> None:
    for _ in range(moves):
        agent = e.agent_selection
        if e.terminations[agent]:
            return
        e.step(rng.choice(np.flatnonzero(e.action_mask(agent)).tolist()))


def test_module_examples() -> None:
    check_examples(module)


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_pettingzoo_api_and_seed_tests(setup: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(**setup), num_cycles=1000)
        seed_test(lambda: env(**setup), num_cycles=500)
    unexpected = {str(w.message) for w in caught
                  if not str(w.message).startswith(EXPECTED_WARNINGS)}
    assert not unexpected


def test_the_edition_reaches_the_engine() -> None:
    """R-EDITION-1: dealt games have the environment's edition; a position of the other
    edition is not a game of the set-up (and is refused without changing the game)."""
    first, revised = raw_env(players=3, cards="base", edition="first"), raw_env(players=3)
    for seed in range(3):
        first.reset(seed=seed)
        revised.reset(seed=seed)
        assert first.game.config.edition == "first"
        assert revised.game.config.edition == "revised"
    before = first.game.position()
    with pytest.raises(ValueError, match="this set-up"):
        first.reset(options={"position": revised.game.position()})
    assert first.game.position() == before  # a refused position leaves the game as it was
    with pytest.raises(ValueError, match="this set-up"):
        revised.reset(options={"position": first.game.position()})
    first.reset(options={"position": new_game(players=3, edition="first").position()})
    assert first.game.config.edition == "first"
    with pytest.raises(ValueError, match="edition must be one of revised, first"):
        raw_env(edition="second")


def act(e: Any, pattern: str) -> None:
    """Step the agent to act with its first legal action whose label matches ``pattern``."""
    game = e.unwrapped.game
    player = game.current_player
    moves = [m for m in game.legal_actions() if re.match(pattern, game.label(m, viewer=player))]
    assert moves, (pattern, [game.label(m, viewer=player) for m in game.legal_actions()])
    e.step(e.unwrapped.codec.encode(moves[0], player))


@pytest.mark.parametrize(("edition", "red", "soldier_stays"), OWN_AMBUSH_BY_EDITION)
def test_the_edition_decides_what_eliminating_ones_own_ambush_does(
    edition: str, red: int, soldier_stays: bool
) -> None:
    """R-AMBUSH-3, R-EDITION-1 through the environment (``scenarios.OWN_AMBUSH_MOVES``)."""
    e = env(players=3, cards="base", edition=edition)
    e.reset(seed=0)
    hand = {card["type"] for card in e.unwrapped.game.observe(0)["families"][0]["hand"]}
    assert {"soldier", "ambush"} <= hand
    for pattern in OWN_AMBUSH_MOVES:
        act(e, pattern)
    assert_own_ambush_outcome(e.unwrapped.game.position(), red, soldier_stays)
    observation = e.observe("player_1")["observation"]
    assert np.array_equal(observation, e.unwrapped.encoder.encode(e.unwrapped.game.observe(1)))


def test_spaces_fit_the_setup() -> None:
    e = env(players=2, cards="embrasement")
    e.reset(seed=0)
    assert e.possible_agents == ["player_0", "player_1"]
    assert e.action_space("player_1").n == 1153  # see test_envs_encoding
    space = e.observation_space("player_0")
    assert space["observation"].shape == (1519,)
    assert space["action_mask"].shape == (1153,)


def test_a_shared_victory_shares_the_reward() -> None:
    e = env(players=3)
    e.reset(options={"position": SHARED_VICTORY})
    spy = e.unwrapped.game.card("red:spy")
    leave = ActionCodec(Layout.of(e.unwrapped.config)).encode(Action.leave(spy), 0)
    e.step(leave)
    rewards = {}
    for agent in e.agent_iter():
        _, reward, terminated, _, _ = e.last()
        assert terminated
        rewards[agent] = reward
        e.step(None)
    assert rewards == {"player_0": 0.5, "player_1": 0.5, "player_2": 0.0}


def test_rewards_are_win_shares_at_the_end() -> None:
    e = raw_env(players=3)
    rng = random.Random(1)
    for seed in range(4):
        e.reset(seed=seed)
        totals = dict.fromkeys(e.possible_agents, 0.0)
        for agent in e.agent_iter():
            _, reward, terminated, _, _ = e.last(observe=False)
            totals[agent] += reward
            if terminated:
                e.step(None)
                continue
            assert all(r == 0.0 for r in e.rewards.values())
            e.step(rng.choice(np.flatnonzero(e.action_mask(agent)).tolist()))
        result = e.game.result()
        assert result is not None
        share = 1 / len(result.winners)
        assert totals == {f"player_{p}": share if p in result.winners else 0.0
                          for p in range(3)}


def test_the_agent_to_act_is_the_player_the_game_waits_for() -> None:
    e = raw_env(players=3)
    e.reset(seed=4)
    rng = random.Random(4)
    for _ in range(40):
        decision = e.game.decision()
        assert decision is not None
        agent = e.agent_selection
        assert agent == f"player_{decision.player}"
        others = [a for a in e.agents if a != agent]
        assert all(e.observe(a)["action_mask"].sum() == 0 for a in others)
        mask = e.observe(agent)["action_mask"]
        assert mask.sum() == len(e.game.legal_actions())
        e.step(rng.choice(np.flatnonzero(mask).tolist()))


def test_seeds_fix_the_deal_and_positions_can_be_loaded() -> None:
    a, b = raw_env(players=4), raw_env(players=4)
    a.reset(seed=11)
    b.reset(seed=11)
    assert a.game == b.game
    a.reset()
    assert a.game != b.game  # the next deal of the same sequence
    game = new_game(players=4, seed=3)
    b.reset(options={"position": game.position()})
    assert b.game == game.copy(log=False)
    with pytest.raises(ValueError, match="this set-up"):
        b.reset(options={"position": new_game(players=3).position()})


@pytest.mark.parametrize("setup", SETUPS, ids=ids)
def test_observations_are_blind_to_hidden_cards(setup: dict[str, Any]) -> None:
    """Two environments whose games differ only in what player p cannot see (a world drawn
    from p's observation) give p the same observation; another player's differs."""
    real, world = raw_env(**setup), raw_env(**setup)
    rng = random.Random(2)
    other_differs = 0
    for moves in (0, 9, 30):
        real.reset(seed=moves)
        play_random(real, rng, moves)
        for p, agent in enumerate(real.possible_agents):
            sampled = WorldSampler(real.game.observe(p)).sample(rng)
            world.reset(options={"position": sampled.position()})
            assert world.game != real.game
            mine, theirs = real.observe(agent), world.observe(agent)
            assert np.array_equal(mine["observation"], theirs["observation"])
            assert np.array_equal(mine["action_mask"], theirs["action_mask"])
            other = real.possible_agents[(p + 1) % len(real.possible_agents)]
            other_differs += not np.array_equal(real.observe(other)["observation"],
                                                world.observe(other)["observation"])
    assert other_differs > 0


def test_actions_are_checked() -> None:
    e = raw_env(players=3)
    e.reset(seed=0)
    spend = ActionCodec(Layout.of(e.config)).size - 1
    before = e.game.position()
    with pytest.raises(ValueError, match="not legal"):
        e.step(spend)
    with pytest.raises(ValueError, match="must act"):
        e.step(None)
    assert e.game.position() == before


def test_ansi_render_shows_the_view_of_the_agent_to_act() -> None:
    e = raw_env(players=3, render_mode="ansi")
    e.reset(seed=3)
    text = e.render()
    assert text is not None and text.startswith("Round 1 of 6")
    hand = e.game.observe(0)["families"][0]["hand"]
    assert f"#{hand[0]['id']} " in text and "Hand (Red)" in text
    assert "Hand (Blue)" not in text
    assert raw_env(players=3).render() is None
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="human")
    rng = random.Random(0)
    play_random(e, rng, 10_000)
    final = e.render()
    assert final is not None and "Final scores" in final


@pytest.mark.parametrize("setup", SETUPS[::2], ids=ids)
def test_observations_equal_the_encoding_of_each_players_view(setup: dict[str, Any]) -> None:
    """Every agent's observation vector, at every step, is the encoder's vector of that
    player's ``Game.observe`` (the fast path is only an optimisation)."""
    e = raw_env(**setup)
    e.reset(seed=5)
    rng = random.Random(5)
    steps = 0
    while not e.terminations[e.agent_selection]:
        for p, agent in enumerate(e.possible_agents):
            observation = e.observe(agent)["observation"]
            assert observation.dtype == np.float32
            assert np.array_equal(observation, e.encoder.encode(e.game.observe(p)))
        play_random(e, rng, 1)
        steps += 1
    assert steps > 20  # whole games: 2 players with a family each take the fewest
    assert np.array_equal(e.observe("player_0")["observation"],
                          e.encoder.encode(e.game.observe(0)))
