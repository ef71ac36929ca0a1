"""A training run: generations of self-play and learning, checkpoints, evaluations, files.

Each *generation* plays ``generation`` self-play games with the current network
(:mod:`.selfplay`, shared among the workers), then trains the network on exactly those games'
samples for ``epochs`` passes (:mod:`.learner`), and the samples are dropped: the data is
always the current network's (on-policy deep Monte-Carlo, as DouZero). Game ``i`` of
generation ``g`` is dealt from a seed derived from the run's seed, ``g`` and ``i``, and the
minibatches are shuffled by a generator whose state is saved: a run is reproducible from its
seed and settings, whatever the number of workers, and a run resumed from its checkpoint goes on
exactly as if it had not stopped.

Files in the run's folder:

==================  =====================================================================
``settings.json``   the settings (a resumed run reads them from here)
``checkpoint.npz``  the network, Adam's moments and the run's counters (after every generation)
``network.npz``     the current network, ready to play (``network:weights=...``), float16
``network.json``    its sidecar: command, seed, budget, commit, SHA-256
``training.csv``    one row per generation: games, samples, time, throughput, losses
``evaluation.csv``  one row per evaluation and opponent: share of victory, 95% interval
``strength.png``    the evaluation as a chart over the hours of training
==================  =====================================================================
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import platform
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from hashlib import blake2b
from pathlib import Path
from typing import Any

import numpy as np

from oriflamme import __version__
from oriflamme.api import GameConfig
from oriflamme.bots.network import Network, WeightsError
from oriflamme.bots.shipped import setup_key
from oriflamme.build import build_name

from .chart import Series, strength_chart
from .evaluation import Evaluation, evaluation_games, play_evaluation, summary
from .files import append_csv, sha256, source_commit, start_file, write_whole
from .learner import Adam, Average, Losses, train_epochs
from .selfplay import Samples, SelfPlay, play_games
from .workers import Workers, split

CHECKPOINT = "checkpoint.npz"
SETTINGS = "settings.json"
NETWORK = "network.npz"
SIDECAR = "network.json"
TRAINING_CSV = "training.csv"
EVALUATION_CSV = "evaluation.csv"
CHART = "strength.png"
TRAINING_COLUMNS = ("generation", "games", "samples", "decisions", "hours", "games_per_s",
                    "decisions_per_s", "loss_q", "loss_v")
EVALUATION_COLUMNS = ("generation", "games_trained", "hours", "opponent", "games", "share",
                      "low", "high")


#: How the network's seats may play in self-play (the first is the default).
PLAYS = ("action", "after")


class TrainingError(ValueError):
    """Settings that cannot train, or a folder that cannot be resumed."""


@dataclass(frozen=True)
class Settings:
    """What a run is (its budget aside); see ``docs/bots.md`` for the choices."""

    players: int = 3
    cards: str = "base"
    variant: str | None = None
    seed: int = 1
    hidden: tuple[int, ...] = (256, 128)
    generation: int = 200
    epochs: int = 1
    batch: int = 256
    rate: float = 5e-4
    epsilon: float = 0.1
    heuristic: float = 0.25
    observers: float = 0.5
    value_weight: float = 1.0
    average: float = 0.999
    eval_every: int = 10
    eval_games: int = 60
    opponents: tuple[str, ...] = ("random", "medium")
    #: How the network's seats play in self-play (:class:`~.selfplay.SelfPlay`'s ``play``).
    play: str = "action"
    #: A weights file to start from instead of random weights (its set-up and widths).
    init: str | None = None

    def config(self) -> GameConfig:
        return GameConfig(players=self.players, cards=self.cards, variant=self.variant)

    def check(self) -> None:
        self.config()  # a ConfigError for an impossible set-up
        positive = {"generation": self.generation, "epochs": self.epochs, "batch": self.batch,
                    "eval-every": self.eval_every}
        for name, value in positive.items():
            if value < 1:
                raise TrainingError(f"--{name} must be at least 1, not {value}")
        if not self.hidden or any(h < 1 for h in self.hidden):
            raise TrainingError(f"--hidden needs layer widths of at least 1, not {self.hidden}")
        for name, p in (("epsilon", self.epsilon), ("heuristic", self.heuristic),
                        ("observers", self.observers)):
            if not 0 <= p <= 1:
                raise TrainingError(f"--{name} is a probability from 0 to 1, not {p}")
        if not self.rate > 0 or not self.value_weight >= 0:
            raise TrainingError("--rate must be positive and --value-weight not negative")
        if not 0 <= self.average < 1:
            raise TrainingError(f"--average is a decay from 0 (none) to below 1, not"
                                f" {self.average}")
        if self.eval_games < 0:
            raise TrainingError(f"--eval-games must be at least 0, not {self.eval_games}")
        if self.play not in PLAYS:
            raise TrainingError(f"--play is one of {', '.join(PLAYS)}, not {self.play!r}")

    def command_line(self, games: int, out: str = "RUN", jobs: int = 1) -> str:
        """The command that trains this run from scratch to ``games`` games (the same network
        for any ``jobs``)."""
        parts = ["oriflamme", "train", "--players", str(self.players), "--cards", self.cards]
        if self.variant:
            parts += ["--variant", self.variant]
        parts += ["--seed", str(self.seed), "--hidden", ",".join(map(str, self.hidden)),
                  "--generation", str(self.generation), "--epochs", str(self.epochs),
                  "--batch", str(self.batch), "--rate", f"{self.rate:g}",
                  "--epsilon", f"{self.epsilon:g}", "--heuristic", f"{self.heuristic:g}",
                  "--observers", f"{self.observers:g}",
                  "--value-weight", f"{self.value_weight:g}", "--average", f"{self.average:g}",
                  "--eval-every", str(self.eval_every), "--eval-games", str(self.eval_games),
                  "--opponents", ",".join(self.opponents)]
        if self.play != PLAYS[0]:
            parts += ["--play", self.play]
        if self.init is not None:
            parts += ["--init", self.init]
        parts += ["--games", str(games),
                  "--jobs", str(jobs), "--out", out]
        return shlex.join(parts)

    def to_json(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        data["hidden"], data["opponents"] = list(self.hidden), list(self.opponents)
        return data

    @staticmethod
    def from_json(data: dict[str, Any]) -> Settings:
        known = {f.name for f in dataclasses.fields(Settings)}
        unknown = set(data) - known
        if unknown:
            raise TrainingError(f"unknown settings {sorted(unknown)} in {SETTINGS}")
        values = dict(data)
        values["hidden"] = tuple(values.get("hidden", Settings.hidden))
        values["opponents"] = tuple(values.get("opponents", Settings.opponents))
        return Settings(**values)


@dataclass
class Progress:
    """The run's counters (saved in the checkpoint)."""

    generation: int = 0
    games: int = 0
    samples: int = 0
    decisions: int = 0
    seconds: float = 0.0  # self-play and learning, evaluations excluded
    play_seconds: float = 0.0
    rng: dict[str, Any] = field(default_factory=dict)
    evaluations: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Report:
    """What the progress display shows after each generation."""

    progress: Progress
    games_per_second: float
    decisions_per_second: float
    losses: Losses
    evaluations: Sequence[Evaluation] = ()


