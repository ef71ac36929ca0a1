"""The push service of one server process: its keys (made or read on start) and its sender's
loop, started and stopped with the app."""

from __future__ import annotations

import asyncio

from ..storage import Store
from ..tasks import spawn
from .keys import VapidKeys, load_or_make
from .sender import PushSender, PushSettings, TableSource


class PushService:
    def __init__(self, store: Store, tables: TableSource, settings: PushSettings) -> None:
        self.store = store
        self.settings = settings
        self._tables = tables
        self._keys: VapidKeys | None = None
        self._loop: asyncio.Task[None] | None = None

    @property
    def keys(self) -> VapidKeys:
        if self._keys is None:
            raise RuntimeError("the push service has not started")
        return self._keys

    async def start(self) -> None:
        self._keys = await load_or_make(self.store)
        sender = PushSender(self.store, self._tables, self._keys, self.settings)
        self._loop = spawn(sender.run(), "push")

    async def stop(self) -> None:
        if self._loop is not None:
            self._loop.cancel()
            await asyncio.gather(self._loop, return_exceptions=True)
