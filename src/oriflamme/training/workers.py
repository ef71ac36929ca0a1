"""Where the games of training are played: in this process, in worker processes, or on Ray.

:class:`Workers` maps a function over a list of argument tuples and returns the results in the
order of the list, whatever the backend or the number of workers: a run's results depend on
its seed and settings only. The process pool is started once for the whole run (forked on
Linux, like the tournament's, so that bots registered at run time are known in the workers).
"""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Callable, Sequence
from typing import Any

BACKENDS = ("local", "ray")


class WorkersError(RuntimeError):
    """A backend that cannot run here (Ray missing, no cluster at the address)."""


class Workers:
    """``jobs`` workers on ``backend``; use as a context manager (the pool is closed after)."""

    def __init__(self, jobs: int, backend: str = "local", address: str | None = None) -> None:
        if backend not in BACKENDS:
            raise WorkersError(f"unknown backend {backend!r} (choose from {', '.join(BACKENDS)})")
        if jobs < 1:
            raise WorkersError(f"--jobs must be at least 1, not {jobs}")
        self.jobs, self.backend, self.address = jobs, backend, address
        self._pool: Any = None
        self._ray: Any = None
        self._started_ray = False

    def __enter__(self) -> Workers:
        if self.backend == "ray":
            try:
                self._ray = importlib.import_module("ray")
            except ImportError:
                raise WorkersError("the ray backend needs Ray: pip install 'oriflamme[ray]'"
                                   ) from None
            if not self._ray.is_initialized():
                try:
                    if self.address:
                        self._ray.init(address=self.address, logging_level=logging.WARNING)
                    else:
                        self._ray.init(num_cpus=self.jobs, include_dashboard=False,
                                       logging_level=logging.WARNING)
                except Exception as exc:  # Ray raises a bare Exception when its node times out
                    raise WorkersError(f"cannot start or reach Ray: {exc}") from None
                self._started_ray = True
        elif self.jobs > 1:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            context = (multiprocessing.get_context("fork") if sys.platform.startswith("linux")
                       else None)
            self._pool = ProcessPoolExecutor(max_workers=self.jobs, mp_context=context)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._started_ray:
            self._ray.shutdown()
            self._started_ray = False

    def map(self, function: Callable[..., Any], calls: Sequence[tuple[Any, ...]]) -> list[Any]:
        """``[function(*args) for args in calls]``, run by the workers, in order."""
        if self._ray is not None:
            task = self._ray.remote(function)
            return list(self._ray.get([task.remote(*args) for args in calls]))
        if self._pool is not None:
            futures = [self._pool.submit(function, *args) for args in calls]
            return [future.result() for future in futures]
        return [function(*args) for args in calls]


def split(items: Sequence[Any], parts: int) -> list[list[Any]]:
    """``items`` in ``parts`` consecutive chunks of nearly equal size (none empty).

    >>> split(list(range(7)), 3)
    [[0, 1, 2], [3, 4], [5, 6]]
    """
    parts = max(1, min(parts, len(items)))
    size, extra = divmod(len(items), parts)
    out, start = [], 0
    for i in range(parts):
        end = start + size + (i < extra)
        out.append(list(items[start:end]))
        start = end
    return out
