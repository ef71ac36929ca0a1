"""#29 section 1: the chat setting a table's creator chooses ("on", "open", "off") and the
mutes of each seat, over HTTP and the WebSocket, on both backends and across two server
processes (PostgreSQL)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.sync.client import connect as ws_connect

from oriflamme.server import create_app
from oriflamme.server.chat_routes import POST_BURST
from servers import running_server
from test_chat import SEATS, history, open_socket
from test_chat_moderation import next_chat_within, received
from test_scale_out import LIVE_TIMEOUT

THREE = [{"kind": "human", "name": n} for n in ("Ann", "Bob", "Cid")]


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_url, bot_delay=0, tune_gc=False)) as test_client:
        yield test_client


def create(client: TestClient | httpx.Client, seats: list[dict[str, Any]] = SEATS,
           **extra: Any) -> dict[str, Any]:
    answer = client.post(
        "/api/tables", json={"players": len(seats), "seats": seats, "seed": 3, **extra}
    )
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()
    return table


def mute(client: TestClient | httpx.Client, table: dict[str, Any], token: str, seat: Any,
         muted: Any = True) -> httpx.Response:
    return client.post(
        f"/api/tables/{table['table_id']}/chat/mutes",
        json={"token": token, "seat": seat, "muted": muted},
    )


# -- the setting ----------------------------------------------------------------------------
def test_the_setting_is_stored_and_shown_to_the_pages(client: TestClient) -> None:
    default = create(client)
    summary = client.get(f"/api/tables/{default['table_id']}").json()
    assert summary["chat"] == "on"
    for setting in ("open", "off"):
        table = create(client, chat=setting)
        assert client.get(f"/api/tables/{table['table_id']}").json()["chat"] == setting
        view = client.get(
            f"/api/tables/{table['table_id']}/view",
            params={"token": table["seats"][0]["token"]},
        ).json()
        assert view["chat"] == setting


@pytest.mark.parametrize("bad", ["closed", "", 1, True, None])
def test_a_bad_setting_is_refused_with_a_clear_422(client: TestClient, bad: Any) -> None:
    answer = client.post("/api/tables", json={"players": 2, "seats": SEATS, "chat": bad})
    assert answer.status_code == 422
    error = answer.json()["error"]
    assert error["code"] == "invalid_request" and error["message"].startswith("chat")


def test_an_open_table_lets_its_spectators_read_the_players(client: TestClient) -> None:
    table = create(client, chat="open")
    ann, watcher = table["seats"][0]["token"], table["spectator_token"]
    ws_ann, ws_watch = open_socket(client, table, ann), open_socket(client, table, watcher)
    try:
        ws_ann.send_json({"type": "chat", "phrase": "good_luck"})
        received(ws_ann, "chat")
        assert received(ws_watch, "chat")["message"]["phrase"] == "good_luck"
        ws_watch.send_json({"type": "chat", "text": "go Ann"})  # spectators still write theirs
        message = received(ws_watch, "chat")["message"]
        assert (message["channel"], message["text"]) == ("spectators", "go Ann")
    finally:
        for ws in (ws_ann, ws_watch):
            ws.__exit__(None, None, None)
    players = history(client, table, watcher, "players")
    assert players.status_code == 200
    assert [m["phrase"] for m in players.json()["messages"]] == ["good_luck"]


def test_a_table_without_chat_refuses_the_players_chat_but_keeps_the_spectators(
    client: TestClient,
) -> None:
    table = create(client, chat="off")
    ann, watcher = table["seats"][0]["token"], table["spectator_token"]
    ws_ann, ws_watch = open_socket(client, table, ann), open_socket(client, table, watcher)
    try:
        ws_ann.send_json({"type": "chat", "text": "hello"})
        error = received(ws_ann, "error")
        assert error["code"] == "chat_off" and error["message"]
        ws_watch.send_json({"type": "chat", "phrase": "hello"})
        for ws in (ws_watch, ws_ann):  # the players read the spectators' chat still
            assert received(ws, "chat")["message"]["channel"] == "spectators"
    finally:
        for ws in (ws_ann, ws_watch):
            ws.__exit__(None, None, None)
    for token in (ann, watcher):
        refused = history(client, table, token, "players")
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "chat_off"
    assert len(history(client, table, ann, "spectators").json()["messages"]) == 1


def test_an_open_table_reaches_spectators_on_another_process(pg_url: str, tmp_path: Path) -> None:
    with (
        running_server(pg_url, tmp_path / "a.log", "--bot-delay", "0") as (_, a),
        running_server(pg_url, tmp_path / "b.log", "--bot-delay", "0") as (_, b),
    ):
        table = create(a, chat="open")
        ann, watcher = table["seats"][0]["token"], table["spectator_token"]
        url_a = str(a.base_url).replace("http://", "ws://")
        url_b = str(b.base_url).replace("http://", "ws://")
        path = f"/ws/{table['table_id']}?token="
        with ws_connect(url_a + path + ann) as on_a, ws_connect(url_b + path + watcher) as on_b:
            for ws in (on_a, on_b):
                assert json.loads(ws.recv(timeout=LIVE_TIMEOUT))["type"] == "view"
            on_a.send(json.dumps({"type": "chat", "text": "seen from B"}))
            message = next_chat_within(on_b, LIVE_TIMEOUT)
            assert message is not None and message["text"] == "seen from B"


# -- mutes ------------------------------------------------------------------------------------
def test_a_muted_seat_is_neither_pushed_nor_in_the_history_of_its_muter(
    client: TestClient,
) -> None:
    table = create(client, THREE)
    ann, bob, cid = (seat["token"] for seat in table["seats"])
    answer = mute(client, table, ann, 1)
    assert answer.status_code == 200 and answer.json() == {"muted": [1]}
    assert mute(client, table, ann, 1).json() == {"muted": [1]}  # twice: the same
    ws_ann, ws_bob, ws_cid = (open_socket(client, table, t) for t in (ann, bob, cid))
    try:
        ws_bob.send_json({"type": "chat", "text": "from Bob"})
        received(ws_bob, "chat")
        assert received(ws_cid, "chat")["message"]["text"] == "from Bob"  # others still read
        ws_cid.send_json({"type": "chat", "text": "from Cid"})
        received(ws_cid, "chat")
        # Ann's next message is Cid's: Bob's never reached her.
        assert received(ws_ann, "chat")["message"]["text"] == "from Cid"
    finally:
        for ws in (ws_ann, ws_bob, ws_cid):
            ws.__exit__(None, None, None)
    mine = history(client, table, ann, "players").json()
    assert [m["text"] for m in mine["messages"]] == ["from Cid"] and mine["muted"] == [1]
    theirs = history(client, table, cid, "players").json()
    assert [m["text"] for m in theirs["messages"]] == ["from Bob", "from Cid"]
    assert theirs["muted"] == []
    # Unmuted: Bob's message is back in Ann's history, and live again.
    assert mute(client, table, ann, 1, False).json() == {"muted": []}
    assert len(history(client, table, ann, "players").json()["messages"]) == 2
    ws_ann, ws_bob = open_socket(client, table, ann), open_socket(client, table, bob)
    try:
        ws_bob.send_json({"type": "chat", "phrase": "sorry"})
        received(ws_bob, "chat")
        assert received(ws_ann, "chat")["message"]["phrase"] == "sorry"
    finally:
        for ws in (ws_ann, ws_bob):
            ws.__exit__(None, None, None)


@pytest.mark.parametrize(
    ("who", "body", "status", "code"),
    [
        ("spectator", {"seat": 0}, 403, "not_a_player"),
        ("creator", {"seat": 0}, 403, "not_a_player"),
        ("seat", {"seat": 0}, 400, "mute_self"),
        ("seat", {"seat": 2}, 404, "unknown_seat"),
        ("seat", {"seat": 9}, 422, "invalid_request"),
        ("seat", {"seat": "1"}, 422, "invalid_request"),
        ("seat", {"seat": 1, "muted": "yes"}, 422, "invalid_request"),
        ("bad", {"seat": 1}, 401, "bad_token"),
    ],
)
def test_bad_mutes_are_refused_and_change_nothing(
    client: TestClient, who: str, body: dict[str, Any], status: int, code: str
) -> None:
    table = create(client)
    token = {
        "spectator": table["spectator_token"], "creator": table["creator_token"],
        "seat": table["seats"][0]["token"], "bad": "x" * 30,
    }[who]
    answer = client.post(
        f"/api/tables/{table['table_id']}/chat/mutes", json={"token": token, **body}
    )
    assert answer.status_code == status and answer.json()["error"]["code"] == code
    assert history(client, table, table["seats"][0]["token"], "players").json()["muted"] == []


def test_a_mute_holds_on_every_server_process(pg_url: str, tmp_path: Path) -> None:
    with (
        running_server(pg_url, tmp_path / "a.log", "--bot-delay", "0") as (_, a),
        running_server(pg_url, tmp_path / "b.log", "--bot-delay", "0") as (_, b),
    ):
        table = create(a, THREE)
        ann, bob, cid = (seat["token"] for seat in table["seats"])
        assert mute(a, table, ann, 1).json() == {"muted": [1]}  # Ann mutes Bob on A
        url_b = str(b.base_url).replace("http://", "ws://")
        path = f"{url_b}/ws/{table['table_id']}?token="
        with (
            ws_connect(path + ann) as ann_b, ws_connect(path + bob) as bob_b,
            ws_connect(path + cid) as cid_b,
        ):
            for ws in (ann_b, bob_b, cid_b):
                assert json.loads(ws.recv(timeout=LIVE_TIMEOUT))["type"] == "view"
            bob_b.send(json.dumps({"type": "chat", "text": "Bob on B"}))
            got = next_chat_within(cid_b, LIVE_TIMEOUT)
            assert got is not None and got["text"] == "Bob on B"
            cid_b.send(json.dumps({"type": "chat", "text": "Cid on B"}))
            got = next_chat_within(ann_b, LIVE_TIMEOUT)
            assert got is not None and got["text"] == "Cid on B"  # not Bob's first


def test_mutes_and_reports_are_rate_limited_per_address(client: TestClient) -> None:
    """docs/server.md, "Limits and abuse": mutes and reports share an allowance per address
    (2 a second, bursts of 10); beyond it one is refused with 429 and changes nothing."""
    table = create(client, THREE)
    ann = table["seats"][0]["token"]
    muted: list[int] = []
    allowed = 0
    while allowed < 5 * POST_BURST:  # mute and unmute Bob in turn, faster than 2 a second
        answer = mute(client, table, ann, 1, muted=not muted)
        if answer.status_code != 200:
            break
        allowed += 1
        muted = [] if muted else [1]
    assert allowed >= POST_BURST, "the burst was allowed"
    assert answer.status_code == 429 and answer.json()["error"]["code"] == "too_many_requests"
    assert history(client, table, ann, "players").json()["muted"] == muted
    report = client.post(f"/api/tables/{table['table_id']}/chat/1/report", json={"token": ann})
    assert report.status_code == 429
