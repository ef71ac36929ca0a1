"""Imitation: a network trained to play as a searching teacher does, from its saved games.

The teacher's games (:mod:`.teacher`) give, at each decision, the deciding player's canonical
vector, the teacher's *visit shares* over the legal actions (how often its search tried each)
and the game's outcome. The network's ``q`` head is trained as a **policy**: the softmax of
its outputs over the legal actions, by cross-entropy against the visit shares (AlphaZero's
policy target, here from a search that is already good rather than from the network's own);
its win-share head on the outcomes, as in self-play. The weights file then says
``"actions": "policy"`` in its description, and the ``network`` bot plays its most likely
action (``choose=action``: one forward pass per decision).

Unlike self-play, the data is fixed, so the run is epochs (passes) over it: a tenth of the
files (every tenth, by name) is held out, and after every epoch the run reports the
cross-entropy on both parts and the *agreement*: how often the network's most likely action
is the one the teacher played, on the held-out decisions. The held-out loss is what tells
overfitting; the weights of the epoch with the lowest held-out loss are the ones kept.
"""

from __future__ import annotations

import dataclasses
import json
import platform
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from oriflamme import __version__
from oriflamme.api import GameConfig
from oriflamme.bots.network import ACTIONS_KEY, POLICY, Network
from oriflamme.bots.shipped import setup_key
from oriflamme.build import build_name

from .evaluation import Evaluation, evaluation_games, play_evaluation, summary
from .files import append_csv, sha256, source_commit, start_file, write_whole
from .learner import Adam, Average, Batch, losses_and_gradients, train_pass
from .run import NETWORK, SIDECAR
from .teacher import TeacherDataError, TeacherSamples, load
from .workers import Workers, split


def load_folder(folder: str | Path) -> tuple[TeacherSamples, TeacherSamples, int]:
    """The samples of every ``*.npz`` file of ``folder``: (training part, held-out part, number
    of files). Every tenth file by name is held out (at least one when there are two or more)."""
    paths = sorted(Path(folder).glob("*.npz"))
    if not paths:
        raise TeacherDataError(f"{folder} holds no teacher samples (*.npz files)")
    parts = [load(path) for path in paths]
    held = [p for i, p in enumerate(parts) if len(parts) > 1 and i % 10 == 9]
    if len(parts) > 1 and not held:
        held = [parts[-1]]
    kept = [p for p in parts if not any(p is h for h in held)]
    train = TeacherSamples.join(kept)
    check = TeacherSamples.join(held) if held else train
    return train, check, len(paths)


@dataclass(frozen=True, slots=True)
class EpochReport:
    """One epoch's figures."""

    epoch: int
    seconds: float
    train_policy: float  # mean cross-entropy of the policy on the training part
    train_value: float
    held_policy: float  # the same on the held-out part
    held_value: float
    agreement: float  # held-out decisions where the network's best is the teacher's move


def _batch(samples: TeacherSamples, rows: npt.NDArray[np.intp], width: int) -> Batch:
    return Batch(samples.inputs[rows].astype(np.float32),
                 np.full(len(rows), -1, dtype=np.int32), samples.returns[rows],
                 samples.shares[rows], samples.policy(rows, width), samples.legal(rows, width))


def measure(net: Network, samples: TeacherSamples, batch: int = 1024
            ) -> tuple[float, float, float]:
    """The policy's cross-entropy, the win shares' cross-entropy and the agreement of ``net``
    on ``samples``."""
    width = net.features.actions
    policy = value = agree = 0.0
    for start in range(0, len(samples), batch):
        rows = np.arange(start, min(start + batch, len(samples)))
        b = _batch(samples, rows, width)
        losses, _ = losses_and_gradients(net, b)
        policy += losses.q * len(rows)
        value += losses.v * len(rows)
        assert b.legal is not None
        logits = np.where(b.legal, net.q_values(b.inputs), -np.inf)
        agree += float((logits.argmax(axis=1) == samples.actions[rows]).sum())
    n = max(len(samples), 1)
    return policy / n, value / n, agree / n


def imitate(net: Network, train: TeacherSamples, held: TeacherSamples, epochs: int,
            batch: int, rate: float, seed: int, value_weight: float = 1.0,
            average: float = 0.0, report: Callable[[EpochReport], None] | None = None
            ) -> tuple[Network, list[EpochReport]]:
    """Train ``net`` (in place) for ``epochs`` passes over ``train``; return the network of the
    epoch with the lowest held-out policy loss (a copy) and every epoch's report."""
    rng = np.random.default_rng(seed)
    adam = Adam(net, rate)
    averaged = Average(net, average) if average else None
    width = net.features.actions
    best: tuple[float, Network] | None = None
    reports: list[EpochReport] = []
    for epoch in range(1, epochs + 1):
        started = time.monotonic()
        losses = train_pass(net, adam, len(train), lambda rows: _batch(train, rows, width),
                            batch, rng, value_weight, averaged)
        played = net if averaged is None else averaged.network(net)
        held_q, held_v, agreement = measure(played, held)
        line = EpochReport(epoch, time.monotonic() - started, losses.q, losses.v, held_q,
                           held_v, agreement)
        reports.append(line)
        if best is None or held_q < best[0]:
            best = (held_q, played.copy())
        if report is not None:
            report(line)
    assert best is not None
    kept = best[1]
    kept.info[ACTIONS_KEY] = POLICY
    return kept, reports


