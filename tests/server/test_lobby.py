"""The lobby no one can flood (issue #26 item 3) and what it shows before joining (item 11), on
SQLite and PostgreSQL through the HTTP API; across two real server processes in
test_lobby_scale.py.

Clients come from chosen addresses through uvicorn's own proxy-headers middleware (the one a
real server runs): ``X-Forwarded-For`` names the client, as a reverse proxy would.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from oriflamme.server import create_app
from oriflamme.server.quotas import Quotas
from pgdb import fresh_database

ANN = {"kind": "human", "name": "Ann"}
OPEN = {"kind": "open"}
SPAMMER, PLAYER = "203.0.113.5", "198.51.100.7"
#: Ten card types of both sets: a custom choice.
CUSTOM_CARDS = [
    "archer", "soldier", "spy", "heir", "assassination",
    "queen", "cutthroat", "apothecary", "trap", "corruption",
]


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    if request.param == "sqlite":
        yield str(tmp_path / "games.sqlite3")
    else:
        with fresh_database() as url:
            yield url


def make_client(database: str, quotas: Quotas | None = None) -> TestClient:
    app = create_app(
        database, bot_delay=0, rate=1000.0, burst=1000.0, tune_gc=False, quotas=quotas
    )
    return TestClient(ProxyHeadersMiddleware(app, trusted_hosts="*"))  # type: ignore[arg-type]


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    """A server with the default quotas."""
    with make_client(database) as c:
        yield c


def create(client: TestClient, address: str, **fields: Any) -> httpx.Response:
    body = {"players": 3, "seats": [ANN, OPEN, OPEN], "public": True, **fields}
    return client.post("/api/tables", json=body, headers={"X-Forwarded-For": address})


def created(client: TestClient, address: str, **fields: Any) -> dict[str, Any]:
    response = create(client, address, **fields)
    assert response.status_code == 201, response.text
    return dict(response.json())


def page(client: TestClient, **params: Any) -> dict[str, Any]:
    response = client.get("/api/lobby", params=params)
    assert response.status_code == 200, response.text
    return dict(response.json())


def every_page(client: TestClient, **params: Any) -> list[list[str]]:
    """The table ids of each page, following the cursors to the end."""
    pages = []
    cursor = None
    while True:
        found = page(client, **params, **({"cursor": cursor} if cursor else {}))
        pages.append([t["table_id"] for t in found["tables"]])
        cursor = found["next"]
        if cursor is None:
            return pages


# -- one address cannot own the lobby -------------------------------------------------------
def test_one_address_cannot_fill_the_lobby_with_120_tables(client: TestClient) -> None:
    """The issue as written: one address created 120 public 5-seat tables, the lobby's 100
    entries were all spam and a real table was gone."""
    real = created(client, PLAYER)["table_id"]
    five = {"players": 5, "seats": [ANN, OPEN, OPEN, OPEN, OPEN]}
    answers = [create(client, SPAMMER, **five) for _ in range(120)]
    accepted = [a.json()["table_id"] for a in answers if a.status_code == 201]
    refused = [a for a in answers if a.status_code != 201]
    assert len(accepted) == 3
    assert {(a.status_code, a.json()["error"]["code"]) for a in refused} == {
        (429, "too_many_public_tables")
    }
    assert "at most 3 tables" in refused[0].json()["error"]["message"]
    first = page(client)
    assert real in [t["table_id"] for t in first["tables"]]
    assert sorted(t["table_id"] for t in first["tables"]) == sorted([real, *accepted])
    assert first["next"] is None


def test_an_ipv6_network_counts_as_one_address(client: TestClient) -> None:
    for host in ("2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:ffff:ffff:ffff:ffff"):
        assert create(client, host).status_code == 201
    refused = create(client, "2001:db8:1:2:abcd::9")  # the same /64
    assert (refused.status_code, refused.json()["error"]["code"]) == (
        429,
        "too_many_public_tables",
    )
    assert create(client, "2001:db8:1:3::1").status_code == 201  # another /64
    # An IPv4 address written as IPv6 (a dual-stack socket) is that IPv4 address.
    for _ in range(3):
        assert create(client, "192.0.2.9").status_code == 201
    assert create(client, "::ffff:192.0.2.9").status_code == 429
    assert len(page(client)["tables"]) == 7


def test_a_closed_or_full_table_frees_its_place(client: TestClient) -> None:
    tables = [created(client, SPAMMER) for _ in range(3)]
    assert create(client, SPAMMER).status_code == 429
    first = tables[0]
    closed = client.post(
        f"/api/tables/{first['table_id']}/close", json={"creator_token": first["creator_token"]}
    )
    assert closed.status_code == 200, closed.text
    assert create(client, SPAMMER).status_code == 201  # the closed table left the lobby
    assert create(client, SPAMMER).status_code == 429
    second = tables[1]["table_id"]
    for name in ("Ben", "Cid"):
        joined = client.post(
            f"/api/tables/{second}/join", json={"name": name}, headers={"X-Forwarded-For": PLAYER}
        )
        assert joined.status_code == 201, joined.text
    assert create(client, SPAMMER).status_code == 201  # the full table left the lobby
    # Private tables are not listed, so never counted.
    private = {"public": False, "seats": [ANN, OPEN, OPEN]}
    assert all(create(client, SPAMMER, **private).status_code == 201 for _ in range(4))


def test_a_refused_table_is_not_stored(client: TestClient) -> None:
    for _ in range(3):
        created(client, SPAMMER)
    before = every_page(client)
    refused = create(client, SPAMMER, players=2, seats=[ANN, OPEN])
    assert refused.status_code == 429 and "table_id" not in refused.json()
    assert every_page(client) == before
    assert len(before[0]) == 3


def test_no_limit_means_no_limit_and_the_order_stays_fair(database: str) -> None:
    """``--public-tables 0``: one address lists as many tables as it likes, yet every other
    creator's newest table comes before its second; the cursor walks every table once."""
    with make_client(database, Quotas(public_tables=0)) as client:
        real = created(client, PLAYER)["table_id"]
        spam = [created(client, SPAMMER)["table_id"] for _ in range(45)]
        other = created(client, "192.0.2.44")["table_id"]
        pages = every_page(client)
        assert [len(p) for p in pages] == [20, 20, 7]
        first = pages[0]
        # Each creator's newest first (the newest of them first), then the spammer's others.
        assert first[:3] == [other, spam[-1], real]
        assert first[3:] == spam[-2:-19:-1]
        walked = [t for p in pages for t in p]
        assert sorted(walked) == sorted([real, other, *spam])  # each once
        assert [len(p) for p in every_page(client, limit=50)] == [47]
        assert [len(p) for p in every_page(client, limit=1)] == [1] * 47


