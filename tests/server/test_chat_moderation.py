"""#29 section 1: reports of chat messages and their moderation by an admin (list, delete,
suspend, dismiss) with their refusals, on both backends; a deletion reaches every socket live,
on every server process; the replay's talk of a finished game."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from oriflamme.server import create_app
from servers import running_server
from test_chat import history, open_socket
from test_scale_out import LIVE_TIMEOUT
from test_server_api import play_to_end

ORIGIN = "http://testserver"
PASSWORD = "correct horse battery"


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    """A server's client whose requests are not throttled (whole games are played over HTTP)."""
    app = create_app(store_url, bot_delay=0, tune_gc=False, rate=1000.0, burst=1000.0)
    with TestClient(app) as test_client:
        yield test_client


def received(ws: WebSocketTestSession, kind: str, tries: int = 50) -> dict[str, Any]:
    """The first message of type ``kind`` the socket gets (views skipped), looked for up to the
    answers to ``tries`` pings sent a tenth of a second apart: a missing message fails the test
    instead of waiting for ever, and a message that comes through the database's announcement
    (PostgreSQL's, slower than a ping) still counts. (What a socket of the table writes reaches
    the others before its writer gets it back: wait for the writer's first.)"""
    for _ in range(tries):
        ws.send_json({"type": "ping"})
        found: dict[str, Any] | None = None
        while (message := ws.receive_json())["type"] != "pong":
            if message["type"] == kind and found is None:
                found = message
        if found is not None:
            return found
        time.sleep(0.1)
    raise AssertionError(f"no {kind} message came")


def next_chat_within(ws: ClientConnection, timeout: float) -> dict[str, Any] | None:
    """The next chat message a real socket receives within ``timeout`` seconds, or None."""
    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            message = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            return None
        if message["type"] == "chat":
            found: dict[str, Any] = message["message"]
            return found
    return None


def sign_up(client: TestClient | httpx.Client, name: str) -> dict[str, str]:
    """A new account, signed in; its cookies (to switch back to it)."""
    client.cookies.clear()
    answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return dict(client.cookies)


def use(client: TestClient | httpx.Client, cookies: dict[str, str]) -> None:
    client.cookies.clear()
    for name, value in cookies.items():
        client.cookies.set(name, value)


def grant_admin(client: TestClient, name: str) -> None:
    store = client.app.state.manager.store  # type: ignore[attr-defined]

    async def grant() -> None:
        account = await store.account_by_name(name)
        await store.set_account_flags(account.account_id, admin=True)

    client.portal.call(grant)  # type: ignore[union-attr]


def report(client: TestClient | httpx.Client, table: dict[str, Any], token: str, number: int,
           reason: Any = "") -> httpx.Response:
    return client.post(
        f"/api/tables/{table['table_id']}/chat/{number}/report",
        json={"token": token, "reason": reason},
    )


def moderate(client: TestClient | httpx.Client, table: dict[str, Any], number: int,
             verb: str) -> httpx.Response:
    return client.post(f"/api/admin/chat/{table['table_id']}/{number}/{verb}")


def error(answer: httpx.Response) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"]


@pytest.fixture
def talk(client: TestClient) -> dict[str, Any]:
    """A table of Ann (an account) and Bob (a guest) where each wrote a message, Ann's being
    number 1 and Bob's number 2, and the cookies of Ann and of an admin, Root."""
    client.headers["Origin"] = ORIGIN  # what a browser sends with every POST
    ann_cookies = sign_up(client, "Ann")
    answer = client.post("/api/tables", json={
        "players": 2, "seats": [{"kind": "human", "account": True},
                                {"kind": "human", "name": "Bob"}],
    })
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()
    client.cookies.clear()
    ann, bob = (seat["token"] for seat in table["seats"])
    ws_ann = open_socket(client, table, ann)
    try:
        ws_ann.send_json({"type": "chat", "text": "you all play like bots"})
        assert received(ws_ann, "chat")["message"]["number"] == 1
        ws_ann.send_json({"type": "chat", "phrase": "sorry"})
        assert received(ws_ann, "chat")["message"]["number"] == 2
    finally:
        ws_ann.__exit__(None, None, None)
    ws_bob = open_socket(client, table, bob)
    try:
        ws_bob.send_json({"type": "chat", "text": "no, you"})
        assert received(ws_bob, "chat")["message"]["number"] == 3
    finally:
        ws_bob.__exit__(None, None, None)
    root_cookies = sign_up(client, "Root")
    grant_admin(client, "Root")
    client.cookies.clear()
    return {"table": table, "ann": ann, "bob": bob, "ann_cookies": ann_cookies,
            "root_cookies": root_cookies}


