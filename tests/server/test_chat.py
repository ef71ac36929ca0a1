"""#29 section 1: the table talk. Messages travel over the table's WebSocket to every socket
that may read their channel, on every server process (two processes on PostgreSQL); the
history is read over HTTP; bad messages get documented errors and store nothing."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect

from oriflamme.server import create_app
from oriflamme.server.chat import MAX_TEXT
from servers import running_server
from test_scale_out import LIVE_TIMEOUT, create

SEATS = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]


@pytest.fixture
def client(store_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(store_url, bot_delay=0, tune_gc=False)) as test_client:
        yield test_client


def new_table(client: TestClient) -> dict[str, Any]:
    answer = client.post("/api/tables", json={"players": 2, "seats": SEATS, "seed": 3})
    assert answer.status_code == 201, answer.text
    table: dict[str, Any] = answer.json()
    return table


def open_socket(client: TestClient, table: dict[str, Any], token: str) -> WebSocketTestSession:
    ws = client.websocket_connect(f"/ws/{table['table_id']}?token={token}")
    ws.__enter__()
    assert ws.receive_json()["type"] == "view"
    return ws


def next_of(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` (views in between are skipped)."""
    while True:
        message: dict[str, Any] = ws.receive_json()
        if message["type"] == kind:
            return message


def history(client: TestClient, table: dict[str, Any], token: str, channel: str) -> Any:
    return client.get(
        f"/api/tables/{table['table_id']}/chat", params={"token": token, "channel": channel}
    )


def test_players_and_spectators_talk_in_their_channels(client: TestClient) -> None:
    table = new_table(client)
    ann, bob = (seat["token"] for seat in table["seats"])
    watcher = table["spectator_token"]
    ws_ann, ws_bob = open_socket(client, table, ann), open_socket(client, table, bob)
    ws_watch = open_socket(client, table, watcher)
    try:
        ws_ann.send_json({"type": "chat", "text": "  Bonne chance <b>à tous</b> !  "})
        for ws in (ws_ann, ws_bob):  # the writer too: the stored message, numbered
            message = next_of(ws, "chat")["message"]
            assert message["number"] == 1 and message["channel"] == "players"
            assert message["seat"] == 0 and message["name"] == "Ann"
            assert message["text"] == "Bonne chance <b>à tous</b> !"  # plain text, trimmed
            assert message["phrase"] is None and (message["game"], message["step"]) == (1, 0)
        ws_watch.send_json({"type": "chat", "phrase": "good_luck"})
        for ws in (ws_watch, ws_ann, ws_bob):  # players read the spectators' channel too
            message = next_of(ws, "chat")["message"]
            assert (message["number"], message["channel"]) == (2, "spectators")
            assert message["phrase"] == "good_luck" and message["seat"] is None
        ws_bob.send_json({"type": "chat", "phrase": "thanks"})
        assert next_of(ws_ann, "chat")["message"]["number"] == 3
        ws_watch.send_json({"type": "ping"})
        # The spectator never got the players' messages: its next message is the pong.
        assert ws_watch.receive_json() == {"type": "pong"}
    finally:
        for ws in (ws_ann, ws_bob, ws_watch):
            ws.__exit__(None, None, None)
    players = history(client, table, bob, "players")
    assert players.status_code == 200
    assert [(m["number"], m["text"], m["phrase"]) for m in players.json()["messages"]] == [
        (1, "Bonne chance <b>à tous</b> !", None), (3, None, "thanks")
    ]
    spectators = history(client, table, watcher, "spectators").json()["messages"]
    assert [m["number"] for m in spectators] == [2]
    refused = history(client, table, watcher, "players")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "chat_not_allowed"
    assert history(client, table, "x" * 30, "players").status_code == 401


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "chat", "text": "x" * (MAX_TEXT + 1)}, "chat_too_long"),
        ({"type": "chat", "text": "   "}, "chat_empty"),
        ({"type": "chat", "text": "hi\u202eevil"}, "chat_invalid"),  # a bidirectional override
        ({"type": "chat", "text": "line\nbreak"}, "chat_invalid"),
        ({"type": "chat", "text": "hi\u200b"}, "chat_invalid"),  # zero-width space
        ({"type": "chat", "text": 42}, "chat_invalid"),
        ({"type": "chat", "phrase": "insult"}, "unknown_phrase"),
        ({"type": "chat", "text": "a", "phrase": "oops"}, "chat_invalid"),
        ({"type": "chat"}, "chat_invalid"),
    ],
)
def test_bad_messages_are_refused_and_nothing_is_stored(
    client: TestClient, message: dict[str, Any], code: str
) -> None:
    table = new_table(client)
    ann = table["seats"][0]["token"]
    ws = open_socket(client, table, ann)
    try:
        ws.send_json(message)
        error = next_of(ws, "error")
        assert error["code"] == code and error["message"]
    finally:
        ws.__exit__(None, None, None)
    assert history(client, table, ann, "players").json()["messages"] == []


def test_a_seat_that_writes_too_fast_is_slowed_down(client: TestClient) -> None:
    table = new_table(client)
    ann = table["seats"][0]["token"]
    ws = open_socket(client, table, ann)
    try:
        for n in range(5):  # a burst of 5 is allowed
            ws.send_json({"type": "chat", "text": f"message {n}"})
            assert next_of(ws, "chat")["message"]["number"] == n + 1
        ws.send_json({"type": "chat", "text": "one too many"})
        assert next_of(ws, "error")["code"] == "too_many_messages"
    finally:
        ws.__exit__(None, None, None)
    assert len(history(client, table, ann, "players").json()["messages"]) == 5
    # An emoji sequence (joined by zero-width joiners) is text, not an invisible character.
    ws = open_socket(client, table, table["seats"][1]["token"])
    try:
        ws.send_json({"type": "chat", "text": "\U0001f469\u200d\U0001f4bb gg"})
        assert next_of(ws, "chat")["message"]["text"] == "\U0001f469\u200d\U0001f4bb gg"
    finally:
        ws.__exit__(None, None, None)


def _next_chat(ws: ClientConnection) -> dict[str, Any]:
    deadline = time.monotonic() + LIVE_TIMEOUT
    while True:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == "chat":
            result: dict[str, Any] = message["message"]
            return result


def test_messages_reach_the_sockets_of_every_server_process(
    pg_url: str, tmp_path: Path
) -> None:
    with (
        running_server(pg_url, tmp_path / "a.log", "--bot-delay", "0") as (_, a),
        running_server(pg_url, tmp_path / "b.log", "--bot-delay", "0") as (_, b),
    ):
        table = create(a, SEATS, seed=5)
        ann, bob = (seat["token"] for seat in table["seats"])
        url_a = str(a.base_url).replace("http://", "ws://")
        url_b = str(b.base_url).replace("http://", "ws://")
        path = f"/ws/{table['table_id']}?token="
        with ws_connect(url_a + path + ann) as on_a, ws_connect(url_b + path + bob) as on_b:
            # A socket follows the table from its first view (the page reads the history
            # then): wait for both before writing.
            for ws in (on_a, on_b):
                assert json.loads(ws.recv(timeout=LIVE_TIMEOUT))["type"] == "view"
            on_a.send(json.dumps({"type": "chat", "text": "from A"}))
            assert _next_chat(on_b)["text"] == "from A"
            on_b.send(json.dumps({"type": "chat", "phrase": "well_played"}))
            got = _next_chat(on_a)
            while got["number"] == 1:  # its own message first
                got = _next_chat(on_a)
            assert (got["number"], got["phrase"], got["name"]) == (2, "well_played", "Bob")