def game_seed(seed: int, generation: int, game: int) -> int:
    digest = blake2b(f"selfplay/{seed}/{generation}/{game}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


class TrainingRun:
    """A run in its folder: start it fresh (:meth:`start`) or from its checkpoint
    (:meth:`resume`), then :meth:`train` within a budget."""

    def __init__(self, folder: Path, settings: Settings, network: Network, adam: Adam,
                 progress: Progress, average: dict[str, Any] | None = None) -> None:
        self.folder, self.settings, self.network, self.adam = folder, settings, network, adam
        self.progress = progress
        self.average = Average(network, settings.average) if settings.average else None
        if self.average is not None and average:
            for name, array in self.average.arrays.items():
                array[...] = average[name]
        self._rng = np.random.default_rng()
        if progress.rng:
            self._rng.bit_generator.state = progress.rng
        else:
            self._rng = np.random.default_rng(settings.seed)

    @classmethod
    def start(cls, folder: Path, settings: Settings) -> TrainingRun:
        settings.check()
        if (folder / CHECKPOINT).exists():
            raise TrainingError(f"{folder} already holds a run: --resume to continue it, or"
                                " choose another --out")
        network = _initial(settings)
        folder.mkdir(parents=True, exist_ok=True)
        network.info["trained"] = {"games": 0}
        write_whole(folder / SETTINGS, json.dumps(settings.to_json(), indent=2).encode())
        return cls(folder, settings, network, Adam(network, settings.rate), Progress())

    @classmethod
    def resume(cls, folder: Path) -> TrainingRun:
        try:
            settings = Settings.from_json(json.loads((folder / SETTINGS).read_text()))
            with np.load(folder / CHECKPOINT, allow_pickle=False) as archive:
                arrays = {key: archive[key] for key in archive.files}
        except FileNotFoundError:
            raise TrainingError(f"{folder} holds no run to resume ({SETTINGS} and {CHECKPOINT}"
                                " are written by a run)") from None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise TrainingError(f"cannot resume the run in {folder}: {exc}") from None
        settings.check()
        state = json.loads(str(arrays.pop("state")))
        network = Network(settings.config(), {k: v for k, v in arrays.items()
                                              if not k.startswith(("adam_", "average_"))})
        network.info["trained"] = {"games": state["games"]}
        adam = Adam(network, settings.rate)
        adam.restore(arrays, state.pop("adam_steps"))
        average = {k[len("average_"):]: v for k, v in arrays.items()
                   if k.startswith("average_")}
        run = cls(folder, settings, network, adam, Progress(**state), average)
        run._forget_later_rows()
        return run

    def _forget_later_rows(self) -> None:
        """The CSV files as they were at the checkpoint (a run stopped between writing a row
        and its checkpoint plays that generation again)."""
        path = self.folder / TRAINING_CSV
        if path.exists():
            with path.open(newline="") as source:
                rows = [row for row in csv.DictReader(source)
                        if int(row["generation"]) <= self.progress.generation]
            path.unlink()
            append_csv(path, TRAINING_COLUMNS, rows)
        path = self.folder / EVALUATION_CSV
        if path.exists():
            path.unlink()
        append_csv(path, EVALUATION_COLUMNS, self.progress.evaluations)

    # -- the loop ---------------------------------------------------------------------------
    def train(self, workers: Workers, games: int | None = None, hours: float | None = None,
              report: Callable[[Report], None] | None = None) -> Progress:
        """Train until ``games`` self-play games in all (rounded up to whole generations) or
        ``hours`` more of wall time (checked after each generation), whichever comes first."""
        if games is None and hours is None:
            raise TrainingError("give a budget: --games, --hours or both")
        settings, progress = self.settings, self.progress
        deadline = None if hours is None else time.monotonic() + hours * 3600
        selfplay = SelfPlay(settings.config().to_dict(), settings.epsilon, settings.heuristic,
                            settings.observers, settings.play)
        if progress.generation == 0 and not progress.evaluations and settings.eval_games:
            self._evaluate(workers)  # the starting point of the curve
        while (games is None or progress.games < games) and (
                deadline is None or time.monotonic() < deadline):
            started = time.monotonic()
            seeds = [game_seed(settings.seed, progress.generation, i)
                     for i in range(settings.generation)]
            weights = self.network.to_bytes()
            parts = workers.map(play_games, [(weights, selfplay, chunk)
                                             for chunk in split(seeds, workers.jobs)])
            samples = Samples.join(parts)
            played = time.monotonic() - started
            losses = train_epochs(self.network, self.adam, samples.inputs, samples.actions,
                                  samples.returns, samples.shares, settings.epochs,
                                  settings.batch, self._rng, settings.value_weight,
                                  self.average)
            elapsed = time.monotonic() - started
            progress.generation += 1
            progress.games += samples.games
            progress.samples += len(samples)
            progress.decisions += samples.decisions
            progress.seconds += elapsed
            progress.play_seconds += played
            self.network.info["trained"] = {"games": progress.games}
            row = {"generation": progress.generation, "games": progress.games,
                   "samples": progress.samples, "decisions": progress.decisions,
                   "hours": round(progress.seconds / 3600, 4),
                   "games_per_s": round(samples.games / elapsed, 2),
                   "decisions_per_s": round(samples.decisions / played, 1),
                   "loss_q": round(losses.q, 5), "loss_v": round(losses.v, 5)}
            append_csv(self.folder / TRAINING_CSV, TRAINING_COLUMNS, [row])
            evaluations: list[Evaluation] = []
            finished = (games is not None and progress.games >= games) or (
                deadline is not None and time.monotonic() >= deadline)
            if settings.eval_games and (
                    progress.generation % settings.eval_every == 0 or finished):
                evaluations = self._evaluate(workers)
            self.save()
            if report is not None:
                report(Report(progress, samples.games / elapsed, samples.decisions / played,
                              losses, evaluations))
        return progress

    def played(self) -> Network:
        """The network a run evaluates and ships: the averaged weights (the current ones
        with ``average`` 0)."""
        return self.network if self.average is None else self.average.network(self.network)

    def _evaluate(self, workers: Workers) -> list[Evaluation]:
        settings, progress = self.settings, self.progress
        weights = self.played().to_bytes()
        config = settings.config().to_dict()
        plan = evaluation_games(settings.eval_games, settings.players)
        results = []
        for opponent in settings.opponents:
            parts = workers.map(play_evaluation, [(weights, config, opponent, settings.seed,
                                                   chunk) for chunk in split(plan, workers.jobs)])
            results.append(summary(opponent, [share for part in parts for share in part]))
        rows = [{"generation": progress.generation, "games_trained": progress.games,
                 "hours": round(progress.seconds / 3600, 4), "opponent": e.opponent,
                 "games": e.games, "share": round(e.share, 4), "low": round(e.low, 4),
                 "high": round(e.high, 4)} for e in results]
        progress.evaluations.extend(rows)
        append_csv(self.folder / EVALUATION_CSV, EVALUATION_COLUMNS, rows)
        self._chart()
        return results

    def _chart(self) -> None:
        by_opponent: dict[str, list[tuple[float, float, float, float]]] = {}
        for row in self.progress.evaluations:
            by_opponent.setdefault(row["opponent"], []).append(
                (row["hours"], row["share"], row["low"], row["high"]))
        series = [Series(name, points) for name, points in by_opponent.items()]
        title = f"{setup_key(self.settings.config())}: the network's share of victory"
        write_whole(self.folder / CHART,
               strength_chart(series, 1 / self.settings.players, title))

    # -- files ------------------------------------------------------------------------------
    def save(self) -> None:
        """The checkpoint, then the network and its sidecar (each file replaced whole)."""
        progress = self.progress
        progress.rng = dict(self._rng.bit_generator.state)
        state = dataclasses.asdict(progress)
        state["adam_steps"] = self.adam.steps
        buffer = io.BytesIO()
        arrays: dict[str, Any] = {"state": np.array(json.dumps(state)),
                                  **self.network.arrays(), **self.adam.state()}
        if self.average is not None:
            arrays.update({f"average_{k}": v for k, v in self.average.arrays.items()})
        np.savez(buffer, **arrays)
        write_whole(self.folder / CHECKPOINT, buffer.getvalue())
        write_whole(self.folder / NETWORK, self.played().to_bytes(half=True))
        write_whole(self.folder / SIDECAR, json.dumps(self.sidecar(), indent=2).encode())

    def sidecar(self) -> dict[str, Any]:
        """How ``network.npz`` was made (shipped next to the weights)."""
        progress = self.progress
        return {
            "setup": setup_key(self.settings.config()),
            "command": self.settings.command_line(progress.games),
            "seed": self.settings.seed,
            "settings": self.settings.to_json(),
            "budget": {"games": progress.games, "generations": progress.generation,
                       "hours": round(progress.seconds / 3600, 3),
                       "self_play_hours": round(progress.play_seconds / 3600, 3),
                       "samples": progress.samples, "decisions": progress.decisions},
            "commit": source_commit(),
            "oriflamme": __version__,
            "build": build_name(),
            "python": platform.python_version(),
            "numpy": np.__version__,
            "sha256": sha256(self.played().to_bytes(half=True)),
            "evaluations": progress.evaluations[-len(self.settings.opponents):],
            **({} if self.settings.init is None else {"init": start_file(self.settings.init)}),
        }


def _initial(settings: Settings) -> Network:
    """The network a new run starts from: random weights of ``settings.hidden``, or the
    weights of ``settings.init`` (which must be of the run's set-up and widths)."""
    if settings.init is None:
        return Network.initial(settings.config(), settings.hidden,
                               np.random.default_rng(settings.seed))
    try:
        network = Network.load(settings.init)
        network.check_setup(settings.config())
    except WeightsError as exc:
        raise TrainingError(f"--init: {exc}") from None
    widths = network.hidden
    if widths != settings.hidden:
        raise TrainingError(f"--init: {settings.init} has hidden layers"
                            f" {','.join(map(str, widths))}, not the run's"
                            f" {','.join(map(str, settings.hidden))} (--hidden)")
    return Network(settings.config(), {k: v.copy() for k, v in network.arrays().items()})
