"""The learned bots (issue #30): canonical features, the network and its weights files, the
``network``/``learned`` and ``guided``/``master`` bots, on both builds."""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from oriflamme.api import GameConfig, WorldSampler, new_game
from oriflamme.bots import BotSpecError, make_bot
from oriflamme.bots.features import Features
from oriflamme.bots.guided import GuidedBot
from oriflamme.bots.learned import NetworkBot, Networks
from oriflamme.bots.network import FORMAT, VERSION, Network, WeightsError
from oriflamme.bots.shipped import (
    WEIGHTS_DIR,
    packaged_files,
    packaged_path,
    packaged_setups,
    setup_key,
)
from oriflamme.search import state_of

SETUPS = [
    dict(players=3),
    dict(players=2),
    dict(players=2, variant="standard"),
    dict(players=4, cards="embrasement"),
    dict(players=5),
]


def _random_positions(setup: dict[str, object], seed: int, every: int = 3):
    """Positions of a random game of ``setup`` (every ``every``-th decision)."""
    rng = random.Random(seed)
    game = new_game(seed=seed, **setup)  # type: ignore[arg-type]
    step = 0
    while game.current_player is not None:
        if step % every == 0:
            yield game
        game.apply(game.random_action(rng))
        step += 1


def _tiny(config: GameConfig, seed: int = 0) -> Network:
    return Network.initial(config, hidden=(12, 8), rng=np.random.default_rng(seed))


# -- canonical features ---------------------------------------------------------------------
@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: setup_key(GameConfig(**s)))
def test_canonical_features_read_only_the_observation(setup: dict[str, object]) -> None:
    """From the observation or from the raw state (the search's path), the same canonical
    vector and card permutation; each family's cards are permuted among themselves; a card
    the player knows sits in the slot of its type; the legal actions keep distinct indices."""
    for game in _random_positions(setup, seed=3):
        player = game.current_player
        assert player is not None
        features = Features.of(game.config)
        for viewer in range(game.config.players):
            x, slots = features.observation(game.observe(viewer))
            fast, fast_slots = features.state(state_of(game), viewer)
            assert np.array_equal(x, fast) and np.array_equal(slots, fast_slots)
            size = features.family_size
            for family in range(features.families):
                block = slots[family * size:(family + 1) * size]
                assert sorted(block.tolist()) == list(range(family * size, (family + 1) * size))
        observation = game.observe(player)
        x, slots = features.observation(observation)
        types = [t.slug for t in features.layout.card_types]
        own = [e for family in observation["families"] for e in family.get("hand", ())]
        assert own or game.round == 6
        for entry in own:  # the player's own cards in hand: known, in the slot of their type
            relative = features.layout.relative_card(entry["id"], player)
            assert slots[relative] % features.family_size == types.index(entry["type"])
        _check_unknown_cards_in_queue_order(features, game, player, slots)
        legal = game.legal_actions()
        indices = features.action_indices(legal, player, slots).tolist()
        assert len(set(indices)) == len(indices)
        assert all(0 <= i < features.actions for i in indices)


