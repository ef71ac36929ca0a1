"""``oriflamme train``: train the learned network by self-play (NumPy only), with checkpoints,
a progress bar, and a periodic evaluation written to a CSV file and a PNG chart."""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from .common import CliError, file_path, whole

if TYPE_CHECKING:
    from rich.console import Console

    from oriflamme.training.run import Report, Settings

DESCRIPTION = """\
Train the network of the 'learned' and 'master' bots by self-play: each generation plays
--generation games with the current network (every seat the network, exploring with chance
--epsilon, or the one-step heuristic with chance --heuristic), then trains the network on those
games: its action values on the return of each action (the player's share of victory at the
end: deep Monte-Carlo) and its win shares on the outcome. Every --eval-every generations the
network plays --eval-games games against each of --opponents (seats rotated, the same deals
each time): evaluation.csv and strength.png in --out. With --play after the network's seats
play as the learned bot (by the win shares of each action's outcome), so the win shares learn
its own play; --init FILE starts from trained weights instead of random ones.

--out holds the run: settings.json, checkpoint.npz (after every generation), network.npz and
network.json (the weights to play, e.g. --bots network:weights=DIR/network.npz, and how they
were made), training.csv. Stop it at any time; --resume --out DIR goes on from the last
checkpoint with the run's settings, exactly as if it had not stopped. The same seed and
settings give the same network, whatever --jobs.

--teacher SPEC --games K --out DATA plays K games with the bot SPEC (a search: the teacher) in
every seat and saves, for each decision, what its search tried and the outcome, 5 games per
file; run it again to go on (only the games no file holds are played). With --student SPEC the
student (e.g. a policy: network:weights=RUN/network.npz) plays every move and the teacher only
labels each decision (DAgger): give new --seed values and the same DATA to add the positions the
student reaches to the teacher's. --imitate DATA then trains on
a teacher's saved games: the network's action head learns the teacher's
choices (how often its search tried each legal action) and its win shares the games'
outcomes, for --epochs passes (default 20); every tenth file is held out, the epoch with the
lowest held-out loss is kept, and its agreement with the teacher is reported. The network then
plays its most likely action (network:weights=DIR/network.npz).
"""


