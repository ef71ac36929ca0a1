"""A rated game's rating is stored exactly once across real server processes on PostgreSQL:
two players signed in on two servers, the last move made on server A, which is killed with
SIGKILL at once; server B shows the finished game and the ratings, each counted once, and a
repeat of the last move (a client retrying on the other server) changes nothing."""

from __future__ import annotations

import asyncio
import json
import signal
import time
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from oriflamme.server.rating_model import Belief, RatedGame, rate
from servers import running_server

pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")

PASSWORD = "a long enough passphrase 42"


def sign_up(client: httpx.Client, name: str) -> None:
    response = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    client.headers["X-CSRF-Token"] = client.get("/api/account").json()["csrf"]


def view(client: httpx.Client, table_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/view", params={"token": token})
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def _stored(url: str, table_id: str) -> tuple[list[Any], list[Any], list[Any]]:
    connection = await asyncpg.connect(url)
    try:
        results = await connection.fetch(
            "SELECT game, seq, pool, seats FROM rating_results WHERE table_id = $1", table_id
        )
        ratings = await connection.fetch(
            "SELECT player, mu, sigma, games FROM ratings ORDER BY player"
        )
        history = await connection.fetch("SELECT player, seq FROM rating_history")
        return list(results), list(ratings), list(history)
    finally:
        await connection.close()


def test_the_last_move_on_a_server_killed_at_once_is_rated_once(
    pg_url: str, tmp_path: Path
) -> None:
    with (
        running_server(pg_url, tmp_path / "a.log", "--bot-delay", "0") as (process_a, a),
        running_server(pg_url, tmp_path / "b.log", "--bot-delay", "0") as (_, b),
    ):
        sign_up(a, "Alice")
        sign_up(b, "Bob")
        seats = [{"kind": "human", "account": True}, {"kind": "open"}]
        created = a.post(
            "/api/tables",
            json={"players": 2, "seats": seats, "rated": True, "clock": {"per_decision": 600}},
        )
        assert created.status_code == 201, created.text
        table_id, alice = created.json()["table_id"], created.json()["seats"][0]["token"]
        joined = b.post(f"/api/tables/{table_id}/join", json={})
        assert joined.status_code == 201, joined.text
        bob = joined.json()["token"]
        # Every move through server A (Bob's seat token works on any server), the last too.
        deadline = time.monotonic() + 120
        while True:
            seen = [view(a, table_id, token) for token in (alice, bob)]
            if seen[0]["result"] is not None:
                break
            movers = [i for i in (0, 1) if seen[i]["legal"]]
            if not movers:  # server A has not heard of Bob's join (on B) yet
                assert time.monotonic() < deadline, seen[0]
                time.sleep(0.05)
                continue
            mover = movers[0]
            body = {"token": (alice, bob)[mover], "action": seen[mover]["legal"][0]["action"]}
            body["step"] = seen[mover]["step"]
            path = f"/api/tables/{table_id}/actions"
            while (response := a.post(path, json=body)).status_code == 429:
                time.sleep(0.1)  # the per-address rate limit: wait it out, as a client does
            assert response.status_code == 200, response.text
            last = body
        process_a.send_signal(signal.SIGKILL)
        process_a.wait(timeout=10)

        # Server B: the game is over, each player rated once.
        deadline = time.monotonic() + 10
        while view(b, table_id, alice)["result"] is None:
            assert time.monotonic() < deadline, "server B never saw the end"
            time.sleep(0.05)
        # The last move sent again (its answer lost with server A): answered as played, with
        # the view of the game over, and rated no second time (below).
        again = b.post(f"/api/tables/{table_id}/actions", json=last)
        assert again.status_code == 200, again.text
        assert again.json()["result"] is not None and again.json()["step"] == last["step"] + 1
        board = b.get("/api/leaderboard", params={"pool": "2p"}).json()
        assert sorted((e["name"], e["games"]) for e in board["entries"]) == [
            ("Alice", 1),
            ("Bob", 1),
        ]
        profile = b.get("/api/players/Bob").json()
        assert profile["ratings"]["2p"]["games"] == 1 and profile["reputation"] == 1.0
    results, ratings, history = asyncio.run(_stored(pg_url, table_id))
    assert len(results) == 1 and results[0]["pool"] == "2p" and len(history) == 2
    game = RatedGame.from_json(table_id, 1, "2p", json.loads(results[0]["seats"]))
    expected = rate({}, game)
    assert {r["player"]: Belief(r["mu"], r["sigma"]) for r in ratings} == expected
    assert [r["games"] for r in ratings] == [1, 1]
