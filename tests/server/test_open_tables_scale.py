"""Open tables and clocks across real server processes (issue #16): joins racing through two
servers on one PostgreSQL database, a stand-in that moves exactly once whichever server sees
the deadline, and a clock that survives kill -9 and a restart."""

from __future__ import annotations

import signal
import sqlite3
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx

from servers import running_server
from test_scale_out import post, stored_actions, two_servers

ANN = {"kind": "human", "name": "Ann"}
OPEN = {"kind": "open"}


def view(client: httpx.Client, table_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/view", params={"token": token})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def wait_until(
    read: Callable[[], dict[str, Any]], wanted: Callable[[dict[str, Any]], bool], within: float
) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while not wanted(seen := read()):
        assert time.monotonic() < deadline, f"not reached in {within} s: {seen}"
        time.sleep(0.05)
    return seen


def test_joins_race_through_two_servers_and_one_wins(pg_url: str, tmp_path: Path) -> None:
    with two_servers(pg_url, tmp_path) as ((_, a), b), ThreadPoolExecutor(8) as pool:
        body = {"players": 3, "seats": [ANN, OPEN, OPEN], "public": True}
        table = post(a, "/api/tables", body).json()
        table_id = table["table_id"]
        assert [t["table_id"] for t in b.get("/api/lobby").json()["tables"]] == [table_id]
        path = f"/api/tables/{table_id}/join"
        answers = list(
            pool.map(lambda i: post((a, b)[i % 2], path, {"name": f"P{i}", "seat": 1}), range(8))
        )
        assert sorted(r.status_code for r in answers) == [201] + [409] * 7
        assert {r.json()["error"]["code"] for r in answers if r.status_code == 409} == {
            "seat_taken"
        }
        winner = next(r.json() for r in answers if r.status_code == 201)
        # The last seat is taken through B; A learns it and the game starts on both.
        cid = post(b, path, {"name": "Cid"}).json()
        assert cid["seat"] == 2
        for server in (a, b):
            seen = wait_until(
                lambda s=server: view(s, table_id, cid["token"]),
                lambda v: not v["waiting_for_players"],
                5,
            )
            assert [s["name"] for s in seen["seats"]] == ["Ann", winner["name"], "Cid"]
        assert a.get("/api/lobby").json()["tables"] == b.get("/api/lobby").json()["tables"] == []


def test_a_stand_in_moves_once_whichever_server_sees_the_deadline(
    pg_url: str, tmp_path: Path
) -> None:
    with two_servers(pg_url, tmp_path) as ((_, a), b):
        seats = [ANN, {"kind": "human", "name": "Ben"}, {"kind": "human", "name": "Cid"}]
        body = {"players": 3, "seats": seats, "clock": {"per_decision": 2}, "seed": 9}
        table = post(a, "/api/tables", body).json()
        table_id, spectator = table["table_id"], table["spectator_token"]
        # Nobody acts: the stand-ins play three decisions, one after the other.
        wait_until(lambda: view(b, table_id, spectator), lambda v: v["step"] >= 3, 20)
        time.sleep(0.5)
        stored = stored_actions(pg_url, table_id)
        seen = view(a, table_id, spectator)
        assert len(stored) == seen["step"]  # every stored action applied once, none twice
        assert [s["kind"] for s in seen["seats"]] == ["human"] * 3


def test_a_clock_survives_kill_9_and_a_restart(tmp_path: Path) -> None:
    """A 10-minute clock whose deadline passes while no server runs (the stored deadline moved
    10 minutes back, as if they had passed): the restarted server plays it at once (a scan),
    from the stored deadline, instead of starting a new 10-minute clock. (How soon after the
    restart: benchmarks/server/timings.py.)"""
    db = tmp_path / "games.sqlite3"
    with running_server(db, tmp_path / "a.log", "--bot-delay", "0") as (process, client):
        body = {
            "players": 2,
            "seats": [ANN, {"kind": "human", "name": "Ben"}],
            "clock": {"per_decision": 600},
            "seed": 4,
        }
        table = post(client, "/api/tables", body).json()
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=10)
    with sqlite3.connect(db) as connection:
        moved = connection.execute(
            "UPDATE games SET turn_deadline = turn_deadline - 600"
            " WHERE table_id = ? AND turn_deadline IS NOT NULL",
            (table["table_id"],),
        ).rowcount
    assert moved == 1
    with running_server(db, tmp_path / "b.log", "--bot-delay", "0") as (_, client):
        token = table["seats"][0]["token"]
        played = wait_until(
            lambda: view(client, table["table_id"], token), lambda v: v["step"] >= 1, 20
        )
        assert played["seats"][0]["kind"] == "human"  # the stand-in played; the seat stays hers
