"""Imitation of a searching teacher (issue #30): the teacher's samples, their files, the
policy loss's gradients, a tiny run that learns the teacher's choices, and the command line."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from gradients import check_gradients
from oriflamme.api import GameConfig, new_game
from oriflamme.bots import make_bot
from oriflamme.bots.learned import NetworkBot, Networks
from oriflamme.bots.network import Network
from oriflamme.cli.main import main
from oriflamme.training.evaluation import play_evaluation, summary
from oriflamme.training.imitation import imitate, load_folder, measure
from oriflamme.training.learner import Batch, losses_and_gradients
from oriflamme.training.teacher import (
    TeacherDataError,
    TeacherSamples,
    load,
    save,
    teacher_games,
)

#: A search teacher (soft targets: the visit shares), and a fast one whose choices are
#: deterministic (``greedy``, the heuristics with a look-ahead: one-hot targets), on which a
#: tiny network can show in seconds that it learns.
TEACHER = "ismcts:iterations=40:opponents=greedy"
FAST_TEACHER = "greedy"
CONFIG = GameConfig(players=3).to_dict()


@lru_cache(maxsize=8)
def _games(first: int, count: int, teacher: str = TEACHER) -> TeacherSamples:
    return teacher_games(teacher, CONFIG, list(range(first, first + count)))


def _folder(tmp_path: Path, files: int = 4, games: int = 3, teacher: str = TEACHER) -> Path:
    folder = tmp_path / "data"
    folder.mkdir()
    for i in range(files):
        save(_games(100 + i * games, games, teacher), folder / f"chunk-{i:02d}.npz")
    return folder


def test_the_teacher_s_samples_hold_its_visit_shares_and_its_move() -> None:
    """Each sample's targets are its legal actions, their shares sum to 1, the move played is
    the one the search tried most, and the shares of a game sum to 1 across players."""
    samples = _games(1, 2)
    assert samples.games == 2 and len(samples) > 40
    assert samples.inputs.shape == (len(samples), Network.initial(
        GameConfig(players=3), (4,), np.random.default_rng(0)).features.size)
    spread = 0
    for i in range(len(samples)):
        lo, hi = samples.starts[i], samples.starts[i + 1]
        targets, weights = samples.targets[lo:hi], samples.weights[lo:hi]
        assert hi - lo >= 2 and len(set(targets.tolist())) == hi - lo
        assert weights.sum() == pytest.approx(1.0, abs=1e-5)
        played = int(samples.actions[i])
        assert played in targets.tolist()
        assert weights[targets.tolist().index(played)] == weights.max()
        spread += int((weights > 0).sum() > 1)
    assert spread > len(samples) // 2  # the search tried several moves: soft targets
    assert np.allclose(samples.shares.sum(axis=1), 1.0)
    assert np.array_equal(samples.returns, samples.shares[:, 0])
    again = teacher_games(TEACHER, CONFIG, [1, 2])
    assert np.array_equal(again.inputs, samples.inputs)  # seeded: the same games
    assert np.array_equal(again.weights, samples.weights)


def test_the_teacher_reads_only_the_decider_s_observation() -> None:
    """The teacher's first choice of a game is what the same bot chooses from the decider's
    observation alone (R-INFO-1): the samples come from play, not from the full state."""
    samples = _games(1, 2)
    game = new_game(players=3, seed=0)
    import random

    rng = random.Random(1)
    game = new_game(players=3, first_player=rng.randrange(3), seed=rng.getrandbits(63),
                    log=False)
    seats = [make_bot(TEACHER, seed=rng.getrandbits(32)) for _ in range(3)]
    player = game.current_player
    assert player is not None
    legal = game.legal_actions()
    choice = seats[player].act(game.observe(player), legal)
    net = Network.initial(GameConfig(players=3), (4,), np.random.default_rng(0))
    _, slots = net.features.observation(game.observe(player))
    assert int(samples.actions[0]) == int(net.features.action_indices([choice], player,
                                                                      slots)[0])


def test_teacher_files_round_trip_and_bad_files_are_refused(tmp_path: Path) -> None:
    samples = _games(1, 2)
    save(samples, tmp_path / "a.npz")
    back = load(tmp_path / "a.npz")
    assert back.teacher == TEACHER and back.games == 2
    for name in ("inputs", "actions", "starts", "targets", "weights", "returns", "shares"):
        assert np.array_equal(getattr(back, name), getattr(samples, name)), name
    (tmp_path / "b.npz").write_bytes(b"not an archive")
    with pytest.raises(TeacherDataError, match="not a file of teacher samples"):
        load(tmp_path / "b.npz")
    bad = TeacherSamples(samples.config, TEACHER, samples.inputs, samples.actions,
                         samples.starts, samples.targets + 10_000, samples.weights,
                         samples.returns, samples.shares, 2)
    save(bad, tmp_path / "c.npz")
    with pytest.raises(TeacherDataError, match="out of range"):
        load(tmp_path / "c.npz")
    cut = TeacherSamples(samples.config, TEACHER, samples.inputs[:-1], samples.actions,
                         samples.starts, samples.targets, samples.weights, samples.returns,
                         samples.shares, 2)
    save(cut, tmp_path / "d.npz")
    with pytest.raises(TeacherDataError, match="do not fit"):
        load(tmp_path / "d.npz")
    np.savez(tmp_path / "e.npz", weights=np.zeros(3))
    with pytest.raises(TeacherDataError, match="no meta"):
        load(tmp_path / "e.npz")
    joined = TeacherSamples.join([samples, back])
    assert len(joined) == 2 * len(samples) and joined.games == 4
    assert joined.starts[-1] == len(joined.targets) == 2 * len(samples.targets)
    assert np.array_equal(joined.policy(np.array([len(samples)]), 420),
                          samples.policy(np.array([0]), 420))
    four = teacher_games("random", GameConfig(players=4).to_dict(), [1])
    with pytest.raises(TeacherDataError, match="different set-ups"):
        TeacherSamples.join([samples, four])


def test_the_policy_gradients_match_finite_differences() -> None:
    samples = _games(1, 2)
    net = Network.initial(GameConfig(players=3), (7, 5), np.random.default_rng(4))
    rows = np.arange(20)
    batch = Batch(samples.inputs[rows].astype(np.float64), np.full(20, -1, np.int32),
                  samples.returns[rows], samples.shares[rows], samples.policy(rows, 420),
                  samples.legal(rows, 420))
    checked = check_gradients(net, batch)
    assert checked >= 20
    _, grads = losses_and_gradients(net, batch, 0.7)
    assert not grads["q_w"][~samples.legal(rows, 420).any(axis=0)].any()  # illegal: no push


def test_a_tiny_imitation_learns_the_teacher_s_choices_and_beats_random(
        tmp_path: Path) -> None:
    """A few seconds of imitation: the held-out loss falls, the network agrees with the
    teacher on held-out decisions far more often than a uniform guess would, and it then beats
    two random bots (seats rotated, fixed deals) above the fair third."""
    train, held, files = load_folder(_folder(tmp_path, files=10, games=2,
                                             teacher=FAST_TEACHER))
    assert files == 10 and len(held) < len(train) // 5
    net = Network.initial(GameConfig(players=3), (64,), np.random.default_rng(2))
    before = measure(net, held)
    kept, reports = imitate(net, train, held, 12, 64, 3e-3, 1)
    assert kept.is_policy and not net.is_policy
    best = min(reports, key=lambda r: r.held_policy)
    assert best.held_policy < before[0] - 0.2
    assert reports[-1].train_policy < reports[0].train_policy - 0.3
    assert measure(kept, held)[2] == pytest.approx(best.agreement)
    chance = float(np.mean([1 / (held.starts[i + 1] - held.starts[i])
                            for i in range(len(held))]))
    assert best.agreement > chance + 0.15, (best.agreement, chance)
    result = summary("random", play_evaluation(kept.to_bytes(), CONFIG, "random", 7,
                                               [(i // 3, i % 3) for i in range(45)]))
    assert result.share > 0.5, result


def test_a_policy_network_plays_its_most_likely_action() -> None:
    """The ``network`` bot plays a policy network by its logits (``choose=auto``), as
    ``choose=action`` does, and a value network by the win shares after each action."""
    net = Network.initial(GameConfig(players=3), (16,), np.random.default_rng(5))
    policy = Network(net.config, net.arrays(), {"actions": "policy"})
    assert policy.is_policy
    game = new_game(players=3, seed=8)
    differ = 0
    for _ in range(30):
        player = game.current_player
        if player is None:
            break
        legal = game.legal_actions()
        obs = game.observe(player)
        by_logits = NetworkBot(Networks.of(policy), 1).act(obs, legal)
        assert by_logits == NetworkBot(Networks.of(net), 1, choose="action").act(obs, legal)
        differ += by_logits != NetworkBot(Networks.of(net), 1).act(obs, legal)
        game.apply(by_logits)
    assert differ  # the value network's default reads the win shares instead
    back = Network.from_bytes(policy.to_bytes())
    assert back.is_policy


def test_the_imitate_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _folder(tmp_path, files=3, games=2)
    out = tmp_path / "run"
    assert main(["train", "--imitate", str(data), "--out", str(out), "--jobs", "1",
                 "--hidden", "16", "--epochs", "3", "--eval-games", "3",
                 "--opponents", "random"]) == 0
    printed = capsys.readouterr()
    assert "imitate: epoch 3/3" in printed.err and "agreement with the teacher" in printed.err
    assert "imitated for 3 epochs; kept epoch" in printed.out
    assert "vs random: share of victory" in printed.out
    for name in ("network.npz", "network.json", "imitation.csv", "evaluation.csv"):
        assert (out / name).is_file(), name
    sidecar = json.loads((out / "network.json").read_text())
    assert sidecar["teacher"] == TEACHER and sidecar["data"]["files"] == 3
    assert "--imitate DATA" in sidecar["command"] and sidecar["held_out"]["agreement"] >= 0
    assert str(tmp_path) not in (out / "network.json").read_text()  # no path of this machine
    assert Network.load(out / "network.npz").is_policy
    assert make_bot(f"network:weights={out / 'network.npz'}", 1) is not None
    assert main(["train", "--imitate", str(data), "--out", str(tmp_path / "x"),
                 "--games", "5"]) == 2
    assert "--games belong to self-play" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["train", "--imitate", str(empty), "--out", str(tmp_path / "y")]) == 2
    assert "holds no teacher samples" in capsys.readouterr().err
    (data / "chunk-99.npz").write_bytes(b"\x00broken")
    assert main(["train", "--imitate", str(data), "--out", str(tmp_path / "z")]) == 2
    assert "chunk-99.npz: not a file of teacher samples" in capsys.readouterr().err
    assert not (tmp_path / "z" / "network.npz").exists()


def test_docstring_examples() -> None:
    from doctests import run_doctests
    from oriflamme.training import teacher

    failed, attempted = run_doctests(teacher)
    assert attempted > 0 and failed == 0


def test_the_teacher_command_plays_and_saves_the_games(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``oriflamme train --teacher SPEC --games K --out DATA``: K games in files of 5, whose
    samples are the teacher's; a second call with more games plays only the seeds no file
    holds; wrong options are refused before any game."""
    data = tmp_path / "data"
    assert main(["train", "--teacher", FAST_TEACHER, "--games", "7", "--seed", "100",
                 "--jobs", "2", "--out", str(data)]) == 0
    printed = capsys.readouterr()
    assert "played 7 games of greedy" in printed.out and "teacher: 7/7 games" in printed.err
    assert sorted(p.name for p in data.iterdir()) == ["chunk-100-104.npz", "chunk-105-106.npz"]
    first = load(data / "chunk-100-104.npz")
    assert first.games == 5 and first.teacher == FAST_TEACHER
    assert np.array_equal(first.inputs, _games(100, 5, FAST_TEACHER).inputs)
    stamp = (data / "chunk-100-104.npz").stat().st_mtime_ns
    assert main(["train", "--teacher", FAST_TEACHER, "--games", "13", "--seed", "100",
                 "--jobs", "1", "--out", str(data)]) == 0
    assert "played 6 games" in capsys.readouterr().out  # only the seeds 107 to 112
    assert (data / "chunk-100-104.npz").stat().st_mtime_ns == stamp
    assert sorted(p.name for p in data.iterdir())[2:] == ["chunk-107-111.npz",
                                                          "chunk-112-112.npz"]
    train, held, files = load_folder(data)
    assert files == 4 and train.games + held.games == 13
    assert main(["train", "--teacher", FAST_TEACHER, "--out", str(tmp_path / "x")]) == 2
    assert "--teacher needs --games" in capsys.readouterr().err
    assert main(["train", "--teacher", "nobody", "--games", "2",
                 "--out", str(tmp_path / "x")]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert main(["train", "--teacher", FAST_TEACHER, "--games", "2", "--epochs", "3",
                 "--out", str(tmp_path / "x")]) == 2
    assert "--epochs belong to training" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def test_a_student_plays_and_the_teacher_labels_its_positions(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """DAgger (``--student SPEC``): the game follows the student's moves, every sample is a
    position the student reached, labelled by the teacher's search (its visit shares, its
    choice); the files say who played; ``--student`` without ``--teacher`` is refused."""
    import random

    from oriflamme.training.selfplay import dealt_game

    samples = teacher_games(TEACHER, CONFIG, [7], student="random")
    assert samples.student == "random" and samples.games == 1
    # The same game again, the students alone (their seeds drawn after the teacher's).
    rng = random.Random(7)
    game = dealt_game(GameConfig.from_dict(CONFIG), rng)
    for _ in range(3):
        rng.getrandbits(32)
    students = [make_bot("random", seed=rng.getrandbits(32)) for _ in range(3)]
    net = Network.initial(GameConfig(players=3), (4,), np.random.default_rng(0))
    inputs, played = [], []
    while not game.is_over:
        player = game.current_player
        assert player is not None
        legal = game.legal_actions()
        if len(legal) > 1:
            x, slots = net.features.observation(game.observe(player))
            inputs.append(x)
            action = students[player].act(game.observe(player), legal)
            played.append(int(net.features.action_indices([action], player, slots)[0]))
        else:
            action = legal[0]
        game.apply(action)
    assert np.array_equal(samples.inputs, np.array(inputs, dtype=np.float16))
    differs = 0
    for i in range(len(samples)):
        lo, hi = samples.starts[i], samples.starts[i + 1]
        targets, weights = samples.targets[lo:hi].tolist(), samples.weights[lo:hi]
        assert weights[targets.index(int(samples.actions[i]))] == weights.max()  # its choice
        differs += int(samples.actions[i]) != played[i]
    assert differs > len(samples) // 3  # random moves are mostly not the teacher's
    teacher_only = teacher_games(TEACHER, CONFIG, [7])
    assert np.array_equal(teacher_only.inputs[0], samples.inputs[0])  # the same deal
    assert teacher_only.student is None and load_round_trip(tmp_path, samples).student == "random"

    data = tmp_path / "data"
    assert main(["train", "--teacher", FAST_TEACHER, "--student", "random", "--games", "2",
                 "--seed", "300", "--jobs", "1", "--out", str(data)]) == 0
    assert "played 2 games of random (labelled by greedy)" in capsys.readouterr().out
    written = load(data / "chunk-300-301.npz")
    assert written.student == "random" and written.teacher == FAST_TEACHER
    assert np.array_equal(written.inputs,
                          teacher_games(FAST_TEACHER, CONFIG, [300, 301], "random").inputs)
    assert main(["train", "--student", "random", "--games", "2", "--out",
                 str(tmp_path / "x")]) == 2
    assert "it goes with --teacher" in capsys.readouterr().err
    assert main(["train", "--teacher", FAST_TEACHER, "--student", "nobody", "--games", "2",
                 "--out", str(tmp_path / "x")]) == 2
    assert "unknown bot 'nobody'" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()


def load_round_trip(tmp_path: Path, samples: TeacherSamples) -> TeacherSamples:
    save(samples, tmp_path / "round-trip.npz")
    return load(tmp_path / "round-trip.npz")