def test_reports_reach_the_admins_once_per_reporter(client: TestClient, talk: Any) -> None:
    table = talk["table"]
    answer = report(client, table, talk["bob"], 1, "  rude  ")
    assert answer.status_code == 201, answer.text
    assert answer.json() == {"table_id": table["table_id"], "number": 1}
    assert error(report(client, table, talk["bob"], 1)) == (409, "already_reported")
    # A signed-in reader reports as their account, whatever link they use.
    use(client, talk["ann_cookies"])
    assert report(client, table, talk["ann"], 3).status_code == 201
    assert error(report(client, table, talk["ann"], 3)) == (409, "already_reported")
    use(client, talk["root_cookies"])
    listed = client.get("/api/admin/chat/reports")
    assert listed.status_code == 200, listed.text
    reports = listed.json()["reports"]
    assert [(r["message"]["number"], r["reports"]) for r in reports] == [(1, 1), (3, 1)]
    first = reports[0]
    assert first["table_id"] == table["table_id"] and first["reasons"] == ["rude"]
    assert first["message"]["text"] == "you all play like bots"
    assert first["author_account"] == "Ann" and reports[1]["author_account"] is None


@pytest.mark.parametrize(
    ("who", "number", "reason", "status", "code"),
    [
        ("spectator", 1, "", 404, "unknown_message"),  # it may not read the players' chat
        ("bob", 99, "", 404, "unknown_message"),
        ("bob", 1, "x" * 201, 400, "invalid_reason"),
        ("bob", 1, "bad\u202ereason", 400, "invalid_reason"),
        ("bob", 1, "x" * 801, 422, "invalid_request"),
        ("bob", 1, 5, 422, "invalid_request"),
        ("bob", 0, "", 422, "invalid_request"),
        ("nobody", 1, "", 401, "bad_token"),
    ],
)
def test_bad_reports_are_refused_and_store_nothing(
    client: TestClient, talk: Any, who: str, number: int, reason: Any, status: int, code: str
) -> None:
    table = talk["table"]
    token = {"spectator": table["spectator_token"], "bob": talk["bob"],
             "nobody": "x" * 30}[who]
    assert error(report(client, table, token, number, reason)) == (status, code)
    use(client, talk["root_cookies"])
    assert client.get("/api/admin/chat/reports").json()["reports"] == []


def test_only_admins_moderate(client: TestClient, talk: Any) -> None:
    table = talk["table"]
    assert report(client, table, talk["bob"], 1).status_code == 201
    for cookies, refusal in (({}, (401, "signed_out")),
                             (talk["ann_cookies"], (403, "not_admin"))):
        use(client, cookies)
        assert error(client.get("/api/admin/chat/reports")) == refusal
        for verb in ("delete", "suspend", "dismiss"):
            assert error(moderate(client, table, 1, verb)) == refusal
    # The admin's cookie requests follow the CSRF rule: from another site, refused.
    use(client, talk["root_cookies"])
    foreign = client.post(
        f"/api/admin/chat/{table['table_id']}/1/delete", headers={"Origin": "https://evil.test"}
    )
    assert error(foreign) == (403, "csrf")
    messages = history(client, table, talk["bob"], "players").json()["messages"]
    assert messages[0]["text"] == "you all play like bots" and not messages[0]["deleted"]
    assert len(client.get("/api/admin/chat/reports").json()["reports"]) == 1
    assert error(moderate(client, table, 1, "ban")) == (422, "invalid_request")
    assert error(moderate(client, table, 99, "delete")) == (404, "unknown_message")


def test_an_admin_deletes_a_message_live_and_it_keeps_its_place(
    client: TestClient, talk: Any
) -> None:
    table = talk["table"]
    assert report(client, table, talk["bob"], 1, "rude").status_code == 201
    ws_bob = open_socket(client, table, talk["bob"])
    try:
        use(client, talk["root_cookies"])
        answer = moderate(client, table, 1, "delete")
        assert answer.status_code == 200, answer.text
        assert answer.json()["action"] == "deleted"
        pushed = received(ws_bob, "chat")["message"]
        assert (pushed["number"], pushed["deleted"]) == (1, True)
        assert pushed["text"] is None and pushed["name"] == "Ann"
    finally:
        ws_bob.__exit__(None, None, None)
    messages = history(client, table, talk["bob"], "players").json()["messages"]
    assert [(m["number"], m["text"], m["deleted"]) for m in messages] == [
        (1, None, True), (2, None, False), (3, "no, you", False)
    ]
    assert client.get("/api/admin/chat/reports").json()["reports"] == []  # handled
    assert error(report(client, table, talk["ann"], 1)) == (409, "message_deleted")


