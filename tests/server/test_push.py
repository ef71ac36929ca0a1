"""#29 section 3, Web Push: a decision waiting for a signed-in player connected nowhere is
pushed to their browsers once, through a push service started by the test that decrypts what
it receives (``http_ece``) and checks it; none for a decision that follows the player's own
move, none while they have a socket open; a subscription answered 410 is removed; a day clock
pushes at once. On SQLite and PostgreSQL; the server's keys are made once by two processes
starting together."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oriflamme.server import create_app
from push_endpoint import Browser, PushEndpoint, push_endpoint
from test_ratings_http import ME, sign_up

BOT = {"kind": "bot", "level": "random"}
#: Seconds a decision waits, its player connected nowhere, before its push (these tests').
AFTER = 2.0


@pytest.fixture
def endpoint() -> Iterator[PushEndpoint]:
    with push_endpoint() as found:
        yield found


@pytest.fixture
def client(store_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setenv("ORIFLAMME_PUSH_LOOPBACK", "1")
    monkeypatch.setenv("ORIFLAMME_PUSH_POLL", "0.05")
    monkeypatch.setenv("ORIFLAMME_PUSH_AFTER", str(AFTER))
    app = create_app(store_url, bot_delay=0, rate=1000.0, burst=1000.0, tune_gc=False)
    with TestClient(app) as c:
        yield c


def view(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table_id}/view", params={"token": token})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def my_turn(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """The seat's view once it has a decision to make."""
    deadline = time.monotonic() + 20
    while not (seen := view(client, table_id, token))["legal"]:
        assert seen["result"] is None, "the game ended"
        assert time.monotonic() < deadline, "the seat's turn never came"
        time.sleep(0.01)
    return seen


def play(client: TestClient, table_id: str, token: str, seen: dict[str, Any]) -> None:
    answer = client.post(f"/api/tables/{table_id}/actions", json={
        "token": token, "action": seen["legal"][0]["action"], "step": seen["step"]})
    assert answer.status_code == 200, answer.text


def steps(browser: Browser, pushes: list[Any]) -> list[int]:
    return [browser.read(push)["step"] for push in pushes]


def subscribe(client: TestClient, subscription: dict[str, str]) -> None:
    answer = client.post("/api/push/subscriptions", json=subscription)
    assert answer.status_code == 201, answer.text


def subscribed(client: TestClient) -> list[str]:
    answer = client.get("/api/push/subscriptions")
    assert answer.status_code == 200, answer.text
    return [s["endpoint"] for s in answer.json()["subscriptions"]]


def test_a_waiting_decision_is_pushed_once_and_only_when_the_player_is_away(
    client: TestClient, endpoint: PushEndpoint
) -> None:
    sign_up(client, "Ann")
    browser, old_browser = Browser(), Browser()
    subscribe(client, browser.subscription(endpoint.url + "/ann"))
    subscribe(client, old_browser.subscription(endpoint.url + "/gone"))
    assert subscribed(client) == [endpoint.url + "/ann", endpoint.url + "/gone"]
    endpoint.status["/gone"] = 410
    key = client.get("/api/push/key").json()["key"]
    table = client.post("/api/tables", json={"players": 2, "seats": [ME, BOT], "seed": 11}).json()
    table_id, token = table["table_id"], table["seats"][0]["token"]

    # Ann's first decision: one push, to each browser, signed with the server's key.
    first = my_turn(client, table_id, token)
    (push,) = endpoint.wait_for("/ann", 1)
    message = browser.read(push)
    url = message.pop("url")
    assert message == {"type": "your_turn", "table": table_id, "game": 1,
                       "step": first["step"]}
    assert url.startswith(f"/t/{table_id}?seat=a.")  # the link of her seat, for her account
    assert view(client, table_id, url.partition("?seat=")[2])["you"] == 0
    assert push.headers["content-encoding"] == "aes128gcm"
    assert f"k={key}" in push.headers["authorization"]
    # The browser that is gone (410) got it once, and its subscription is removed.
    assert len(endpoint.wait_for("/gone", 1)) == 1
    deadline = time.monotonic() + 10
    while len(listed := subscribed(client)) > 1:
        assert time.monotonic() < deadline, "the subscription answered 410 is still stored"
        time.sleep(0.02)
    assert listed == [endpoint.url + "/ann"]
    gone = client.request("DELETE", "/api/push/subscriptions",
                          json={"endpoint": endpoint.url + "/gone"})
    assert (gone.status_code, gone.json()["error"]["code"]) == (404, "no_subscription")
    time.sleep(AFTER + 0.5)
    assert len(endpoint.at("/ann")) == 1  # one push per decision

    # A decision right after her own move: no push.
    seen = first
    for _ in range(400):
        play(client, table_id, token, seen)
        after = my_turn(client, table_id, token)
        if after["step"] == seen["step"] + 1:
            break
        seen = after
    else:
        pytest.fail("no decision of Ann followed her own move")
    own = after["step"]
    time.sleep(AFTER + 1.0)
    assert own not in steps(browser, endpoint.at("/ann"))

    # With a socket open, no push; once it is closed for AFTER seconds, one.
    origin = {"origin": "http://testserver"}  # a socket of her page (the CSRF rule)
    with client.websocket_connect(f"/ws/{table_id}?token={token}", headers=origin) as ws:
        assert ws.receive_json()["type"] == "view"
        seen = after
        for _ in range(400):  # to a decision that follows the bot's move
            previous = seen["step"]
            play(client, table_id, token, seen)
            seen = my_turn(client, table_id, token)
            if seen["step"] > previous + 1:
                break
        else:
            pytest.fail("no decision of Ann followed the bot's move")
        watched = seen["step"]
        time.sleep(AFTER + 1.0)
        assert watched not in steps(browser, endpoint.at("/ann"))
    closed = time.monotonic()
    pushes = endpoint.wait_for("/ann", len(endpoint.at("/ann")) + 1)
    assert time.monotonic() - closed >= AFTER - 0.5
    assert steps(browser, pushes)[-1] == watched
    # Never two pushes for one decision, and the one that was gone got no more.
    found = steps(browser, pushes)
    assert len(found) == len(set(found)) and own not in found
    assert len(endpoint.at("/gone")) == 1