def _probability(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a probability from 0 to 1, not {text!r}")
    return value


def _positive(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number, not {text!r}")
    return value


def _widths(text: str) -> tuple[int, ...]:
    try:
        widths = tuple(int(part) for part in text.split(","))
    except ValueError:
        widths = ()
    if not widths or any(not 1 <= w <= 4096 for w in widths):
        raise argparse.ArgumentTypeError(
            f"expected layer widths from 1 to 4096 separated by commas, not {text!r}")
    return widths


def add_parser(commands: argparse._SubParsersAction[Any]) -> None:
    """Register the ``train`` command."""
    parser = commands.add_parser(
        "train",
        help="train the learned network by self-play (checkpoints, evaluation, chart)",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run = parser.add_argument_group("the run")
    run.add_argument("--out", type=file_path, required=True, metavar="DIR",
                     help="the run's folder (created; see above)")
    run.add_argument("--resume", action="store_true",
                     help="continue the run in --out from its checkpoint, with its settings")
    run.add_argument("--teacher", default=None, metavar="SPEC",
                     help="play --games games with this bot in every seat and save its"
                     " choices in --out, for --imitate (see above)")
    run.add_argument("--student", default=None, metavar="SPEC",
                     help="with --teacher: this bot plays the moves, the teacher labels them"
                     " (see above)")
    run.add_argument("--imitate", type=file_path, default=None, metavar="DATA",
                     help="train on a teacher's saved games in folder DATA instead of by"
                     " self-play (see above)")
    run.add_argument("--games", type=whole(1), default=None, metavar="K",
                     help="stop once K self-play games are played in all (whole generations)")
    run.add_argument("--hours", type=_positive, default=None, metavar="H",
                     help="stop after H more hours (at the end of a generation)")
    run.add_argument("--jobs", type=whole(1), default=os.cpu_count() or 1, metavar="N",
                     help="worker processes or Ray CPUs for the games (default: the number"
                     " of CPUs)")
    run.add_argument("--backend", choices=("local", "ray"), default="local",
                     help="local processes or Ray (default local)")
    run.add_argument("--ray-address", default=None, metavar="ADDR",
                     help="with --backend ray: the cluster to join (default: a local Ray)")
    setup = parser.add_argument_group("the set-up (a new run)")
    setup.add_argument("--players", type=whole(2, 5), default=None, metavar="N",
                       help="players, 2 to 5 (default 3)")
    setup.add_argument("--cards", default=None, metavar="SET",
                       help="'base', 'embrasement', or 10 card names separated by commas"
                       " (default base)")
    setup.add_argument("--variant", choices=("two-families", "standard"), default=None,
                       help="two-families (default for 2 players) or standard")
    learning = parser.add_argument_group("learning (a new run; defaults in docs/bots.md)")
    learning.add_argument("--seed", type=whole(0, 2**63 - 1), default=None, metavar="S",
                          help="seed of the run (default 1)")
    learning.add_argument("--hidden", type=_widths, default=None, metavar="W,W",
                          help="widths of the hidden layers (default 256,128)")
    learning.add_argument("--generation", type=whole(1), default=None, metavar="G",
                          help="self-play games per generation (default 200)")
    learning.add_argument("--epochs", type=whole(1), default=None, metavar="E",
                          help="passes over each generation's samples (default 1)")
    learning.add_argument("--batch", type=whole(2), default=None, metavar="B",
                          help="minibatch size (default 256)")
    learning.add_argument("--rate", type=_positive, default=None, metavar="R",
                          help="Adam's learning rate (default 0.0005)")
    learning.add_argument("--epsilon", type=_probability, default=None, metavar="P",
                          help="chance of a random legal action in self-play (default 0.1)")
    learning.add_argument("--heuristic", type=_probability, default=None, metavar="P",
                          help="chance that a seat of a game is the one-step heuristic"
                          " (default 0.25)")
    learning.add_argument("--observers", type=_probability, default=None, metavar="P",
                          help="chance that a decision also teaches the win shares from"
                          " another player's view (default 0.5)")
    learning.add_argument("--value-weight", type=float, default=None, metavar="W",
                          help="weight of the win-share loss (default 1)")
    learning.add_argument("--play", choices=("action", "after"), default=None,
                          help="how the network's seats play in self-play: 'action' (greedy on"
                          " the action values) or 'after' (as the learned bot: the action whose"
                          " outcome the win shares rate best); default action")
    learning.add_argument("--init", type=file_path, default=None, metavar="FILE",
                          help="start from these weights (a network.npz of the same set-up"
                          " and --hidden) instead of random ones")
    learning.add_argument("--average", type=float, default=None, metavar="D",
                          help="decay of the moving average of the weights that the run"
                          " evaluates and ships (0: none; default 0.999)")
    evaluation = parser.add_argument_group("evaluation (a new run)")
    evaluation.add_argument("--eval-every", type=whole(1), default=None, metavar="G",
                            help="evaluate every G generations (and at the end; default 10)")
    evaluation.add_argument("--eval-games", type=whole(0), default=None, metavar="K",
                            help="games against each opponent (0: no evaluation; default 60)")
    evaluation.add_argument("--opponents", default=None, metavar="SPECS",
                            help="comma list of bot specs (default random,medium)")


#: The options that make a new run's settings (a resumed run keeps its own).
_SETTING_OPTIONS = ("players", "cards", "variant", "seed", "hidden", "generation", "epochs",
                    "batch", "rate", "epsilon", "heuristic", "observers", "value_weight",
                    "average", "eval_every", "eval_games", "opponents", "play", "init")


#: The settings of a new run unless given (``docs/bots.md`` says why).
DEFAULTS: dict[str, Any] = {
    "players": 3, "cards": "base", "variant": None, "seed": 1, "hidden": (256, 128),
    "generation": 200, "epochs": 1, "batch": 256, "rate": 5e-4, "epsilon": 0.1,
    "heuristic": 0.25, "observers": 0.5, "value_weight": 1.0, "average": 0.999,
    "eval_every": 10,
    "eval_games": 60, "opponents": "random,medium", "play": "action", "init": None,
}


def _fill_defaults(args: argparse.Namespace, defaults: dict[str, Any]) -> tuple[str, ...]:
    """Give every setting left out its default (the hidden layers of ``--init``'s weights, if
    any); return the opponents' specs."""
    if args.init is not None and args.hidden is None:
        from oriflamme.bots.network import Network, WeightsError

        try:  # the widths of the weights started from
            args.hidden = Network.load(args.init).hidden
        except WeightsError as exc:
            raise CliError(f"--init: {exc}") from None
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    return tuple(spec.strip() for spec in args.opponents.split(",") if spec.strip())


def _settings(args: argparse.Namespace) -> Settings:
    from oriflamme.bots import make_bot
    from oriflamme.training.run import Settings

    opponents = _fill_defaults(args, DEFAULTS)
    if not opponents and args.eval_games:
        raise CliError("--opponents needs at least one bot spec (or --eval-games 0)")
    for spec in opponents:
        make_bot(spec, 0)  # a BotSpecError now, not after the first generation
    return Settings(players=args.players, cards=args.cards, variant=args.variant,
                    seed=args.seed, hidden=args.hidden, generation=args.generation,
                    epochs=args.epochs, batch=args.batch, rate=args.rate,
                    epsilon=args.epsilon, heuristic=args.heuristic, observers=args.observers,
                    value_weight=args.value_weight, average=args.average,
                    eval_every=args.eval_every,
                    eval_games=args.eval_games, opponents=opponents, play=args.play,
                    init=None if args.init is None else str(args.init))


def run_train(args: argparse.Namespace, console: Console | None = None) -> int:
    # One BLAS thread, unless told otherwise: the learner's matrices are small, and on a
    # shared machine OpenBLAS's threads cost far more than they bring (a training step took
    # 278 ms with two threads against 42 ms with one: docs/benchmarks.md). Read when NumPy
    # is first imported, which is below.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    from oriflamme.training.run import TrainingError, TrainingRun
    from oriflamme.training.workers import Workers, WorkersError

    if args.teacher is not None:
        return _run_teacher(args)
    if args.student is not None:
        raise CliError("--student plays a teacher's games: it goes with --teacher SPEC")
    if args.imitate is not None:
        return _run_imitation(args)
    if args.games is None and args.hours is None:
        raise CliError("give a budget: --games K, --hours H or both")
    try:
        if args.resume:
            given = sorted(n for n in _SETTING_OPTIONS if getattr(args, n) is not None)
            if given:
                options = ", ".join("--" + name.replace("_", "-") for name in given)
                raise CliError(f"--resume goes on with the run's own settings: drop {options}")
            run = TrainingRun.resume(args.out)
        else:
            run = TrainingRun.start(args.out, _settings(args))
        with Workers(args.jobs, args.backend, args.ray_address) as workers, \
                _display(run.settings, args.games, run.progress.games) as report:
            progress = run.train(workers, args.games, args.hours, report)
    except (TrainingError, WorkersError) as exc:
        raise CliError(str(exc)) from None
    print(f"trained {progress.games} games in {progress.generation} generations"
          f" ({progress.seconds / 3600:.2f} h); network: {args.out / 'network.npz'}")
    for row in progress.evaluations[-len(run.settings.opponents):]:
        print(f"  vs {row['opponent']}: share of victory {row['share']:.1%}"
              f" ({row['low']:.1%} - {row['high']:.1%}, {row['games']} games)")
    return 0


#: The options of self-play alone (refused with --imitate).
_SELF_PLAY_ONLY = ("resume", "games", "hours", "players", "cards", "variant", "generation",
                   "epsilon", "heuristic", "observers", "play", "eval_every")
#: The settings of an imitation run unless given.
IMITATION_DEFAULTS: dict[str, Any] = {
    "seed": 1, "hidden": (256, 128), "epochs": 20, "batch": 256, "rate": 1e-3,
    "value_weight": 0.2, "average": 0.0, "eval_games": 60, "opponents": "medium",
}


def _run_imitation(args: argparse.Namespace) -> int:
    from oriflamme.bots import make_bot
    from oriflamme.bots.network import WeightsError
    from oriflamme.training.imitation import EpochReport, ImitationSettings, run_imitation
    from oriflamme.training.teacher import TeacherDataError
    from oriflamme.training.workers import Workers, WorkersError

    given = [name for name in _SELF_PLAY_ONLY if getattr(args, name) not in (None, False)]
    if given:
        options = ", ".join("--" + name.replace("_", "-") for name in given)
        raise CliError(f"--imitate trains on saved games: {options} belong to self-play")
    opponents = _fill_defaults(args, IMITATION_DEFAULTS)
    for spec in opponents:
        make_bot(spec, 0)
    if not 0 <= args.average < 1:
        raise CliError(f"--average is a decay from 0 (none) to below 1, not {args.average}")
    settings = ImitationSettings(
        data=str(args.imitate), seed=args.seed, hidden=args.hidden, epochs=args.epochs,
        batch=args.batch, rate=args.rate, value_weight=args.value_weight,
        average=args.average, init=None if args.init is None else str(args.init),
        eval_games=args.eval_games, opponents=opponents)

    def report(line: EpochReport) -> None:
        print(f"imitate: epoch {line.epoch}/{settings.epochs}, {line.seconds:.1f} s, policy"
              f" loss {line.train_policy:.4f} (held out {line.held_policy:.4f}), value loss"
              f" {line.train_value:.4f} (held out {line.held_value:.4f}), agreement with the"
              f" teacher {line.agreement:.1%}", file=sys.stderr, flush=True)

    try:
        with Workers(args.jobs, args.backend, args.ray_address) as workers:
            _, reports, evaluations = run_imitation(args.out, settings, workers, report)
    except (TeacherDataError, WeightsError, WorkersError) as exc:
        raise CliError(str(exc)) from None
    best = min(reports, key=lambda r: r.held_policy)
    print(f"imitated for {len(reports)} epochs; kept epoch {best.epoch} (agreement"
          f" {best.agreement:.1%}); network: {args.out / 'network.npz'}")
    for e in evaluations:
        print(f"  vs {e.opponent}: share of victory {e.share:.1%}"
              f" ({e.low:.1%} - {e.high:.1%}, {e.games} games)")
    return 0


#: The options a teacher's games take (the others are refused with --teacher).
_TEACHER_OPTIONS = ("teacher", "student", "out", "games", "jobs", "backend", "ray_address",
                    "players",
                    "cards", "variant", "seed")
#: Games per file of a teacher's data.
TEACHER_CHUNK = 5


def _run_teacher(args: argparse.Namespace) -> int:
    from oriflamme.api import ConfigError, GameConfig
    from oriflamme.bots import make_bot
    from oriflamme.training.teacher import write_teacher_data
    from oriflamme.training.workers import Workers, WorkersError

    training_only = [name for name in (*_SETTING_OPTIONS, "resume", "hours", "imitate")
                     if name not in _TEACHER_OPTIONS]
    given = [name for name in training_only if getattr(args, name) not in (None, False)]
    if given:
        options = ", ".join("--" + name.replace("_", "-") for name in given)
        raise CliError(f"--teacher plays a teacher's games: {options} belong to training")
    if args.games is None:
        raise CliError("--teacher needs --games K: how many games to play")
    make_bot(args.teacher, 0)  # a BotSpecError now, not in a worker
    if args.student is not None:
        make_bot(args.student, 0)
    try:
        config = GameConfig(players=args.players or 3, cards=args.cards or "base",
                            variant=args.variant)
    except ConfigError as exc:
        raise CliError(str(exc)) from None
    if (args.out / "network.npz").exists() or (args.out / "checkpoint.npz").exists():
        raise CliError(f"{args.out} holds a training run: choose another --out for the data")

    def report(played: int, samples: int, total: int) -> None:
        print(f"teacher: {played}/{total} games, {samples} samples", file=sys.stderr,
              flush=True)

    seed = 1 if args.seed is None else args.seed
    try:
        with Workers(args.jobs, args.backend, args.ray_address) as workers:
            played, samples = write_teacher_data(args.out, args.teacher, config.to_dict(),
                                                 args.games, seed, TEACHER_CHUNK, workers,
                                                 report, args.student)
    except WorkersError as exc:
        raise CliError(str(exc)) from None
    by = args.teacher if args.student is None else f"{args.student} (labelled by {args.teacher})"
    print(f"played {played} games of {by} ({samples} samples) into {args.out};"
          f" train on them with: oriflamme train --imitate {args.out} --out RUN")
    return 0


class _display:
    """The progress display: a bar on a terminal (games, games/s, decisions/s, losses), else
    one line per generation on stderr; evaluations are printed as they come."""

    def __init__(self, settings: Settings, games: int | None, done: int) -> None:
        self.total, self.done = games, done
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> Any:
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(
                TextColumn("train"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                TextColumn("{task.fields[speed]}"), TextColumn("{task.fields[loss]}"),
                TimeElapsedColumn(), TimeRemainingColumn(),
                console=Console(stderr=True), transient=True)
            self._bar.__enter__()
            self._task = self._bar.add_task("games", total=self.total, completed=self.done,
                                            speed="", loss="")
        return self.report

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.__exit__(None, None, None)

    def report(self, report: Report) -> None:
        p = report.progress
        speed = (f"{report.games_per_second:.1f} games/s,"
                 f" {report.decisions_per_second:.0f} decisions/s")
        loss = f"loss q {report.losses.q:.4f} v {report.losses.v:.4f}"
        if self._bar is not None:
            self._bar.update(self._task, completed=p.games, speed=speed, loss=loss)
            for e in report.evaluations:
                self._bar.console.print(
                    f"generation {p.generation}: vs {e.opponent} {e.share:.1%}"
                    f" ({e.low:.1%} - {e.high:.1%})")
            return
        total = f"/{self.total}" if self.total else ""
        print(f"train: generation {p.generation}, {p.games}{total} games,"
              f" {p.seconds / 3600:.2f} h, {speed}, {loss}", file=sys.stderr, flush=True)
        for e in report.evaluations:
            print(f"train: generation {p.generation}: vs {e.opponent} share {e.share:.1%}"
                  f" ({e.low:.1%} - {e.high:.1%}, {e.games} games)", file=sys.stderr,
                  flush=True)
