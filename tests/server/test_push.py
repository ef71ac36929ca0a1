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
    browser, old_browser, lost_browser = Browser(), Browser(), Browser()
    subscribe(client, browser.subscription(endpoint.url + "/ann"))
    subscribe(client, old_browser.subscription(endpoint.url + "/gone"))
    subscribe(client, lost_browser.subscription(endpoint.url + "/lost"))
    assert subscribed(client) == [endpoint.url + p for p in ("/ann", "/gone", "/lost")]
    endpoint.status["/gone"] = 410
    endpoint.status["/lost"] = 404
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
    # The browsers that are gone (410, 404) got it once, and their subscriptions are removed.
    assert len(endpoint.wait_for("/gone", 1)) == 1
    assert len(endpoint.wait_for("/lost", 1)) == 1
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
    assert len(endpoint.at("/gone")) == len(endpoint.at("/lost")) == 1


def test_a_day_clock_pushes_at_once(
    store_url: str, endpoint: PushEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ORIFLAMME_PUSH_LOOPBACK", "1")
    monkeypatch.setenv("ORIFLAMME_PUSH_POLL", "0.05")
    monkeypatch.setenv("ORIFLAMME_PUSH_AFTER", "600")  # never, for other clocks
    app = create_app(store_url, bot_delay=0, rate=1000.0, burst=1000.0, tune_gc=False)
    with TestClient(app) as client:
        sign_up(client, "Ann")
        browser = Browser()
        subscribe(client, browser.subscription(endpoint.url + "/ann"))
        hourly = client.post("/api/tables", json={
            "players": 2, "seats": [ME, BOT], "seed": 11, "clock": {"per_decision": 600}
        }).json()
        my_turn(client, hourly["table_id"], hourly["seats"][0]["token"])
        daily = client.post("/api/tables", json={
            "players": 2, "seats": [ME, BOT], "seed": 11, "clock": {"per_decision": 86400}
        }).json()
        seen = my_turn(client, daily["table_id"], daily["seats"][0]["token"])
        (push,) = endpoint.wait_for("/ann", 1, timeout=10)
        message = browser.read(push)
        assert (message["table"], message["step"]) == (daily["table_id"], seen["step"])
        # The turn-based preset is a time bank (3 days, 1 more a decision): a day clock too.
        turn_based = client.post("/api/tables", json={
            "players": 2, "seats": [ME, BOT], "seed": 11, "clock": "daily"
        }).json()
        seen = my_turn(client, turn_based["table_id"], turn_based["seats"][0]["token"])
        pushes = endpoint.wait_for("/ann", 2, timeout=10)
        message = browser.read(pushes[-1])
        assert (message["table"], message["step"]) == (turn_based["table_id"], seen["step"])
        time.sleep(1.5)
        assert len(endpoint.at("/ann")) == 2  # the 10-minute clock's decision waits on


def test_subscriptions_need_an_account_a_good_endpoint_and_keys(
    client: TestClient, endpoint: PushEndpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    good = Browser().subscription("https://push.example/browser-1")
    key = client.get("/api/push/key").json()["key"]
    assert len(key) == 87  # a P-256 point, uncompressed: 65 bytes in base64url
    refused = client.post("/api/push/subscriptions", json=good)
    assert (refused.status_code, refused.json()["error"]["code"]) == (401, "signed_out")
    sign_up(client, "Ann")
    csrf = client.headers.pop("X-CSRF-Token")
    refused = client.post("/api/push/subscriptions", json=good)
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "csrf")
    client.headers["X-CSRF-Token"] = csrf
    bad_endpoints = [
        "http://push.example/1",  # plain http elsewhere than loopback
        "ftp://push.example/1", "https://", "not a url", "https://user:pw@push.example/1",
        "https://push.example/1#x", "https://push.example:99999/1",
        "https://push.example/" + "x" * 1100,
    ]
    for bad in bad_endpoints:
        answer = client.post("/api/push/subscriptions", json={**good, "endpoint": bad})
        assert answer.status_code == 422, bad
        assert answer.json()["error"]["code"] in {"bad_subscription", "invalid_request"}, bad
    wrong_key = Browser().subscription("https://push.example/1")["p256dh"][:-4] + "AAAA"
    for field, value in (("p256dh", wrong_key), ("p256dh", "!!"), ("auth", "AAAA"),
                         ("p256dh", "BAAA"), ("auth", "é")):
        answer = client.post("/api/push/subscriptions", json={**good, field: value})
        assert (answer.status_code, answer.json()["error"]["code"]) == (
            422, "bad_subscription"), (field, value)
    extra = client.post("/api/push/subscriptions", json={**good, "more": 1})
    assert extra.status_code == 422
    assert subscribed(client) == []
    # Ten browsers at most; the same one again replaces itself.
    for n in range(10):
        subscribe(client, {**good, "endpoint": f"https://push.example/browser-{n}"})
    subscribe(client, good)
    over = client.post("/api/push/subscriptions", json={**good, "endpoint": "https://x.example/"})
    assert (over.status_code, over.json()["error"]["code"]) == (409, "too_many_subscriptions")
    assert len(subscribed(client)) == 10
    exported = client.get("/api/account/export").json()["push_subscriptions"]
    assert len(exported) == 10 and exported[0]["service"] == "push.example"
    assert "browser" not in str(exported)  # not the endpoints: they let anyone push
    # Another account cannot remove Ann's.
    sign_up(client, "Ben")
    stolen = client.request(
        "DELETE", "/api/push/subscriptions", json={"endpoint": good["endpoint"]}
    )
    assert (stolen.status_code, stolen.json()["error"]["code"]) == (404, "no_subscription")
    # Plain http to loopback only where the server allows it (tests).
    local = {**good, "endpoint": endpoint.url + "/ben"}
    subscribe(client, local)
    assert subscribed(client) == [endpoint.url + "/ben"]
    done = client.request("DELETE", "/api/push/subscriptions", json={"endpoint": local["endpoint"]})
    assert done.status_code == 200 and subscribed(client) == []


def test_loopback_endpoints_are_refused_unless_the_server_allows_them(store_url: str) -> None:
    with TestClient(create_app(store_url, bot_delay=0, tune_gc=False)) as client:
        sign_up(client, "Ann")
        local = Browser().subscription("http://127.0.0.1:9/push")
        answer = client.post("/api/push/subscriptions", json=local)
        assert (answer.status_code, answer.json()["error"]["code"]) == (422, "bad_subscription")
        assert "tests" in answer.json()["error"]["message"]
