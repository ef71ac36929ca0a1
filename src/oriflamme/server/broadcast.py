"""Telling a table's connections on this server that it changed: after every change, and at
the moment a seat turns away (or its player a no-show) while nothing else changes."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from . import absence
from .tables import Table


class Broadcaster:
    """Tells the connections of a table; ``offer`` lets this server play the bot decision
    that may follow a change (``BotScheduler.offer``)."""

    def __init__(self, offer: Callable[[Table], None]) -> None:
        self.offer = offer

    def changed(self, table: Table, offer: bool = True) -> None:
        """Tell the table's connections here; with ``offer``, let this server play the bot
        decision that may follow (a change made elsewhere is left to the server that made it,
        or to whichever server's scan finds it first)."""
        table.touched = time.monotonic()
        for listener in list(table.listeners):
            listener.notify()
        if offer:
            self.offer(table)
        self.watch_absence(table)

    def watch_absence(self, table: Table) -> None:
        """Views show a seat as away (or a no-show) once it reached the table's limit, and
        whether it may be handed to a bot (``absence``): tell the connections at that moment
        (nothing else changes then)."""
        if not table.listeners:
            return
        now = time.time()
        moment = absence.next_change(table, now)
        if moment is None or (table.absence_timer is not None and table.absence_due <= moment):
            return
        if table.absence_timer is not None:
            table.absence_timer.cancel()  # a sooner moment came up (a seat just left)

        def fire() -> None:
            table.absence_timer = None
            table.version += 1
            self.changed(table, offer=False)

        table.absence_due = moment
        table.absence_timer = asyncio.get_running_loop().call_later(moment - now + 0.05, fire)
