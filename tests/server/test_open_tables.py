"""Open tables, the lobby, turn clocks and absent players (issue #16), through the HTTP API and
the WebSocket of one server (SQLite). Across servers and restarts: test_open_tables_scale.py.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from oriflamme.server import SqliteStore, create_app

ANN = {"kind": "human", "name": "Ann"}
OPEN = {"kind": "open"}
BOT = {"kind": "bot", "level": "random"}


def make_app(path: Path) -> Any:
    return create_app(SqliteStore(path), bot_delay=0, rate=1000.0, burst=1000.0, tune_gc=False)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path / "games.sqlite3")) as c:
        yield c


def create(client: TestClient, **fields: Any) -> dict[str, Any]:
    """A public 3-player table (dealt by the server: a table strangers can join takes no
    seed, #26)."""
    body = {"players": 3, "seats": [ANN, OPEN, OPEN], "public": True, **fields}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


def join(client: TestClient, table_id: str, **body: Any) -> httpx.Response:
    return client.post(f"/api/tables/{table_id}/join", json={"name": "Ben", **body})


def lobby(client: TestClient) -> list[dict[str, Any]]:
    """The tables of the lobby's first page."""
    response = client.get("/api/lobby")
    assert response.status_code == 200, response.text
    return list(response.json()["tables"])


def view(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}/view", params={"token": token})
    assert response.status_code == 200, response.text
    return dict(response.json())


def summary(client: TestClient, table_id: str) -> dict[str, Any]:
    response = client.get(f"/api/tables/{table_id}")
    assert response.status_code == 200, response.text
    return dict(response.json())


def wait_until(
    read: Callable[[], dict[str, Any]], wanted: Callable[[dict[str, Any]], bool], within: float
) -> dict[str, Any]:
    deadline = time.monotonic() + within
    while not wanted(seen := read()):
        assert time.monotonic() < deadline, f"not reached in {within} s: {seen}"
        time.sleep(0.05)
    return seen


def act_anyway(client: TestClient, table_id: str, token: str) -> httpx.Response:
    """Place the seat's first hand card although the view offers no move (a waiting or closed
    table offers none, issue #26)."""
    mine = view(client, table_id, token)
    assert mine["legal"] == [] and mine["prompt"] == ""
    card = mine["observation"]["families"][mine["you"]]["hand"][0]["id"]
    return client.post(
        f"/api/tables/{table_id}/actions",
        json={"token": token, "action": {"kind": "place", "card": card, "to": "end"},
              "step": mine["step"]},
    )


def act_first(client: TestClient, table_id: str, token: str) -> httpx.Response:
    mine = view(client, table_id, token)
    return client.post(
        f"/api/tables/{table_id}/actions",
        json={"token": token, "action": mine["legal"][0]["action"], "step": mine["step"]},
    )


# -- the lobby and joining ----------------------------------------------------------------------
def test_a_public_table_is_listed_joined_and_starts_when_full(client: TestClient) -> None:
    table = create(client, clock={"per_decision": 90})
    table_id, ann = table["table_id"], table["seats"][0]["token"]
    assert [s["kind"] for s in table["seats"]] == ["human", "open", "open"]
    assert table["seats"][1]["token"] is None and table["seats"][1]["url"] is None
    [listed] = lobby(client)
    assert listed["table_id"] == table_id
    assert (listed["players"], listed["cards"], listed["clock"]) == (3, "base", 90)
    assert listed["open_seats"] == [1, 2]
    assert [s["name"] for s in listed["seats"]] == ["Ann", "", ""]
    assert 0 <= listed["age"] < 60

    # Before every seat is taken nobody plays.
    waiting = view(client, table_id, ann)
    assert waiting["waiting_for_players"] and waiting["clock"]["deadline"] is None
    refused = act_anyway(client, table_id, ann)
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "waiting_for_players")

    ben = join(client, table_id)
    assert ben.status_code == 201, ben.text
    assert (
        ben.json()["seat"] == 1 and ben.json()["url"] == f"/t/{table_id}?seat={ben.json()['token']}"
    )
    assert [t["open_seats"] for t in lobby(client)] == [[2]]
    cid = join(client, table_id, name="Cid", seat=2)
    assert cid.status_code == 201 and cid.json()["seat"] == 2
    assert lobby(client) == []  # full: no longer listed

    started = view(client, table_id, cid.json()["token"])
    assert started["you"] == 2 and not started["waiting_for_players"]
    assert [s["name"] for s in started["seats"]] == ["Ann", "Ben", "Cid"]
    deadline = started["clock"]["deadline"]
    assert started["clock"]["per_decision"] == 90
    assert 80 < deadline - started["server_time"] <= 90
    assert act_first(client, table_id, ann).status_code == 200  # Ann decides first
    after = view(client, table_id, ann)
    assert after["step"] == 1 and after["clock"]["deadline"] > deadline  # a new clock