def test_an_admin_suspends_the_account_of_an_author(client: TestClient, talk: Any) -> None:
    table = talk["table"]
    assert report(client, table, talk["bob"], 1).status_code == 201
    assert report(client, table, talk["ann"], 3).status_code == 201
    use(client, talk["root_cookies"])
    # Bob is a guest: no account to suspend; his report stays open.
    assert error(moderate(client, table, 3, "suspend")) == (409, "no_account")
    answer = moderate(client, table, 1, "suspend")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert (body["action"], body["account"], body["reports_closed"]) == ("suspended", "Ann", 1)
    assert body["sessions_ended"] == 1
    left = client.get("/api/admin/chat/reports").json()["reports"]
    assert [r["message"]["number"] for r in left] == [3]
    assert moderate(client, table, 3, "dismiss").json()["reports_closed"] == 1
    assert client.get("/api/admin/chat/reports").json()["reports"] == []
    use(client, talk["ann_cookies"])
    assert error(client.get("/api/account")) == (401, "signed_out")  # her session ended
    refused = client.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
    assert error(refused) == (403, "account_suspended")
    # Her seat's link still plays the game, but writes no more.
    ws = open_socket(client, table, talk["ann"])
    try:
        ws.send_json({"type": "chat", "phrase": "sorry"})
        assert received(ws, "error")["code"] == "account_suspended"
    finally:
        ws.__exit__(None, None, None)
    assert len(history(client, table, talk["bob"], "players").json()["messages"]) == 3


def test_the_replay_shows_the_players_talk_of_a_finished_game(client: TestClient) -> None:
    answer = client.post("/api/tables", json={
        "players": 2, "seed": 3,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
    })
    table = answer.json()
    ann, bob = (seat["token"] for seat in table["seats"])
    path = f"/api/tables/{table['table_id']}/games/1/chat"
    assert error(client.get(path, params={"token": ann})) == (409, "not_over")
    ws = open_socket(client, table, ann)
    try:
        ws.send_json({"type": "chat", "phrase": "good_luck"})
        received(ws, "chat")
    finally:
        ws.__exit__(None, None, None)
    ws = open_socket(client, table, table["spectator_token"])
    try:  # the spectators' talk is not the replay's
        ws.send_json({"type": "chat", "text": "go go"})
        received(ws, "chat")
    finally:
        ws.__exit__(None, None, None)
    finished = play_to_end(client, table)
    ws = open_socket(client, table, bob)
    try:
        ws.send_json({"type": "chat", "phrase": "well_played"})
        received(ws, "chat")
    finally:
        ws.__exit__(None, None, None)
    replay_token = parse_qs(urlsplit(finished["replay_url"]).query)["token"][0]
    for token in (replay_token, table["spectator_token"], bob):
        said = client.get(path, params={"token": token})
        assert said.status_code == 200, said.text
        assert [(m["phrase"], m["step"]) for m in said.json()["messages"]] == [
            ("good_luck", 0), ("well_played", finished["step"])
        ]
    assert error(client.get(path, params={"token": "x" * 30})) == (401, "bad_token")
    other = f"/api/tables/{table['table_id']}/games/2/chat"
    assert error(client.get(other, params={"token": ann})) == (404, "unknown_game")


def test_a_deletion_reaches_the_sockets_of_every_process(pg_url: str, tmp_path: Path) -> None:
    with (
        running_server(pg_url, tmp_path / "a.log", "--bot-delay", "0") as (_, a),
        running_server(pg_url, tmp_path / "b.log", "--bot-delay", "0") as (_, b),
    ):
        a.headers["Origin"] = str(a.base_url)
        answer = a.post("/api/tables", json={
            "players": 2, "seed": 3,
            "seats": [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}],
        })
        table = answer.json()
        ann, bob = (seat["token"] for seat in table["seats"])
        url_b = str(b.base_url).replace("http://", "ws://")
        path = f"{url_b}/ws/{table['table_id']}?token="
        with ws_connect(path + ann) as ann_b, ws_connect(path + bob) as bob_b:
            for ws in (ann_b, bob_b):
                assert json.loads(ws.recv(timeout=LIVE_TIMEOUT))["type"] == "view"
            ann_b.send(json.dumps({"type": "chat", "text": "rude words"}))
            written = next_chat_within(bob_b, LIVE_TIMEOUT)
            assert written is not None and not written["deleted"]
            assert report(b, table, bob, 1).status_code == 201
            sign_up(a, "Root")
            granted = subprocess.run(
                [sys.executable, "-m", "oriflamme", "accounts", "grant-admin", "Root",
                 "--db", pg_url], capture_output=True, text=True, timeout=60, check=False,
            )
            assert granted.returncode == 0, granted.stderr
            deleted = moderate(a, table, 1, "delete")  # on A; the sockets are on B
            assert deleted.status_code == 200, deleted.text
            pushed = next_chat_within(bob_b, LIVE_TIMEOUT)
            assert pushed is not None and (pushed["number"], pushed["deleted"]) == (1, True)
            assert pushed["text"] is None
