"""The tables of this server: created, loaded, changed and kept up to date with storage.

The database is the authority and the tables in memory are copies (``tables.Table``). A change
is made under the table's lock against this server's copy, then stored; only once stored is the
copy changed and anyone told. Every committed change is announced by storage to every server,
which brings its copy up to date and pushes the new views to its own connections. Bot decisions
are claimed and played by exactly one server (``scheduler``).

:class:`TableManager` owns the parts, split by verb, and their background tasks; the routes, the
WebSockets and the scheduler ask it, and it hands each request to its part:

- ``registry``: the tables in memory as a cache of storage (load, refresh, evict), brought up
  to date by the changes storage announces;
- ``moves``: an action checked, stored, applied and broadcast;
- ``seating``: tables created, seats taken, closed, handed to bots, the next game (``quotas``);
- ``presence``: connections, seats away or back, arrival; ``heartbeat``: this server alive;
- ``janitor``: idle tables let go, abandoned ones deleted;
- ``broadcast``: a table's connections told of a change.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from typing import Any

from oriflamme.api import Action

from .broadcast import Broadcaster
from .chat import Chat
from .heartbeat import ALIVE, Heartbeat
from .janitor import ABANDONED_AFTER, Janitor
from .moves import Moves
from .presence import Presence
from .quotas import Quotas
from .registry import EVICT_AFTER, TableRegistry
from .scheduler import BotScheduler
from .seating import Seating
from .storage import CHAT, CHAT_DELETED, Change, Store
from .tables import GameSetup, Identity, Listener, NewTable, SeatSpec, Table, TableOptions
from .tasks import spawn
from .thinking import BotPool


class TableManager:
    """Every table this server holds: creates, loads, changes them and keeps them up to date."""

    def __init__(
        self,
        store: Store,
        bot_delay: float = 0.8,
        server_id: str | None = None,
        quotas: Quotas | None = None,
    ) -> None:
        self._store = store
        self.server_id = server_id or secrets.token_hex(8)
        self._background: list[asyncio.Task[Any]] = []
        self.bot_pool = BotPool()
        self.scheduler = BotScheduler(self, store, self.bot_pool, self.server_id, bot_delay)
        self.broadcast = Broadcaster(self.scheduler.offer)
        self.registry = TableRegistry(store, self.broadcast, self.scheduler.playing)
        self.presence = Presence(store, self.server_id, self.registry, self.broadcast)
        self.heartbeat = Heartbeat(store, self.server_id, self.presence.republish)
        self.moves = Moves(store, self.registry, self.broadcast, self.presence)
        self.seating = Seating(store, self.registry, self.broadcast, quotas or Quotas())
        self.janitor = Janitor(store, self.registry, self.server_id)
        self.chat = Chat(store, self.registry.cached)

    @property
    def store(self) -> Store:
        return self._store

    @property
    def quotas(self) -> Quotas:
        """What one address may do on this server."""
        return self.seating.quotas

    @quotas.setter
    def quotas(self, quotas: Quotas) -> None:
        self.seating.quotas = quotas

    # -- life cycle ------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen for other servers' changes and start playing the bots' decisions."""
        # One server per SQLite file: the connections stored by its earlier runs are gone.
        beat = await self._store.heartbeat(self.server_id, ALIVE if self._store.shared else 0.0)
        if self._store.shared:
            self._background.append(spawn(self.heartbeat.run(), "heartbeat"))
        self._background.append(
            spawn(self._store.listen(self._changed, self.registry.on_reset), "listen")
        )
        self._background.append(spawn(self.scheduler.run(), "bot-scheduler"))
        self._background.append(spawn(self.janitor.run(), "janitor"))
        await self.heartbeat.forget(beat.forgotten)  # before any table is loaded

    def drain(self) -> None:
        """This process is going away: it takes no new bot decision (another server does); those
        under way are finished by :meth:`stop`. Its connections are handed over by the app
        (``draining.hand_over`` over :meth:`connections`)."""
        self.scheduler.drain()

    @property
    def draining(self) -> bool:
        """Whether this process is going away (it serves no new connection)."""
        return self.scheduler.draining

    def connections(self) -> list[Listener]:
        """The connections following the tables held here."""
        return [listener for table in self.registry.held() for listener in table.listeners]

    async def stop(self) -> None:
        for task in self._background:
            task.cancel()
        await asyncio.gather(*self._background, return_exceptions=True)
        await self.scheduler.stop()
        await self.bot_pool.close()

    def _changed(self, change: Change) -> None:
        """Storage announced a committed change: a chat message, or a change of a table."""
        if change.kind in (CHAT, CHAT_DELETED):
            self.chat.on_change(change)
        else:
            self.registry.on_change(change)

    # -- the tables in memory (registry) ---------------------------------------------------
    def cached(self, table_id: str) -> Table | None:
        """The table if this server holds it now (nothing is loaded)."""
        return self.registry.cached(table_id)

    async def get(self, table_id: str) -> Table:
        """The table (loaded from storage on first use, refreshed if suspect); 404 if none."""
        return await self.registry.get(table_id)

    async def refresh(self, table: Table) -> None:
        """Bring the table up to storage and tell its connections if it changed."""
        await self.registry.refresh(table)

    async def identify(self, table: Table, token: str) -> Identity:
        """Who ``token`` designates at ``table`` (the table read again first if nobody)."""
        return await self.registry.identify(table, token)

    def evict_idle(self, older: float = EVICT_AFTER) -> list[str]:
        """Let go the tables idle for ``older`` seconds; return their ids."""
        return self.registry.evict_idle(older)

    async def expire_abandoned(self, after: float = ABANDONED_AFTER) -> list[str]:
        """Delete the tables nothing changed for ``after`` seconds; return their ids."""
        return await self.janitor.expire_abandoned(after)

    # -- seats (seating) -------------------------------------------------------------------
    async def create(
        self,
        setup: GameSetup,
        lang: str,
        seats: Sequence[SeatSpec],
        origin: str = "",
        options: TableOptions | None = None,
        hints: bool = False,
    ) -> NewTable:
        """Store a new table with its first game; return it with its tokens."""
        return await self.seating.create(setup, lang, seats, origin, options, hints)

    async def join(
        self,
        table: Table,
        name: str,
        seat: int | None,
        origin: str = "",
        account_id: str | None = None,
    ) -> tuple[int, str]:
        """Take an open seat (owned by ``account_id``, if any); return it and its private
        token (given once)."""
        return await self.seating.join(table, name, seat, origin, account_id)

    async def close(self, table: Table, creator_token: str) -> None:
        """The creator closes a table whose seats are not all taken."""
        await self.seating.close(table, creator_token)

    async def hand_to_bot(
        self, table: Table, creator_token: str, seat: int, level: str, expect: str
    ) -> None:
        """The creator gives an open seat, or an absent human's, to a bot."""
        await self.seating.hand_to_bot(table, creator_token, seat, level, expect)

    async def rematch(self, table: Table, token: str, game_number: int | None = None) -> None:
        """Start the next game at the table once the current one is over."""
        await self.seating.rematch(table, token, game_number)

    # -- actions (moves) -------------------------------------------------------------------
    async def act(
        self,
        table: Table,
        identity: Identity,
        data: object,
        step: int | None = None,
        game_number: int | None = None,
    ) -> bool:
        """Apply a human's action for the seat ``identity`` designates (every check first);
        True if it was stored already (the same request sent again: ``Moves.act``)."""
        return await self.moves.act(table, identity, data, step, game_number)

    async def apply_bot(
        self,
        table: Table,
        seat: int,
        action: Action,
        step: int,
        game_number: int,
        stand_in: bool = False,
    ) -> None:
        """Apply a bot's (or a stand-in's) decision made at ``step`` of game ``game_number``."""
        await self.moves.apply_bot(table, seat, action, step, game_number, stand_in)

    # -- connections (presence) ------------------------------------------------------------
    def add_listener(self, table: Table, listener: Listener) -> None:
        """Follow the table with a connection (429 ``too_many_connections`` beyond the caps)."""
        self.presence.add_listener(table, listener)

    def remove_listener(self, table: Table, listener: Listener) -> None:
        self.presence.remove_listener(table, listener)