def test_joining_refuses_what_it_must_and_changes_nothing(client: TestClient) -> None:
    table = create(client, seats=[ANN, OPEN, BOT])
    table_id = table["table_id"]
    before = summary(client, table_id)
    cases = [
        ({"seat": 4}, 404, "unknown_seat"),
        ({"seat": 0}, 409, "seat_taken"),
        ({"seat": 2}, 409, "seat_taken"),
        ({"seat": -1}, 422, "invalid_request"),
        ({"name": "Ben\u0007"}, 422, "invalid_request"),
        ({"name": "Ben\u202e"}, 422, "invalid_request"),
        ({"name": ""}, 422, "invalid_request"),
        ({"name": "x" * 25}, 422, "invalid_request"),
        ({"token": "x"}, 422, "invalid_request"),
    ]
    for body, status, code in cases:
        response = join(client, table_id, **body)
        assert (response.status_code, response.json()["error"]["code"]) == (status, code), body
    missing = client.post("/api/tables/nosuchtable/join", json={"name": "Ben"})
    assert missing.status_code == 404
    assert summary(client, table_id) == before
    assert [t["open_seats"] for t in lobby(client)] == [[1]]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"clock": {"per_decision": -5}}, "clock.per_decision"),
        ({"clock": {"per_decision": 0}}, "clock.per_decision"),
        ({"clock": {"per_decision": 10**9}}, "clock.per_decision"),
        ({"clock": {"per_decision": 1.5}}, "clock.per_decision"),
        ({"clock": 60}, "clock"),
        ({"absent_after": -1}, "absent_after"),
        ({"absent_after": 10**7}, "absent_after"),
        ({"stand_in": "grandmaster"}, "stand_in"),
        ({"seats": [ANN, BOT, BOT]}, "public: a public table needs at least one open seat"),
        ({"seats": [OPEN, {"kind": "open", "name": "x"}, BOT]}, "seats"),
    ],
)
def test_bad_table_options_are_refused(
    client: TestClient, fields: dict[str, Any], message: str
) -> None:
    body = {"players": 3, "seats": [ANN, OPEN, OPEN], "public": True, **fields}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 422, response.text
    assert message in response.json()["error"]["message"]
    assert lobby(client) == []


def test_two_joins_for_the_last_seat_one_wins(tmp_path: Path) -> None:
    async def main() -> list[int]:
        app = make_app(tmp_path / "games.sqlite3")
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
                body = {"players": 2, "seats": [ANN, OPEN], "public": True}
                table_id = (await http.post("/api/tables", json=body)).json()["table_id"]
                answers = await asyncio.gather(
                    *(
                        http.post(f"/api/tables/{table_id}/join", json={"name": f"P{i}"})
                        for i in range(6)
                    )
                )
                codes = sorted(a.status_code for a in answers)
                taken = [a.json()["error"]["code"] for a in answers if a.status_code == 409]
                assert set(taken) == {"seat_taken"}
                names = [
                    s["name"] for s in (await http.get(f"/api/tables/{table_id}")).json()["seats"]
                ]
                winner = next(a.json() for a in answers if a.status_code == 201)
                assert names == ["Ann", winner["name"]]
                return codes

    assert asyncio.run(main()) == [201] + [409] * 5


def test_the_creator_fills_open_seats_with_bots_or_closes_the_table(client: TestClient) -> None:
    table = create(client)
    table_id, creator = table["table_id"], table["creator_token"]
    not_creator = client.post(f"/api/tables/{table_id}/close", json={"creator_token": "x" * 20})
    assert not_creator.status_code in (401, 403)
    hand = client.post(
        f"/api/tables/{table_id}/seats/1/bot",
        json={"creator_token": creator, "level": "random", "expect": "open"},
    )
    assert hand.status_code == 200, hand.text
    assert hand.json()["open_seats"] == [2]
    closed = client.post(f"/api/tables/{table_id}/close", json={"creator_token": creator})
    assert closed.status_code == 200 and closed.json()["closed"]
    assert lobby(client) == []
    late = join(client, table_id)
    assert (late.status_code, late.json()["error"]["code"]) == (409, "table_closed")
    gone = view(client, table_id, table["seats"][0]["token"])
    assert gone["closed"] and not gone["waiting_for_players"]
    refused = act_anyway(client, table_id, table["seats"][0]["token"])
    assert refused.json()["error"]["code"] == "table_closed"

    full = create(client)
    full_id = full["table_id"]
    for seat in (1, 2):
        response = client.post(
            f"/api/tables/{full_id}/seats/{seat}/bot",
            json={"creator_token": full["creator_token"], "level": "random", "expect": "open"},
        )
        assert response.status_code == 200, response.text
    started = view(client, full_id, full["seats"][0]["token"])
    assert not started["waiting_for_players"]
    again = client.post(
        f"/api/tables/{full_id}/close", json={"creator_token": full["creator_token"]}
    )
    assert (again.status_code, again.json()["error"]["code"]) == (409, "already_started")


