"""The PostgreSQL store on a real server: schema, versions, conflicts, faults, notifications."""

from __future__ import annotations

import asyncio
import socket

import asyncpg
import pytest

from oriflamme.server.storage import (
    ACTION,
    GAME,
    BotTurn,
    Change,
    SeatRecord,
    StoreConflict,
    StoreError,
    StoreUnavailable,
    TableRecord,
    Turn,
)
from oriflamme.server.storage.postgres import (
    LISTENER_NAME,
    SCHEMA_VERSION,
    PostgresStore,
    redacted,
)
from servers import proxied

SEATS = (
    SeatRecord(0, "human", "Ann", None, "a" * 64),
    SeatRecord(1, "bot", "Blue bot", "easy", None),
)


TURN = Turn(1, 1, True)


def table(number: int) -> TableRecord:
    return TableRecord(f"t{number}", {"players": 2}, "en", "c" * 64, "s" * 64, SEATS)


def action(card: int) -> dict[str, object]:
    return {"kind": "place", "card": card, "to": "end"}


def test_two_servers_storing_one_step_one_wins(pg_url: str) -> None:
    async def run() -> None:
        first, second = await PostgresStore.open(pg_url), await PostgresStore.open(pg_url)
        try:
            await first.create_table(table(0), 1, TURN)
            results = await asyncio.gather(
                *(
                    (first if i % 2 else second).append_action("t0", 1, 0, action(i), TURN)
                    for i in range(10)
                ),
                return_exceptions=True,
            )
            winners = [r for r in results if r is None]
            assert len(winners) == 1
            assert all(isinstance(r, StoreConflict) for r in results if r is not None)
            loaded = await second.load_table("t0")
            assert loaded is not None and len(loaded[1].actions) == 1
            claims = await asyncio.gather(
                *(s.claim_bot_turn(f"o{i}", BotTurn("t0", 1, 1), 30) for i, s in enumerate(
                    [first, second] * 5
                ))
            )
            assert claims.count(True) == 1  # one server plays the bot's decision
        finally:
            await first.close()
            await second.close()

    asyncio.run(run())


def test_schema_is_created_once_and_a_newer_one_is_refused(pg_url: str) -> None:
    async def run() -> None:
        stores = await asyncio.gather(*(PostgresStore.open(pg_url) for _ in range(4)))
        for store in stores:
            await store.close()
        admin = await asyncpg.connect(pg_url)
        try:
            version = await admin.fetchval(
                "SELECT value FROM oriflamme_meta WHERE key = 'schema_version'"
            )
            assert version == str(SCHEMA_VERSION)
            await admin.execute(
                "UPDATE oriflamme_meta SET value = $1 WHERE key = 'schema_version'",
                str(SCHEMA_VERSION + 1),
            )
            with pytest.raises(StoreError, match="newer than this server"):
                await PostgresStore.open(pg_url)
            # Nothing was written: still the newer version.
            assert await admin.fetchval(
                "SELECT value FROM oriflamme_meta WHERE key = 'schema_version'"
            ) == str(SCHEMA_VERSION + 1)
        finally:
            await admin.close()

    asyncio.run(run())


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_an_unreachable_database_or_a_wrong_one_is_a_clear_error(pg_url: str) -> None:
    unreachable = f"postgresql://someone:secret@127.0.0.1:{_closed_port()}/games"
    with pytest.raises(StoreUnavailable, match="cannot reach the database") as caught:
        asyncio.run(PostgresStore.open(unreachable))
    assert "secret" not in str(caught.value)
    base = pg_url.rpartition("/")[0]
    with pytest.raises(StoreError, match="does not exist"):
        asyncio.run(PostgresStore.open(f"{base}/no_such_database_here"))
    assert redacted("postgresql://u:pw@h:1/d") == "postgresql://u@h:1/d"