def agreement_rows(reports: Sequence[EpochReport]) -> list[dict[str, float]]:
    """The reports as CSV rows."""
    return [{"epoch": r.epoch, "seconds": round(r.seconds, 2),
             "train_policy": round(r.train_policy, 5), "train_value": round(r.train_value, 5),
             "held_policy": round(r.held_policy, 5), "held_value": round(r.held_value, 5),
             "agreement": round(r.agreement, 4)} for r in reports]


@dataclass(frozen=True)
class ImitationSettings:
    """What an imitation run is (``oriflamme train --imitate DATA``)."""

    data: str
    seed: int = 1
    hidden: tuple[int, ...] = (256, 128)
    epochs: int = 20
    batch: int = 256
    rate: float = 1e-3
    value_weight: float = 0.2
    average: float = 0.0
    init: str | None = None
    eval_games: int = 60
    opponents: tuple[str, ...] = ("medium",)

    def command_line(self, out: str = "RUN", jobs: int = 1, data: str = "DATA") -> str:
        """The command of this run, with ``data`` for the data's folder (a path of this
        machine, which a sidecar does not record)."""
        parts = ["oriflamme", "train", "--imitate", data, "--seed", str(self.seed),
                 "--hidden", ",".join(map(str, self.hidden)), "--epochs", str(self.epochs),
                 "--batch", str(self.batch), "--rate", f"{self.rate:g}",
                 "--value-weight", f"{self.value_weight:g}", "--average", f"{self.average:g}",
                 "--eval-games", str(self.eval_games), "--opponents", ",".join(self.opponents)]
        if self.init is not None:
            parts += ["--init", self.init]
        return shlex.join([*parts, "--jobs", str(jobs), "--out", out])


def run_imitation(folder: Path, settings: ImitationSettings, workers: Workers,
                  report: Callable[[EpochReport], None] | None = None
                  ) -> tuple[Network, list[EpochReport], list[Evaluation]]:
    """Train a network on the teacher samples of ``settings.data`` and write the run's files
    in ``folder``: ``network.npz`` (the epoch with the lowest held-out loss) and its sidecar
    ``network.json``, ``imitation.csv`` (one row per epoch) and ``evaluation.csv`` (the kept
    network against each opponent, seats rotated)."""
    train, held, files = load_folder(settings.data)
    config = GameConfig.from_dict(train.config)
    if settings.init is not None:
        start = Network.load(settings.init)
        start.check_setup(config)
        net = Network(config, start.copy().arrays())  # the run's set-up, no description
    else:
        net = Network.initial(config, settings.hidden, np.random.default_rng(settings.seed))
    folder.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    kept, reports = imitate(net, train, held, settings.epochs, settings.batch, settings.rate,
                            settings.seed, settings.value_weight, settings.average, report)
    hours = (time.monotonic() - started) / 3600
    append_csv(folder / "imitation.csv", IMITATION_COLUMNS, agreement_rows(reports))
    evaluations: list[Evaluation] = []
    weights = kept.to_bytes()
    plan = evaluation_games(settings.eval_games, config.players)
    for opponent in settings.opponents if settings.eval_games else ():
        parts = workers.map(play_evaluation, [(weights, config.to_dict(), opponent,
                                               settings.seed, chunk)
                                              for chunk in split(plan, workers.jobs)])
        evaluations.append(summary(opponent, [s for part in parts for s in part]))
    append_csv(folder / "evaluation.csv", ("opponent", "games", "share", "low", "high"),
                [{"opponent": e.opponent, "games": e.games, "share": round(e.share, 4),
                  "low": round(e.low, 4), "high": round(e.high, 4)} for e in evaluations])
    best = min(reports, key=lambda r: r.held_policy)
    kept.info["trained"] = {"teacher": train.teacher, "games": train.games + held.games,
                            "epochs": best.epoch}
    data = kept.to_bytes(half=True)
    write_whole(folder / NETWORK, data)
    sidecar = {
        "setup": setup_key(config),
        "command": settings.command_line(),
        "seed": settings.seed,
        "settings": {**dataclasses.asdict(settings), "hidden": list(kept.hidden),
                     "data": "DATA"},
        "teacher": train.teacher,
        "data": {"files": files, "games": train.games + held.games,
                 "samples": len(train) + len(held), "held_out_samples": len(held)},
        "budget": {"epochs": settings.epochs, "kept_epoch": best.epoch,
                   "hours": round(hours, 3)},
        "held_out": {"policy": round(best.held_policy, 5), "value": round(best.held_value, 5),
                     "agreement": round(best.agreement, 4)},
        "commit": source_commit(), "oriflamme": __version__, "build": build_name(),
        "python": platform.python_version(), "numpy": np.__version__,
        "sha256": sha256(data),
        "evaluations": [dataclasses.asdict(e) for e in evaluations],
        **({} if settings.init is None else {"init": start_file(settings.init)}),
    }
    write_whole(folder / SIDECAR, json.dumps(sidecar, indent=2).encode())
    return kept, reports, evaluations


IMITATION_COLUMNS = ("epoch", "seconds", "train_policy", "train_value", "held_policy",
                     "held_value", "agreement")
