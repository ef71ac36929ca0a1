"""Running the games of a tournament: in this process, in a process pool, or on Ray.

The games are cut into small batches (a few per worker, so the progress stays smooth) and the
records come back sorted by game index: the results never depend on the backend or on the
number of workers, only the timings do.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .schedule import GameJob, Plan, SettingsError
from .worker import GameFailed, GameRecord, Table, play_batch

if TYPE_CHECKING:
    from concurrent.futures import Future

BACKENDS = ("local", "ray")
#: Called with the number of games just finished.
ProgressCallback = Callable[[int], None]
#: How many batches each worker gets (more: smoother progress; fewer: less overhead).
BATCHES_PER_WORKER = 8
MAX_BATCH = 10


class BackendError(RuntimeError):
    """A backend that cannot run here (Ray not installed, no cluster at the address)."""


def batches(jobs: Sequence[GameJob], workers: int) -> list[list[GameJob]]:
    """Consecutive batches of ``jobs``, about ``BATCHES_PER_WORKER`` per worker."""
    size = max(1, min(MAX_BATCH, -(-len(jobs) // (workers * BATCHES_PER_WORKER))))
    return [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]


def run_local(
    jobs: Sequence[GameJob], workers: int, on_done: ProgressCallback | None = None
) -> list[GameRecord]:
    """Play the jobs in ``workers`` processes (1: in this process, without a pool)."""
    records: list[GameRecord] = []
    if workers == 1:
        table = Table()  # the set-up and bot makers prepared once, not once a game
        for job in jobs:
            records.extend(_reported([table.play(job)], on_done))
        return records
    # A process pool (and logging, for Ray) is imported only when used: a tournament in one
    # process starts faster without them.
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    # Forked workers inherit the bots registered at run time (e.g. by a script or a test);
    # elsewhere (macOS, Windows) the workers know the bots their imports register.
    context = multiprocessing.get_context("fork") if sys.platform.startswith("linux") else None
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context)
    try:
        pending: set[Future[list[GameRecord]]] = {
            pool.submit(play_batch, batch) for batch in batches(jobs, workers)
        }
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                records.extend(_reported(future.result(), on_done))
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    return sorted(records, key=lambda r: r.index)


def run_ray(
    jobs: Sequence[GameJob],
    workers: int,
    address: str | None = None,
    on_done: ProgressCallback | None = None,
) -> list[GameRecord]:
    """Play the jobs as Ray tasks: on the Ray already initialised in this process, on the
    cluster at ``address``, or on a local Ray started with ``workers`` CPUs (shut down after)."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise BackendError(
            "the ray backend needs Ray: pip install 'oriflamme[ray]' (or 'ray[default]')"
        ) from None
    import logging

    started = not ray.is_initialized()
    if started:
        try:
            if address:
                ray.init(address=address, logging_level=logging.WARNING)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, logging_level=logging.WARNING)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise BackendError(f"cannot start or reach Ray: {exc}") from None
    records: list[GameRecord] = []
    try:
        task = ray.remote(play_batch)
        pending = [task.remote(batch) for batch in batches(jobs, workers)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                try:
                    batch_records = ray.get(ref)
                except GameFailed as exc:  # Ray re-raises the task's exception type
                    for other in pending:
                        ray.cancel(other)
                    raise GameFailed(str(exc.args[0]) if exc.args else str(exc)) from None
                records.extend(_reported(batch_records, on_done))
    finally:
        if started:
            ray.shutdown()
    return sorted(records, key=lambda r: r.index)


def _reported(records: list[GameRecord], on_done: ProgressCallback | None) -> list[GameRecord]:
    if on_done is not None:
        on_done(len(records))
    return records


def play(
    laid_out: Plan,
    backend: str = "local",
    workers: int = 1,
    ray_address: str | None = None,
    on_done: ProgressCallback | None = None,
) -> list[GameRecord]:
    """Play every game of a planned tournament; the records come back in game order."""
    if backend not in BACKENDS:
        raise SettingsError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
    if workers < 1:
        raise SettingsError(f"--jobs must be at least 1, not {workers}")
    if backend == "ray":
        return run_ray(laid_out.jobs, workers, ray_address, on_done)
    return run_local(laid_out.jobs, workers, on_done)
