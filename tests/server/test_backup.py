"""#32 section 3: ``oriflamme db backup`` and ``restore``: a round trip SQLite -> file ->
PostgreSQL -> file -> SQLite gives back every row of every table it copies (none of them left
empty by the test: games, actions, who played them, analyses, accounts, sessions, passkeys,
results, ratings and their history, table talk, pushes, the server's keys), and the same
games, ratings and accounts read through the store; a backup is its owner's alone (0600); bad
files and non-empty targets are refused and nothing is written; a running server keeps serving
during a backup of its own file."""

from __future__ import annotations

import asyncio
import gzip
import json
import os
import sqlite3
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from oriflamme.server.rating_model import RatedGame, RatedSeat, account_player
from oriflamme.server.storage import (
    SeatRecord,
    SqliteStore,
    Store,
    StoreError,
    TableRecord,
    Turn,
    open_store,
)
from oriflamme.server.storage.accounts import PasskeyRecord
from oriflamme.server.storage.backup import PRIVATE_MODE, RUNTIME_TABLES, backup, restore
from oriflamme.server.storage.chat_records import PLAYERS, ChatRecord
from oriflamme.server.storage.push_records import PushDue, PushSubscription
from pgdb import fresh_database
from servers import running_server
from test_scale_out import create, post, view

SEATS = (
    SeatRecord(0, "human", "Ann", None, "a" * 64),
    SeatRecord(1, "bot", "Blue bot (easy)", "easy", None),
)


def action(card: int) -> dict[str, object]:
    return {"kind": "place", "card": card, "to": "end"}


async def fill(url: str) -> None:
    """Tables, games (one over), actions with their sources, an analysis, an account with a
    session, a public table, and a presence row (not backed up); then :func:`fill_players`."""
    store = await open_store(url)
    try:
        for number in range(3):
            record = TableRecord(
                f"t{number}", {"players": 2}, "fr" if number else "en", "c" * 64, "s" * 64,
                SEATS, public=number == 2, clock=30.0 if number == 1 else None,
                replay_key=f"key{number}",
            )
            await store.create_table(record, 2**62 + number, Turn(0, 0, False))
            for step in range(number + 2):
                await store.append_action(
                    f"t{number}", 1, step, action(step), Turn(step + 1, step % 2, step % 2 == 1),
                    source="player" if step % 2 == 0 else "bot",
                )
        await store.append_action("t0", 1, 2, action(9), Turn(3, None, False))  # over
        await store.request_analysis("t0", 1, origin="o1")
        await store.heartbeat("server-a", 20.0)
        await fill_players(store)
    finally:
        await store.close()


#: The rated table of :func:`fill_players`: Ann (a1) and Bob (b1), signed in.
RATED = "t3"
ANN, BOB = account_player("a1"), account_player("b1")


async def fill_players(store: Store) -> None:
    """What players leave across tables, through the store's own methods: accounts with a
    session, a passkey and a push subscription, a rated game played to its end (its results,
    the rating update and each rating's history), its table talk (a mute, a report handled and
    one open, a message removed), the push sent for a decision, the push service's key."""
    await store.create_account("a1", "Ann", "$argon2id$v=19$m=1,t=1,p=1$c2FsdA$YW5u")
    await store.create_account("b1", "Bob", None)
    await store.create_session("h-a1", "a1", "csrf-a1", 3600.0, agent="Firefox")
    await store.add_passkey(PasskeyRecord("cred-a1", "a1", "pk-a1", 3, "laptop", 1.0))
    await store.passkey_used("cred-a1", 4)
    await store.add_push_subscription(
        PushSubscription("https://push.example/a1", "a1", "p256dh-a1", "auth-a1", "Firefox"), 5
    )
    assert await store.server_key("vapid", "-----BEGIN PRIVATE KEY-----\nsecret") != ""
    seats = (
        SeatRecord(0, "human", "Ann", None, "d" * 64, account_id="a1"),
        SeatRecord(1, "human", "Bob", None, "e" * 64, account_id="b1"),
    )
    table = TableRecord(
        RATED, {"players": 2, "variant": "two-families"}, "en", "f" * 64, "g" * 64, seats,
        rated=True, bank=300.0, increment=5.0, replay_key="key3",
    )
    await store.create_table(table, 2**62 + 3, Turn(0, 0, False))
    await store.append_action(RATED, 1, 0, action(0), Turn(1, 1, False), source="player")
    assert await store.claim_push(PushDue(RATED, 1, 1, 1, "b1", 30.0, None, 300.0, 5.0))
    for number, (seat, name, text) in enumerate(
        [(0, "Ann", "bonne chance"), (1, "Bob", "rude words"), (1, "Bob", "gg")], start=1
    ):
        posted = await store.post_chat(
            ChatRecord(RATED, 0, PLAYERS, seat, name, text, None, 1, 1, 0.0)
        )
        assert posted.number == number
    await store.set_chat_mute(RATED, 0, 1, True)
    assert await store.report_chat(RATED, 2, ANN, "rude")
    assert await store.delete_chat(RATED, 2) is not None  # its report handled
    assert await store.report_chat(RATED, 3, ANN, "spam")  # still open
    ended = RatedGame(RATED, 1, "2p", (RatedSeat(0, ANN, 1, won=True), RatedSeat(1, BOB, 2)))
    await store.append_action(
        RATED, 1, 1, action(1), Turn(2, None, False), source="player", finished=ended
    )