# -- clocks and absences ------------------------------------------------------------------------
def test_the_stand_in_plays_when_the_clock_runs_out_and_the_seat_stays_human(
    client: TestClient,
) -> None:
    table = create(
        client,
        players=2,
        seats=[ANN, {"kind": "human", "name": "Ben"}],
        public=False,
        seed=5,
        clock={"per_decision": 2},
        stand_in="random",
    )
    table_id, ann = table["table_id"], table["seats"][0]["token"]
    first = view(client, table_id, ann)
    assert first["waiting_for"]["seat"] == 0 and first["step"] == 0
    started = time.monotonic()
    moved = wait_until(lambda: view(client, table_id, ann), lambda v: v["step"] >= 1, 8)
    assert time.monotonic() - started >= 1.5  # not before the clock ran out
    assert moved["seats"][0]["kind"] == "human"  # the player keeps the seat
    # Ben acts in time: his own decision; then it is Ann's again, and she can act herself.
    ben = table["seats"][1]["token"]
    assert view(client, table_id, ben)["waiting_for"]["seat"] == 1
    assert act_first(client, table_id, ben).status_code == 200
    assert act_first(client, table_id, ann).status_code == 200


def test_an_absent_player_is_played_for_until_they_reconnect(client: TestClient) -> None:
    table = create(
        client,
        players=2,
        seats=[ANN, BOT],
        public=False,
        seed=5,
        absent_after=2,
        stand_in="random",
    )
    table_id, ann = table["table_id"], table["seats"][0]["token"]
    # Never connected: not away (the player has not arrived); nothing moves by itself.
    time.sleep(2.5)
    assert view(client, table_id, ann)["step"] == 0
    with client.websocket_connect(f"/ws/{table_id}?token={ann}") as ws:
        assert ws.receive_json()["type"] == "view"
    left = time.monotonic()
    played = wait_until(
        lambda: view(client, table_id, table["spectator_token"]),
        lambda v: v["step"] >= 2 and v["seats"][0]["away"],
        10,
    )
    assert time.monotonic() - left >= 1.5
    assert played["seats"][0]["kind"] == "human"
    with client.websocket_connect(f"/ws/{table_id}?token={ann}") as ws:
        back = wait_until(lambda: ws.receive_json()["view"], lambda v: not v["seats"][0]["away"], 5)
        mine = (
            wait_until(
                lambda: ws.receive_json()["view"], lambda v: v["waiting_for"]["seat"] == 0, 10
            )
            if back["waiting_for"]["seat"] != 0
            else back
        )
        step = mine["step"]
        time.sleep(3)  # longer than the allowed absence: the decision waits for Ann
        assert view(client, table_id, ann)["step"] == step
        ws.send_json({"type": "act", "action": mine["legal"][0]["action"], "step": step})
        wait_until(lambda: view(client, table_id, ann), lambda v: v["step"] > step, 5)


def test_joins_count_in_the_addresss_quota_of_tables_an_hour(tmp_path: Path) -> None:
    from oriflamme.server.quotas import Quotas

    app = create_app(
        SqliteStore(tmp_path / "games.sqlite3"),
        bot_delay=0,
        rate=1000.0,
        burst=1000.0,
        tune_gc=False,
        quotas=Quotas(tables_per_hour=3),
    )
    with TestClient(app) as client:
        table = create(client, players=5, seats=[ANN, OPEN, OPEN, OPEN, OPEN])  # 1 of 3
        table_id = table["table_id"]
        assert join(client, table_id, name="Ben").status_code == 201  # 2 of 3
        assert join(client, table_id, name="Cid").status_code == 201  # 3 of 3
        refused = join(client, table_id, name="Dee")
        assert (refused.status_code, refused.json()["error"]["code"]) == (429, "too_many_joins")
        assert summary(client, table_id)["open_seats"] == [3, 4]  # nothing taken
        again = client.post("/api/tables", json={"players": 2, "seats": [ANN, OPEN]})
        assert again.json()["error"]["code"] == "too_many_tables"
