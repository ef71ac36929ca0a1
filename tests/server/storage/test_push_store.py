""""Your turn" pushes in storage, on both backends (storage/sql_push.py): the server's keys
stored once whoever stores them at once, push subscriptions (replaced, capped per account,
removed only by their account, gone with it), and the decisions that deserve a push: a
signed-in human's, connected nowhere, subscribed, and not pushed yet (one claim each)."""

from __future__ import annotations

import asyncio

from oriflamme.server.storage import SeatCount, SeatRecord, Store, TableRecord, Turn
from oriflamme.server.storage.push_records import PushSubscription
from test_accounts_store import own_seat, run

ALIVE = 20.0
ACTION = {"kind": "place", "card": 0, "to": "front"}


def subscription(n: int, account: str = "a1") -> PushSubscription:
    return PushSubscription(f"https://push.example/{n}", account, f"key{n}", f"auth{n}", "UA")


def test_a_server_key_is_stored_once_whoever_stores_it_at_once(store_url: str) -> None:
    async def test(store: Store) -> None:
        made = await asyncio.gather(*(store.server_key("vapid", f"key{i}") for i in range(8)))
        assert len(set(made)) == 1 and made[0].startswith("key")
        assert await store.server_key("vapid", "another") == made[0]
        assert await store.server_key("other", "x") == "x"

    run(store_url, test)
    run(store_url, lambda store: _same_after_reopening(store))


async def _same_after_reopening(store: Store) -> None:
    first = await store.server_key("vapid", "late")
    assert first != "late" and first.startswith("key")


def test_subscriptions_are_replaced_capped_and_removed_by_their_account(store_url: str) -> None:
    async def test(store: Store) -> None:
        await store.create_account("a1", "Ann", "h")
        await store.create_account("b1", "Ben", "h")
        for n in (1, 2, 3):
            assert await store.add_push_subscription(subscription(n), 3)
        assert not await store.add_push_subscription(subscription(4), 3)
        # The same browser again (new keys): replaced, not counted twice.
        again = PushSubscription("https://push.example/2", "a1", "new", "newauth")
        assert await store.add_push_subscription(again, 3)
        mine = await store.push_subscriptions("a1")
        assert [s.endpoint for s in mine] == [f"https://push.example/{n}" for n in (1, 3, 2)]
        assert mine[2] == again
        assert not await store.remove_push_subscription("https://push.example/1", "b1")
        assert await store.remove_push_subscription("https://push.example/1", "a1")
        assert not await store.remove_push_subscription("https://push.example/1", "a1")
        assert await store.remove_push_subscription("https://push.example/3")
        assert await store.add_push_subscription(subscription(5, "b1"), 3)
        assert await store.delete_account("a1", "deleted player") == []
        assert await store.push_subscriptions("a1") == []
        assert [s.endpoint for s in await store.push_subscriptions("b1")] == [
            "https://push.example/5"
        ]

    run(store_url, test)


def test_a_push_is_due_for_a_subscribed_absent_player_once_per_decision(store_url: str) -> None:
    async def test(store: Store) -> None:
        await store.create_account("a1", "Ann", "h")
        seats = (
            SeatRecord(0, "human", "Ann", None, "t" * 64),
            SeatRecord(1, "human", "Ben", None, "u" * 64),
        )
        record = TableRecord("T1", {"players": 2}, "en", "c" * 64, "s" * 64, seats, clock=7200)
        await store.create_table(record, 5, Turn(0, 0, False))
        await own_seat(store, "T1", 0, "a1")
        assert await store.pushes_due(ALIVE, 10) == []  # Ann has no subscription
        await store.add_push_subscription(subscription(1), 10)
        (due,) = await store.pushes_due(ALIVE, 10)
        assert (due.table_id, due.game, due.step, due.seat, due.account_id) == (
            "T1", 1, 0, 0, "a1"
        )
        assert due.waited >= 0 and due.clock == 7200 and due.bank is None
        # Connected on a live server: not due; the server gone silent: due again.
        await store.heartbeat("srv", ALIVE)
        await store.set_presence("srv", [SeatCount("T1", 0, 1)])
        assert await store.pushes_due(ALIVE, 10) == []
        assert len(await store.pushes_due(0.0, 10)) == 1
        await store.set_presence("srv", [SeatCount("T1", 0, 0)])
        assert len(await store.pushes_due(ALIVE, 10)) == 1
        # One claim per decision.
        assert await store.claim_push(due)
        assert not await store.claim_push(due)
        assert await store.pushes_due(ALIVE, 10) == []
        # Ben's decision (no account): nothing; Ann's next one: due.
        await store.append_action("T1", 1, 0, ACTION, Turn(1, 1, False, timed=True))
        assert await store.pushes_due(ALIVE, 10) == []
        await store.append_action("T1", 1, 1, ACTION, Turn(2, 0, False, timed=True))
        (due,) = await store.pushes_due(ALIVE, 10)
        assert due.step == 2
        # A bot's turn, or the game over: nothing.
        assert await store.set_turn("T1", 1, Turn(2, 0, True))
        assert await store.pushes_due(ALIVE, 10) == []
        assert await store.set_turn("T1", 1, Turn(2, None, False))
        assert await store.pushes_due(ALIVE, 10) == []

    run(store_url, test)
