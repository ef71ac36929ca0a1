"""A searching teacher's games, turned into samples a network can imitate.

Every seat is played by the same search bot (the *teacher*, a bot spec such as
``ismcts:iterations=1000:opponents=greedy:value=fitted``, ``expert``'s search with a smaller
budget). At every decision with a choice the teacher searches from the deciding player's
observation, as in play, and the sample keeps what the search found: how often its root tried
each legal action (the *visit shares*, AlphaZero's policy target, an improvement over any
single choice) besides the action it played. Once the game is over each sample also gets its
player's share of victory and every player's share, as the self-play samples do
(:mod:`oriflamme.training.selfplay`), so the same games teach the win shares as well.

The teacher reads only the deciding player's observation (R-INFO-1), and the sample's input is
that player's canonical vector (:mod:`oriflamme.bots.features`), so the network learns to
imitate from exactly what the teacher knew.

With a *student* (a bot spec such as ``network:weights=POLICY``: DAgger, Ross et al. 2011) the
student plays every move and the teacher only labels: at each decision the teacher searches and
the sample keeps its visit shares and its choice, then the student's move is played. The samples
then come from the positions the student reaches, where its own mistakes led, and the teacher
says what to do there: imitation alone only sees the positions the teacher reaches.

Searching is slow (a fraction of a second per decision), so the games are played once, in
worker processes, and their samples saved (:func:`write_teacher_data`, ``oriflamme train
--teacher SPEC``) and trained on many times (``oriflamme train --imitate DATA``).
"""

from __future__ import annotations

import io
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from oriflamme.api import GameConfig
from oriflamme.bots import make_bot
from oriflamme.bots.features import Features
from oriflamme.search import apply_unchecked, current_player, legal_actions, result, state_of

from .files import write_whole
from .selfplay import dealt_game
from .workers import Workers

#: The format name and version written in every file of teacher samples.
FORMAT = "oriflamme-teacher-samples"
VERSION = 1


class TeacherDataError(ValueError):
    """A file of teacher samples that cannot be read or does not fit the set-up."""


@dataclass(slots=True)
class TeacherSamples:
    """The samples of a batch of teacher games.

    Sample ``i`` has input ``inputs[i]`` (the decider's canonical vector), the canonical index
    of the teacher's choice ``actions[i]`` (the move played, but with a ``student``, whose move
    is played instead), and its policy target: the legal actions' canonical
    indices ``targets[starts[i]:starts[i + 1]]`` with their visit shares
    ``weights[starts[i]:starts[i + 1]]`` (summing to 1). ``returns[i]`` is the decider's share
    of victory, ``shares[i]`` every player's share relative to the decider.
    """

    config: Mapping[str, Any]
    teacher: str
    inputs: npt.NDArray[np.float16]
    actions: npt.NDArray[np.int32]
    starts: npt.NDArray[np.int64]
    targets: npt.NDArray[np.int32]
    weights: npt.NDArray[np.float32]
    returns: npt.NDArray[np.float32]
    shares: npt.NDArray[np.float32]
    games: int
    student: str | None = None

    def __len__(self) -> int:
        return len(self.actions)

    @staticmethod
    def join(parts: Sequence[TeacherSamples]) -> TeacherSamples:
        """One batch of several (of the same set-up)."""
        if not parts:
            raise TeacherDataError("no teacher samples to join")
        first = parts[0]
        for part in parts[1:]:
            if dict(part.config) != dict(first.config):
                raise TeacherDataError("teacher samples of different set-ups cannot be joined")
        offsets = np.cumsum([0] + [len(p.targets) for p in parts[:-1]])
        starts = np.concatenate([p.starts[:-1] + o for p, o in zip(parts, offsets, strict=True)]
                                + [np.array([sum(len(p.targets) for p in parts)])])
        return TeacherSamples(
            first.config, first.teacher,
            np.concatenate([p.inputs for p in parts]),
            np.concatenate([p.actions for p in parts]),
            starts.astype(np.int64),
            np.concatenate([p.targets for p in parts]),
            np.concatenate([p.weights for p in parts]),
            np.concatenate([p.returns for p in parts]),
            np.concatenate([p.shares for p in parts]),
            sum(p.games for p in parts),
            first.student if all(p.student == first.student for p in parts) else "mixed",
        )

    def policy(self, rows: npt.NDArray[np.intp], width: int) -> npt.NDArray[np.float32]:
        """The dense policy targets of samples ``rows`` (rows x ``width``), 0 off the legal
        actions."""
        out = np.zeros((len(rows), width), dtype=np.float32)
        for k, i in enumerate(rows):
            lo, hi = self.starts[i], self.starts[i + 1]
            out[k, self.targets[lo:hi]] = self.weights[lo:hi]
        return out

    def legal(self, rows: npt.NDArray[np.intp], width: int) -> npt.NDArray[np.bool_]:
        """The mask of legal actions of samples ``rows`` (rows x ``width``)."""
        out = np.zeros((len(rows), width), dtype=np.bool_)
        for k, i in enumerate(rows):
            out[k, self.targets[self.starts[i]:self.starts[i + 1]]] = True
        return out