def test_changes_are_notified_to_every_listener_after_commit(pg_url: str) -> None:
    async def run() -> None:
        writer, reader = await PostgresStore.open(pg_url), await PostgresStore.open(pg_url)
        seen: asyncio.Queue[Change] = asyncio.Queue()
        resets = 0

        def reset() -> None:
            nonlocal resets
            resets += 1

        listening = asyncio.create_task(reader.listen(seen.put_nowait, reset))
        try:
            while resets == 0:
                await asyncio.sleep(0.01)
            await writer.create_table(table(0), 1, TURN)
            assert await asyncio.wait_for(seen.get(), 5) == Change("t0", GAME, 1, 1)
            with pytest.raises(StoreConflict):
                await writer.create_table(table(0), 1, TURN)  # rolled back: no notification
            await writer.append_action("t0", 1, 0, action(1), TURN)
            announced = Change("t0", ACTION, 1, 1, '{"kind":"place","card":1,"to":"end"}')
            assert await asyncio.wait_for(seen.get(), 5) == announced
            assert seen.empty()
            # The listening connection is cut: it listens again and says so (reset).
            admin = await asyncpg.connect(pg_url)
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = $1 AND datname = current_database()",
                LISTENER_NAME,
            )
            await admin.close()
            for _ in range(500):
                if resets >= 2:
                    break
                await asyncio.sleep(0.02)
            assert resets >= 2
            await writer.append_action("t0", 1, 1, action(2), TURN)
            announced = Change("t0", ACTION, 1, 2, '{"kind":"place","card":2,"to":"end"}')
            assert await asyncio.wait_for(seen.get(), 5) == announced
        finally:
            listening.cancel()
            await asyncio.gather(listening, return_exceptions=True)
            await writer.close()
            await reader.close()

    asyncio.run(run())


#: Undo version 9 (accounts, rated tables, when games ended): version 8.
TO_VERSION_8 = """
DROP TABLE game_results, rating_results, ratings, rating_history;
DROP TABLE chat_mutes, chat_reports, chat, push_sent, push_subscriptions, server_keys;
DROP TABLE sign_in_failures, challenges, passkeys, sessions, accounts;
ALTER TABLE tables DROP COLUMN rated, DROP COLUMN min_reputation, DROP COLUMN chat,
    DROP COLUMN bank, DROP COLUMN increment;
ALTER TABLE seats DROP COLUMN account_id, DROP COLUMN left_at, DROP COLUMN bank_left,
    DROP COLUMN ran_out;
ALTER TABLE games DROP COLUMN ended;
UPDATE oriflamme_meta SET value = '8' WHERE key = 'schema_version';
"""
#: Undo version 8 (who played each action): version 7.
TO_VERSION_7 = TO_VERSION_8 + """
ALTER TABLE actions DROP COLUMN source;
UPDATE oriflamme_meta SET value = '7' WHERE key = 'schema_version';
"""
#: Undo version 7 (who asked for each analysis, when each started): version 6.
TO_VERSION_6 = TO_VERSION_7 + """
DROP INDEX analyses_origin;
ALTER TABLE analyses DROP COLUMN origin, DROP COLUMN started;
UPDATE oriflamme_meta SET value = '6' WHERE key = 'schema_version';
"""
#: Undo version 6 (secret deals, no-show limits, replay tokens, name keys): version 5.
TO_VERSION_5 = """
ALTER TABLE tables DROP COLUMN no_show_after, DROP COLUMN replay_key;
ALTER TABLE seats DROP COLUMN arrived, DROP COLUMN name_key;
ALTER TABLE games DROP COLUMN custom_deal;
UPDATE oriflamme_meta SET value = '5' WHERE key = 'schema_version';
"""
#: Undo version 5 (open seats, clocks, absent players) too: version 4.
TO_VERSION_4 = """
DROP INDEX games_deadlines; DROP INDEX tables_lobby; DROP INDEX seats_origin;
ALTER TABLE tables DROP COLUMN public, DROP COLUMN listed, DROP COLUMN closed,
    DROP COLUMN clock, DROP COLUMN absent_after, DROP COLUMN stand_in;
ALTER TABLE seats DROP COLUMN away_since, DROP COLUMN origin, DROP COLUMN joined;
ALTER TABLE games DROP COLUMN turn_deadline;
CREATE INDEX games_bot_turns ON games (turn_since) WHERE turn_bot;
UPDATE oriflamme_meta SET value = '4' WHERE key = 'schema_version';
"""
#: Undo version 4 (learning tables, analyses) too: version 3.
TO_VERSION_3 = (
    "DROP TABLE analyses; ALTER TABLE tables DROP COLUMN hints;"
    " UPDATE oriflamme_meta SET value = '3' WHERE key = 'schema_version';"
)


