"""The real server, killed with SIGKILL mid-game, comes back exactly where it was."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from oriflamme.server import SqliteStore, create_app

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def server(db: Path, log: Path) -> Iterator[tuple[subprocess.Popen[bytes], httpx.Client]]:
    """Run ``oriflamme serve`` on a free port until it answers; kill it on the way out."""
    port = free_port()
    command = [sys.executable, "-m", "oriflamme.cli.main", "serve", "--port", str(port)]
    with log.open("ab") as out:
        process = subprocess.Popen(
            [*command, "--db", str(db), "--bot-delay", "0"], stdout=out, stderr=out
        )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=5) as client:
            deadline = time.monotonic() + 15
            while True:
                assert process.poll() is None, log.read_text()
                try:
                    if client.get("/api/cards").status_code == 200:
                        break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, log.read_text()
                    time.sleep(0.05)
            assert f"open http://127.0.0.1:{port}/" in log.read_text()
            yield process, client
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


def post(client: httpx.Client, url: str, body: dict[str, Any]) -> httpx.Response:
    """POST, waiting out the per-address throttle (20 actions a second)."""
    while (response := client.post(url, json=body)).status_code == 429:
        time.sleep(0.05)
    return response


def views(client: httpx.Client, table: dict[str, Any]) -> list[dict[str, Any]]:
    tokens = [s["token"] for s in table["seats"]] + [table["spectator_token"]]
    url = f"/api/tables/{table['table_id']}/view"
    return [client.get(url, params={"token": t}).json() for t in tokens]


def play(client: httpx.Client, table: dict[str, Any], actions: int | None) -> int:
    """Play the last legal option of whoever decides, ``actions`` times or to the end."""
    played = 0
    while actions is None or played < actions:
        public = views(client, table)[-1]
        if public["result"] is not None:
            break
        token = table["seats"][public["waiting_for"]["seat"]]["token"]
        mine = client.get(f"/api/tables/{table['table_id']}/view", params={"token": token}).json()
        body = {"token": token, "action": mine["legal"][-1]["action"], "step": mine["step"]}
        response = post(client, f"/api/tables/{table['table_id']}/actions", body)
        assert response.status_code == 200, response.text
        played += 1
    return played


def reply(ws: Any) -> dict[str, Any]:
    """The next message that is not a view (views are pushed whenever the table changes: here
    when the seat, away since the restart, is back)."""
    while (message := json.loads(ws.recv(timeout=5))).get("type") == "view":
        pass
    result: dict[str, Any] = message
    return result


def test_a_killed_server_loses_no_accepted_action(tmp_path: Path) -> None:
    db, log = tmp_path / "games.sqlite3", tmp_path / "server.log"
    seats = [{"kind": "human", "name": n} for n in ("Ann", "Ben", "Cid")]
    with server(db, log) as (process, client):
        response = post(client, "/api/tables", {"players": 3, "seats": seats, "seed": 21})
        assert response.status_code == 201
        table = response.json()
        assert play(client, table, 25) == 25
        before = views(client, table)
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    assert [v["step"] for v in before] == [25] * 4
    with server(db, log) as (_, client):
        after = views(client, table)
        for old, new in zip(before, after, strict=True):
            assert new["step"] == old["step"] and new["you"] == old["you"]
            assert new["observation"] == old["observation"]
            for key in ("legal", "log", "cards", "prompt", "waiting_for"):
                assert new[key] == old[key], key
        port = client.base_url.port
        url = f"ws://127.0.0.1:{port}/ws/{table['table_id']}?token={table['seats'][0]['token']}"
        with connect(url, open_timeout=5) as ws:
            first = json.loads(ws.recv(timeout=5))
            assert first["view"]["observation"] == before[0]["observation"]
            ws.send("x" * 5000)
            assert reply(ws)["code"] == "too_large"
            ws.send(json.dumps({"type": "ping"}))
            assert reply(ws) == {"type": "pong"}
        assert play(client, table, None) > 0
        final = views(client, table)
        assert all(v["result"] is not None for v in final)
        assert final[0]["result"]["scores"] == final[0]["observation"]["influence"]
    assert table["seats"][0]["token"] not in log.read_text()  # tokens are not logged


def test_bots_play_on_after_a_restart(tmp_path: Path) -> None:
    """An unfinished game is rebuilt at start-up and its bot to move plays without a request."""
    seats = [{"kind": "bot", "level": "random"}, {"kind": "human", "name": "Ann"}]
    with TestClient(
        create_app(SqliteStore(tmp_path / "db.sqlite3"), bot_delay=60, tune_gc=False)
    ) as client:
        table = client.post("/api/tables", json={"players": 2, "seats": seats}).json()
    store = SqliteStore(tmp_path / "db.sqlite3")
    stored = asyncio.run(store.load_table(table["table_id"]))
    store.close_now()
    assert stored is not None and stored[1].actions == ()  # the bot had not moved
    url, token = f"/api/tables/{table['table_id']}/view", table["seats"][1]["token"]
    with TestClient(
        create_app(SqliteStore(tmp_path / "db.sqlite3"), bot_delay=0, tune_gc=False)
    ) as client:
        deadline = time.monotonic() + 5
        while (seen := client.get(url, params={"token": token}).json())["step"] == 0:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        assert seen["step"] == 1 and seen["waiting_for"]["seat"] == 1 and seen["legal"]


def children_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # the process ended meanwhile
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_bot_workers_end_with_a_killed_server(tmp_path: Path) -> None:
    """The bots think in worker processes; a ``kill -9`` of the server leaves none behind."""
    seats = [{"kind": "bot", "level": "easy"}, {"kind": "human", "name": "Ann"}]
    with server(tmp_path / "db.sqlite3", tmp_path / "server.log") as (process, client):
        table = post(client, "/api/tables", {"players": 2, "seats": seats}).json()
        url, token = f"/api/tables/{table['table_id']}/view", table["seats"][1]["token"]
        deadline = time.monotonic() + 10
        while client.get(url, params={"token": token}).json()["step"] == 0:
            assert time.monotonic() < deadline, "the bot never played"
            time.sleep(0.02)
        workers = children_of(process.pid)
        assert workers, "the bot thought in no worker process"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "bot workers outlived their server"
        time.sleep(0.1)


#: Starts a bot worker, then dies at once, while the worker is still starting.
_DIES_AT_ONCE = """
import os
from oriflamme.server import thinking
thinking._spawned_pool(1).submit(os.getpid)
os._exit(0)
"""


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
def test_a_bot_worker_started_as_its_server_dies_ends_too() -> None:
    server = subprocess.Popen([sys.executable, "-c", _DIES_AT_ONCE], start_new_session=True)
    assert server.wait(timeout=20) == 0

    def in_session() -> list[int]:
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == server.pid and fields[0] != "Z":
                found.append(int(stat.parent.name))
        return found

    deadline = time.monotonic() + 15
    while left := in_session():
        assert time.monotonic() < deadline, f"processes outlived their server: {left}"
        time.sleep(0.1)
