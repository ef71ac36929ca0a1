"""Races between servers on one PostgreSQL database, made to happen at a chosen moment.

Two table managers (the servers' core) share a real database; one of them reads it through a
store that can be held just after a read, so that another server's change lands exactly in the
window the race needs (issue #33).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from oriflamme.api import GameConfig
from oriflamme.server.manager import TableManager
from oriflamme.server.storage import Change, GameRecord, TableRecord
from oriflamme.server.storage.postgres import PostgresStore
from oriflamme.server.tables import HUMAN, GameSetup, SeatSpec


class HeldLoads(PostgresStore):
    """A PostgreSQL store whose next table load waits, after reading, until released: the read
    is done (its snapshot taken), the copy not yet in the server's memory."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hold = False
        self.read = asyncio.Event()
        self.release = asyncio.Event()
        self.announced: list[Change] = []
        #: Set once this store listens: a change announced before is never heard.
        self.listening = asyncio.Event()

    async def load_table(self, table_id: str) -> tuple[TableRecord, GameRecord] | None:
        found = await super().load_table(table_id)
        if self.hold:
            self.hold = False
            self.read.set()
            await self.release.wait()
        return found

    async def listen(self, changed: Callable[[Change], None], reset: Callable[[], None]) -> None:
        def seen(change: Change) -> None:
            self.announced.append(change)
            changed(change)

        def started() -> None:
            self.listening.set()
            reset()

        await super().listen(seen, started)


async def _until(condition: Callable[[], bool], what: str) -> None:
    for _ in range(500):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"never: {what}")


def test_a_table_loaded_while_another_server_changes_it_is_not_stale(pg_url: str) -> None:
    """Server B loads a table while server A stores an action of it: the announcement of that
    action reaches B before its copy is in memory. B's copy must still include it (issue #33,
    item 1: it stayed at the older step until the table's next change)."""

    async def run() -> None:
        store_a = await PostgresStore.open(pg_url)
        store_b = await HeldLoads.open(pg_url)
        assert isinstance(store_b, HeldLoads)
        a, b = TableManager(store_a, bot_delay=0), TableManager(store_b, bot_delay=0)
        await a.start()
        await b.start()
        try:
            # B listens on a connection it opens in the background: before it does, A's
            # changes are not heard (a busy machine opened it after A's table existed).
            await asyncio.wait_for(store_b.listening.wait(), 10)
            seats = [SeatSpec(HUMAN, "Ann"), SeatSpec(HUMAN, "Bob")]
            config = GameConfig(players=2, first_player=0)
            new = await a.create(GameSetup(config, 17), "en", seats)
            table_id, token = new.table.id, new.seat_tokens[0]
            await _until(lambda: any(c.table_id == table_id for c in store_b.announced),
                         "B listens")
            store_b.hold = True
            loading = asyncio.create_task(b.get(table_id))
            await asyncio.wait_for(store_b.read.wait(), 10)
            # B has read the table at step 0; A now stores step 1 and B is told of it.
            table_a = await a.get(table_id)
            action = table_a.game.legal_actions()[0].to_json()
            await a.act(table_a, await a.identify(table_a, token), action, step=0)
            await _until(
                lambda: any(c.table_id == table_id and c.step == 1 for c in store_b.announced),
                "B told of step 1",
            )
            store_b.release.set()
            table_b = await asyncio.wait_for(loading, 10)
            assert len(table_b.game.history) == 1
            assert table_b.game.current_player == table_a.game.current_player == 1
            assert (await b.get(table_id)) is table_b
        finally:
            await a.stop()
            await b.stop()
            await store_a.close()
            await store_b.close()

    asyncio.run(run())
