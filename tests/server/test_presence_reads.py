"""Which seats are connected through other servers, as a server reads it from shared storage
(PostgreSQL): never older than what it was told, even when told while it was not listening
(the database away) or while an older read of its own was still under way.

Server B here is a :class:`TableManager` that is never started: it hears no announcement
but those a test hands it, so each test decides what B is told and when.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi.testclient import TestClient

from oriflamme.server.app import create_app
from oriflamme.server.heartbeat import ALIVE
from oriflamme.server.manager import TableManager
from oriflamme.server.storage import PRESENCE, Change, SeatCount
from oriflamme.server.storage.postgres import PostgresStore
from test_cancelled_moves import Follower

HUMANS = [{"kind": "human", "name": name} for name in ("Ann", "Ben", "Cid")]
ELSEWHERE = "server-elsewhere"


def new_table(a: TestClient) -> tuple[str, list[str]]:
    made = a.post("/api/tables", json={"players": 3, "seats": HUMANS})
    assert made.status_code == 201, made.text
    return made.json()["table_id"], [seat["token"] for seat in made.json()["seats"]]


async def connect_elsewhere(store: PostgresStore, table_id: str, seat: int) -> None:
    """A live server other than B now holds a connection of ``seat``."""
    await store.heartbeat(ELSEWHERE, ALIVE)
    await store.set_presence(ELSEWHERE, [SeatCount(table_id, seat, 1)])


async def eventually(check: Callable[[], bool], seconds: float = 5.0) -> bool:
    deadline = asyncio.get_running_loop().time() + seconds
    while not check():
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.02)
    return True


def on_b(pg_url: str, body: Callable[[TableManager, Any], Awaitable[None]],
         store_class: type[PostgresStore] = PostgresStore) -> None:
    async def run() -> None:
        store = await store_class.open(pg_url)
        b = TableManager(store, bot_delay=0)  # not started: it hears no announcement by itself
        try:
            await body(b, store)
        finally:
            await b.bot_pool.close()
            await store.close()

    asyncio.run(run())


def test_a_connection_made_elsewhere_while_nobody_listened_is_read_on_the_next_use(
    pg_url: str,
) -> None:
    """Listening restarts (``on_reset``) after the database was away: the presence
    announcements of the gap are lost, so B reads the seats connected elsewhere again with
    the table, not only the table."""
    with TestClient(create_app(pg_url, bot_delay=0, tune_gc=False)) as a:
        table_id, _ = new_table(a)

        async def body(b: TableManager, store: PostgresStore) -> None:
            table = await b.get(table_id)
            assert table.elsewhere == frozenset()
            await connect_elsewhere(store, table_id, 2)  # announced while B did not listen
            b.registry.on_reset()
            assert (await b.get(table_id)).elsewhere == frozenset({2})

        on_b(pg_url, body)


def test_a_followed_table_reads_the_connections_made_elsewhere_as_soon_as_listening_restarts(
    pg_url: str,
) -> None:
    """A table someone follows is not left until its next use: its followers are shown the
    seat connected elsewhere during the gap (what the fault run waited for in vain)."""
    with TestClient(create_app(pg_url, bot_delay=0, tune_gc=False)) as a:
        table_id, _ = new_table(a)

        async def body(b: TableManager, store: PostgresStore) -> None:
            table = await b.get(table_id)
            follower = Follower(0)
            table.add_listener(follower)
            await connect_elsewhere(store, table_id, 1)
            b.registry.on_reset()
            assert await eventually(lambda: table.elsewhere == frozenset({1}))
            assert follower.told  # and its follower is told

        on_b(pg_url, body)


class HeldStore(PostgresStore):
    """Real storage whose next read of the present seats, once ``hold`` is set, keeps its
    answer until ``hold`` is set free (a read slow to come back under load)."""

    hold: asyncio.Event | None = None
    answered: asyncio.Event  #: set once the held read has its answer (given by the test)

    async def present_seats(self, table_id: str, alive: float) -> set[int]:
        seats = await super().present_seats(table_id, alive)
        hold, self.hold = self.hold, None
        if hold is not None:
            self.answered.set()
            await hold.wait()
        return seats


def test_an_older_presence_read_never_overwrites_a_newer_one(pg_url: str) -> None:
    """B loads the table and reads who is connected elsewhere (nobody); before that answer is
    applied, a seat connects elsewhere and B, told of it, reads it again. The first answer,
    older, must not undo the second."""
    with TestClient(create_app(pg_url, bot_delay=0, tune_gc=False)) as a:
        table_id, _ = new_table(a)

        async def body(b: TableManager, store: HeldStore) -> None:
            store.answered = asyncio.Event()
            hold = store.hold = asyncio.Event()
            loading = asyncio.create_task(b.get(table_id))
            await asyncio.wait_for(store.answered.wait(), 10)  # the first read: nobody
            table = b.registry.cached(table_id)
            assert table is not None and table.elsewhere == frozenset()
            await connect_elsewhere(store, table_id, 0)
            b.registry.on_change(Change(table_id, PRESENCE, 0, 0))
            assert await eventually(lambda: table.elsewhere == frozenset({0}))
            hold.set()  # the older answer comes back now
            assert (await loading).elsewhere == frozenset({0})

        on_b(pg_url, body, HeldStore)