def teacher_games(teacher: str, config: Mapping[str, Any], seeds: Sequence[int],
                  student: str | None = None) -> TeacherSamples:
    """Play one game per seed with ``teacher`` in every seat (or, with ``student``, the
    student's moves, labelled by the teacher); return its samples.

    >>> from oriflamme.api import GameConfig
    >>> samples = teacher_games("ismcts:iterations=20", GameConfig(players=3).to_dict(), [1])
    >>> first = samples.weights[samples.starts[0]:samples.starts[1]]
    >>> samples.games, len(samples) > 20, round(float(first.sum()), 4)
    (1, True, 1.0)
    """
    game_config = GameConfig.from_dict(config)
    features = Features.of(game_config)
    n = game_config.players
    inputs: list[npt.NDArray[np.float32]] = []
    actions: list[int] = []
    starts: list[int] = [0]
    targets: list[int] = []
    weights: list[float] = []
    returns: list[float] = []
    shares: list[list[float]] = []
    for seed in seeds:
        rng = random.Random(seed)
        game = dealt_game(game_config, rng)
        s = state_of(game)
        bots = [make_bot(teacher, seed=rng.getrandbits(32)) for _ in range(n)]
        students = None if student is None else [
            make_bot(student, seed=rng.getrandbits(32)) for _ in range(n)]
        deciders: list[int] = []
        while (player := current_player(s)) is not None:
            legal = legal_actions(s)
            if len(legal) == 1:
                apply_unchecked(s, legal[0])
                continue
            bot = bots[player]
            observation = game.observe(player)
            action = bot.act(observation, legal)
            visits = getattr(getattr(bot, "last_search", None), "visits", None) or {action: 1}
            x, slots = features.state(s, player)
            indices = features.action_indices(legal, player, slots)
            counts = np.array([visits.get(a, 0) for a in legal], dtype=np.float64)
            total = counts.sum()
            inputs.append(x)
            actions.append(int(indices[legal.index(action)]))
            targets.extend(int(i) for i in indices)
            weights.extend((counts / total).tolist())
            starts.append(len(targets))
            deciders.append(player)
            if students is not None:
                action = students[player].act(observation, legal)
            apply_unchecked(s, action)
        outcome = result(s)
        assert outcome is not None
        won = [1.0 / len(outcome.winners) if p in outcome.winners else 0.0 for p in range(n)]
        for p in deciders:
            returns.append(won[p])
            shares.append([won[(p + k) % n] for k in range(n)])
    return TeacherSamples(
        dict(config), teacher,
        np.array(inputs, dtype=np.float16).reshape(-1, features.size),
        np.array(actions, dtype=np.int32),
        np.array(starts, dtype=np.int64),
        np.array(targets, dtype=np.int32),
        np.array(weights, dtype=np.float32),
        np.array(returns, dtype=np.float32),
        np.array(shares, dtype=np.float32).reshape(-1, n),
        len(seeds),
        student,
    )


def save(samples: TeacherSamples, path: str | Path) -> None:
    """Write ``samples`` to ``path`` (a NumPy archive without pickles), whole: a stopped run
    never leaves half a file under that name."""
    import json

    meta = json.dumps({"format": FORMAT, "version": VERSION, "config": dict(samples.config),
                       "teacher": samples.teacher, "games": samples.games,
                       "student": samples.student})
    buffer = io.BytesIO()
    np.savez_compressed(buffer, meta=np.array(meta), inputs=samples.inputs,
                        actions=samples.actions, starts=samples.starts, targets=samples.targets,
                        weights=samples.weights, returns=samples.returns, shares=samples.shares)
    write_whole(Path(path), buffer.getvalue())


