"""A move whose request is cancelled while it is being stored (its socket closed: a client that
left, a process handing its sockets over as it drains) is stored, taken by the table, and told
to the table's other connections. Before, the last was skipped: the others saw the move only
with the table's next change (found by the rolling-restart benchmark, issue #32)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from oriflamme.api import GameConfig
from oriflamme.server.manager import TableManager
from oriflamme.server.storage import open_store
from oriflamme.server.tables import HUMAN, GameSetup, Identity, Role, SeatSpec


class Follower:
    """A connection of the other seat: counts what it is told."""

    def __init__(self, seat: int) -> None:
        self.identity = Identity(Role.SEAT, seat)
        self.told = 0

    def notify(self) -> None:
        self.told += 1

    def push(self, message: dict[str, Any]) -> None:
        pass

    def hand_over(self) -> None:
        pass


async def _quiet(follower: Follower) -> None:
    """Wait until nothing has been told to ``follower`` for a while."""
    told = -1
    while told != follower.told:
        told = follower.told
        await asyncio.sleep(0.5)


def test_a_move_cancelled_while_stored_is_told_to_the_other_connections(tmp_path: Path) -> None:
    async def run() -> None:
        store = await open_store(str(tmp_path / "games.sqlite3"))
        manager = TableManager(store, bot_delay=0)
        await manager.start()
        try:
            seats = [SeatSpec(HUMAN, "Ann"), SeatSpec(HUMAN, "Bob")]
            new = await manager.create(GameSetup(GameConfig(players=2, first_player=0), 3),
                                       "en", seats)
            table = new.table
            follower = Follower(1)
            manager.add_listener(table, follower)
            await _quiet(follower)  # its arrival told (the seat came), and stored
            storing, release = asyncio.Event(), asyncio.Event()
            append = store.append_action

            async def slow_append(*args: Any, **kwargs: Any) -> Any:
                storing.set()
                await release.wait()
                return await append(*args, **kwargs)

            store.append_action = slow_append  # type: ignore[method-assign]
            action = table.game.legal_actions()[0].to_json()
            request = asyncio.create_task(
                manager.act(table, await manager.identify(table, new.seat_tokens[0]), action, 0)
            )
            await asyncio.wait_for(storing.wait(), 10)
            request.cancel()  # the socket that sent it closed
            await asyncio.sleep(0)
            # Meanwhile another request holds the table (it was waiting for the lock, which the
            # cancelled one gave up): the announcement of the stored move cannot bring the table
            # up to date here and tell the connections (storage.listen: it waits for the lock).
            async with table.lock:
                told_before = follower.told
                release.set()
                for _ in range(500):
                    if len(table.game.history) == 1:
                        break
                    await asyncio.sleep(0.01)
                assert len(table.game.history) == 1  # taken by the table
            await asyncio.sleep(0.5)  # any catch-up, once the lock is free
            assert follower.told > told_before  # and told to the other seat's connection
            stored = await store.load_table(table.id)
            assert stored is not None and len(stored[1].actions) == 1
        finally:
            await manager.stop()
            await store.close()

    asyncio.run(run())
