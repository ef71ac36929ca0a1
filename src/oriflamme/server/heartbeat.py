"""This server process's heartbeat in shared storage.

Each server stores the connections its seats have (``presence``); they count only while the
server beats. A server that misses beats for :data:`ALIVE` seconds is taken for dead: its
connections stop counting, and the seats that had no connection elsewhere become away (marked
by whichever server's beat finds them forgotten). After a gap of its own (the database away,
the process paused) a server publishes its connections again.

``ORIFLAMME_HEARTBEAT`` sets other seconds between beats (the window stays four beats): a
quicker failover, or the tests that kill or freeze a server.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable, Sequence

from .storage import Store

log = logging.getLogger("oriflamme.server")

#: The seconds ``ORIFLAMME_HEARTBEAT`` may set.
BEAT_RANGE = (0.5, 60.0)


def beat_seconds(text: str | None) -> float:
    """The seconds between heartbeats: 5, or the ``ORIFLAMME_HEARTBEAT`` given as ``text``.

    >>> beat_seconds(None), beat_seconds("1.5")
    (5.0, 1.5)
    """
    if text is None or not text.strip():
        return 5.0
    try:
        value = float(text)
        if BEAT_RANGE[0] <= value <= BEAT_RANGE[1]:  # (False for nan)
            return value
    except ValueError:
        pass
    raise ValueError(
        f"ORIFLAMME_HEARTBEAT must be the seconds between a server's heartbeats, from"
        f" {BEAT_RANGE[0]:g} to {BEAT_RANGE[1]:g}, not {text!r}"
    )


#: Seconds between this server's heartbeats (shared storage: its connections count while alive).
HEARTBEAT = beat_seconds(os.environ.get("ORIFLAMME_HEARTBEAT"))
#: Seconds without a heartbeat after which a server's connections no longer count.
ALIVE = 4 * HEARTBEAT


class Heartbeat:
    """Beats for the server ``server_id``; ``republish`` publishes its connections again."""

    def __init__(self, store: Store, server_id: str, republish: Callable[[], None]) -> None:
        self._store = store
        self._server_id = server_id
        self._republish = republish

    async def forget(self, seats: Sequence[tuple[str, int]]) -> None:
        """These seats' connections were on a server that died or stopped: those without a
        connection elsewhere are away from now on (a seat whose player never connected, or
        connected only elsewhere, is not)."""
        by_table: dict[str, list[int]] = {}
        for table_id, seat in seats:
            by_table.setdefault(table_id, []).append(seat)
        for table_id, numbers in by_table.items():
            await self._store.seat_away(table_id, numbers, ALIVE)

    async def run(self) -> None:
        """Say that this server is alive. After a gap (the database away, or this process
        paused: a VM pause, swapping) the others may have forgotten its connections, or read
        them as gone: publish them again."""
        missed = False
        last = time.monotonic()  # of the last beat that reached the database
        forgotten: list[tuple[str, int]] = []  # seats not marked away yet
        while True:
            await asyncio.sleep(HEARTBEAT)
            try:
                beat = await self._store.heartbeat(self._server_id, ALIVE)
                forgotten += beat.forgotten
                await self.forget(forgotten)
                forgotten = []
            except Exception as exc:  # the database is away: beat again later
                if not missed:
                    log.warning("heartbeat failed (%s)", type(exc).__name__)
                missed = True
                continue
            now = time.monotonic()
            if missed or not beat.kept or now - last >= ALIVE - HEARTBEAT:
                log.info("publishing this server's connections again (last beat %.0f s ago)",
                         now - last)
                self._republish()
            missed, last = False, now