def load(path: str | Path) -> TeacherSamples:
    """Read a file written by :func:`save`; anything else is a :class:`TeacherDataError`."""
    import json
    import zipfile

    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise TeacherDataError(f"{path}: not a file of teacher samples ({error})") from None
    names = ("meta", "inputs", "actions", "starts", "targets", "weights", "returns", "shares")
    missing = [name for name in names if name not in arrays]
    if missing:
        raise TeacherDataError(f"{path}: not a file of teacher samples (no {', '.join(missing)})")
    try:
        meta = json.loads(str(arrays["meta"]))
    except ValueError:
        raise TeacherDataError(f"{path}: its description is not JSON") from None
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise TeacherDataError(f"{path}: not a file of teacher samples")
    if meta.get("version") != VERSION:
        raise TeacherDataError(f"{path}: version {meta.get('version')} of the teacher samples "
                               f"format; this program reads version {VERSION}")
    try:
        config = GameConfig.from_dict(meta["config"])
    except (KeyError, TypeError, ValueError) as error:
        raise TeacherDataError(f"{path}: no valid set-up ({error})") from None
    features = Features.of(config)
    rows = len(arrays["actions"])
    starts = arrays["starts"]
    ok = (arrays["inputs"].shape == (rows, features.size) and starts.shape == (rows + 1,)
          and arrays["returns"].shape == (rows,)
          and arrays["shares"].shape == (rows, config.players)
          and arrays["targets"].shape == arrays["weights"].shape
          and (rows == 0 or (starts[0] == 0 and starts[-1] == len(arrays["targets"])
                             and bool(np.all(np.diff(starts) > 0)))))
    if not ok:
        raise TeacherDataError(f"{path}: its arrays do not fit together or the set-up")
    width = features.actions
    if rows and (arrays["targets"].min() < 0 or arrays["targets"].max() >= width
                 or arrays["actions"].min() < 0 or arrays["actions"].max() >= width):
        raise TeacherDataError(f"{path}: an action index is out of range for the set-up")
    if not all(np.isfinite(arrays[name]).all() for name in ("inputs", "weights", "returns",
                                                             "shares")):
        raise TeacherDataError(f"{path}: a value is not a finite number")
    return TeacherSamples(
        config.to_dict(), str(meta.get("teacher", "?")),
        arrays["inputs"].astype(np.float16), arrays["actions"].astype(np.int32),
        starts.astype(np.int64), arrays["targets"].astype(np.int32),
        arrays["weights"].astype(np.float32), arrays["returns"].astype(np.float32),
        arrays["shares"].astype(np.float32), int(meta.get("games", 0)),
        None if meta.get("student") is None else str(meta["student"]),
    )


def _write_chunk(teacher: str, config: Mapping[str, Any], seeds: Sequence[int],
                 path: str, student: str | None) -> tuple[int, int]:
    """Play ``seeds`` and save their samples to ``path`` (run by a worker): (games, samples)."""
    samples = teacher_games(teacher, config, seeds, student)
    save(samples, path)
    return samples.games, len(samples)


def write_teacher_data(folder: Path, teacher: str, config: Mapping[str, Any], games: int,
                       seed: int, chunk: int, workers: Workers,
                       report: Callable[[int, int, int], None] | None = None,
                       student: str | None = None) -> tuple[int, int]:
    """Play the games of seeds ``seed`` to ``seed + games - 1`` into ``folder``, at most
    ``chunk`` games per file ``chunk-FIRST-LAST.npz`` (its seeds), skipping the seeds a file
    there already holds (a stopped run, or a larger ``games`` later, goes on with the missing
    ones only). With ``student`` the student plays, the teacher labels. ``workers``
    (:class:`~oriflamme.training.workers.Workers`) play ``jobs`` files at a time;
    ``report(games, samples, total)`` follows the progress. Returns the games and samples
    played by this call."""
    folder.mkdir(parents=True, exist_ok=True)
    done: set[int] = set()
    for path in folder.glob("chunk-*-*.npz"):
        first, _, last = path.stem[len("chunk-"):].partition("-")
        if first.isdigit() and last.isdigit():
            done.update(range(int(first), int(last) + 1))
    plan: list[tuple[str, dict[str, Any], list[int], str, str | None]] = []
    run: list[int] = []
    for game in [*(s for s in range(seed, seed + games) if s not in done), -1]:
        if run and (game != run[-1] + 1 or len(run) == chunk):
            path = folder / f"chunk-{run[0]}-{run[-1]}.npz"
            plan.append((teacher, dict(config), run, str(path), student))
            run = []
        if game >= 0:
            run.append(game)
    total = sum(len(p[2]) for p in plan)
    played = samples = 0
    for start in range(0, len(plan), workers.jobs):
        for done_games, done_samples in workers.map(_write_chunk,
                                                    plan[start:start + workers.jobs]):
            played += done_games
            samples += done_samples
        if report is not None:
            report(played, samples, total)
    return played, samples