async def players_as_read(store: Store) -> list[object]:
    """What the server shows of players, read through the store: leaderboards, ratings and
    their histories, the rated results in order, reputations, an account's games and results,
    its sessions, passkeys and push subscriptions, the table talk and its reports, the push
    service's key."""
    return [
        await store.leaderboard("2p", 0, 50, 0),
        # (in no order within a pool)
        sorted(await store.ratings([ANN, BOB, "account:acc1"]), key=lambda row: row.player),
        await store.rating_history(ANN, "2p", 10),
        await store.rating_history(BOB, "2p", 10),
        await store.rating_results(),
        await store.reputations(["a1", "b1", "acc1"]),
        await store.account_games("a1", True, 10, 0),
        await store.results_by_players("b1"),
        await store.session("h-a1"),
        await store.account_passkeys("a1"),
        await store.push_subscriptions("a1"),
        await store.chat_history(RATED, PLAYERS, 10),
        await store.chat_mutes(RATED, 0),
        await store.open_chat_reports(10),
        await store.server_key("vapid", "another key"),
    ]


def sqlite_rows(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    db = sqlite3.connect(path)
    names = [row[0] for row in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    )]
    rows = {
        name: sorted(db.execute(f'SELECT * FROM "{name}"').fetchall(), key=repr)
        for name in names if name not in RUNTIME_TABLES
    }
    db.close()
    return rows


def add_account(path: Path) -> None:
    """An account, its session and its rating, as their tables hold them (written directly)."""
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO accounts (id, name, name_key, password_hash, created, admin)"
        " VALUES ('acc1', 'Zoé', 'zoé', '$argon2id$v=19$m=1,t=1,p=1$c2FsdA$aGFzaA', 1.5, 1)"
    )
    db.execute(
        "INSERT INTO sessions (id_hash, account_id, csrf, created, seen, expires)"
        " VALUES ('h1', 'acc1', 'x', 1.0, 2.0, 3.0)"
    )
    db.execute("UPDATE seats SET account_id = 'acc1' WHERE table_id = 't0' AND seat = 0")
    db.execute(  # its rating (a float that must come back bit for bit)
        "INSERT INTO ratings (player, pool, account_id, mu, sigma, rating, games, wins, updated)"
        " VALUES ('account:acc1', '2p', 'acc1', 27.123456789012345, 7.9, 1012, 1, 1, 4.0)"
    )
    db.commit()
    db.close()


