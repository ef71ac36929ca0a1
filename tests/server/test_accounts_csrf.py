"""The CSRF rule, server-wide (server/accounts/csrf.py): a state-changing request that carries
the session cookie is refused (``403 csrf``, nothing changed) unless its ``X-CSRF-Token`` is its
session's or its ``Origin`` is this server's; requests without the cookie are not concerned,
but a sign-in from another origin is refused (login CSRF)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketDenialResponse

from oriflamme.server import SqliteStore, create_app
from test_server_api import HUMANS3

PASSWORD = "correct horse battery"
EVIL = "https://evil.example"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(SqliteStore(tmp_path / "g.sqlite3"), bot_delay=0, tune_gc=False)
    with TestClient(app) as c:
        yield c


def signed_in(client: TestClient) -> str:
    """Sign up (from the server's own page); the session's CSRF token."""
    response = client.post(
        "/api/account/signup", json={"name": "Ann", "password": PASSWORD},
        headers={"Origin": "http://testserver"},
    )
    assert response.status_code == 201, response.text
    token: str = response.json()["csrf"]
    return token


def code(response: httpx.Response) -> str:
    return str(response.json().get("error", {}).get("code", response.status_code))


def test_guests_are_not_concerned(client: TestClient) -> None:
    """No cookie: every existing request works as before, whatever its Origin."""
    for headers in ({}, {"Origin": EVIL}):
        made = client.post("/api/tables", json={"players": 3, "seats": HUMANS3}, headers=headers)
        assert made.status_code == 201, made.text


def test_a_request_with_the_cookie_needs_the_token_or_the_origin(client: TestClient) -> None:
    token = signed_in(client)
    # (Seats not named like the account: a signed-in creator may not give its name away.)
    others = [{"kind": "human", "name": name} for name in ("Cid", "Dan", "Eve")]
    table = {"players": 3, "seats": others}
    refused = [
        client.post("/api/tables", json=table),
        client.post("/api/tables", json=table, headers={"Origin": EVIL}),
        client.post("/api/tables", json=table, headers={"Origin": "http://testserver:8080"}),
        client.post("/api/tables", json=table, headers={"Origin": "null"}),
        client.post("/api/tables", json=table, headers={"X-CSRF-Token": "guess"}),
        client.post("/api/tables", json=table, headers={"X-CSRF-Token": ""}),
        client.post("/api/account/signout", headers={"Origin": EVIL, "X-CSRF-Token": token[:-1]}),
        client.post("/api/account/password", json={"current": PASSWORD, "new": "a new password"}),
        client.post("/api/account/delete", json={"password": PASSWORD}, headers={"Origin": EVIL}),
        client.post("/api/account/sessions/revoke", json={"others": True}),
    ]
    for response in refused:
        assert (response.status_code, code(response)) == (403, "csrf"), response.text
        assert "CSRF" in response.json()["error"]["message"]
    # Nothing changed: still signed in, with the same password, no table made.
    assert client.get("/api/account").status_code == 200
    allowed = [
        client.post("/api/tables", json=table, headers={"X-CSRF-Token": token}),
        client.post("/api/tables", json=table, headers={"Origin": "http://testserver"}),
        client.post("/api/tables", json=table, headers={"Origin": "HTTP://TESTSERVER:80"}),
        # A token is enough even when a (wrong) Origin is sent.
        client.post("/api/tables", json=table, headers={"Origin": EVIL, "X-CSRF-Token": token}),
    ]
    assert [r.status_code for r in allowed] == [201] * 4
    # Reading is not concerned.
    assert client.get("/api/account/sessions").status_code == 200


def test_a_stale_cookie_still_needs_the_origin(client: TestClient) -> None:
    signed_in(client)
    client.post("/api/account/signout", headers={"Origin": "http://testserver"})
    client.cookies["oriflamme_session"] = "an id the server does not know"
    refused = client.post("/api/tables", json={"players": 3, "seats": HUMANS3})
    assert code(refused) == "csrf"
    same = client.post(
        "/api/tables", json={"players": 3, "seats": HUMANS3},
        headers={"Origin": "http://testserver"},
    )
    assert same.status_code == 201


def test_signing_in_from_another_site_is_refused(client: TestClient) -> None:
    """Login CSRF: another site could sign a visitor into its own account."""
    signed_in(client)
    client.cookies.clear()
    for path in ("/api/account/signin", "/api/account/signup"):
        body = {"name": "Ann" if path.endswith("in") else "Ben", "password": PASSWORD}
        response = client.post(path, json=body, headers={"Origin": EVIL})
        assert (response.status_code, code(response)) == (403, "csrf")
        assert "set-cookie" not in response.headers
    passkey = client.post("/api/account/passkey-signin/options", headers={"Origin": EVIL})
    assert code(passkey) == "csrf"
    # Without an Origin (not a browser) or from this site, fine.
    again = client.post("/api/account/signin", json={"name": "Ann", "password": PASSWORD})
    assert again.status_code == 200


def test_a_websocket_with_the_cookie_must_come_from_this_site(client: TestClient) -> None:
    made = client.post("/api/tables", json={"players": 3, "seats": HUMANS3}).json()
    token = made["seats"][0]["token"]
    signed_in(client)
    url = f"/ws/{made['table_id']}?token={token}"
    with (
        pytest.raises(WebSocketDenialResponse) as denied,
        client.websocket_connect(url, headers={"Origin": EVIL}),
    ):
        pass
    assert denied.value.status_code == 403
    assert denied.value.json()["error"]["code"] == "csrf"
    with client.websocket_connect(url, headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "view"
