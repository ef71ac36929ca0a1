"""Post-game analyses: each computed once, in the background, by exactly one server.

Asking for the analysis of a finished game queues it in storage (:meth:`Store.request_analysis`;
a game has at most one analysis, computed once and kept). Every server runs an
:class:`AnalysisRunner`: it claims the queued analysis asked for first (a lease in storage, like
the bots' decisions, renewed as it goes), and works through the decisions of the game's human
seats one at a time in a worker process of its own (never on the event loop, at a lower
priority than the server, one analysis at a time per server). After each decision it stores the
steps done so far and the progress: a server that dies leaves a claim that expires, and the
server that takes it over goes on from there.

Each decision is judged by the adviser's search (:mod:`oriflamme.bots.advice`: ``master`` where it
is measured stronger than ``expert``, 3 players with the base cards; ``hard`` elsewhere) from the
deciding seat's observation at that moment, never from the hidden cards: the worker rebuilds the
game, takes that seat's observation and the legal actions, and gives the adviser nothing else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from oriflamme.api import Action, Game
from oriflamme.bots.advice import advise

from . import thinking
from .errors import QuietLog
from .replays import Replays
from .storage import DONE, FAILED, RUNNING, AnalysisRecord, StoreUnavailable
from .tables import HUMAN
from .tasks import spawn

if TYPE_CHECKING:
    from .manager import TableManager

log = logging.getLogger("oriflamme.server")
quiet = QuietLog(log)

#: Seconds a claim on an analysis lasts unless renewed (it is renewed after every decision).
LEASE = 60.0
#: Seconds between looks for analyses to run.
SCAN = 2.0
#: Seconds one decision may take in the worker before the analysis is given up as failed.
STEP_TIMEOUT = 60.0
#: The budget of the adviser per decision: iterations and a time cap (seconds). About 1 s per
#: decision on one core: a 3-player game's 50 decisions in under a minute (docs/benchmarks.md).
ANALYSIS_ITERATIONS, ANALYSIS_SECONDS = 2000, 1.0
#: Languages whose move labels are stored with each step.
LANGS = ("en", "fr")
#: How much nicer than the bots' workers an analysis worker is: a bot's move comes first.
EXTRA_NICENESS = 5
_lowered = False


def budget_iterations(default: int) -> int:
    """``default``, or the iterations that ``ORIFLAMME_REVIEW_ITERATIONS`` sets (a smaller
    budget for slow machines or tests; docs/server.md)."""
    text = os.environ.get("ORIFLAMME_REVIEW_ITERATIONS", "")
    try:
        value = int(text)
    except ValueError:
        return default
    return value if value > 0 else default


def human_decisions(record: Mapping[str, Any], humans: frozenset[int]) -> list[tuple[int, int]]:
    """``(step, seat)`` of every decision of a human seat with more than one option."""
    game = _start(record)
    found = []
    for step, data in enumerate(record["actions"]):
        seat = game.current_player
        if seat in humans and len(game.legal_actions()) > 1:
            found.append((step, seat))
        game.apply(data)
    return found


def _start(record: Mapping[str, Any], upto: int = 0) -> Game:
    return Game.from_replay({**record, "actions": record["actions"][:upto]})


def review_step(
    record: Mapping[str, Any], step: int, iterations: int, seconds: float | None
) -> dict[str, Any]:
    """The analysis of decision ``step`` of the replay ``record`` (runs in a worker process):
    the adviser's opinion from the deciding seat's observation, and what was played."""
    lower_priority()
    game = _start(record, step)
    seat = game.current_player
    if seat is None:
        raise ValueError(f"no decision at step {step}")
    played = Action.from_json(record["actions"][step])
    advice = advise(game.observe(seat), game.legal_actions(), iterations, seconds)
    after = advice.win_after(played)
    labels = {
        lang: {
            "played": game.label(played, viewer=seat, lang=lang),
            "best": game.label(advice.best, viewer=seat, lang=lang),
        }
        for lang in LANGS
    }
    return {
        "step": step,
        "player": seat,
        "round": game.round,
        "played": played.to_json(),
        "best": advice.best.to_json(),
        "win": [round(w, 4) for w in advice.win],
        "played_win": None if after is None else [round(w, 4) for w in after],
        "loss": round(advice.loss(played), 4),
        "labels": labels,
    }


def lower_priority() -> None:
    """Once per worker process: think after the bots (where the OS allows it). Analyses and
    hints run so."""
    global _lowered
    if not _lowered and hasattr(os, "nice"):
        os.nice(EXTRA_NICENESS)
    _lowered = True


class AnalysisRunner:
    """This server's share of the analyses: claims them in storage and runs them one at a
    time in a worker process of its own."""

    def __init__(self, manager: TableManager, replays: Replays) -> None:
        self._manager = manager
        self._replays = replays
        self._store = manager.store
        self._owner = manager.server_id
        self._pool = thinking.BotPool(workers=1, timeout=STEP_TIMEOUT)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: The analysis this server is running, as last stored.
        self.running: AnalysisRecord | None = None
        #: This process is going away: it claims no more analyses.
        self.draining = False

    def start(self) -> None:
        self._task = spawn(self._run(), "analyses")

    async def stop(self) -> None:
        """Stop, and give the analysis under way back at once (another server, or this one
        started again, goes on from its last stored decision without waiting for the lease)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._pool.close()
        if self.running is not None:
            try:
                await self._store.save_analysis(self._owner, self.running, 0.0)
            except Exception as exc:  # its lease expires by itself
                log.warning("analysis not given back (%r)", exc)

    def drain(self) -> None:
        """Claim no more analyses (another server's next look takes them); the one under way
        goes on until :meth:`stop` gives it back."""
        self.draining = True

    def wake(self) -> None:
        """An analysis was asked for: look now rather than at the next scan."""
        self._wake.set()

    async def _run(self) -> None:
        while True:
            try:
                job = None
                if not self.draining:
                    job = await self._store.claim_analysis(self._owner, LEASE)
                if job is not None:
                    await self._analyse(job)
                    continue
            except StoreUnavailable as exc:
                quiet.warning("analyses", "cannot look for analyses: %s", exc)
            except Exception:
                log.exception("looking for analyses failed")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), SCAN)
            self._wake.clear()

    async def _analyse(self, job: AnalysisRecord) -> None:
        self.running = job
        try:
            await self._work(job)
        except StoreUnavailable:
            self.running = None
            raise  # the claim expires; this server or another takes the analysis up again
        except Exception:
            log.exception("analysis of table %s game %d failed", job.table_id, job.game)
            failed = AnalysisRecord(job.table_id, job.game, FAILED, job.progress, job.steps)
            self.running = None
            await self._store.save_analysis(self._owner, failed, LEASE)
        self.running = None

    async def _work(self, job: AnalysisRecord) -> None:
        table = await self._manager.get(job.table_id)
        finished = await self._replays.finished(table, job.game)
        humans = frozenset(s.seat for s in table.seats if s.kind == HUMAN)
        decisions = await asyncio.to_thread(human_decisions, finished.record, humans)
        steps: list[Mapping[str, Any]] = list(job.steps)
        done = {s["step"] for s in steps}
        iterations = budget_iterations(ANALYSIS_ITERATIONS)
        for step, _ in decisions:
            if step in done:
                continue
            result = await self._pool.run(
                review_step,
                finished.record,
                step,
                iterations,
                ANALYSIS_SECONDS,
                timeout=STEP_TIMEOUT,
            )
            steps.append(result)
            steps.sort(key=lambda s: int(s["step"]))
            progress = len(steps) / len(decisions)
            record = AnalysisRecord(job.table_id, job.game, RUNNING, progress, tuple(steps))
            if not await self._store.save_analysis(self._owner, record, LEASE):
                log.info("analysis of table %s game %d: claim lost", job.table_id, job.game)
                return
            self.running = record
        record = AnalysisRecord(job.table_id, job.game, DONE, 1.0, tuple(steps))
        await self._store.save_analysis(self._owner, record, LEASE)


def steps_for(record: AnalysisRecord, lang: str) -> list[dict[str, Any]]:
    """The steps of an analysis as the API answers them: the labels in ``lang`` only."""
    out = []
    for step in record.steps:
        item = {key: value for key, value in step.items() if key != "labels"}
        labels: Mapping[str, Any] = step.get("labels", {}).get(lang) or {}
        item["played_label"] = labels.get("played", "")
        item["best_label"] = labels.get("best", "")
        out.append(item)
    return out


def worst_moves(steps: Sequence[Mapping[str, Any]], per_player: int = 3) -> list[int]:
    """The steps of each player's ``per_player`` costliest moves (loss above zero)."""
    chosen: list[int] = []
    for player in sorted({int(s["player"]) for s in steps}):
        own = [s for s in steps if s["player"] == player and float(s["loss"]) > 0]
        own.sort(key=lambda s: (-float(s["loss"]), int(s["step"])))
        chosen += [int(s["step"]) for s in own[:per_player]]
    return sorted(chosen)
