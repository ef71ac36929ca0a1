"""Training the learned network (issue #30): gradients, a tiny run that learns, checkpoints and
resuming, the command line, the chart."""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import json
import random
import struct
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from gradients import check_gradients
from oriflamme.api import GameConfig, new_game
from oriflamme.bots.learned import NetworkBot, Networks
from oriflamme.bots.network import Network
from oriflamme.cli.main import main
from oriflamme.training.chart import Series, png_bytes, strength_chart
from oriflamme.training.evaluation import play_evaluation, summary, wilson
from oriflamme.training.learner import Adam, Batch, train_epochs
from oriflamme.training.run import Settings, TrainingError, TrainingRun
from oriflamme.training.selfplay import SelfPlay, play_games
from oriflamme.training.workers import Workers


def _samples(games: int = 6, seed: int = 0):
    config = GameConfig(players=3)
    net = Network.initial(config, (16, 8), np.random.default_rng(seed))
    return net, play_games(net.to_bytes(), SelfPlay(config.to_dict()), list(range(games)))


def test_self_play_samples_carry_returns_and_shares() -> None:
    """Every sample's return is its player's share of victory, the first of its shares; the
    shares of a game sum to 1; value-only samples have no action."""
    _, samples = _samples()
    assert samples.games == 6 and len(samples) > samples.decisions > 6 * 20
    assert np.allclose(samples.shares.sum(axis=1), 1.0)
    assert np.array_equal(samples.returns, samples.shares[:, 0])
    assert (samples.actions == -1).any() and (samples.actions >= 0).sum() == samples.decisions
    again = play_games(_samples()[0].to_bytes(), SelfPlay(GameConfig(players=3).to_dict()),
                       list(range(6)))
    assert np.array_equal(again.inputs, samples.inputs)  # seeded


def test_self_play_after_plays_as_the_learned_bot() -> None:
    """With ``play="after"`` a network's seat chooses as the ``network`` bot does: the first
    decision of each game (a placement, whose outcome the bot's view shows whatever the
    hidden cards) is the bot's choice, and differs from the action values' in some game."""
    config = GameConfig(players=3)
    net = Network.initial(config, (16, 8), np.random.default_rng(3))
    seeds = list(range(8))
    after = play_games(net.to_bytes(), SelfPlay(config.to_dict(), epsilon=0.0, heuristic=0.0,
                                                observers=0.0, play="after"), seeds)
    greedy = play_games(net.to_bytes(), SelfPlay(config.to_dict(), epsilon=0.0, heuristic=0.0,
                                                 observers=0.0), seeds)
    bot = NetworkBot(Networks.of(net))
    firsts = []
    for seed in seeds:
        rng = random.Random(seed)
        game = new_game(players=3, first_player=rng.randrange(3), seed=rng.getrandbits(63),
                        log=False)
        player = game.current_player
        assert player is not None
        legal = game.legal_actions()
        choice = bot.act(game.observe(player), legal)
        _, slots = net.features.observation(game.observe(player))
        firsts.append(int(net.features.action_indices([choice], player, slots)[0]))
    assert after.decisions > 8 * 20 and (after.actions >= 0).all()
    # the samples of a game are in order: find each game's first sample by replaying counts
    offsets, at = [], 0
    for seed in seeds:
        offsets.append(at)
        at += play_games(net.to_bytes(), SelfPlay(config.to_dict(), epsilon=0.0, heuristic=0.0,
                                                  observers=0.0, play="after"), [seed]).decisions
    assert at == after.decisions
    assert [int(after.actions[i]) for i in offsets] == firsts
    shortest = min(len(after), len(greedy))
    assert not np.array_equal(after.actions[:shortest], greedy.actions[:shortest])


def test_gradients_match_finite_differences() -> None:
    net, samples = _samples(3)
    net = Network.initial(GameConfig(players=3), (7, 5), np.random.default_rng(4))
    batch = Batch(samples.inputs[:24].astype(np.float64), samples.actions[:24],
                  samples.returns[:24], samples.shares[:24])
    assert (batch.actions >= 0).any() and (batch.actions < 0).any()
    checked = check_gradients(net, batch)
    assert checked >= 20