@pytest.mark.parametrize("version", [3, 4, 5, 6])
def test_an_older_database_gains_hints_analyses_open_seats_and_deadlines(
    pg_url: str, version: int
) -> None:
    async def run() -> None:
        store = await PostgresStore.open(pg_url)
        await store.create_table(
            TableRecord("old", {"players": 2}, "en", "c", "s", SEATS), 5, Turn(0, 0, False)
        )
        bots = TableRecord("bots", {"players": 2}, "en", "c", "s", SEATS)
        await store.create_table(bots, 6, Turn(0, 1, True))
        await store.request_analysis("bots", 1)  # asked for before the upgrade
        await store.close()
        admin = await asyncpg.connect(pg_url)
        undo = {6: TO_VERSION_6, 5: TO_VERSION_6 + TO_VERSION_5}
        undo[4] = undo[5] + TO_VERSION_4
        try:
            await admin.execute(undo.get(version, undo[4] + TO_VERSION_3))
            store = await PostgresStore.open(pg_url)
            loaded = await store.load_table("old")
            assert loaded is not None and loaded[0].hints is False and not loaded[0].public
            assert (await store.request_analysis("old", 1, origin="x")).status == "queued"
            assert await store.claim_bot_turns("s", 5, ttl=30) == [BotTurn("bots", 1, 0)]
            # An analysis asked for before the upgrade (from no known address) keeps its turn.
            first = await store.claim_analysis("s", 60)
            assert first is not None and first.table_id == ("bots" if version > 3 else "old")
            await store.close()
            assert await admin.fetchval(
                "SELECT value FROM oriflamme_meta WHERE key = 'schema_version'"
            ) == str(SCHEMA_VERSION) == "9"
        finally:
            await admin.close()

    asyncio.run(run())


def test_a_database_of_version_5_gains_replay_keys_custom_deals_and_no_show_limits(
    pg_url: str,
) -> None:
    """#26: the step 5 -> 6 keeps every old table working under the old rules."""
    public_seats = (SEATS[0], SeatRecord(1, "open", "", None, None))

    async def run() -> None:
        store = await PostgresStore.open(pg_url)
        await store.create_table(table(0), 5, TURN)
        saved = TableRecord("saved", {"players": 2}, "en", "c" * 64, "s" * 64, SEATS)
        await store.create_table(saved, 6, TURN, start={"format": "oriflamme-save"})
        lobby = TableRecord(
            "lobby", {"players": 2}, "en", "c" * 64, "s" * 64, public_seats, public=True
        )
        await store.create_table(lobby, 7, TURN)
        await store.close()
        admin = await asyncpg.connect(pg_url)
        try:
            await admin.execute(TO_VERSION_6 + TO_VERSION_5)
            store = await PostgresStore.open(pg_url)
            found = {name: await store.load_table(name) for name in ("t0", "saved", "lobby")}
            keys = {name: loaded[0].replay_key for name, loaded in found.items() if loaded}
            assert len(set(keys.values())) == 3 and all(len(k) >= 32 for k in keys.values())
            assert [loaded[1].custom_deal for loaded in found.values() if loaded] == [
                False, True, False
            ]
            t0, lobby_found = found["t0"], found["lobby"]
            assert t0 is not None and lobby_found is not None
            assert t0[0].seats[0].arrived is not None  # old players keep the old rules
            assert t0[0].no_show_after is None and lobby_found[0].no_show_after == 300
            ann = SeatRecord(1, "human", "ANN", None, "b" * 64)
            assert await store.fill_seat("lobby", ann) is None  # Ann's name got its key
            ben = SeatRecord(1, "human", "Ben", None, "b" * 64)
            assert await store.fill_seat("lobby", ben) == 1
            await store.close()
            assert await admin.fetchval(
                "SELECT value FROM oriflamme_meta WHERE key = 'schema_version'"
            ) == "9"
        finally:
            await admin.close()

    asyncio.run(run())


