"""A server process whose own clock is wrong (far ahead) on a shared PostgreSQL database: what
storage keeps or refuses is decided by the database's clock, like leases and deadlines (issue
#33, item 7). The process's clock is moved by replacing ``time.time`` in the test's process."""

from __future__ import annotations

import asyncio
import time

import pytest

from oriflamme.api import GameConfig
from oriflamme.server.errors import ApiError
from oriflamme.server.lobby import LOBBY_FOR
from oriflamme.server.manager import TableManager
from oriflamme.server.quotas import Quotas
from oriflamme.server.storage.postgres import PostgresStore
from oriflamme.server.tables import HUMAN, OPEN, GameSetup, SeatSpec, TableOptions

DAY = 86400.0
SEATS = [SeatSpec(HUMAN, "Ann"), SeatSpec(OPEN)]


def test_a_process_whose_clock_is_ahead_deletes_no_live_table(
    pg_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its 30-day expiry deleted every table nothing changed for 30 days *by its clock*: with a
    clock 40 days ahead, tables created a moment ago. Its lobby and its hourly quota of tables
    were read by its clock too."""

    async def run() -> None:
        store = await PostgresStore.open(pg_url)
        manager = TableManager(store, quotas=Quotas(tables_per_hour=2))
        try:
            setup = GameSetup(GameConfig(players=2), 5)
            public = TableOptions(public=True)
            new = await manager.create(setup, "en", SEATS, origin="here", options=public)
            real = time.time
            monkeypatch.setattr(time, "time", lambda: real() + 40 * DAY)
            assert await manager.expire_abandoned() == []
            assert await store.load_table(new.table.id) is not None
            # Listed a moment ago (by the database), so still in the lobby.
            assert [e.table_id for e in await store.lobby(LOBBY_FOR, 10)] == [new.table.id]
            # The address's quota counts its tables of the last hour, by the database too.
            await manager.create(setup, "en", SEATS, origin="here")
            with pytest.raises(ApiError) as refused:
                await manager.create(setup, "en", SEATS, origin="here")
            assert refused.value.code == "too_many_tables"
        finally:
            await manager.stop()
            await store.close()

    asyncio.run(run())