def test_a_round_trip_through_postgresql_gives_back_every_row(tmp_path: Path) -> None:
    source = tmp_path / "games.sqlite3"
    asyncio.run(fill(str(source)))
    add_account(source)
    first, second = tmp_path / "one.backup", tmp_path / "two.backup"
    back = tmp_path / "back.sqlite3"
    with fresh_database() as pg:
        async def trip() -> None:
            made = await backup(str(source), first)
            assert dict(made.rows)["actions"] == 2 + 3 + 4 + 1 + 2
            # Every table the backup copies had rows to copy: a table added later without
            # test data above makes this test fail (and the file's tables are all copied).
            assert [name for name, rows in made.rows if not rows] == []
            assert set(dict(made.rows)) == set(sqlite_rows(source))
            await restore(first, pg)
            again = await backup(pg, second)
            assert dict(again.rows) == dict(made.rows)
            await restore(second, str(back))
            # The games read alike from every copy.
            stores = [await open_store(url) for url in (str(source), pg, str(back))]
            try:
                for table_id in ("t0", "t1", "t2"):
                    loaded = [await store.load_table(table_id) for store in stores]
                    assert loaded[0] is not None and loaded[0] == loaded[1] == loaded[2]
                assert loaded[0][1].sources[:2] == ("player", "bot")
                analyses = [await store.load_analysis("t0", 1) for store in stores]
                assert analyses[0] is not None and analyses[0] == analyses[1] == analyses[2]
                # Ratings, results, accounts and talk read alike through the store too.
                players = [await players_as_read(store) for store in stores]
                assert players[0] == players[1] == players[2]
                board, total = await stores[2].leaderboard("2p", 0, 50, 0)
                assert total == 3 and board[0].player == ANN and board[0].games == 1
                assert players[0][-1] == "-----BEGIN PRIVATE KEY-----\nsecret"
            finally:
                for store in stores:
                    await store.close()

        asyncio.run(trip())
    assert mode(first) == mode(second) == PRIVATE_MODE
    original, copied = sqlite_rows(source), sqlite_rows(back)
    assert original == copied
    assert original["accounts"] and original["sessions"] and original["games"]
    assert [row[3] for row in original["ratings"] if row[0] == "account:acc1"] == [
        27.123456789012345
    ]
    # The running server's own state stays out of backups.
    with gzip.open(first, "rt") as lines:
        tables = [json.loads(line).get("table") for line in lines if line.startswith('{"table"')]
    assert not set(tables) & RUNTIME_TABLES and "presence" not in tables
    assert tables.index("tables") < tables.index("seats") < tables.index("actions")
    assert tables.index("accounts") < tables.index("sessions")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_backup_is_readable_by_its_owner_only_while_written_and_after(tmp_path: Path) -> None:
    """It holds password hashes and the push service's private key: mode 0600 whatever the
    umask, even over a partial file left behind by a backup that was killed."""
    source = tmp_path / "games.sqlite3"
    asyncio.run(fill(str(source)))
    target = tmp_path / "games.backup"
    partial = tmp_path / "games.backup.partial"
    partial.write_bytes(b"left behind")
    partial.chmod(0o644)
    seen: list[int] = []
    umask = os.umask(0o022)
    try:
        asyncio.run(backup(str(source), target, lambda table, rows: seen.append(mode(partial))))
        # From the command line too, over an existing file readable by all.
        again = tmp_path / "again.backup"
        again.write_bytes(b"old")
        again.chmod(0o644)
        done = subprocess.run(
            [sys.executable, "-m", "oriflamme", "db", "backup", str(again), "--db", str(source)],
            capture_output=True, text=True, timeout=60,
        )
    finally:
        os.umask(umask)
    assert seen and set(seen) == {PRIVATE_MODE} == {0o600}
    assert mode(target) == PRIVATE_MODE and not partial.exists()
    assert done.returncode == 0, done.stderr
    assert mode(again) == PRIVATE_MODE
    # Where no backup can be written: one clear line, exit code 2, nothing left behind.
    for where in (tmp_path / "no such folder" / "x.backup", tmp_path):
        refused = subprocess.run(
            [sys.executable, "-m", "oriflamme", "db", "backup", str(where), "--db", str(source)],
            capture_output=True, text=True, timeout=60,
        )
        assert refused.returncode == 2, refused.stderr
        assert "cannot write the backup" in refused.stderr and "Traceback" not in refused.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if "backup" in p.name) == [
        "again.backup", "games.backup"
    ]


