"""Accounts in storage, on both backends (storage/sql_accounts.py): accounts unique by name key,
flags, sessions (expiry, renewal, revocation), failed sign-ins counted by key, passkeys, the
challenges of passkey ceremonies (served once), and an account's deletion (its seats stay,
owned by nobody, renamed)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from oriflamme.server.storage import (
    AccountNameTaken,
    Challenge,
    PasskeyRecord,
    SeatRecord,
    Store,
    StoreConflict,
    TableRecord,
    Turn,
    open_store,
)
from oriflamme.server.storage.copy import copy_sqlite_to_postgres
from oriflamme.server.storage.dialect import Sql

DAY = 86400.0


def run(url: str, test: Callable[[Store], Awaitable[None]]) -> None:
    async def main() -> None:
        store = await open_store(url)
        try:
            await test(store)
        finally:
            await store.close()

    asyncio.run(main())


async def own_seat(store: Store, table_id: str, seat: int, account_id: str) -> None:
    """Give a seat to an account (what part B's seating does), in SQL."""
    q = Sql(store.dialect)  # type: ignore[attr-defined]
    await store._write_one(q.statement(  # type: ignore[attr-defined]
        f"UPDATE seats SET account_id = {q(account_id)} WHERE table_id = {q(table_id)}"
        f" AND seat = {q(seat)}"
    ))


def test_accounts_are_unique_by_what_their_names_read(store_url: str) -> None:
    async def test(store: Store) -> None:
        ann = await store.create_account("a1", "Ann", "hash-a")
        assert (ann.account_id, ann.name, ann.suspended, ann.admin) == ("a1", "Ann", False, False)
        assert ann.created > 0
        for twin in ("ann", "ANN", "Ａｎｎ", " ann", "A\u200bnn"):
            with pytest.raises(AccountNameTaken):
                await store.create_account("a2", twin, "hash")
        assert await store.account("a1") == ann
        assert await store.account_by_name("ａＮＮ") == ann
        assert await store.account("a2") is None
        assert await store.account_by_name("Ben") is None
        assert await store.password_hash("a1") == "hash-a"
        assert await store.set_password_hash("a1", "hash-b")
        assert await store.password_hash("a1") == "hash-b"
        assert not await store.set_password_hash("nobody", "x")
        assert await store.password_hash("nobody") is None

    run(store_url, test)


def test_flags_and_the_list_of_accounts(store_url: str) -> None:
    async def test(store: Store) -> None:
        for i, name in enumerate(("Cid", "ann", "Ben")):
            await store.create_account(f"id{i}", name, None)
        suspended = await store.set_account_flags("id2", suspended=True)
        assert suspended is not None and suspended.suspended and not suspended.admin
        admin = await store.set_account_flags("id2", admin=True)
        assert admin is not None and admin.suspended and admin.admin
        back = await store.set_account_flags("id2", suspended=False)
        assert back is not None and not back.suspended and back.admin
        assert await store.set_account_flags("nobody", admin=True) is None
        first = await store.list_accounts(2)
        assert [a.name for a in first] == ["ann", "Ben"]
        rest = await store.list_accounts(2, after="ben")
        assert [a.name for a in rest] == ["Cid"]

    run(store_url, test)


def test_sessions_expire_renew_and_end(store_url: str) -> None:
    async def test(store: Store) -> None:
        ann = await store.create_account("a1", "Ann", None)
        ben = await store.create_account("b1", "Ben", None)
        one = await store.create_session("h1", "a1", "csrf1", 30 * DAY, "Firefox")
        await store.create_session("h2", "a1", "csrf2", 30 * DAY)
        await store.create_session("h3", "b1", "csrf3", 30 * DAY)
        gone = await store.create_session("h4", "a1", "csrf4", -1.0)  # already expired
        assert one.expires == pytest.approx(one.created + 30 * DAY)
        found = await store.session("h1")
        assert found is not None and found == (one, ann)
        assert await store.session("h4") is None
        assert await store.renew_session("h4", DAY) is None
        assert await store.session("nope") is None
        renewed = await store.renew_session("h1", 60 * DAY)
        assert renewed is not None and renewed.expires >= one.expires + 29 * DAY
        assert {s.id_hash for s in await store.account_sessions("a1")} == {"h1", "h2"}
        # One session by its public id; every other; then every one.
        assert await store.delete_sessions("b1", public_id=gone.public_id) == 0
        assert await store.delete_sessions("a1", public_id="h2"[:16]) == 1
        await store.create_session("h5", "a1", "csrf5", DAY)
        assert await store.delete_sessions("a1", keep="h1") == 2  # h5 and the expired h4
        assert [s.id_hash for s in await store.account_sessions("a1")] == ["h1"]
        assert await store.delete_session("h1")
        assert not await store.delete_session("h1")
        assert await store.session("h3") == (
            (await store.account_sessions("b1"))[0], ben
        )
        assert await store.delete_sessions("b1") == 1

    run(store_url, test)


def test_failed_sign_ins_are_counted_by_key_within_the_window(store_url: str) -> None:
    async def test(store: Store) -> None:
        for _ in range(3):
            await store.add_sign_in_failure(["n:ann", "a:here"], 900)
        await store.add_sign_in_failure(["a:here"], 900)
        counts = await store.sign_in_failures(["n:ann", "a:here", "n:ben"], 900)
        assert counts == {"n:ann": 3, "a:here": 4, "n:ben": 0}
        await asyncio.sleep(0.05)
        assert await store.sign_in_failures(["a:here"], 0.01) == {"a:here": 0}
        await store.clear_sign_in_failures("n:ann")
        assert await store.sign_in_failures(["n:ann", "a:here"], 900) == {
            "n:ann": 0, "a:here": 4
        }
        # A failure forgets those older than its window.
        await store.add_sign_in_failure(["a:there"], 0.01)
        assert await store.sign_in_failures(["a:here", "a:there"], 900) == {
            "a:here": 0, "a:there": 1
        }

    run(store_url, test)


def test_passkeys_and_ceremonies(store_url: str) -> None:
    async def test(store: Store) -> None:
        await store.create_account("a1", "Ann", None)
        key = PasskeyRecord("cred-1", "a1", "pk", 0, "laptop", 0.0)
        await store.add_passkey(key)
        with pytest.raises(StoreConflict):
            await store.add_passkey(key)
        found = await store.passkey("cred-1")
        assert found is not None and (found.label, found.sign_count, found.used) == (
            "laptop", 0, None
        )
        await store.passkey_used("cred-1", 7)
        used = await store.passkey("cred-1")
        assert used is not None and used.sign_count == 7 and used.used is not None
        assert [p.credential_id for p in await store.account_passkeys("a1")] == ["cred-1"]
        assert not await store.delete_passkey("b1", "cred-1")
        assert await store.delete_passkey("a1", "cred-1")
        assert await store.passkey("cred-1") is None

        challenge = Challenge("register", "a1", "abc")
        await store.store_challenge("c1", challenge, 60)
        assert await store.take_challenge("c1", "signin") is None  # another purpose
        assert await store.take_challenge("c1", "register") == challenge
        assert await store.take_challenge("c1", "register") is None  # served once
        await store.store_challenge("c2", Challenge("signin", None, "xyz"), -1)
        assert await store.take_challenge("c2", "signin") is None  # expired

    run(store_url, test)


def test_a_deleted_account_leaves_its_seats_to_nobody(store_url: str) -> None:
    async def test(store: Store) -> None:
        await store.create_account("a1", "Ann", "h")
        await store.create_account("b1", "Ben", "h")
        seats = (
            SeatRecord(0, "human", "Ann", None, "t" * 64),
            SeatRecord(1, "human", "Ben", None, "u" * 64),
        )
        record = TableRecord("T1", {"players": 2}, "en", "c" * 64, "s" * 64, seats)
        await store.create_table(record, 5, Turn(0, 0, False))
        await own_seat(store, "T1", 0, "a1")
        await own_seat(store, "T1", 1, "b1")
        await store.create_session("h1", "a1", "x", DAY)
        await store.add_passkey(PasskeyRecord("cred", "a1", "pk", 0, "", 0.0))
        await store.store_challenge("c1", Challenge("register", "a1", "abc"), 60)
        assert await store.account_seats("a1") == [("T1", 0)]

        assert await store.delete_account("a1", "deleted player") == ["T1"]
        assert await store.delete_account("a1", "deleted player") is None
        assert await store.account("a1") is None
        assert await store.session("h1") is None
        assert await store.passkey("cred") is None
        assert await store.take_challenge("c1", "register") is None
        assert await store.account_seats("a1") == []
        assert await store.account_seats("b1") == [("T1", 1)]
        loaded = await store.load_table("T1")
        assert loaded is not None
        assert [(s.name, s.token_hash) for s in loaded[0].seats] == [
            ("deleted player", "t" * 64), ("Ben", "u" * 64)
        ]
        # The name is free again.
        again = await store.create_account("a2", "ANN", None)
        assert again.name == "ANN"

    run(store_url, test)


def test_accounts_survive_a_copy_to_postgresql(tmp_path: Path, pg_url: str) -> None:
    """``oriflamme db copy``: the accounts, their sessions and passkeys come along."""
    source = str(tmp_path / "games.sqlite3")

    async def fill(store: Store) -> None:
        await store.create_account("a1", "Ann", "hash-a")
        await store.set_account_flags("a1", admin=True)
        await store.create_session("h1", "a1", "csrf", DAY, "Firefox")
        await store.add_passkey(PasskeyRecord("cred", "a1", "pk", 3, "laptop", 0.0))

    run(source, fill)
    asyncio.run(copy_sqlite_to_postgres(source, pg_url))

    async def check(store: Store) -> None:
        ann = await store.account_by_name("ann")
        assert ann is not None and ann.admin and not ann.suspended
        assert await store.password_hash("a1") == "hash-a"
        found = await store.session("h1")
        assert found is not None and found[0].agent == "Firefox"
        key = await store.passkey("cred")
        assert key is not None and (key.sign_count, key.label) == (3, "laptop")

    run(pg_url, check)
