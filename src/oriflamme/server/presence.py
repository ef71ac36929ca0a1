"""Who is at a table: its connections on this server, stored for the others (a seat's
connections count on every server), and the seats away or back, or whose player arrived.
"""

from __future__ import annotations

import asyncio
import logging

from .broadcast import Broadcaster
from .errors import ApiError, QuietLog
from .heartbeat import ALIVE, HEARTBEAT
from .registry import TableRegistry
from .storage import SeatCount, Store
from .tables import HUMAN, Listener, Table
from .tasks import spawn

log = logging.getLogger("oriflamme.server")
quiet = QuietLog(log)

#: Connections one seat may have open at once on one server (tabs, devices): a seat's own
#: allowance, which no spectator can use up.
MAX_SEAT_CONNECTIONS = 8
#: Connections the spectators of a table (the spectator link, the creator's, and links of seats
#: handed to bots) share on one server.
MAX_SPECTATORS = 32
#: Seconds during which connection changes are gathered into one presence write.
PRESENCE_BATCH = 0.1


class Presence:
    """The connections of the server ``server_id`` to its tables, and what follows from them."""

    def __init__(
        self, store: Store, server_id: str, registry: TableRegistry, broadcast: Broadcaster
    ) -> None:
        self._store = store
        self._server_id = server_id
        self._registry = registry
        self._broadcast = broadcast
        self._unpublished: dict[tuple[str, int], Table] = {}  #: presence not yet stored
        self._publishing: asyncio.Task[None] | None = None

    def add_listener(self, table: Table, listener: Listener) -> None:
        """Follow the table with a connection (429 ``too_many_connections`` beyond the caps)."""
        viewer = table.view_seat(listener.identity)
        if viewer is None and table.spectators() >= MAX_SPECTATORS:
            raise ApiError(429, "too_many_connections", "this table has too many spectators")
        if viewer is not None and table.open_here(viewer) >= MAX_SEAT_CONNECTIONS:
            raise ApiError(429, "too_many_connections", "this seat has too many connections")
        seat = table.add_listener(listener)
        if seat is not None:
            if table.seats[seat].arrived is None:
                # The player came: at once, not with the next presence batch (a visit shorter
                # than a batch counts too).
                spawn(self.here(table, seat), f"arrived:{table.id}")
            self.mark(table, seat)
            self._broadcast.changed(table)
        else:  # the first connection may be a spectator's: it too is told when a seat is away
            self._broadcast.watch_absence(table)

    def remove_listener(self, table: Table, listener: Listener) -> None:
        seat = table.remove_listener(listener)
        if seat is not None:
            self.mark(table, seat)
            self._broadcast.changed(table)

    def republish(self) -> None:
        """Publish again the connections of every seat this server holds."""
        for table in list(self._registry.held()):
            for seat in range(len(table.seats)):
                if table.open_here(seat):
                    self.mark(table, seat)

    def mark(self, table: Table, seat: int) -> None:
        """Store how many connections a seat has here (for the other servers, and for this one
        after a restart: only seats connected then become away): soon,
        together with the other seats whose connections changed meanwhile (one write); then
        mark the seat away, or back."""
        self._unpublished[(table.id, seat)] = table
        if self._publishing is None or self._publishing.done():
            self._publishing = spawn(self._publish_presence(), "presence")

    async def _away_or_back(self, table: Table, seat: int) -> None:
        """After a seat's connections here changed (and were published): if none is left
        anywhere, it is away from now on; if one opened, it is back."""
        try:
            if table.open_here(seat) > 0:
                await self._back(table, seat)
            elif table.seats[seat].kind == HUMAN:
                changed = await self._store.seat_away(table.id, [seat], ALIVE)
                if changed and not self._store.shared:
                    await self._registry.refresh(table)  # no announcement to learn it from
        except Exception as exc:
            quiet.warning("away", "table %s: seat %d not marked away or back (%r)", table.id,
                          seat, exc)

    async def here(self, table: Table, seat: int) -> None:
        """The seat's player is here (connected, or acting): back if away, come if never."""
        try:
            await self._back(table, seat)
        except Exception as exc:  # the database is away: presence will say it again
            log.warning("table %s: seat %d not marked here (%r)", table.id, seat, exc)

    async def _back(self, table: Table, seat: int) -> None:
        if await self._store.seat_back(table.id, seat) and not self._store.shared:
            await self._registry.refresh(table)

    async def _publish_presence(self) -> None:
        """Store the connections of the seats that changed, trying again while the database
        is away."""
        pause = PRESENCE_BATCH
        while self._unpublished:
            await asyncio.sleep(pause)
            batch, self._unpublished = self._unpublished, {}
            counts = [
                SeatCount(table_id, seat, table.open_here(seat))
                for (table_id, seat), table in batch.items()
            ]
            try:
                await self._store.set_presence(self._server_id, counts)
                pause = PRESENCE_BATCH
                for (table_id, seat), table in batch.items():
                    spawn(self._away_or_back(table, seat), f"away:{table_id}")
            except Exception as exc:
                quiet.warning("presence", "presence not stored yet (%s)", type(exc).__name__)
                self._unpublished = batch | self._unpublished
                pause = min(max(pause * 2, 0.5), HEARTBEAT)