# -- filters, pages and what an entry shows -------------------------------------------------
def test_filters_choose_the_tables_a_player_wants(client: TestClient) -> None:
    base3 = created(client, "192.0.2.1")["table_id"]
    duel = created(client, "192.0.2.2", players=2, seats=[ANN, OPEN], variant="standard")
    ember = created(client, "192.0.2.3", cards="embrasement", clock={"per_decision": 60})
    custom = created(client, "192.0.2.4", cards=CUSTOM_CARDS, hints=True)

    def ids(**params: Any) -> set[str]:
        return {t["table_id"] for t in page(client, **params)["tables"]}

    assert ids() == {base3, duel["table_id"], ember["table_id"], custom["table_id"]}
    assert ids(players=2) == {duel["table_id"]}
    assert ids(players=3) == {base3, ember["table_id"], custom["table_id"]}
    assert ids(players=5) == set()
    assert ids(cards="base") == {base3, duel["table_id"]}
    assert ids(cards="embrasement") == {ember["table_id"]}
    assert ids(cards="custom") == {custom["table_id"]}
    assert ids(clock="true") == {ember["table_id"]}
    assert ids(clock="false") == {base3, duel["table_id"], custom["table_id"]}
    assert ids(hints="true") == {custom["table_id"]}
    assert ids(hints="false", players=3, clock="false") == {base3}
    # A page of one at a time, filtered: the cursor keeps the filter's order.
    assert [p for p in every_page(client, limit=1, players=3)] == [
        [custom["table_id"]], [ember["table_id"]], [base3]
    ]


