"""``oriflamme db copy``: an SQLite game database into PostgreSQL, whole or not at all."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import asyncpg
import pytest
from fastapi.testclient import TestClient

from oriflamme.cli.main import main
from oriflamme.server import SqliteStore, create_app
from oriflamme.server.storage.postgres import PostgresStore


def _played_database(path: Path) -> tuple[str, int]:
    """A server database with a finished game, its rematch and a table in play; returns the
    first table's id and its number of actions in game 1."""
    app = create_app(SqliteStore(path), bot_delay=0, tune_gc=False, rate=1e6, burst=1e6)
    with TestClient(app) as client:
        created = client.post(
            "/api/tables",
            json={
                "players": 2,
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "level": "random"}],
                "seed": 5,
            },
        ).json()
        table, token = created["table_id"], created["seats"][0]["token"]
        view = client.get(f"/api/tables/{table}/view", params={"token": token}).json()
        while view["result"] is None:
            if view["legal"]:
                view = client.post(
                    f"/api/tables/{table}/actions",
                    json={"token": token, "action": view["legal"][0]["action"]},
                ).json()
            else:
                time.sleep(0.01)  # the bot is thinking
                view = client.get(f"/api/tables/{table}/view", params={"token": token}).json()
        steps = view["step"]
        client.post(f"/api/tables/{table}/rematch", json={"token": token})
        client.post(
            "/api/tables",
            json={"players": 3, "seats": [{"kind": "human", "name": n} for n in "ABC"]},
        )
    return table, steps


def test_copy_keeps_every_table_link_and_game(tmp_path: Path, pg_url: str) -> None:
    path = tmp_path / "games.sqlite3"
    table, steps = _played_database(path)
    assert main(["db", "copy", f"sqlite:{path}", pg_url]) == 0

    async def check() -> None:
        pg = await PostgresStore.open(pg_url)
        try:
            loaded = await pg.load_table(table)
            sqlite = SqliteStore(path)
            assert loaded == await sqlite.load_table(table)
            await sqlite.close()
            # Every game came along, with whose turn it is.
            columns = "table_id, number, seed, finished, turn_step, turn_seat, turn_bot"
            source = sqlite3.connect(path)
            games = sorted(source.execute(f"SELECT {columns} FROM games").fetchall())
            source.close()
            async with pg.connection() as db:
                copied = await db.fetch(f"SELECT {columns} FROM games")
            assert len(games) == 3
            expected = [(*row[:3], bool(row[3]), *row[4:6], bool(row[6])) for row in games]
            assert expected == sorted(tuple(row) for row in copied)
            assert len(await pg.unfinished_tables()) == 2
            async with pg.connection() as db:
                assert await db.fetchval(
                    "SELECT count(*) FROM actions WHERE table_id = $1 AND game = 1", table
                ) == steps
                assert await db.fetchval("SELECT count(*) FROM tables") == 2
        finally:
            await pg.close()

    asyncio.run(check())
    # A second copy into the now full database is refused, and changes nothing.
    assert main(["db", "copy", str(path), pg_url]) == 2

    async def count() -> int:
        db = await asyncpg.connect(pg_url)
        try:
            return int(await db.fetchval("SELECT count(*) FROM tables"))
        finally:
            await db.close()

    assert asyncio.run(count()) == 2


def test_bad_sources_and_targets_are_one_line_errors(
    tmp_path: Path, pg_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["db", "copy", str(tmp_path / "missing.sqlite3"), pg_url]) == 2
    assert "no such file" in capsys.readouterr().err
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"\x00\x01 not a database at all" * 100)
    assert main(["db", "copy", str(junk), pg_url]) == 2
    assert "not an oriflamme game database" in capsys.readouterr().err
    assert main(["db", "copy", str(junk), "mysql://x"]) == 2
    assert "must be a postgresql:// address" in capsys.readouterr().err
    err_lines = capsys.readouterr().err.strip().splitlines()
    assert len(err_lines) <= 1
