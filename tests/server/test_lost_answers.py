"""A move stored while its answer was lost: the database went away in the middle of the commit,
which went through, and the server answered ``503 database_unavailable`` ("try again"). The
player's retry, the same action at the same step, is answered as played, not ``409 stale``; and
only that player gets that answer (the fault benchmark found it: docs/benchmarks.md, run J).

The store is real (SQLite, then PostgreSQL); only its answer to one write is lost: the write is
done, then the error raised, as a connection closed during the commit does.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from oriflamme.api import GameConfig
from oriflamme.server.errors import ApiError
from oriflamme.server.manager import TableManager
from oriflamme.server.storage import Store, StoreUnavailable, open_store
from oriflamme.server.tables import HUMAN, GameSetup, SeatSpec, Table


def lose_next_answer(store: Store) -> None:
    """The store's next ``append_action`` is stored, then fails as if the connection dropped."""
    real = store.append_action

    async def stored_then_lost(*args: Any, **kwargs: Any) -> Any:
        store.append_action = real  # type: ignore[method-assign]
        await real(*args, **kwargs)
        raise StoreUnavailable("the connection was closed in the middle of operation")

    store.append_action = stored_then_lost  # type: ignore[method-assign]


async def _stored_actions(store: Store, table_id: str) -> list[Any]:
    found = await store.load_table(table_id)
    assert found is not None
    return list(found[1].actions)


@asynccontextmanager
async def _two_servers(url: str) -> AsyncIterator[tuple[Store, TableManager, TableManager]]:
    """Two servers (table managers) on the database at ``url``; A's store is yielded."""
    store_a, store_b = await open_store(url), await open_store(url)
    a, b = TableManager(store_a, bot_delay=0), TableManager(store_b, bot_delay=0)
    await a.start()
    await b.start()
    try:
        yield store_a, a, b
    finally:
        await a.stop()
        await b.stop()
        await store_a.close()
        await store_b.close()


async def _new_table(a: TableManager) -> tuple[Table, list[str]]:
    seats = [SeatSpec(HUMAN, "Ann"), SeatSpec(HUMAN, "Bob"), SeatSpec(HUMAN, "Cy")]
    new = await a.create(GameSetup(GameConfig(players=3, first_player=0), 17), "en", seats)
    return new.table, [new.seat_tokens[seat] for seat in range(3)]


@pytest.mark.parametrize("retry_on", ["same server", "another server"])
def test_the_retry_of_a_move_whose_answer_was_lost_is_answered_as_played(
    store_url: str, retry_on: str
) -> None:
    async def run() -> None:
        async with _two_servers(store_url) as (store_a, a, b):
            table, tokens = await _new_table(a)
            table_b = await b.get(table.id)  # B holds the table at step 0
            assert len(table_b.game.history) == 0
            action = table.game.legal_actions()[0]
            ann = await a.identify(table, tokens[0])
            lose_next_answer(store_a)
            with pytest.raises(StoreUnavailable):
                await a.act(table, ann, action.to_json(), step=0, game_number=table.game_number)
            assert await _stored_actions(store_a, table.id) == [action.to_json()]
            # A's copy has the move only if the store's announcement of it reached A already;
            # either way (the retry's store then conflicts) the retry must hear "played".

            server = a if retry_on == "same server" else b
            copy = await server.get(table.id)
            again = await server.identify(copy, tokens[0])
            assert await server.act(copy, again, action.to_json(), step=0,
                                    game_number=copy.game_number)  # answered as played
            assert list(copy.game.history) == [action]
            assert copy.game.current_player == 1
            assert copy.sources == ["player"]
            assert await _stored_actions(store_a, table.id) == [action.to_json()]  # stored once
            # Sent again once more (a second lost answer, a double click): the same answer.
            assert await server.act(copy, again, action.to_json(), step=0,
                                    game_number=copy.game_number)
            assert len(copy.game.history) == 1

    asyncio.run(run())


def test_only_the_player_who_made_a_move_hears_it_was_played(store_url: str) -> None:
    """Another seat guessing the action stored at a past step, the mover sending another action
    there, or the mover's action pinned to another game, all get ``409 stale``, as before: the
    answer tells nothing of what was played."""

    async def run() -> None:
        async with _two_servers(store_url) as (store_a, a, _):
            table, tokens = await _new_table(a)
            first = table.game.legal_actions()
            ann, bob = [await a.identify(table, t) for t in tokens[:2]]
            assert not await a.act(table, ann, first[0].to_json(), step=0)  # a new move
            for who, action, number in [
                (bob, first[0], table.game_number),
                (ann, first[1], table.game_number),
                (ann, first[0], table.game_number + 1),
            ]:
                with pytest.raises(ApiError) as refused:
                    await a.act(table, who, action.to_json(), step=0, game_number=number)
                assert (refused.value.status, refused.value.code) == (409, "stale")
            # Bob's own move at step 1, then Bob sending Ann's move of step 0 again: stale.
            await a.act(table, bob, table.game.legal_actions()[0].to_json(), step=1)
            with pytest.raises(ApiError) as refused:
                await a.act(table, bob, first[0].to_json(), step=0)
            assert refused.value.code == "stale"
            assert len(await _stored_actions(store_a, table.id)) == 2

    asyncio.run(run())