def test_a_database_of_version_8_gains_accounts_and_rated_tables(pg_url: str) -> None:
    """#28: the step 8 -> 9: old seats belong to no account, old tables are not rated, and a
    game that ends after the upgrade records when."""

    async def run() -> None:
        store = await PostgresStore.open(pg_url)
        await store.create_table(table(0), 5, TURN)
        await store.close()
        admin = await asyncpg.connect(pg_url)
        try:
            await admin.execute(TO_VERSION_8)
            store = await PostgresStore.open(pg_url)
            await store.append_action("t0", 1, 0, action(1), Turn(1, None, False))
            await store.close()
            assert await admin.fetchval(
                "SELECT value FROM oriflamme_meta WHERE key = 'schema_version'"
            ) == "9"
            assert [tuple(row) for row in await admin.fetch(
                "SELECT rated, min_reputation FROM tables"
            )] == [(False, None)]
            assert [tuple(row) for row in await admin.fetch(
                "SELECT chat, bank, increment FROM tables"
            )] == [("on", None, None)]
            assert [tuple(row) for row in await admin.fetch(
                "SELECT DISTINCT account_id, left_at, bank_left, ran_out FROM seats"
            )] == [(None, None, None, 0)]
            row = await admin.fetchrow("SELECT finished, ended FROM games")
            assert row["finished"] and row["ended"] is not None
            assert await admin.fetchval("SELECT COUNT(*) FROM accounts") == 0
        finally:
            await admin.close()

    asyncio.run(run())


def test_a_database_of_version_7_gains_who_played_each_action(pg_url: str) -> None:
    """#26: the step 7 -> 8: the actions stored before it keep an unknown source, the new ones
    say who played them."""

    async def run() -> None:
        store = await PostgresStore.open(pg_url)
        await store.create_table(table(0), 5, TURN)
        await store.append_action("t0", 1, 0, action(1), TURN)
        await store.close()
        admin = await asyncpg.connect(pg_url)
        try:
            await admin.execute(TO_VERSION_7)
            store = await PostgresStore.open(pg_url)
            await store.append_action("t0", 1, 1, action(2), TURN, source="stand_in:away")
            loaded = await store.load_table("t0")
            assert loaded is not None and loaded[1].sources == (None, "stand_in:away")
            assert await store.load_sources("t0", 1, 0) == [None, "stand_in:away"]
            await store.close()
            assert await admin.fetchval(
                "SELECT value FROM oriflamme_meta WHERE key = 'schema_version'"
            ) == "9"
        finally:
            await admin.close()

    asyncio.run(run())


def test_a_connection_the_database_ended_is_not_used_again(pg_url: str) -> None:
    """The database ends an idle pooled connection (a restart: "terminating connection due to
    administrator command"), and its close reaches the server a moment after that last
    message. The next query must not take that connection: it failed with asyncpg's
    InternalClientError ("another operation is in progress"), a 500 with a traceback, found
    by benchmarks/server/faults.py (issue #33). It is now 503 database_unavailable at worst, and the
    connection is never used again."""

    async def run(through: str) -> list[str]:
        store = await PostgresStore.open(through, max_size=1)
        outcomes = []
        try:
            for _ in range(3):
                await store.ping()  # one idle connection in the pool
                admin = await asyncpg.connect(pg_url)
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE application_name = 'oriflamme' AND pid <> pg_backend_pid()"
                    " AND datname = current_database()"  # not other tests' (run in parallel)
                )
                await admin.close()
                await asyncio.sleep(0.3)  # its last message has arrived, its close not yet
                try:
                    await store.ping()
                    outcomes.append("ok")
                except StoreUnavailable:
                    outcomes.append("unavailable")
                await store.ping()  # and then a new connection serves
        finally:
            await store.close()
        return outcomes

    with proxied(pg_url, linger=1.0) as (_, through):
        outcomes = asyncio.run(run(through))
    assert set(outcomes) <= {"ok", "unavailable"}
