"""The per-address rate limit on every route that changes something or makes the server think
(docs/server.md, "Limits and abuse"): acting, joining, closing, handing a seat to a bot, a
rematch, asking for an analysis and for a hint, leaving a game, taking a seat and subscribing
a browser to pushes. Creating a
table is tested in test_server_api.

The tables are set up once on a server without limits; each test then opens a copy of that
database in a server whose address allowance is two requests (bursts of 2, no refill to speak
of), makes two requests of one route, and checks that the third is refused with ``429
too_many_requests`` and changed nothing.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from oriflamme.server import create_app
from oriflamme.server.accounts.sessions import COOKIE
from oriflamme.server.quotas import Quotas
from test_accounts_api import ACCOUNT_POSTS
from test_server_api import HUMANS3, play_to_end, seat_token

#: The allowance of the throttled server: two requests, then (practically) none.
BURST, RATE = 2, 1e-9
ANN = {"kind": "human", "name": "Ann"}
PASSWORD = "a long enough passphrase 42"
OPEN = {"kind": "open"}


@pytest.fixture(autouse=True)
def small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints and analyses think briefly (docs/server.md: ``ORIFLAMME_REVIEW_ITERATIONS``)."""
    monkeypatch.setenv("ORIFLAMME_REVIEW_ITERATIONS", "20")


@dataclass(frozen=True)
class World:
    """A database holding a table (or three) for each route, and their creation answers."""

    db: Path
    tables: dict[str, list[dict[str, Any]]]
    #: A signed-in account's session cookie and CSRF token (valid on a copy of the world).
    account: tuple[str, str] = ("", "")


def create(client: TestClient, seats: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    body = {"players": len(seats), "seats": seats, "first_player": 0, **fields}
    if all(seat["kind"] != "open" for seat in seats):  # strangers' tables are dealt by the server
        body["seed"] = 5
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return dict(response.json())


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    db = tmp_path_factory.mktemp("world") / "games.sqlite3"
    app = create_app(str(db), bot_delay=0, rate=1e6, burst=1e6, tune_gc=False,
                     quotas=Quotas(0, 0))
    with TestClient(app) as client:
        finished = [create(client, HUMANS3[:2]) for _ in range(3)]
        for table in finished:
            play_to_end(client, table)
        tables = {
            "act": [create(client, HUMANS3)],
            "join": [create(client, [ANN, OPEN, OPEN, OPEN])],
            "close": [create(client, [ANN, OPEN]) for _ in range(3)],
            "bot": [create(client, [*HUMANS3, {"kind": "human", "name": "Dan"}])],
            "finished": finished,
            "hint": [create(client, HUMANS3[:2], hints=True)],
            "leave": [create(client, HUMANS3)],
            "claim": [create(client, HUMANS3[:2]) for _ in range(3)],
        }
        signed = client.post("/api/account/signup", json={"name": "Zed", "password": PASSWORD})
        assert signed.status_code == 201, signed.text
        account = (client.cookies[COOKIE], client.get("/api/account").json()["csrf"])
    return World(db, tables, account)


@pytest.fixture
def throttled(world: World, tmp_path: Path) -> Iterator[TestClient]:
    """A server with the allowance of :data:`BURST` requests, on a copy of the world."""
    db = tmp_path / "games.sqlite3"
    for suffix in ("", "-wal", "-shm"):
        source = world.db.with_name(world.db.name + suffix)
        if source.exists():
            shutil.copy(source, db.with_name(db.name + suffix))
    app = create_app(str(db), bot_delay=0, rate=RATE, burst=BURST, tune_gc=False,
                     quotas=Quotas(0, 0))
    with TestClient(app) as client:
        yield client


def summary(client: TestClient, table: dict[str, Any]) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table['table_id']}")
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def view(client: TestClient, table: dict[str, Any], token: str) -> dict[str, Any]:
    answer = client.get(f"/api/tables/{table['table_id']}/view", params={"token": token})
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


# -- each route: three requests, the third refused ---------------------------------------------
Request = Callable[[int], Any]  #: the i-th request of a route (0, 1, 2), answered
Unchanged = Callable[[], None]  #: checks that the third request changed nothing


def act(client: TestClient, world: World) -> tuple[Request, Unchanged]:
    table = world.tables["act"][0]

    def request(i: int) -> Any:
        token = seat_token(table, i)  # seats 0, 1, 2 place in turn
        legal = view(client, table, token)["legal"]
        body = {"token": token, "action": legal[0]["action"], "step": i}
        return client.post(f"/api/tables/{table['table_id']}/actions", json=body)

    return request, lambda: _equal(summary(client, table)["step"], BURST)


def join(client: TestClient, world: World) -> tuple[Request, Unchanged]:
    table = world.tables["join"][0]

    def request(i: int) -> Any:
        body = {"name": f"P{i}", "seat": i + 1}
        return client.post(f"/api/tables/{table['table_id']}/join", json=body)

    return request, lambda: _equal(summary(client, table)["open_seats"], [3])


def close(client: TestClient, world: World) -> tuple[Request, Unchanged]:
    tables = world.tables["close"]

    def request(i: int) -> Any:
        body = {"creator_token": tables[i]["creator_token"]}
        return client.post(f"/api/tables/{tables[i]['table_id']}/close", json=body)

    return request, lambda: _equal(summary(client, tables[2])["closed"], False)