def _check_unknown_cards_in_queue_order(features: Features, game, player: int,
                                        slots: np.ndarray) -> None:
    """The player's unknown cards in the Queue take their family's free slots in the order of
    the Queue (stack, then level from the bottom)."""
    order: dict[int, list[int]] = {}  # family: its unknown cards in the Queue, in order
    for stack in game.observe(player)["queue"]:
        for entry in stack:
            if entry["type"] is None:
                relative = features.layout.relative_card(entry["id"], player)
                order.setdefault(relative // features.family_size, []).append(relative)
    for family, cards in order.items():
        placed = [int(slots[card]) for card in cards]
        assert placed == sorted(placed), (family, cards, placed)


def test_the_search_s_sparse_input_is_the_canonical_vector() -> None:
    """``state_sparse`` (the search's path) names exactly the non-zero entries of the
    canonical vector, with their values, from every player's view."""
    for setup in (dict(players=3), dict(players=2), dict(players=4, cards="embrasement")):
        for game in _random_positions(setup, seed=7, every=2):
            features = Features.of(game.config)
            state = state_of(game)
            for viewer in range(game.config.players):
                x, _ = features.state(state, viewer)
                inputs, values = features.state_sparse(state, viewer)
                dense = np.zeros_like(x)
                dense[inputs] = values
                assert len(set(inputs.tolist())) == len(inputs)
                assert np.array_equal(dense, x)


def test_the_same_knowledge_gives_the_same_input_whatever_the_deal() -> None:
    """Worlds drawn from a player's observation (other cards dealt anew, so different ids
    for the same types) give that player the same canonical vector and action indices: the
    network cannot tell deals apart that the player cannot (R-INFO-1), and the random ids do
    not change its input."""
    rng = random.Random(5)
    for game in _random_positions(dict(players=3), seed=11, every=7):
        player = game.current_player
        assert player is not None
        features = Features.of(game.config)
        observation = game.observe(player)
        x, slots = features.observation(observation)
        legal = game.legal_actions()
        reference = features.action_indices(legal, player, slots)
        sampler = WorldSampler(observation)
        for _ in range(3):
            world = sampler.sample(rng)
            wx, wslots = features.state(state_of(world), player)
            assert np.array_equal(wx, x)
            assert np.array_equal(features.action_indices(world.legal_actions(), player, wslots),
                                  reference)


def test_a_placement_is_named_by_the_card_type_not_its_random_id() -> None:
    """Two deals give the player's cards different ids; placing the same type at the end of
    the Queue is the same output of the network in both."""
    outputs = []
    for seed in (1, 2):
        game = new_game(players=3, seed=seed)
        features = Features.of(game.config)
        _, slots = features.observation(game.observe(0))
        legal = game.legal_actions()
        indices = features.action_indices(legal, 0, slots).tolist()
        types = game.observe(0)
        kind = {e["id"]: e["type"] for e in types["families"][0]["hand"]}
        outputs.append({(kind[a.card], a.to): i for a, i in zip(legal, indices, strict=True)})
    common = set(outputs[0]) & set(outputs[1])
    assert common
    assert all(outputs[0][key] == outputs[1][key] for key in common)


# -- the network and its weights files ------------------------------------------------------
@pytest.mark.parametrize("key", packaged_setups())
def test_the_search_s_sparse_value_equals_the_dense_product(key: str) -> None:
    """``value_logits`` (first layer over the non-zero inputs only), ``own_share`` and
    ``shares`` give the dense product's win shares, on every shipped network, at every kind of
    position of a random game of its set-up and from every player's view."""
    net = Network.load(WEIGHTS_DIR / f"{key}.npz")
    setup = {k: v for k, v in net.config.to_dict().items() if k in ("players", "cards",
                                                                    "variant")}
    checked = 0
    for game in _random_positions(setup, seed=11, every=2):
        state = state_of(game)
        for player in range(game.config.players):
            x = net.features.state(state, player)[0]
            dense = net.win_shares(x)
            assert net.shares(x) == pytest.approx(dense.tolist(), abs=1e-5)
            assert net.own_share(x) == pytest.approx(float(dense[0]), abs=1e-5)
            # straight from the world, without building the vector (the search's path)
            assert net.shares_in(state, player) == pytest.approx(dense.tolist(), abs=1e-5)
            assert net.own_share_in(state, player) == pytest.approx(float(dense[0]), abs=1e-5)
            checked += 1
    assert checked > 50
    blank = np.zeros(net.features.size, np.float32)  # no input at all: the biases alone
    assert net.shares(blank) == pytest.approx(net.win_shares(blank).tolist(), abs=1e-5)


def test_weights_round_trip_in_full_and_half_precision(tmp_path: Path) -> None:
    config = GameConfig(players=3)
    net = _tiny(config)
    game = new_game(players=3, seed=2)
    x, _ = net.features.observation(game.observe(0))
    for half in (False, True):
        path = tmp_path / f"n{half}.npz"
        net.save(path, half=half)
        again = Network.load(path)
        assert again.hidden == net.hidden and setup_key(again.config) == "3p-base"
        q, v = again.evaluate(x)
        q0, v0 = net.evaluate(x)
        tolerance = 1e-2 if half else 0.0
        assert np.allclose(q, q0, atol=tolerance) and np.allclose(v, v0, atol=tolerance)


def _archive(tmp_path: Path, name: str, arrays: dict[str, object]) -> Path:
    path = tmp_path / name
    with path.open("wb") as out:
        np.savez(out, **arrays)  # type: ignore[arg-type]
    return path


def test_bad_weights_files_are_refused_with_one_clear_error(tmp_path: Path) -> None:
    """Missing, not an archive, truncated, another format or version, another set-up, wrong
    shapes, values that are not numbers: each is one WeightsError naming the problem, and a
    refused bot spec (BotSpecError) for every bot that takes weights."""
    config = GameConfig(players=3)
    good = _tiny(config)
    arrays = good.arrays()
    meta = good.meta()
    data = good.to_bytes()
    cases = {
        "missing": (tmp_path / "nowhere.npz", "cannot read"),
        "text": (tmp_path / "text.npz", "not a NumPy .npz archive"),
        "truncated": (tmp_path / "truncated.npz", "corrupt|not a NumPy"),
        "format": (_archive(tmp_path, "format.npz", {**arrays, "meta": json.dumps(
            {**meta, "format": "other"})}), "not an oriflamme network"),
        "version": (_archive(tmp_path, "version.npz", {**arrays, "meta": json.dumps(
            {**meta, "version": VERSION + 1})}), f"version {VERSION + 1}"),
        "no meta": (_archive(tmp_path, "nometa.npz", dict(arrays)), "no 'meta' record"),
        "shape": (_archive(tmp_path, "shape.npz", {**arrays, "q_w": arrays["q_w"][:-1],
                                                   "meta": json.dumps(meta)}),
                  "array q_w has shape"),
        "missing array": (_archive(tmp_path, "noq.npz", {
            **{k: v for k, v in arrays.items() if k != "q_b"}, "meta": json.dumps(meta)}),
            "arrays missing: q_b"),
        "nan": (_archive(tmp_path, "nan.npz", {**arrays, "b0": np.full_like(arrays["b0"],
                                                                            np.nan),
                                               "meta": json.dumps(meta)}), "not finite"),
        "setup": (_archive(tmp_path, "setup.npz", {**arrays, "meta": json.dumps(
            {**meta, "setup": {"players": 9}})}), "not a game set-up"),
    }
    (tmp_path / "text.npz").write_text("not weights")
    (tmp_path / "truncated.npz").write_bytes(data[: len(data) // 2])
    assert meta["format"] == FORMAT
    for name, (path, message) in cases.items():
        with pytest.raises(WeightsError, match=message):
            Network.load(path)
        for spec in (f"network:weights={path}", f"guided:weights={path}"):
            with pytest.raises(BotSpecError):
                make_bot(spec, 1)
        assert name


def test_a_network_of_another_setup_is_refused_before_play(tmp_path: Path) -> None:
    path = tmp_path / "two.npz"
    _tiny(GameConfig(players=2)).save(path)
    bot = make_bot(f"network:weights={path}", 1)
    with pytest.raises(BotSpecError, match="this network plays 2p-base-two-families, not 3p"):
        bot.check_setup(GameConfig(players=3))  # type: ignore[attr-defined]
    bot.check_setup(GameConfig(players=2))  # type: ignore[attr-defined]
    with pytest.raises(BotSpecError, match="no shipped network for 5p-embrasement"):
        make_bot("learned", 1).check_setup(  # type: ignore[attr-defined]
            GameConfig(players=5, cards="embrasement"))


# -- shipped weights ------------------------------------------------------------------------
def test_every_shipped_network_loads_and_matches_its_sidecar() -> None:
    """Each shipped file is for the set-up its name says, with a sidecar recording how it was
    made (command, seed, budget, commit) and the file's SHA-256."""
    import hashlib

    setups = packaged_setups()
    assert "3p-base" in setups
    for key in setups:
        path = WEIGHTS_DIR / f"{key}.npz"
        config = Network.load(path).config
        assert setup_key(config) == key
        assert packaged_path(config) == path
    files = packaged_files()
    assert len(files) >= len(setups)
    for path in files:
        key, _, use = path.stem.partition(".")
        assert key in setups and use in ("", "play", "policy"), path.name
        net = Network.load(path)
        assert setup_key(net.config) == key
        assert net.is_policy == (use == "policy")  # a policy file is marked as one
        assert packaged_path(net.config, use or "search") == path
        sidecar = json.loads(path.with_suffix(".json").read_text())
        assert sidecar["setup"] == key
        assert sidecar["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
        for field in ("command", "seed", "budget", "commit"):
            assert sidecar[field] not in (None, "")
        assert path.stat().st_size < 3_000_000


def test_the_network_bot_plays_the_set_up_s_own_file_for_play_where_there_is_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``SETUP.play.npz`` is the network alone's (``learned``), ``SETUP.npz`` the search's
    (``master``); without a ``.play`` file both read the search's."""
    import oriflamme.bots.shipped as shipped

    config = GameConfig(players=3)
    search = Network.initial(config, (8,), np.random.default_rng(1))
    play = Network.initial(config, (8,), np.random.default_rng(2))
    search.save(tmp_path / "3p-base.npz")
    monkeypatch.setattr(shipped, "WEIGHTS_DIR", tmp_path)

    def used(spec: str) -> Network:
        bot = make_bot(spec, 1)
        return bot.networks.for_setup(config)  # type: ignore[attr-defined,no-any-return]

    assert np.array_equal(used("learned").arrays()["w0"], search.arrays()["w0"])
    play.save(tmp_path / "3p-base.play.npz")
    assert np.array_equal(used("learned").arrays()["w0"], play.arrays()["w0"])
    assert np.array_equal(used("master").arrays()["w0"], search.arrays()["w0"])
    assert shipped.packaged_setups() == ["3p-base"]
    revived = pickle.loads(pickle.dumps(make_bot("learned", 1)))
    assert np.array_equal(revived.networks.for_setup(config).arrays()["w0"],
                          play.arrays()["w0"])


# -- the bots -------------------------------------------------------------------------------
def test_make_bot_master_and_learned() -> None:
    """The levels are registered with their specs and names."""
    master, learned = make_bot("master", 1), make_bot("learned", 1)
    assert isinstance(master, GuidedBot) and master.name == "master"
    assert master.iterations == 6000 and master.seconds == 1.0
    assert master.opponents == "auto"  # the shipped policy models the opponents (3 players)
    assert isinstance(learned, NetworkBot) and learned.name == "learned"
    assert (learned.choose, learned.worlds) == ("auto", 1)
    assert make_bot("network:choose=action:worlds=3", 1).choose == "action"  # type: ignore[attr-defined]
    with pytest.raises(BotSpecError, match="worlds"):
        make_bot("network:worlds=0", 1)
    with pytest.raises(BotSpecError, match="choose"):
        make_bot("network:choose=policy", 1)
    assert make_bot("network:reply=heuristic", 1).reply == "heuristic"  # type: ignore[attr-defined]
    with pytest.raises(BotSpecError, match="reply"):
        make_bot("network:reply=everyone", 1)
    with pytest.raises(BotSpecError, match="iterations"):
        make_bot("guided:iterations=0", 1)
    with pytest.raises(BotSpecError, match="leaf"):
        make_bot("guided:leaf=nowhere", 1)
    with pytest.raises(BotSpecError, match="noise must be a probability"):
        make_bot("guided:noise=1.5", 1)
    with pytest.raises(BotSpecError, match="noise"):
        make_bot("guided:noise=some", 1)


def visits(spec: str) -> dict[Any, int]:
    """How often the search of ``spec`` tried each action at the first decision of a game."""
    game = new_game(players=3, seed=12)
    player = game.current_player
    assert player is not None
    bot = make_bot(spec, 7)
    bot.act(game.observe(player), game.legal_actions())
    return dict(bot.last_search.visits)  # type: ignore[attr-defined]


def test_a_noisy_opponent_model_changes_the_guided_search() -> None:
    """``noise=P``: inside the tree each opponent decision is a random legal action with chance
    P, otherwise the heuristic's (as ``ismcts:noise``); 0, the default, is the plain search."""
    plain = visits("guided:iterations=200")
    assert make_bot("guided:noise=0.3", 1).noise == 0.3  # type: ignore[attr-defined]
    assert visits("guided:iterations=200:noise=0") == plain
    assert visits("guided:iterations=200:noise=1") != plain


@pytest.mark.parametrize("spec", ["learned", "network:choose=action", "network:worlds=3",
                                  "network:reply=heuristic", "guided:iterations=30",
                                  "guided:iterations=30:leaf=value:prior=on",
                                  "guided:iterations=30:prior=root:value=blend",
                                  "guided:iterations=30:noise=0.5",
                                  "guided:iterations=30:opponents=policy",
                                  "guided:iterations=30:opponents=sample"])
def test_the_learned_bots_ignore_the_hidden_cards_of_opponents(spec: str) -> None:
    """Re-dealing what the bot cannot see, consistently with its observation, changes nothing
    of its choices (R-INFO-1)."""
    rng = random.Random(2)
    for game in _random_positions(dict(players=3), seed=17, every=9):
        player = game.current_player
        assert player is not None
        observation, legal = game.observe(player), game.legal_actions()
        world = WorldSampler(observation).sample(rng)
        assert world.observe(player) == observation
        first = make_bot(spec, 4).act(observation, legal)
        again = make_bot(spec, 4).act(world.observe(player), world.legal_actions())
        assert first == again


@pytest.mark.parametrize("spec", ["learned", "network:choose=action", "network:reply=heuristic",
                                  "guided:iterations=40",
                                  "guided:iterations=40:leaf=value:prior=on:value=net",
                                  "guided:iterations=40:opponents=sample"])
def test_the_learned_bots_can_be_pickled_and_copied(spec: str) -> None:
    bot, game = make_bot(spec, 5), new_game(players=3, seed=8)
    player = game.current_player
    assert player is not None
    bot.act(game.observe(player), game.legal_actions())
    twins = [pickle.loads(pickle.dumps(bot)), copy.deepcopy(bot)]
    for _ in range(3):
        player = game.current_player
        assert player is not None
        observation, legal = game.observe(player), game.legal_actions()
        chosen = bot.act(observation, legal)
        assert [twin.act(observation, legal) for twin in twins] == [chosen, chosen]
        game.apply(chosen)


def test_an_in_memory_network_survives_pickling() -> None:
    net = _tiny(GameConfig(players=3))
    bot = NetworkBot(Networks.of(net), seed=1)
    game = new_game(players=3, seed=3)
    twin = pickle.loads(pickle.dumps(bot))
    assert twin.act(game.observe(0), game.legal_actions()) == bot.act(
        game.observe(0), game.legal_actions())


# -- the same choices on the pure and the compiled build ------------------------------------
_CHOICES = """
import json, random, sys
from oriflamme.api import new_game
from oriflamme.bots import make_bot
from oriflamme.bots.shipped import packaged_path
from oriflamme.build import build_name
out = []
for spec in ("learned", "network:choose=action:worlds=2", "network:reply=heuristic",
             "guided:iterations=60",
             "guided:iterations=40:leaf=value:prior=on",
             "guided:iterations=40:opponents=policy", "guided:iterations=40:opponents=sample",
             "network:weights=" + str(packaged_path(new_game(players=3).config, "policy"))):
    rng = random.Random(3)
    game = new_game(players=3, seed=21)
    step = 0
    while game.current_player is not None and step < 60:
        player = game.current_player
        legal = game.legal_actions()
        if step % 4 == 0 and len(legal) > 1:
            out.append(str(make_bot(spec, step).act(game.observe(player), legal)))
        game.apply(game.random_action(rng))
        step += 1
print(json.dumps({"build": build_name(), "choices": out}))
"""


def test_the_same_choices_on_the_pure_and_the_compiled_build() -> None:
    """The bots choose the same on this build and on the pure-Python sources beside the tests
    (on the compiled run of scripts/test.sh: compiled against pure). Nothing in them may depend
    on the build: NumPy does the network's arithmetic on both, in the same order."""
    import oriflamme

    sources = Path(__file__).resolve().parents[2] / "src"
    if not (sources / "oriflamme" / "bots" / "guided.py").is_file():
        pytest.skip("the sources are not beside the tests")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    here = subprocess.run([sys.executable, "-c", _CHOICES], capture_output=True, text=True,
                          check=True, env=env, cwd=Path(oriflamme.__file__).parent)
    env["PYTHONPATH"] = str(sources)
    pure = subprocess.run([sys.executable, "-c", _CHOICES], capture_output=True, text=True,
                          check=True, env=env)
    mine, theirs = json.loads(here.stdout), json.loads(pure.stdout)
    assert theirs["build"] == "pure Python"
    assert len(mine["choices"]) > 10
    assert mine["choices"] == theirs["choices"]


# -- the server's adviser ---------------------------------------------------------------------
def test_the_adviser_is_master_where_it_is_measured_stronger_and_hard_elsewhere() -> None:
    """Analyses and hints (bots.advice) use master's search with 3 players and the base cards,
    where it is measured stronger than expert (docs/bots.md), and hard elsewhere: with 2
    players (a network ships, but master is not measured stronger there) and where no network
    ships. master's opinion carries everyone's chances after each move it tried, and the same
    knowledge gets the same opinion."""
    from oriflamme.bots.advice import advise, adviser, adviser_level
    from oriflamme.bots.ismcts import IsmctsBot

    two, three, four = (new_game(players=n, seed=4) for n in (2, 3, 4))
    assert packaged_path(two.config) is not None  # shipped, yet not measured stronger
    levels = [adviser_level(game.config.to_dict()) for game in (two, three, four)]
    assert levels == ["hard", "master", "hard"]
    assert isinstance(adviser(1, 50, None, three.config.to_dict()), GuidedBot)
    assert isinstance(adviser(1, 50, None, two.config.to_dict()), IsmctsBot)
    assert isinstance(adviser(1, 50, None, four.config.to_dict()), IsmctsBot)
    advice = advise(three.observe(0), three.legal_actions(), iterations=80)
    assert advice.best in three.legal_actions() and advice.iterations == 80
    assert sum(advice.win) == pytest.approx(1.0, abs=1e-6)
    assert sum(visits for _, visits in advice.by_action.values()) == 80
    assert advice == advise(three.observe(0), three.legal_actions(), iterations=80)


def test_the_warm_up_loads_master_where_it_advises() -> None:
    """A fresh process's warm-up (the server's hint worker runs it when it starts) gives one
    opinion in each set-up where master advises, which loads NumPy and the networks."""
    script = (
        "import sys\n"
        "from oriflamme.bots.advice import warm_up\n"
        "assert 'numpy' not in sys.modules\n"
        "print(warm_up(), 'numpy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=120, check=True)
    assert done.stdout.strip() == "['3p-base'] True"


def test_the_commands_refuse_a_setup_without_a_network(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """tournament, simulate and play stop before the first move, with one line, when a bot has
    no network for the set-up: never an error in the middle of a game."""
    from oriflamme.cli.main import main

    expected = "no shipped network for 5p-base (shipped: "
    for command in (
        ["simulate", "--players", "5", "--bots", "learned", "--games", "1"],
        ["tournament", "--players", "5", "--bots", "master,random", "--games", "5", "--jobs",
         "1", "--out", str(tmp_path / "t")],
        ["play", "--players", "5", "--bots", "learned", "--humans", "0"],
    ):
        assert main(command) == 2, command
        assert expected in capsys.readouterr().err
    assert not (tmp_path / "t").exists()
    assert main(["simulate", "--players", "3", "--bots", "learned,random", "--games", "2"]) == 0


def test_the_server_starts_without_the_network_modules() -> None:
    """The server's advice knows where networks are shipped without importing NumPy or the
    network (imported on the first analysis or hint that uses one): start-up stays short."""
    code = ("import sys\nimport oriflamme.server.analysis, oriflamme.server.review\n"
            "print(sorted(m for m in ('numpy', 'oriflamme.bots.guided', 'oriflamme.bots.network',"
            " 'oriflamme.encoding') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


def test_docstring_examples() -> None:
    """The learned bots' modules show examples (``make_bot("learned")``, ``"guided"``...)."""
    from doctests import run_doctests
    from oriflamme.bots import advice, features, guided, learned, levels, network, shipped

    for module in (features, network, shipped, learned, guided, levels, advice):
        failed, attempted = run_doctests(module)
        assert attempted > 0 and failed == 0, module.__name__


# -- a policy network as the search's model of the opponents ---------------------------------
def _policy_file(tmp_path: Path, seed: int = 3) -> Path:
    net = _tiny(GameConfig(players=3), seed)
    path = tmp_path / "policy.npz"
    Network(net.config, net.arrays(), {"actions": "policy"}).save(path)
    return path


def test_the_policy_s_sparse_choice_is_the_dense_argmax() -> None:
    """``best_action_in`` (the tree's opponent model) reads the same canonical vector and
    action indices as the dense path, from the mover's own view of the world."""
    net = _tiny(GameConfig(players=3), 5)
    checked = 0
    for game in _random_positions(dict(players=3), seed=4, every=2):
        state = state_of(game)
        player = game.current_player
        assert player is not None
        legal = game.legal_actions()
        x, slots = net.features.state(state, player)
        dense = legal[int(np.argmax(net.q_values(x)[net.features.action_indices(
            legal, player, slots)]))]
        assert net.best_action_in(state, player, legal) == dense
        checked += len(legal) > 1
    assert checked > 10


def test_a_policy_opponent_model_changes_the_guided_search(tmp_path: Path) -> None:
    """``opponents=policy``: the opponents inside the tree play the policy network's most
    likely action instead of the heuristic's; with ``noise=1`` both models are the same random
    play; the options are checked."""
    path = _policy_file(tmp_path)
    plain = visits("guided:iterations=200")
    assert visits(f"guided:iterations=200:noise=1:opponents=policy:policy={path}") == visits(
        "guided:iterations=200:noise=1")
    modelled = visits(f"guided:iterations=200:opponents=policy:policy={path}")
    assert modelled != plain and sum(modelled.values()) == 200
    (tmp_path / "other").mkdir()
    other = _policy_file(tmp_path / "other", seed=9)
    assert visits(f"guided:iterations=200:opponents=policy:policy={other}") != modelled
    drawn = visits(f"guided:iterations=200:opponents=sample:policy={path}")
    assert drawn not in (modelled, plain) and sum(drawn.values()) == 200
    with pytest.raises(BotSpecError, match="add opponents=policy"):
        make_bot(f"guided:policy={path}", 1)
    with pytest.raises(BotSpecError, match="opponents"):
        make_bot("guided:opponents=everyone", 1)
    with pytest.raises(BotSpecError, match="policy"):
        make_bot(f"guided:opponents=policy:policy={tmp_path / 'missing.npz'}", 1)
    shipped = make_bot("guided:iterations=20:opponents=policy", 1)
    shipped.check_setup(GameConfig(players=3))  # type: ignore[attr-defined]
    assert visits("guided:iterations=200:opponents=policy") not in (plain, modelled)
    with pytest.raises(BotSpecError, match="no shipped policy network for 2p-base-two-families"):
        shipped.check_setup(GameConfig(players=2))  # type: ignore[attr-defined]
    four = tmp_path / "four.npz"
    _tiny(GameConfig(players=4)).save(four)
    bot = make_bot(f"guided:opponents=policy:policy={four}", 1)
    with pytest.raises(BotSpecError, match="4p-base"):
        bot.check_setup(GameConfig(players=3))  # type: ignore[attr-defined]
    auto = make_bot(f"guided:opponents=auto:policy={four}", 1)  # a file: strict, as policy
    with pytest.raises(BotSpecError, match="4p-base"):
        auto.check_setup(GameConfig(players=3))  # type: ignore[attr-defined]


def test_the_automatic_opponent_model_is_the_shipped_policy_where_one_ships() -> None:
    """``opponents=auto``: the shipped policy's search for 3 players (a policy ships), the
    heuristic's for 2 players (none does), where ``opponents=policy`` is refused."""
    assert visits("guided:iterations=200:opponents=auto") == visits(
        "guided:iterations=200:opponents=policy")
    assert visits("guided:iterations=200:opponents=auto") != visits("guided:iterations=200")
    config = GameConfig(players=2)
    make_bot("guided:opponents=auto", 1).check_setup(config)  # type: ignore[attr-defined]
    game = new_game(players=2, seed=12)
    player = game.current_player
    assert player is not None
    chosen = {}
    for spec in ("guided:iterations=150:opponents=auto", "guided:iterations=150"):
        bot = make_bot(spec, 7)
        bot.act(game.observe(player), game.legal_actions())
        chosen[spec] = dict(bot.last_search.visits)  # type: ignore[attr-defined]
    assert chosen["guided:iterations=150:opponents=auto"] == chosen["guided:iterations=150"]
