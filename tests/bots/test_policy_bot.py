"""The ``policy`` bot and the training example: a few seconds of training give a weights file
the bot plays legally from any seat; weights load back exactly; bad specs are refused."""

from __future__ import annotations

import random
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from doctests import check_examples
from oriflamme.api import GameConfig, new_game
from oriflamme.bots import BotSpecError, RandomBot, make_bot, play_game, policy
from oriflamme.bots.policy import PolicyBot, PolicyNetwork
from scripts import ROOT, load_module

EXAMPLE = ROOT / "examples" / "train_policy.py"


def load_example() -> ModuleType:
    pytest.importorskip("pettingzoo")
    return load_module(EXAMPLE, "train_policy")


def test_module_examples() -> None:
    check_examples(policy)


def test_a_briefly_trained_policy_plays_legal_games(tmp_path: Path) -> None:
    example = load_example()
    out = tmp_path / "policy.npz"
    lines: list[str] = []
    net = example.train(players=3, seconds=30.0, max_games=96, hidden=16, batch=16, out=str(out),
                        report=lines.append)
    assert out.exists()
    first = PolicyNetwork.initial(GameConfig(players=3), 16, random.Random(0))
    assert not np.array_equal(net.weights[2], first.weights[2])  # training moved the output
    for seat in range(3):
        bots = {p: RandomBot(p) for p in range(3)}
        bots[seat] = make_bot(f"policy:path={out}", seed=seat)
        game = new_game(players=3, seed=seat)
        assert play_game(game, bots) is not None  # the runner checks every action is legal
    sampling = make_bot(f"policy:path={out}:sample=1", seed=1)
    assert play_game(new_game(players=3, seed=9), {0: sampling, 1: RandomBot(1),
                                                   2: RandomBot(2)}) is not None


def test_weights_round_trip(tmp_path: Path) -> None:
    config = GameConfig(players=2, cards="embrasement")
    net = PolicyNetwork.initial(config, 8, random.Random(3))
    net.weights[2] += 0.5
    path = tmp_path / "w.npz"
    net.save(path)
    back = PolicyNetwork.load(path)
    assert back.config == config
    assert all(np.array_equal(a, b) for a, b in zip(back.weights, net.weights, strict=True))


def test_probabilities_cover_the_legal_actions_only() -> None:
    game = new_game(players=3, seed=5)
    net = PolicyNetwork.initial(game.config, 8, random.Random(1))
    net.weights[3][:] = np.arange(net.codec.size, dtype=np.float32) / 100
    legal = net.codec.encode_all(game.legal_actions(), 0)
    probs = net.probabilities(net.encoder.encode(game.observe(0)), legal)
    assert probs.shape == (len(legal),)
    assert probs.sum() == pytest.approx(1.0)
    assert int(np.argmax(probs)) == int(np.argmax(legal))  # the largest bias wins
    bot = PolicyBot(net)
    assert bot.act(game.observe(0), game.legal_actions()) == game.legal_actions()[
        int(np.argmax(legal))]


def test_a_policy_plays_only_its_setup() -> None:
    net = PolicyNetwork.initial(GameConfig(players=3), 4, random.Random(0))
    game = new_game(players=4)
    with pytest.raises(ValueError, match="this policy plays"):
        PolicyBot(net).act(game.observe(0), game.legal_actions())
    with pytest.raises(ValueError, match="do not fit"):
        PolicyNetwork(GameConfig(players=4), net.weights)


def test_bad_specs_are_refused(tmp_path: Path) -> None:
    with pytest.raises(BotSpecError, match="give the weights file"):
        make_bot("policy", seed=0)
    with pytest.raises(BotSpecError, match="cannot load"):
        make_bot(f"policy:path={tmp_path / 'missing.npz'}", seed=0)
    path = tmp_path / "p.npz"
    PolicyNetwork.initial(GameConfig(players=3), 4, random.Random(0)).save(path)
    with pytest.raises(BotSpecError, match="sample must be 0 or 1"):
        make_bot(f"policy:path={path}:sample=yes", seed=0)
