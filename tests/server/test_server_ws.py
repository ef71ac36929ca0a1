"""The server's WebSocket: views pushed to every connection, actions, errors, throttling."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from oriflamme.server import SqliteStore, create_app, presence
from oriflamme.server.throttle import TokenBucket

Message = dict[str, Any]
HUMANS = [{"kind": "human", "name": n} for n in ("Ann", "Ben", "Cid")]


def make_client(tmp_path: Path, **options: Any) -> TestClient:
    options = {"rate": 1000.0, "burst": 1000.0, "tune_gc": False, **options}
    return TestClient(create_app(SqliteStore(tmp_path / "games.sqlite3"), bot_delay=0, **options))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def create(client: TestClient, seats: list[dict[str, Any]] = HUMANS) -> dict[str, Any]:
    body = {"players": len(seats), "seats": seats, "seed": 3}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def connect(client: TestClient, table: dict[str, Any], token: str) -> WebSocketTestSession:
    return client.websocket_connect(f"/ws/{table['table_id']}?token={token}")


def receive(ws: WebSocketTestSession, timeout: float = 5.0) -> Message:
    """The next message, failing the test instead of hanging if none comes."""

    async def next_message() -> Message:
        with anyio.fail_after(timeout):
            return dict(await ws._send_rx.receive())

    message = ws.portal.call(next_message)
    if message["type"] == "websocket.close":
        raise WebSocketDisconnect(message.get("code", 1000))
    return dict(json.loads(message["text"]))


def until(ws: WebSocketTestSession, wanted: Callable[[Message], bool]) -> Message:
    """Read messages until one is ``wanted`` (views pushed meanwhile are skipped)."""
    while not wanted(message := receive(ws)):
        pass
    return message


def view_at(step: int) -> Callable[[Message], bool]:
    return lambda m: bool(m["type"] == "view" and m["view"]["step"] >= step)


def my_turn_after(step: int) -> Callable[[Message], bool]:
    return lambda m: bool(m["type"] == "view" and m["view"]["legal"] and m["view"]["step"] > step)


def is_error(m: Message) -> bool:
    return bool(m["type"] == "error")


def seat_token(table: dict[str, Any], seat: int) -> str:
    return str(table["seats"][seat]["token"])


def test_connecting_sends_the_view_of_the_token(client: TestClient) -> None:
    table = create(client)
    with connect(client, table, seat_token(table, 0)) as red:
        first = receive(red)
        assert first["type"] == "view"
        assert first["view"]["you"] == 0 and first["view"]["step"] == 0 and first["view"]["legal"]
    with connect(client, table, table["spectator_token"]) as watcher:
        public = receive(watcher)["view"]
        assert public["you"] is None and public["legal"] == []
        assert all("hand" not in f for f in public["observation"]["families"])


def test_an_action_reaches_every_connection(client: TestClient) -> None:
    table = create(client)
    with (
        connect(client, table, seat_token(table, 0)) as red,
        connect(client, table, seat_token(table, 1)) as blue,
        connect(client, table, table["spectator_token"]) as watcher,
    ):
        legal = receive(red)["view"]["legal"]
        red.send_json({"type": "act", "action": legal[0]["action"], "step": 0})
        views = [until(ws, view_at(1))["view"] for ws in (red, blue, watcher)]
        assert [v["you"] for v in views] == [0, 1, None]
        assert [v["step"] for v in views] == [1, 1, 1]
        assert views[0]["legal"] == [] and views[1]["legal"] and views[2]["legal"] == []
        connected = [s["connected"] for s in views[2]["seats"]]
        assert connected == [True, True, False]


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ("x" * 5000, "too_large"),
        (b"[" + b" " * 5000 + b"]", "too_large"),
        ("hello", "bad_json"),
        ("[1, 2]", "bad_json"),
        (json.dumps({"type": "dance"}), "unknown_type"),
        (json.dumps({"kind": "ping"}), "unknown_type"),
        (json.dumps({"type": "act", "action": {"kind": "fly"}}), "malformed_action"),
        (json.dumps({"type": "act", "action": "gain"}), "malformed_action"),
        (json.dumps({"type": "act", "action": {"kind": "gain"}, "step": "0"}), "malformed_action"),
        (json.dumps({"type": "act", "action": {"kind": "gain"}}), "illegal_action"),
        (json.dumps({"type": "act", "action": {"kind": "gain"}, "step": 9}), "stale"),
        (json.dumps({"type": "lang", "lang": "de"}), "bad_lang"),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(
    client: TestClient, message: str | bytes, code: str
) -> None:
    table = create(client)
    with connect(client, table, seat_token(table, 0)) as red:
        receive(red)
        if isinstance(message, bytes):
            red.send_bytes(message)
        else:
            red.send_text(message)
        error = until(red, is_error)
        assert error["code"] == code and error["message"]
        red.send_json({"type": "ping"})
        assert until(red, lambda m: m["type"] != "view") == {"type": "pong"}
    seen = client.get(
        f"/api/tables/{table['table_id']}/view", params={"token": table["spectator_token"]}
    )
    assert seen.json()["step"] == 0


def test_out_of_turn_and_spectator_actions_are_refused(client: TestClient) -> None:
    table = create(client)
    with (
        connect(client, table, seat_token(table, 0)) as red,
        connect(client, table, seat_token(table, 1)) as blue,
        connect(client, table, table["spectator_token"]) as watcher,
    ):
        action = receive(red)["view"]["legal"][0]["action"]
        blue.send_json({"type": "act", "action": action})
        assert until(blue, is_error)["code"] == "not_your_turn"
        watcher.send_json({"type": "act", "action": action})
        assert until(watcher, is_error)["code"] == "not_a_player"
        red.send_json({"type": "act", "action": action, "step": 0})
        assert until(red, view_at(1))["view"]["step"] == 1


def test_language_switch_and_ping(client: TestClient) -> None:
    table = create(client)
    with connect(client, table, seat_token(table, 0)) as red:
        assert receive(red)["view"]["prompt"] == "\u2068Ann\u2069: choose a card to place"
        red.send_json({"type": "lang", "lang": "fr"})
        french = until(red, lambda m: m["type"] == "view")["view"]
        assert french["lang"] == "fr"
        assert french["prompt"] == "\u2068Ann\u2069\u202f: choisissez une carte à placer"
        red.send_json({"type": "ping"})
        assert until(red, lambda m: m["type"] != "view") == {"type": "pong"}


def test_reconnecting_resumes_the_seat(client: TestClient) -> None:
    table = create(client)
    with connect(client, table, table["spectator_token"]) as watcher:
        receive(watcher)
        with connect(client, table, seat_token(table, 0)) as red:
            legal = receive(red)["view"]["legal"]
            red.send_json({"type": "act", "action": legal[0]["action"], "step": 0})
            before = until(red, view_at(1))["view"]
        left = until(
            watcher, lambda m: m["type"] == "view" and not m["view"]["seats"][0]["connected"]
        )
        assert left["view"]["step"] == 1
        with connect(client, table, seat_token(table, 0)) as red_again:
            resumed = receive(red_again)["view"]
            assert (resumed["you"], resumed["step"]) == (0, 1)
            assert resumed["observation"] == before["observation"]
            assert resumed["log"] == before["log"] and resumed["cards"] == before["cards"]
            back = until(
                watcher, lambda m: m["type"] == "view" and m["view"]["seats"][0]["connected"]
            )
            assert back["view"]["step"] == 1


def test_a_move_sent_again_after_reconnecting_is_answered_with_the_view(
    client: TestClient,
) -> None:
    """A page whose socket dropped before it saw its move applied sends the move again, pinned
    to its step: it gets the view after it (again, though it had it), not an error; another
    seat sending that move there is told "stale"."""
    table = create(client)
    with connect(client, table, seat_token(table, 0)) as red:
        legal = receive(red)["view"]["legal"]
        red.send_json({"type": "act", "action": legal[0]["action"], "step": 0})
        until(red, view_at(1))
    with connect(client, table, seat_token(table, 0)) as red_again:
        assert receive(red_again)["view"]["step"] == 1
        red_again.send_json({"type": "act", "action": legal[0]["action"], "step": 0})
        answer = receive(red_again)
        assert answer["type"] == "view" and answer["view"]["step"] == 1, answer
    with connect(client, table, seat_token(table, 1)) as blue:
        receive(blue)
        blue.send_json({"type": "act", "action": legal[0]["action"], "step": 0})
        assert until(blue, is_error)["code"] == "stale"
    public = client.get(f"/api/tables/{table['table_id']}/view",
                        params={"token": table["spectator_token"]}).json()
    assert public["step"] == 1


def test_flooding_is_throttled(tmp_path: Path) -> None:
    with make_client(tmp_path, rate=0.5, burst=5) as client:
        table = create(client)
        with connect(client, table, seat_token(table, 0)) as red:
            receive(red)
            for _ in range(20):
                red.send_json({"type": "ping"})
            replies = [receive(red) for _ in range(6)]
            assert replies[:5] == [{"type": "pong"}] * 5
            assert replies[5]["type"] == "error" and replies[5]["code"] == "too_many_requests"


def test_token_bucket_refills_at_its_rate() -> None:
    now = [0.0]
    bucket = TokenBucket(rate=2.0, burst=2.0, clock=lambda: now[0])
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    now[0] = 0.5  # one token back
    assert [bucket.take(), bucket.take()] == [True, False]
    now[0] = 10.0  # never more than the burst
    assert [bucket.take() for _ in range(3)] == [True, True, False]


def test_bad_token_or_table_closes_the_socket(client: TestClient) -> None:
    table = create(client)
    for url, code, close in [
        (f"/ws/{table['table_id']}?token=nope", "bad_token", 4401),
        ("/ws/NoSuchTable?token=nope", "unknown_table", 4404),
    ]:
        with client.websocket_connect(url) as ws:
            assert receive(ws)["code"] == code
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == close


def test_bots_answer_between_human_moves(client: TestClient) -> None:
    table = create(client, seats=[HUMANS[0], {"kind": "bot", "level": "random"}])
    with connect(client, table, seat_token(table, 0)) as red:
        acted = -1
        for _ in range(3):
            mine = until(red, my_turn_after(acted))["view"]
            acted = mine["step"]
            red.send_json({"type": "act", "action": mine["legal"][0]["action"], "step": acted})
        final = until(red, lambda m: m["type"] == "view" and m["view"]["step"] >= 5)["view"]
        # Two families each: the log names the players by their names, not "Red & green".
        movers = {line.split("\u2069")[0] for line in final["log"] if line[0] == "\u2068"}
        assert {"\u2068Ann", "\u2068Blue bot (random)"} <= movers
        assert final["seats"][1] == {
            "seat": 1,
            "name": "Blue bot (random)",
            "kind": "bot",
            "level": "random",
            "connected": True,
            "away": False,
            "replaceable": False,
            "colour": "blue",
            "account": False,
            "left": False,
            "bank_left": None,
            "ran_out": 0,
        }


def test_a_seat_handed_to_a_bot_only_watches(client: TestClient) -> None:
    table = create(client)
    url = f"/api/tables/{table['table_id']}/seats/0/bot"
    body = {"creator_token": table["creator_token"], "level": "random", "expect": "away"}
    with connect(client, table, seat_token(table, 0)) as red:
        assert receive(red)["view"]["you"] == 0
        refused = client.post(url, json=body)  # connected: the seat stays red's (#26)
        assert refused.status_code == 409 and refused.json()["error"]["code"] == "seat_active"
    summary = f"/api/tables/{table['table_id']}"
    while client.get(summary).json()["seats"][0]["connected"]:
        time.sleep(0.01)
    assert client.post(url, json=body).status_code == 200
    with connect(client, table, seat_token(table, 0)) as red:
        watching = until(red, view_at(1))["view"]  # the bot placed red's first card
        assert watching["you"] is None and watching["seats"][0]["kind"] == "bot"
        assert watching["handed_over"] is True  # and the page can say why
        red.send_json({"type": "act", "action": {"kind": "gain"}})
        assert until(red, is_error)["code"] == "seat_is_bot"


def test_a_rematch_is_pushed_to_the_connections(client: TestClient) -> None:
    table = create(client, seats=HUMANS[:2])
    tid = table["table_id"]
    with connect(client, table, seat_token(table, 1)) as blue:
        receive(blue)
        latest = client.get(f"/api/tables/{tid}/view", params={"token": table["spectator_token"]})
        while (seen := latest.json())["result"] is None:
            token = seat_token(table, seen["waiting_for"]["seat"])
            mine = client.get(f"/api/tables/{tid}/view", params={"token": token}).json()
            action = {"token": token, "action": mine["legal"][0]["action"]}
            latest = client.post(f"/api/tables/{tid}/actions", json=action)
        until(blue, lambda m: m["type"] == "view" and m["view"]["result"] is not None)
        client.post(f"/api/tables/{tid}/rematch", json={"token": table["creator_token"]})
        fresh = until(blue, lambda m: m["type"] == "view" and m["view"]["game_number"] == 2)
        assert fresh["view"]["step"] == 0 and fresh["view"]["you"] == 1


def test_spectators_cannot_lock_the_players_out(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue #18.3: the spectators share a cap of their own; each seat has its own allowance."""
    monkeypatch.setattr(presence, "MAX_SPECTATORS", 3)
    monkeypatch.setattr(presence, "MAX_SEAT_CONNECTIONS", 2)
    table = create(client)
    watch = table["spectator_token"]
    with contextlib.ExitStack() as stack:
        for _ in range(3):  # the spectators' cap is full
            assert receive(stack.enter_context(connect(client, table, watch)))["type"] == "view"
        extra = stack.enter_context(connect(client, table, watch))
        assert receive(extra)["code"] == "too_many_connections"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(extra)
        assert closed.value.code == 4429
        # Every seat still gets in, twice (two tabs), but not a third time.
        for seat in range(3):
            for _ in range(2):
                ws = stack.enter_context(connect(client, table, seat_token(table, seat)))
                assert receive(ws)["view"]["you"] == seat
        third = stack.enter_context(connect(client, table, seat_token(table, 2)))
        assert receive(third)["code"] == "too_many_connections"
    with connect(client, table, seat_token(table, 2)) as again:  # once one has closed
        assert receive(again)["view"]["you"] == 2