def test_bad_backups_and_non_empty_targets_are_refused_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    source = tmp_path / "games.sqlite3"
    asyncio.run(fill(str(source)))
    good = tmp_path / "good.backup"
    asyncio.run(backup(str(source), good))
    lines = gzip.decompress(good.read_bytes()).splitlines(keepends=True)

    def written(name: str, content: bytes) -> Path:
        path = tmp_path / name
        path.write_bytes(gzip.compress(content))
        return path

    target = tmp_path / "new.sqlite3"
    cases = {
        "cut short": (written("cut", b"".join(lines[:-1])), "cut short"),
        "not a backup": (written("other", b'{"hello": 1}\n'), "not an oriflamme backup"),
        "not gzip": (tmp_path / "plain", "not a readable oriflamme backup"),
        "a newer version": (
            written("newer", lines[0].replace(b'"schema":9', b'"schema":99') + b"".join(lines[1:])),
            "made with storage version 99",
        ),
        "a row too short": (
            written("short", b"".join(lines[:3]) + b"[1]\n" + b"".join(lines[3:])),
            "does not fit",
        ),
    }
    (tmp_path / "plain").write_text("hello")
    for what, (path, message) in cases.items():
        with pytest.raises(StoreError, match=message):
            asyncio.run(restore(path, str(target)))
        assert not target.exists(), what  # nothing written, not even an empty file
    # Into a database that holds games: refused, the games untouched.
    before = sqlite_rows(source)
    with pytest.raises(StoreError, match="already holds data"):
        asyncio.run(restore(good, str(source)))
    assert sqlite_rows(source) == before
    # From the command line: one clear line, exit code 2.
    done = subprocess.run(
        [sys.executable, "-m", "oriflamme", "db", "restore", str(tmp_path / "cut"),
         "--db", str(target)], capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2 and "cut short" in done.stderr and "Traceback" not in done.stderr


def test_a_restore_into_postgresql_that_fails_writes_nothing(tmp_path: Path) -> None:
    source = tmp_path / "games.sqlite3"
    asyncio.run(fill(str(source)))
    good = tmp_path / "good.backup"
    asyncio.run(backup(str(source), good))
    # A row that breaks a key (the same action twice): the whole restore is undone.
    lines = gzip.decompress(good.read_bytes()).splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith(b'{"table":"actions"'))
    broken = [*lines[: start + 2], lines[start + 1], *lines[start + 2:]]
    end = json.loads(broken[-1])
    end["complete"]["actions"] += 1
    broken[-1] = json.dumps(end).encode() + b"\n"
    bad = tmp_path / "bad.backup"
    bad.write_bytes(gzip.compress(b"".join(broken)))
    with fresh_database() as pg:
        with pytest.raises(StoreError, match="nothing was written"):
            asyncio.run(restore(bad, pg))

        async def count() -> int:
            db = await asyncpg.connect(pg)
            try:
                return int(await db.fetchval("SELECT COUNT(*) FROM tables"))
            finally:
                await db.close()

        assert asyncio.run(count()) == 0
        asyncio.run(restore(good, pg))  # the empty database takes the good one
        assert asyncio.run(count()) == 4


def test_a_running_server_keeps_serving_during_a_backup(tmp_path: Path) -> None:
    """Moves go on while ``oriflamme db backup`` reads the server's own file; the backup is a
    consistent snapshot (its actions are a prefix of each game's)."""
    db, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    with running_server(db, log, "--bot-delay", "0") as (_, client):
        seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
        table = create(client, seats, seed=8)
        tokens = [seat["token"] for seat in table["seats"]]
        stop, played = threading.Event(), [0]

        def play() -> None:
            while not stop.is_set():
                for token in tokens:
                    mine = view(client, table, token)
                    if mine["legal"] and not mine.get("over"):
                        body = {"token": token, "action": mine["legal"][0]["action"],
                                "step": mine["step"]}
                        answer = post(client, f"/api/tables/{table['table_id']}/actions", body)
                        assert answer.status_code in (200, 409), answer.text
                        played[0] += answer.status_code == 200

        player = threading.Thread(target=play)
        player.start()
        try:
            for number in range(3):
                done = subprocess.run(
                    [sys.executable, "-m", "oriflamme", "db", "backup",
                     str(tmp_path / f"b{number}"), "--db", str(db)],
                    capture_output=True, text=True, timeout=120,
                )
                assert done.returncode == 0, done.stderr
                assert "Backed up" in done.stdout
        finally:
            stop.set()
            player.join(timeout=60)
        assert played[0] > 0
        stored = view(client, table, tokens[0])["step"]
    restored = tmp_path / "restored.sqlite3"
    asyncio.run(restore(tmp_path / "b2", str(restored)))
    copy = SqliteStore(restored)
    try:
        loaded = asyncio.run(copy.load_table(table["table_id"]))
    finally:
        copy.close_now()
    assert loaded is not None and 0 < len(loaded[1].actions) <= stored