def test_an_entry_shows_what_matters_before_joining(client: TestClient) -> None:
    table = created(
        client,
        PLAYER,
        players=4,
        seats=[ANN, {"kind": "bot", "level": "hard"}, OPEN, {"kind": "bot", "level": "easy"}],
        cards=CUSTOM_CARDS,
        edition="first",
        lang="fr",
        hints=True,
        clock={"per_decision": 45},
        stand_in="expert",
        absent_after=300,
    )
    duel = created(
        client, SPAMMER, players=2, seats=[OPEN, ANN], variant="two-families", absent_after=None
    )
    entries = {t["table_id"]: t for t in page(client)["tables"]}
    entry = entries[table["table_id"]]
    assert entry["players"] == 4
    assert entry["cards"] == ",".join(CUSTOM_CARDS)
    assert (entry["variant"], entry["edition"], entry["lang"]) == ("standard", "first", "fr")
    assert (entry["hints"], entry["clock"], entry["stand_in"], entry["absent_after"]) == (
        True, 45, "expert", 300
    )
    assert [(s["kind"], s["name"], s["level"], s["colour"]) for s in entry["seats"]] == [
        ("human", "Ann", None, "red"),
        ("bot", "Blue bot (hard)", "hard", "blue"),
        ("open", "", None, "green"),
        ("bot", "Yellow bot (easy)", "easy", "yellow"),
    ]
    assert entry["open_seats"] == [2]
    assert "token" not in str(entry) and "origin" not in entry
    other = entries[duel["table_id"]]
    assert (other["variant"], other["edition"], other["cards"]) == (
        "two-families", "revised", "base"
    )
    assert (other["hints"], other["clock"], other["stand_in"], other["absent_after"]) == (
        False, None, "medium", None
    )


@pytest.mark.parametrize(
    ("params", "where"),
    [
        ({"cursor": "not-a-cursor"}, "cursor"),
        ({"cursor": "W10"}, "cursor"),  # base64 of "[]"
        ({"cursor": "WzAsMSwieCJd"}, "cursor"),  # [0,1,"x"]: no rank 0
        ({"cursor": "x" * 201}, "cursor"),
        ({"players": 6}, "players"),
        ({"players": "two"}, "players"),
        ({"cards": "all"}, "cards"),
        ({"clock": "maybe"}, "clock"),
        ({"hints": "2"}, "hints"),
        ({"limit": 0}, "limit"),
        ({"limit": 51}, "limit"),
    ],
)
def test_a_bad_lobby_request_is_refused_clearly(
    client: TestClient, params: dict[str, Any], where: str
) -> None:
    created(client, PLAYER)
    response = client.get("/api/lobby", params=params)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["code"] == "invalid_request" and where in error["message"]
    assert len(page(client)["tables"]) == 1


def test_a_join_link_shows_its_table_listed_or_not(client: TestClient) -> None:
    private = created(client, PLAYER, public=False, players=2, seats=[ANN, OPEN], hints=True)
    table_id = private["table_id"]
    assert page(client)["tables"] == []  # not listed
    entry = client.get(f"/api/lobby/{table_id}").json()
    assert (entry["table_id"], entry["open_seats"], entry["age"], entry["hints"]) == (
        table_id, [1], None, True
    )
    assert entry["closed"] is False
    assert [s["kind"] for s in entry["seats"]] == ["human", "open"]
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Ben"})
    assert joined.status_code == 201
    full = client.get(f"/api/lobby/{table_id}").json()
    assert (full["open_seats"], full["closed"]) == ([], False)
    listed = created(client, SPAMMER)
    assert client.post(
        f"/api/tables/{listed['table_id']}/close", json={"creator_token": listed["creator_token"]}
    ).status_code == 200
    closed = client.get(f"/api/lobby/{listed['table_id']}").json()
    assert (closed["open_seats"], closed["closed"]) == ([1, 2], True)
    assert client.get("/api/lobby/nosuchtable").json()["error"]["code"] == "unknown_table"
    assert client.get("/api/lobby/bad%20id").status_code == 422
