"""Helpers of the fair-play tests (issue #26): a server's app on SQLite or PostgreSQL through
FastAPI's test client, and the few requests every one of those tests makes."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import anyio
import httpx
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from oriflamme.server import create_app

ANN = {"kind": "human", "name": "Ann"}
BEN = {"kind": "human", "name": "Ben"}
OPEN = {"kind": "open"}
RANDOM_BOT = {"kind": "bot", "level": "random"}
Json = dict[str, Any]


@contextmanager
def app_client(store_url: str, **options: Any) -> Iterator[TestClient]:
    """The server's app on ``store_url`` (an SQLite file or a PostgreSQL database), with
    instant bots and no throttle."""
    settings = {"bot_delay": 0, "rate": 1000.0, "burst": 1000.0, "tune_gc": False, **options}
    with TestClient(create_app(store_url, **settings)) as client:
        yield client


def create(client: TestClient | httpx.Client, **fields: Any) -> Json:
    body = {"players": 2, "seats": [ANN, BEN], **fields}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def refused(response: httpx.Response, status: int, code: str) -> str:
    """The message of an error answer, checked to be ``status`` ``code``."""
    body = response.json()
    assert (response.status_code, body["error"]["code"]) == (status, code), response.text
    return str(body["error"]["message"])


def view(client: TestClient | httpx.Client, table_id: str, token: str, **params: str) -> Json:
    response = client.get(f"/api/tables/{table_id}/view", params={"token": token, **params})
    assert response.status_code == 200, response.text
    return dict(response.json())


def summary(client: TestClient | httpx.Client, table_id: str) -> Json:
    response = client.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.text
    return dict(response.json())


def join(client: TestClient | httpx.Client, table_id: str, name: str, **body: Any) -> Any:
    return client.post(f"/api/tables/{table_id}/join", json={"name": name, **body})


def hand_over(
    client: TestClient | httpx.Client, table: Json, seat: int, **body: Any
) -> httpx.Response:
    payload = {"creator_token": table["creator_token"], "level": "random", **body}
    return client.post(f"/api/tables/{table['table_id']}/seats/{seat}/bot", json=payload)


def act_first(client: TestClient | httpx.Client, table_id: str, token: str) -> httpx.Response:
    """Play the first legal option of the token's seat (pinned to the step it saw)."""
    mine = view(client, table_id, token)
    assert mine["legal"], mine["prompt"]
    return client.post(
        f"/api/tables/{table_id}/actions",
        json={"token": token, "action": mine["legal"][0]["action"], "step": mine["step"]},
    )


def wait_until(read: Callable[[], Json], wanted: Callable[[Json], bool], within: float) -> Json:
    deadline = time.monotonic() + within
    while not wanted(seen := read()):
        assert time.monotonic() < deadline, f"not reached in {within} s: {seen}"
        time.sleep(0.05)
    return seen


def receive(ws: WebSocketTestSession, timeout: float = 5.0) -> Json:
    """The next WebSocket message, failing the test instead of hanging if none comes."""

    async def next_message() -> Json:
        with anyio.fail_after(timeout):
            return dict(await ws._send_rx.receive())

    message = ws.portal.call(next_message)
    assert message["type"] == "websocket.send", message
    return dict(json.loads(message["text"]))

#: Red's last decision in ``scenarios.SHARED_VICTORY``: leaving its Spy face down ends the game.
LEAVE_SPY = {"kind": "leave", "card": 1}
