"""The sequential-halving bot: legal play, reproducibility, budgets, paired worlds, specs."""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

import pytest

from hidden_cards import placement_positions, rotated
from oriflamme.api import Action, Game, new_game
from oriflamme.bots import BotSpecError, HalvingBot, bot_move, make_bot, play_game
from scenarios import options, render, setup
from test_ismcts import CONFIGS, wins_against_random


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['players']}p-{c['cards']}")
def test_halving_plays_legal_actions_to_the_end(config: dict[str, Any]) -> None:
    game = new_game(**config, seed=5)
    bots = {p: HalvingBot(seed=p, iterations=12) for p in range(game.config.players)}
    result = play_game(game, bots)  # the runner raises BotError on an illegal answer
    assert game.is_over and result == game.result()


def history(seeds: list[int], horizon: str = "round") -> list[Action]:
    game = new_game(players=3, seed=4)
    play_game(game, {p: HalvingBot(seed=s, iterations=16, horizon=horizon)
                     for p, s in enumerate(seeds)})
    return game.history


def test_the_same_seed_gives_the_same_game() -> None:
    assert history([1, 2, 3]) == history([1, 2, 3])
    assert any(history([1, 2, 3]) != history([s, s + 1, s + 2]) for s in (10, 20, 30))
    assert history([1, 2, 3], "next") == history([1, 2, 3], "next")


def test_budgets() -> None:
    bot = HalvingBot(seed=0, iterations=50)
    only = Action.reveal(3)
    assert bot.act({}, [only]) == only and bot.last_rollouts == 0  # no search, no observation
    game = new_game(players=3, seed=1)
    count = len(game.legal_actions())
    bot_move(game, bot)
    # every phase plays its surviving options in at least one world, within the budget if it
    # allows that
    assert count > 2 and 50 - count < bot.last_rollouts <= 50
    timed = HalvingBot(seed=0, iterations=None, seconds=0.2)
    started = new_game(players=3, seed=1)
    bot_move(started, timed)
    assert timed.last_rollouts >= count


class Spy(HalvingBot):
    """Records the world and the random numbers each option is played with, by phase."""

    def __init__(self, iterations: int) -> None:
        super().__init__(seed=7, iterations=iterations)
        self.calls: list[tuple[Action, int, int]] = []

    def _value(self, world: Game, action: Action, me: int, luck: int) -> float:
        self.calls.append((action, id(world), luck))
        return super()._value(world, action, me, luck)


def test_options_are_compared_on_the_same_worlds_and_halved_each_phase() -> None:
    game = new_game(players=3, seed=1)
    legal = game.legal_actions()
    bot = Spy(iterations=len(legal) * 12)
    bot.act(game.observe(game.current_player), legal)
    draws: dict[Action, list[tuple[int, int]]] = defaultdict(list)
    for action, world, luck in bot.calls:
        draws[action].append((world, luck))
    # options by how many draws they had: each phase halves the field (rounded up)
    field, survivors = len(legal), set(draws)
    assert len(survivors) == field
    phases = math.ceil(math.log2(field))
    sizes = [len(legal)]
    for _ in range(phases - 1):
        sizes.append(math.ceil(sizes[-1] / 2))
    depth = sorted({len(d) for d in draws.values()})
    assert len(depth) == phases  # one more group of draws per phase
    for phase, least in enumerate(depth):
        playing = [a for a, d in draws.items() if len(d) >= least]
        assert len(playing) == sizes[phase]
        # the options still in play shared every draw up to here: the same world, the same luck
        assert len({tuple(draws[a][:least]) for a in playing}) == 1
    assert len({luck for _, _, luck in bot.calls}) > 1  # fresh luck per world


def test_the_search_ignores_the_hidden_cards_of_opponents() -> None:
    """As for ISMCTS: the bot sees only red's view, so what red cannot see changes nothing,
    while what red can see does."""

    def decide(position: Game) -> Action:
        return bot_move(position, HalvingBot(seed=13, iterations=60))

    own_changes = 0
    for game in placement_positions(6):
        others = rotated(game, {"blue", "green"})
        assert others.observe(0) == game.observe(0)
        assert decide(others) == decide(game.copy())
        own_changes += decide(rotated(game, {"red"})) != decide(game)
    assert own_changes > 0


@pytest.mark.parametrize("seed", range(3))
def test_clear_moves(seed: int) -> None:
    """R-CONSP-1, R-END-1: in the last round red reveals its Conspiracy with four tokens (8
    Influence, red wins). R-SOLDIER-1: a Soldier eliminates blue's Heir, not red's own Lord."""
    game = setup([["red:conspiracy+4"], ["blue:lord*"], ["green:heir*"]], round=6,
                 influence=[5, 10, 8])
    assert render(game, bot_move(game, HalvingBot(seed=seed, iterations=20))) == (
        "reveal red:conspiracy")
    game = setup([["blue:heir*"], ["red:soldier*"], ["red:lord*"]], round=6, cursor=1,
                 influence=[5, 7, 6])
    assert options(game) == {"target blue:heir", "target red:lord"}
    assert render(game, bot_move(game, HalvingBot(seed=seed, iterations=20))) == (
        "target blue:heir")


def test_halving_beats_random_bots() -> None:
    assert wins_against_random(lambda g: HalvingBot(seed=g, iterations=30), 9, 200) >= 6


def test_specs() -> None:
    bot = make_bot("halving:iterations=300:time=1.5:horizon=next:infer=off", 4)
    assert isinstance(bot, HalvingBot)
    assert (bot.iterations, bot.seconds, bot.horizon, bot.infer) == (300, 1.5, "next", False)
    timed = make_bot("halving:time=0.5", 1)
    assert isinstance(timed, HalvingBot) and (timed.iterations, timed.seconds) == (None, 0.5)
    plain = make_bot("halving", 1)
    assert isinstance(plain, HalvingBot) and plain.iterations == 1000


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("halving:iterations=0", "iterations='0': must be at least 1"),
        ("halving:time=fast", "time='fast': expected a number"),
        ("halving:horizon=end", "horizon='end': choose from round, next"),
        ("halving:infer=yes", "infer='yes': choose from on, off"),
        ("halving:depth=2", "does not take option"),
    ],
)
def test_bad_specs_give_clear_errors(spec: str, message: str) -> None:
    with pytest.raises(BotSpecError, match=message):
        make_bot(spec, 1)