def test_a_tiny_training_run_lowers_the_loss_and_beats_random() -> None:
    """A few seconds of training: the losses on the same samples fall, and the network then
    beats two random bots (seats rotated, fixed deals) far above the fair third."""
    config = GameConfig(players=3)
    net = Network.initial(config, (32,), np.random.default_rng(2))
    adam = Adam(net, 2e-3)
    settings = SelfPlay(config.to_dict(), epsilon=0.1, heuristic=0.5)
    rng = np.random.default_rng(0)
    samples = play_games(net.to_bytes(), settings, list(range(40)))
    first = train_epochs(net, adam, samples.inputs, samples.actions, samples.returns,
                         samples.shares, 1, 64, rng)
    for generation in range(1, 6):
        samples = play_games(net.to_bytes(), settings,
                             list(range(40 * generation, 40 * generation + 40)))
        train_epochs(net, adam, samples.inputs, samples.actions, samples.returns,
                     samples.shares, 2, 64, rng)
    last = train_epochs(net, adam, samples.inputs, samples.actions, samples.returns,
                        samples.shares, 1, 64, rng)
    assert last.q < first.q and last.v < first.v
    result = summary("random", play_evaluation(net.to_bytes(), config.to_dict(), "random", 7,
                                               [(i // 3, i % 3) for i in range(60)]))
    assert result.low > 1 / 3, result


# -- runs, checkpoints and resuming ---------------------------------------------------------
def _settings(**changes: object) -> Settings:
    base = dict(hidden=(16,), generation=8, epochs=1, batch=64, eval_every=2, eval_games=3,
                opponents=("random",), seed=5)
    base.update(changes)
    return Settings(**base)  # type: ignore[arg-type]


def test_a_resumed_run_ends_exactly_as_an_uninterrupted_one(tmp_path: Path) -> None:
    with Workers(1) as workers:
        whole = TrainingRun.start(tmp_path / "whole", _settings())
        whole.train(workers, games=32)
        part = TrainingRun.start(tmp_path / "part", _settings())
        part.train(workers, games=16)
        resumed = TrainingRun.resume(tmp_path / "part")
        assert resumed.progress.games == 16
        resumed.train(workers, games=32)
    a = Network.load(tmp_path / "whole" / "network.npz").arrays()
    b = Network.load(tmp_path / "part" / "network.npz").arrays()
    assert all(np.array_equal(a[k], b[k]) for k in a)
    rows = [(tmp_path / run / "training.csv").read_text().splitlines() for run in ("whole",
                                                                                  "part")]
    assert [r.split(",")[:4] for r in rows[0]] == [r.split(",")[:4] for r in rows[1]]
    evaluations = list(csv.DictReader((tmp_path / "part" / "evaluation.csv").open()))
    assert [int(r["generation"]) for r in evaluations] == [0, 2, 4]
    sidecar = json.loads((tmp_path / "part" / "network.json").read_text())
    assert sidecar["budget"]["games"] == 32 and sidecar["seed"] == 5


def test_the_workers_do_not_change_the_run(tmp_path: Path) -> None:
    """Two worker processes play the same games as one: the same network."""
    with Workers(1) as one:
        TrainingRun.start(tmp_path / "one", _settings(eval_games=0)).train(one, games=16)
    with Workers(2) as two:
        TrainingRun.start(tmp_path / "two", _settings(eval_games=0)).train(two, games=16)
    a = Network.load(tmp_path / "one" / "network.npz").arrays()
    b = Network.load(tmp_path / "two" / "network.npz").arrays()
    assert all(np.array_equal(a[k], b[k]) for k in a)


def test_bad_runs_are_refused(tmp_path: Path) -> None:
    with pytest.raises(TrainingError, match="holds no run"):
        TrainingRun.resume(tmp_path)
    TrainingRun.start(tmp_path / "run", _settings()).save()
    with pytest.raises(TrainingError, match="already holds a run"):
        TrainingRun.start(tmp_path / "run", _settings())
    with pytest.raises(TrainingError, match="probability"):
        TrainingRun.start(tmp_path / "other", _settings(epsilon=2.0))
    (tmp_path / "run" / "checkpoint.npz").write_text("broken")
    with pytest.raises(TrainingError, match="cannot resume"):
        TrainingRun.resume(tmp_path / "run")


def test_the_train_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    common = ["train", "--out", str(out), "--jobs", "1"]
    assert main([*common, "--games", "8", "--generation", "4", "--hidden", "8",
                 "--eval-every", "1", "--eval-games", "3", "--opponents", "random"]) == 0
    printed = capsys.readouterr()
    assert "trained 8 games in 2 generations" in printed.out
    assert "vs random: share of victory" in printed.out
    assert "train: generation 2, 8/8 games" in printed.err and "games/s" in printed.err
    assert "loss q" in printed.err
    for name in ("settings.json", "checkpoint.npz", "network.npz", "network.json",
                 "training.csv", "evaluation.csv", "strength.png"):
        assert (out / name).is_file(), name
    assert main([*common, "--resume", "--games", "12"]) == 0
    assert "trained 12 games in 3 generations" in capsys.readouterr().out
    assert main([*common, "--resume", "--games", "16", "--players", "4"]) == 2
    assert "--resume goes on with the run's own settings: drop --players" in (
        capsys.readouterr().err)
    assert main([*common, "--games", "8"]) == 2
    assert "already holds a run" in capsys.readouterr().err
    assert main(["train", "--out", str(tmp_path / "x")]) == 2
    assert "give a budget" in capsys.readouterr().err
    assert main(["train", "--out", str(tmp_path / "y"), "--games", "4",
                 "--opponents", "nobody"]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["train", "--out", str(tmp_path / "z"), "--games", "4",
                 "--epsilon", "3"]) == 2
    assert "probability" in capsys.readouterr().err
    assert main(["train", "--out", str(tmp_path / "w"), "--games", "4",
                 "--players", "2", "--cards", "nothing"]) == 2
    assert not (tmp_path / "w" / "checkpoint.npz").exists()


def test_a_run_can_start_from_weights(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """``--init`` starts from a weights file (its widths unless told), recorded in the
    settings and the command; a file of other widths or another set-up is refused."""
    start = Network.initial(GameConfig(players=3), (12,), np.random.default_rng(9))
    start.save(tmp_path / "start.npz")
    run = TrainingRun.start(tmp_path / "run", _settings(hidden=(12,),
                                                         init=str(tmp_path / "start.npz")))
    assert all(np.array_equal(a, b) for a, b in zip(run.network.arrays().values(),
                                                    start.arrays().values(), strict=True))
    assert "--init" in run.sidecar()["command"]
    assert run.sidecar()["init"] == {
        "path": str(tmp_path / "start.npz"),
        "sha256": hashlib.sha256((tmp_path / "start.npz").read_bytes()).hexdigest()}
    with pytest.raises(TrainingError, match="hidden layers 12, not the run's 16"):
        TrainingRun.start(tmp_path / "other", _settings(init=str(tmp_path / "start.npz")))
    with pytest.raises(TrainingError, match="play is one of"):
        TrainingRun.start(tmp_path / "other", _settings(play="search"))
    out = tmp_path / "cli"
    assert main(["train", "--out", str(out), "--jobs", "1", "--games", "4", "--generation",
                 "4", "--eval-games", "0", "--init", str(tmp_path / "start.npz"), "--play",
                 "after", "--heuristic", "0"]) == 0
    settings = json.loads((out / "settings.json").read_text())
    assert settings["hidden"] == [12] and settings["play"] == "after"
    assert "trained 4 games" in capsys.readouterr().out
    Network.initial(GameConfig(players=4), (12,), np.random.default_rng(9)).save(
        tmp_path / "four.npz")
    assert main(["train", "--out", str(tmp_path / "x"), "--games", "4", "--init",
                 str(tmp_path / "four.npz")]) == 2
    assert "--init" in capsys.readouterr().err
    assert not (tmp_path / "x" / "checkpoint.npz").exists()


# -- the chart ------------------------------------------------------------------------------
def _read_png(data: bytes) -> tuple[int, int, np.ndarray]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    at, chunks = 8, {}
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        tag, body = data[at + 4:at + 8], data[at + 8:at + 8 + length]
        (crc,) = struct.unpack(">I", data[at + 8 + length:at + 12 + length])
        assert crc == zlib.crc32(tag + body) & 0xFFFFFFFF
        chunks[tag] = chunks.get(tag, b"") + body
        at += 12 + length
    width, height = struct.unpack(">II", chunks[b"IHDR"][:8])
    raw = zlib.decompress(chunks[b"IDAT"])
    rows = np.frombuffer(raw, dtype=np.uint8).reshape(height, 1 + 3 * width)
    assert (rows[:, 0] == 0).all()
    return width, height, rows[:, 1:].reshape(height, width, 3)


def test_the_chart_is_a_valid_png_with_the_lines_drawn() -> None:
    blue = (31, 119, 180)
    data = strength_chart([Series("random", [(0, 0.3, 0.2, 0.4), (1.5, 0.7, 0.6, 0.8)]),
                           Series("medium", [(0, 0.1, 0.0, 0.2), (1.5, 0.2, 0.1, 0.3)])],
                          1 / 3, "test")
    width, height, pixels = _read_png(data)
    assert (width, height) == (760, 440)
    assert (pixels == blue).all(axis=2).sum() > 200
    assert (pixels == (214, 39, 40)).all(axis=2).sum() > 200
    tiny = np.zeros((2, 3, 3), dtype=np.uint8)
    tiny[1, 2] = (1, 2, 3)
    assert np.array_equal(_read_png(png_bytes(tiny))[2], tiny)


def test_the_chart_s_title_draws_an_apostrophe_not_a_box() -> None:
    """The titles say "the network's share": the apostrophe has a glyph of its own."""
    from oriflamme.training import chart

    assert chart._GLYPHS["'"] != chart._UNKNOWN
    assert set("3P-BASE: THE NETWORK'S SHARE OF VICTORY") <= set(chart._GLYPHS)


def test_wilson_interval() -> None:
    low, high = wilson(45, 100)
    assert low < 0.45 < high and low > 0.35 and high < 0.55
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.skipif(
    importlib.util.find_spec("ray") is None,
    reason="Ray is not installed (pip install 'oriflamme[ray]' to test the ray backend)",
)
def test_the_ray_backend_trains_the_same_network(tmp_path: Path) -> None:
    """Self-play and evaluation games as Ray tasks (a local Ray started by the run): the same
    network as in this process."""
    with Workers(1) as local:
        TrainingRun.start(tmp_path / "local", _settings()).train(local, games=8)
    with Workers(1, backend="ray") as ray_workers:
        TrainingRun.start(tmp_path / "ray", _settings()).train(ray_workers, games=8)
    a = Network.load(tmp_path / "local" / "network.npz").arrays()
    b = Network.load(tmp_path / "ray" / "network.npz").arrays()
    assert all(np.array_equal(a[k], b[k]) for k in a)
    rows = [[(r["generation"], r["opponent"], r["share"]) for r in csv.DictReader(
        (tmp_path / run / "evaluation.csv").open())] for run in ("local", "ray")]
    assert rows[0] == rows[1] and len(rows[0]) == 2


def test_a_missing_ray_is_one_clear_error(monkeypatch: pytest.MonkeyPatch,
                                          tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # importing ray now raises ImportError
    assert main(["train", "--out", str(tmp_path / "r"), "--games", "4", "--backend",
                 "ray"]) == 2
    assert "the ray backend needs Ray: pip install 'oriflamme[ray]'" in capsys.readouterr().err


def test_docstring_examples() -> None:
    from doctests import run_doctests
    from oriflamme.training import evaluation, workers

    for module in (evaluation, workers):
        failed, attempted = run_doctests(module)
        assert attempted > 0 and failed == 0, module.__name__
