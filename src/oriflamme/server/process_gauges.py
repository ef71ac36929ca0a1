"""The gauges of what one server process holds (tables in memory, bot decisions, hints and
analyses under way, its database pool), kept current by every process on its own.

With ``serve --workers N`` a scrape is answered by any worker with the sum of every live
worker's last written values (``livesum``): a worker that wrote its gauges only when it
answered a scrape added what it held back then. So every process writes them every
:data:`REFRESH` seconds from the start of the app to its stop, whoever is scraped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from . import metrics
from .tasks import spawn

if TYPE_CHECKING:
    from .manager import TableManager
    from .review import Review

log = logging.getLogger("oriflamme.server")

#: Seconds between two writes of this process's gauges.
REFRESH = 1.0


def write(manager: TableManager, review: Review) -> None:
    """Write what this process holds now (cheap: no database query)."""
    metrics.TABLES.set(len(manager.registry.held()))
    metrics.BOTS_PLAYING.set(manager.scheduler.busy)
    in_use, idle = manager.store.pool_use()
    metrics.DB_CONNECTIONS.labels("in_use").set(in_use)
    metrics.DB_CONNECTIONS.labels("idle").set(idle)
    metrics.HINTS.labels("queued").set(review.hints.waiting)
    metrics.HINTS.labels("running").set(review.hints.running)
    metrics.ANALYSES_RUNNING.set(0 if review.analyses.running is None else 1)


class ProcessGauges:
    """Writes this process's gauges every :data:`REFRESH` seconds while the app runs."""

    def __init__(self, manager: TableManager, review: Review) -> None:
        self._manager = manager
        self._review = review
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        write(self._manager, self._review)
        self._task = spawn(self._run(), "process-gauges")

    async def stop(self) -> None:
        """Stop writing, once more with what is left (the process is then marked dead)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        write(self._manager, self._review)

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(REFRESH)
            try:
                write(self._manager, self._review)
            except Exception:  # the next write may do
                log.exception("writing this process's gauges failed")
