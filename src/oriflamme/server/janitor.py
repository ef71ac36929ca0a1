"""The janitor: idle tables let go from memory, abandoned ones deleted from storage.

Every server lets its own idle tables go; the deletion of the tables nothing changed for
:data:`ABANDONED_AFTER` seconds is a job claimed in storage, done by one server at a time, by
the database's clock.
"""

from __future__ import annotations

import asyncio
import logging
import time

from .registry import TableRegistry
from .storage import Store

log = logging.getLogger("oriflamme.server")

#: Seconds without a change after which a table is deleted (30 days), and how often one server
#: looks for such tables.
ABANDONED_AFTER, EXPIRY_EVERY = 30 * 86400.0, 3600.0
#: Seconds between looks for tables to let go from memory.
JANITOR_EVERY = 60.0


class Janitor:
    """Cleans up after the tables of the server ``server_id``."""

    def __init__(self, store: Store, registry: TableRegistry, server_id: str) -> None:
        self._store = store
        self._registry = registry
        self._server_id = server_id

    async def run(self) -> None:
        """Let idle tables go from memory; delete abandoned ones (one server at a time)."""
        last_expiry = -EXPIRY_EVERY
        while True:
            await asyncio.sleep(JANITOR_EVERY)
            self._registry.evict_idle()
            if time.monotonic() - last_expiry < EXPIRY_EVERY:
                continue
            try:
                if await self._store.claim_job("expire", self._server_id, EXPIRY_EVERY * 0.9):
                    last_expiry = time.monotonic()
                    await self.expire_abandoned()
            except Exception as exc:  # the database is away: next round
                log.warning("clean-up postponed (%s)", type(exc).__name__)

    async def expire_abandoned(self, after: float = ABANDONED_AFTER) -> list[str]:
        """Delete the tables nothing changed for ``after`` seconds by the database's clock (from
        storage and memory): a server whose own clock is wrong deletes no live table."""
        deleted: list[str] = []
        while batch := await self._store.delete_abandoned(after, 500):
            deleted += batch
            self._registry.forget(batch)
        if deleted:
            log.info("deleted %d tables abandoned for %d days", len(deleted), after // 86400)
        return deleted
