"""The tables this server holds in memory: a cache of storage, the authority.

A table is loaded on first use and let go when idle (``evict_idle``); a copy is never older
than a change this server was told of. Storage announces every committed change, by any server,
to every server (``on_change``): the very next action of a game is applied at once; anything
else is caught up in one task per table, which reads what changed. When listening (re)starts,
every copy is suspect and read again on its next use, with the seats connected elsewhere
(``on_reset``): announcements made while nobody listened are lost.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable, Iterable

from . import log_context
from .announced import ALL, Announced
from .broadcast import Broadcaster
from .errors import ApiError, QuietLog, unknown_table
from .heartbeat import ALIVE
from .storage import ACTION, GAME, PRESENCE, Change, Store
from .tables import Identity, Table
from .tasks import spawn

log = logging.getLogger("oriflamme.server")
quiet = QuietLog(log)

#: Seconds a table no connection follows stays in memory after its last use.
EVICT_AFTER = 600.0
#: Seconds between reloads of a table to look for a token it does not know (a seat joined
#: through another server), whatever the number of unknown tokens tried.
TOKEN_REFRESH = 1.0


class TableRegistry:
    """The tables in memory, loaded, refreshed and let go; ``playing`` says whether this
    server is playing a bot decision of a table (such a table stays)."""

    def __init__(
        self, store: Store, broadcast: Broadcaster, playing: Callable[[str], bool]
    ) -> None:
        self._store = store
        self._broadcast = broadcast
        self._playing = playing
        self._tables: dict[str, Table] = {}
        self._loading: dict[str, asyncio.Future[Table]] = {}
        #: What was announced of the tables being loaded (their copy may predate it).
        self._announced: dict[str, Announced] = {}
        self._stale: dict[str, Announced] = {}  #: tables to bring up to date
        self._elsewhere_reads = 0  #: reads of the seats connected elsewhere, started so far

    def cached(self, table_id: str) -> Table | None:
        """The table if this server holds it now (nothing is loaded)."""
        return self._tables.get(table_id)

    def held(self) -> list[Table]:
        """Every table this server holds now."""
        return list(self._tables.values())

    def add(self, table: Table) -> None:
        """Hold a table just created (and stored) by this server."""
        self._tables[table.id] = table

    def forget(self, table_ids: Iterable[str]) -> None:
        """Let go of tables deleted from storage."""
        for table_id in table_ids:
            self._tables.pop(table_id, None)

    def evict_idle(self, older: float = EVICT_AFTER) -> list[str]:
        """Let go the tables no connection follows and nobody used for ``older`` seconds (they
        are loaded again from storage when needed); return their ids."""
        now = time.monotonic()
        gone = [
            table_id
            for table_id, table in self._tables.items()
            if not table.listeners
            and not table.lock.locked()
            and table_id not in self._stale
            and now - table.touched >= older
            and not self._playing(table_id)
        ]
        for table_id in gone:
            del self._tables[table_id]
        return gone

    async def get(self, table_id: str) -> Table:
        """The table (loaded from storage on first use, refreshed if suspect); 404 if none."""
        table = self._tables.get(table_id)
        if table is not None:
            table.touched = time.monotonic()
            if table.suspect:
                await self._recover(table)
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = self._loading[table_id] = asyncio.get_running_loop().create_future()
            self._announced[table_id] = Announced()
            try:
                table = await self._load_current(table_id)
                self._tables[table_id] = table  # from now on, announcements reach it
                loading.set_result(table)
            except BaseException as exc:
                loading.set_exception(exc)
                loading.exception()  # retrieved: nobody else may be waiting
                raise
            finally:
                del self._loading[table_id]
                del self._announced[table_id]
            if self._store.shared:
                await self.read_elsewhere(table)
            self._broadcast.offer(table)
            return table
        return await asyncio.shield(loading)

    async def _load_current(self, table_id: str) -> Table:
        """Load the table, and read it again for as long as a change announced meanwhile may
        be missing from the copy: a copy is never older than a change this server was told
        of (the announcement found no table here to bring up to date)."""
        table = await self._load(table_id)
        while not self._announced[table_id].known_by(table):
            self._announced[table_id] = Announced()
            log.debug("table %s changed while it was loaded: reading it again", table_id)
            await self.reload_locked(table)  # nobody else holds this copy yet
        return table

    async def _load(self, table_id: str) -> Table:
        found = await self._store.load_table(table_id)
        if found is None:
            raise unknown_table()
        try:
            return Table(*found)
        except ValueError:  # ConfigError, ActionError, RecordError
            log.exception("table %s cannot be rebuilt from storage", table_id)
            raise ApiError(503, "table_unavailable", "this table cannot be loaded") from None

    async def refresh(self, table: Table) -> None:
        """Bring the table up to storage and tell its connections if it changed."""
        async with table.lock:
            changed = await self.reload_locked(table)
        if changed:
            self._broadcast.changed(table)

    async def _recover(self, table: Table) -> None:
        """Bring a suspect copy (listening restarted, a catch-up failed) up to storage: the
        seats connected elsewhere too, since their announcements may have been missed. Presence
        first: the copy stays suspect until both are read."""
        if self._store.shared and await self.read_elsewhere(table):
            self._broadcast.changed(table)
        await self.refresh(table)

    async def read_elsewhere(self, table: Table) -> bool:
        """Read which seats are connected through other servers; True if that changed. Of two
        reads under way at once, the one started last wins: it saw every presence change
        announced before it began, while the other may predate one."""
        self._elsewhere_reads += 1
        order = self._elsewhere_reads
        seats = frozenset(await self._store.present_seats(table.id, ALIVE))
        if order < table.elsewhere_read:
            return False  # a later read was applied meanwhile
        table.elsewhere_read = order
        return table.set_elsewhere(seats)

    async def reload_locked(self, table: Table) -> bool:
        found = await self._store.load_table(table.id)
        if found is None:
            return False
        table.suspect = False
        try:
            return table.load(*found)
        except ValueError:
            log.exception("table %s cannot be rebuilt from storage", table.id)
            raise ApiError(503, "table_unavailable", "this table cannot be loaded") from None

    async def identify(self, table: Table, token: str) -> Identity:
        """Who ``token`` designates at ``table``; if nobody, the table is read again from
        storage first (a seat just joined through another server), at most once a second."""
        try:
            identity = table.identify(token)
        except ApiError:
            now = time.monotonic()
            if now - table.token_refreshed < TOKEN_REFRESH:
                raise
            table.token_refreshed = now
            await self.refresh(table)
            identity = table.identify(token)
        log_context.about(table.id, identity.seat)  # the log lines of this request say whose
        return identity

    def on_change(self, change: Change) -> None:
        """Storage announced a committed change (by any server, this one included)."""
        table = self._tables.get(change.table_id)
        if table is None:
            announced = self._announced.get(change.table_id)
            if announced is not None:  # being loaded, perhaps from before this change
                announced.note(change)
            return  # not held here: it will be loaded fresh when needed
        if change.kind in (ACTION, GAME) and (change.game, change.step) <= (
            table.game_number,
            len(table.game.history),
        ):
            return  # already known (this server's own write)
        if (
            change.kind == ACTION
            and change.action is not None
            and (change.game, change.step - 1) == (table.game_number, len(table.game.history))
            and not table.lock.locked()
            and table.id not in self._stale
        ):
            # The usual case: the very next action of this game, nobody changing the table here.
            try:
                table.extend([json.loads(change.action)], [change.source])
            except ValueError:
                log.warning("table %s: an announced action does not apply", table.id)
            else:
                self._broadcast.changed(table, offer=False)
                return
        stale = self._stale.get(table.id)
        if stale is None:
            stale = self._stale[table.id] = Announced()
            spawn(self._catch_up(table), f"catch-up:{table.id}")
        stale.note(change)

    def on_reset(self) -> None:
        """Listening (re)started: any table may have changed meanwhile."""
        for announced in self._announced.values():
            announced.kinds.add(ALL)  # being loaded: read it again once loaded
        for table in self._tables.values():
            table.suspect = True
            if table.listeners:
                spawn(self._recover(table), f"refresh:{table.id}")

    async def _catch_up(self, table: Table) -> None:
        """Apply the announced changes of ``table`` until none is left (a change announced
        meanwhile is recorded in ``_stale`` and done by this same task)."""
        while (stale := self._stale.get(table.id)) and stale.kinds:
            kinds, upto = stale.kinds, stale.upto
            stale.kinds = set()
            try:
                changed = False
                if PRESENCE in kinds:
                    changed = await self.read_elsewhere(table)
                if kinds - {PRESENCE}:
                    async with table.lock:
                        known = (table.game_number, len(table.game.history)) >= upto
                        if kinds == {ACTION} and known:
                            pass  # this server's own action, announced before it was kept
                        elif ALL in kinds:
                            changed = await self.reload_locked(table) or changed
                        else:
                            done = len(table.game.history)
                            actions = await self._store.load_actions(
                                table.id, table.game_number, done
                            )
                            played_by = await self._store.load_sources(
                                table.id, table.game_number, done
                            )
                            changed = table.extend(actions, played_by) or changed
                if changed:
                    self._broadcast.changed(table, offer=False)
            except Exception as exc:
                quiet.warning("catch-up", "table %s: cannot catch up (%r); reloading later",
                              table.id, exc)
                table.suspect = True
        self._stale.pop(table.id, None)