def hand_to_bot(client: TestClient, world: World) -> tuple[Request, Unchanged]:
    table = world.tables["bot"][0]

    def request(i: int) -> Any:
        body = {"creator_token": table["creator_token"], "level": "random", "expect": "away"}
        return client.post(f"/api/tables/{table['table_id']}/seats/{i + 1}/bot", json=body)

    return request, lambda: _equal(summary(client, table)["seats"][3]["kind"], "human")


def rematch(client: TestClient, world: World) -> tuple[Request, Unchanged]:
    tables = world.tables["finished"]

    def request(i: int) -> Any:
        body = {"token": seat_token(tables[i], 0), "game_number": 1}
        return client.post(f"/api/tables/{tables[i]['table_id']}/rematch", json=body)

    return request, lambda: _equal(summary(client, tables[2])["game_number"], 1)


def analysis(client: TestClient, world: World) -> tuple[Request, Unchanged]:
    tables = world.tables["finished"]

    def path(i: int) -> str:
        return f"/api/tables/{tables[i]['table_id']}/games/1/analysis"

    def request(i: int) -> Any:
        return client.post(path(i), params={"token": seat_token(tables[i], 0)})

    def unchanged() -> None:
        answer = client.get(path(2), params={"token": seat_token(tables[2], 0)})
        _equal(answer.json()["status"], "none")

    return request, unchanged


def hint(client: TestClient, world: World) -> tuple[Request, Unchanged]:
    table = world.tables["hint"][0]

    def request(i: int) -> Any:
        return client.get(
            f"/api/tables/{table['table_id']}/hint", params={"token": seat_token(table, 0)}
        )

    return request, lambda: _equal(summary(client, table)["step"], 0)  # a hint never plays


def leave(client: TestClient, world: World) -> tuple[Request, Unchanged]:
    table = world.tables["leave"][0]

    def request(i: int) -> Any:
        body = {"token": seat_token(table, i)}
        return client.post(f"/api/tables/{table['table_id']}/leave", json=body)

    return request, lambda: _equal(summary(client, table)["seats"][BURST]["left"], False)


def claim(client: TestClient, world: World) -> tuple[Request, Unchanged]:
    tables = world.tables["claim"]
    cookie, csrf = world.account
    client.cookies.set(COOKIE, cookie)
    client.headers["X-CSRF-Token"] = csrf

    def request(i: int) -> Any:
        body = {"token": seat_token(tables[i], 0)}
        return client.post(f"/api/tables/{tables[i]['table_id']}/claim", json=body)

    return request, lambda: _equal(summary(client, tables[BURST])["seats"][0]["account"], False)


def _equal(seen: object, expected: object) -> None:
    assert seen == expected, "a refused request changed something"


def push_subscribe(client: TestClient, world: World) -> tuple[Request, Unchanged]:
    cookie, csrf = world.account
    client.cookies.set(COOKIE, cookie)
    client.headers["X-CSRF-Token"] = csrf
    key = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"

    def request(i: int) -> Any:
        body = {"endpoint": f"https://push.example/{i}", "p256dh": key, "auth": "A" * 22}
        return client.post("/api/push/subscriptions", json=body)

    def unchanged() -> None:
        listed = client.get("/api/push/subscriptions").json()["subscriptions"]
        _equal(len(listed), BURST)

    return request, unchanged


ROUTES = [act, join, close, hand_to_bot, rematch, analysis, hint, leave, claim, push_subscribe]


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: r.__name__)
def test_every_route_that_changes_or_thinks_is_rate_limited(
    throttled: TestClient, world: World, route: Callable[[TestClient, World], Any]
) -> None:
    request, unchanged = route(throttled, world)
    for i in range(BURST):
        answer = request(i)
        assert answer.status_code < 300, answer.text
    refused = request(BURST)
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"]["code"] == "too_many_requests"
    unchanged()


def test_every_post_route_is_one_of_those(throttled: TestClient) -> None:
    """A new POST route needs its rate-limit test here (creation: test_server_api; exploring a
    lesson, which has its own allowance: test_lessons; the accounts' routes:
    test_accounts_api; chat mutes and reports, which have their own allowance:
    test_chat_setting_and_mutes). The admins' moderation routes are for signed-in admins
    only (test_chat_moderation)."""
    paths = throttled.get("/openapi.json").json()["paths"]
    posts = {path for path, methods in paths.items() if "post" in methods}
    accounts = {path for path in posts if path.startswith("/api/account/")}
    assert accounts == set(ACCOUNT_POSTS)
    assert posts - accounts == {
        "/api/tables",
        "/api/tables/{table_id}/actions",
        "/api/tables/{table_id}/join",
        "/api/tables/{table_id}/close",
        "/api/tables/{table_id}/seats/{seat}/bot",
        "/api/tables/{table_id}/rematch",
        "/api/tables/{table_id}/games/{number}/analysis",
        "/api/lessons/{lesson_id}/steps/{step}/explore",
        "/api/tables/{table_id}/leave",
        "/api/tables/{table_id}/claim",
        "/api/push/subscriptions",
        "/api/tables/{table_id}/chat/mutes",
        "/api/tables/{table_id}/chat/{number}/report",
        "/api/admin/chat/{table_id}/{number}/{verb}",
    }
