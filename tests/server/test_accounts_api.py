"""The accounts' HTTP API (server/accounts): sign-up and its refusals (names, look-alikes, bot
labels, weak passwords), sign-in, sign-out, the session cookie (its attributes, a new id at
every sign-in, expiry and renewal, HTTPS and proxies), suspended accounts, no enumeration of
names, sessions listed and revoked, a password changed, an account deleted and exported."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import httpx
import pytest
from argon2 import PasswordHasher
from argon2.exceptions import VerifyMismatchError
from fastapi.testclient import TestClient
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from oriflamme.api import Game
from oriflamme.server import SqliteStore, create_app
from oriflamme.server.accounts import passwords
from oriflamme.server.accounts.sessions import COOKIE, LIFETIME, SECURE_COOKIE
from oriflamme.server.accounts.throttle import address_throttle_key, name_throttle_key
from oriflamme.server.addresses import origin_digest
from oriflamme.server.storage import Store
from oriflamme.server.storage.dialect import Sql
from test_server_api import HUMANS3, create, play_to_end

ORIGIN = "http://testserver"
PASSWORD = "correct horse battery"


def make_client(tmp_path: Path, **options: Any) -> TestClient:
    app = create_app(SqliteStore(tmp_path / "games.sqlite3"), bot_delay=0, tune_gc=False,
                     rate=1000.0, burst=1000.0)
    client = TestClient(app, **options)
    # What a browser sends with every fetch that changes something.
    client.headers["Origin"] = options.get("base_url", ORIGIN)
    return client


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with make_client(tmp_path) as c:
        yield c


def store(client: TestClient) -> Store:
    found: Store = client.app.state.manager.store  # type: ignore[attr-defined]
    return found


def sql(client: TestClient, text: str, *values: Any) -> None:
    """Change the stored sessions or accounts directly (what time or the admin would)."""
    s = store(client)
    q = Sql(s.dialect)  # type: ignore[attr-defined]
    marks = [q(v) for v in values]
    client.portal.call(  # type: ignore[union-attr]
        s._write_one, q.statement(text.format(*marks))  # type: ignore[attr-defined]
    )


def sign_up(client: TestClient, name: str = "Ann", password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/account/signup", json={"name": name, "password": password})


def sign_in(client: TestClient, name: str = "Ann", password: str = PASSWORD) -> httpx.Response:
    return client.post("/api/account/signin", json={"name": name, "password": password})


def me(client: TestClient) -> httpx.Response:
    return client.get("/api/account")


def error(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


# -- sign-up ---------------------------------------------------------------------------------
def test_sign_up_signs_in_with_a_safe_cookie(client: TestClient) -> None:
    assert error(me(client)) == (401, "signed_out")
    assert client.get("/api/account/session").json() == {"account": None}
    response = sign_up(client)
    assert response.status_code == 201, response.text
    account = response.json()
    assert account["name"] == "Ann" and not account["admin"] and account["csrf"]
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=")
    attributes = {part.strip().lower() for part in cookie.split(";")[1:]}
    assert {"httponly", "path=/", "samesite=lax", f"max-age={int(LIFETIME)}"} <= attributes
    assert "secure" not in attributes  # plain HTTP: a Secure cookie would not come back
    assert me(client).json() == {**account, "has_password": True}
    assert client.get("/api/account/session").json() == {"account": me(client).json()}


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "1 to 24"),
        ("x" * 25, "1 to 24"),
        ("\u200b", "visible"),
        ("Ann\u0007", "control"),
        ("Blue bot (hard)", "bots"),
        ("robot BLEU (difficile)", "bots"),
        ("Deleted Player", "deleted"),
    ],
)
def test_bad_names_are_refused(client: TestClient, name: str, why: str) -> None:
    response = sign_up(client, name)
    assert error(response) == (422, "invalid_request")
    assert why in response.json()["error"]["message"]
    assert error(me(client)) == (401, "signed_out")


@pytest.mark.parametrize("twin", ["ann", "ANN", "Ａｎｎ", "  Ann ", "A\u200dnn"])
def test_names_that_read_alike_are_one_account(tmp_path: Path, twin: str) -> None:
    with make_client(tmp_path) as first:
        assert sign_up(first).status_code == 201
    with make_client(tmp_path) as second:
        assert error(sign_up(second, twin)) == (409, "name_taken")
        assert error(me(second)) == (401, "signed_out")


@pytest.mark.parametrize(
    ("password", "code"),
    [
        ("short12", "password_too_short"),
        ("password123", "password_too_common"),
        ("Password1!", "password_too_common"),
        ("AZERTYUIOP", "password_too_common"),
        ("x" * 257, "invalid_request"),
    ],
)
def test_weak_passwords_are_refused(client: TestClient, password: str, code: str) -> None:
    assert error(sign_up(client, "Ann", password)) == (422, code)
    assert error(me(client)) == (401, "signed_out")
    assert sign_up(client, "Ann", "a long enough passphrase").status_code == 201


# -- sign-in and sign-out --------------------------------------------------------------------
def test_sign_out_then_in_again(client: TestClient) -> None:
    first = sign_up(client).json()
    out = client.post("/api/account/signout")
    assert out.status_code == 200 and out.json()["count"] == 1
    assert 'max-age=0' in out.headers["set-cookie"].lower()
    assert error(me(client)) == (401, "signed_out")
    assert error(sign_in(client, "Ann", "not the password")) == (401, "bad_credentials")
    again = sign_in(client, "ａｎｎ")  # the name as typed, any width or case
    assert again.status_code == 200, again.text
    assert again.json()["id"] == first["id"] and again.json()["csrf"] != first["csrf"]
    assert me(client).json()["name"] == "Ann"


def test_a_new_session_id_at_every_sign_in(client: TestClient) -> None:
    """Session fixation: whatever id the browser held before signing in, it gets a new one,
    and the one it held no longer works."""
    sign_up(client)
    planted = client.cookies[COOKIE]
    client.cookies.clear()
    client.cookies[COOKIE] = planted  # an id someone else knows, set in the victim's browser
    response = sign_in(client)
    assert response.status_code == 200
    fresh = response.cookies[COOKIE]
    assert fresh and fresh != planted
    client.cookies.clear()
    client.cookies[COOKIE] = planted
    assert error(me(client)) == (401, "signed_out")
    client.cookies.clear()
    client.cookies[COOKIE] = fresh
    assert me(client).status_code == 200


def test_an_expired_session_signs_nobody_in(client: TestClient) -> None:
    sign_up(client)
    assert me(client).status_code == 200
    sql(client, "UPDATE sessions SET expires = {0}", time.time() - 1)
    assert error(me(client)) == (401, "signed_out")
    assert error(client.get("/api/account/sessions")) == (401, "signed_out")


def test_a_session_in_use_is_renewed(client: TestClient) -> None:
    sign_up(client)
    old = time.time() - 2 * 86400
    sql(client, "UPDATE sessions SET seen = {0}, expires = {1}", old, old + LIFETIME)
    response = me(client)
    assert response.status_code == 200
    assert COOKIE in response.headers.get("set-cookie", "")  # the cookie's life starts again
    listed = client.get("/api/account/sessions").json()["sessions"]
    assert listed[0]["expires"] > time.time() + LIFETIME - 60
    # Not renewed again on the next request.
    assert "set-cookie" not in me(client).headers


def test_over_https_the_cookie_is_secure_and_host_bound(tmp_path: Path) -> None:
    with make_client(tmp_path, base_url="https://testserver") as client:
        response = sign_up(client)
        cookie = response.headers["set-cookie"]
        assert cookie.startswith(f"{SECURE_COOKIE}=") and "secure" in cookie.lower()
        assert "domain" not in cookie.lower()
        assert me(client).status_code == 200


def test_behind_a_trusted_proxy_that_says_https(tmp_path: Path) -> None:
    app = create_app(SqliteStore(tmp_path / "g.sqlite3"), bot_delay=0, tune_gc=False)
    proxied = ProxyHeadersMiddleware(app, trusted_hosts="*")  # uvicorn's --proxy-headers
    with TestClient(proxied, base_url="http://example.org") as client:  # type: ignore[arg-type]
        headers = {"X-Forwarded-Proto": "https", "Origin": "https://example.org"}
        response = client.post(
            "/api/account/signup", json={"name": "Ann", "password": PASSWORD}, headers=headers
        )
        assert response.status_code == 201, response.text
        assert response.headers["set-cookie"].startswith(f"{SECURE_COOKIE}=")
        # The same origin over plain HTTP is another origin.
        plain = client.post(
            "/api/account/signin", json={"name": "Ann", "password": PASSWORD},
            headers={"X-Forwarded-Proto": "https", "Origin": "http://example.org"},
        )
        assert error(plain) == (403, "csrf")


def test_a_suspended_account_cannot_sign_in(client: TestClient) -> None:
    sign_up(client)
    sql(client, "UPDATE accounts SET suspended = {0}", True)
    assert error(me(client)) == (401, "signed_out")  # its sessions stop at once
    refused = sign_in(client)
    assert error(refused) == (403, "account_suspended")
    assert "suspended" in refused.json()["error"]["message"]
    # A wrong password says nothing about the account.
    assert error(sign_in(client, "Ann", "wrong password")) == (401, "bad_credentials")


class CountingHasher(PasswordHasher):
    """The server's hasher, counting the argon2 hashes it computed to check a password (not
    the checks refused before any work: a malformed hash)."""

    checked = 0

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        try:
            matched = super().verify(hash, password)
        except VerifyMismatchError:
            CountingHasher.checked += 1
            raise
        CountingHasher.checked += 1
        return matched


def test_no_way_to_tell_an_unknown_name_from_a_wrong_password(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    sign_up(client)
    client.post("/api/account/signout")
    h = passwords.HASHER
    monkeypatch.setattr(passwords, "HASHER", CountingHasher(
        time_cost=h.time_cost, memory_cost=h.memory_cost, parallelism=h.parallelism,
        hash_len=h.hash_len, salt_len=h.salt_len, type=h.type,
    ))
    answers = []
    for name in ("Ann", "Nobody"):
        CountingHasher.checked = 0
        response = sign_in(client, name, "wrong password")
        # The same answer, and the same work: one argon2 hash checked either way.
        body = response.json()
        assert len(body["error"].pop("request_id")) == 12  # each request's own id (#32)
        answers.append((response.status_code, body, CountingHasher.checked))
    assert answers[0] == answers[1] == (
        401, {"error": {"code": "bad_credentials", "message": "wrong name or password"}}, 1
    )


class ThreadNoting(PasswordHasher):
    """The server's hasher, noting which threads hash and check."""

    threads: ClassVar[set[str]] = set()

    def hash(self, password: str | bytes, *, salt: bytes | None = None) -> str:
        ThreadNoting.threads.add(threading.current_thread().name)
        return super().hash(password, salt=salt)

    def verify(self, hash: str | bytes, password: str | bytes) -> bool:
        ThreadNoting.threads.add(threading.current_thread().name)
        return super().verify(hash, password)


def test_passwords_are_hashed_off_the_event_loop(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    h = passwords.HASHER
    monkeypatch.setattr(passwords, "HASHER", ThreadNoting(
        time_cost=h.time_cost, memory_cost=h.memory_cost, parallelism=h.parallelism,
        hash_len=h.hash_len, salt_len=h.salt_len, type=h.type,
    ))
    sign_up(client)
    sign_in(client, "Ann", "wrong password")
    sign_in(client)
    assert ThreadNoting.threads and all(t.startswith("argon2") for t in ThreadNoting.threads)


def test_too_many_hashes_waiting_is_busy(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(passwords, "MAX_WAITING", 0)
    answer = sign_up(client)
    assert error(answer) == (503, "busy")
    assert "try again" in answer.json()["error"]["message"]
    assert error(me(client)) == (401, "signed_out")


# -- brute force -----------------------------------------------------------------------------
def test_sign_in_is_throttled_per_account_then_per_address(client: TestClient) -> None:
    sign_up(client)
    client.post("/api/account/signout")
    for _ in range(10):
        assert error(sign_in(client, "Ann", "wrong password")) == (401, "bad_credentials")
    # The account's limit: even the right password waits now (and says nothing about it).
    assert error(sign_in(client)) == (429, "too_many_attempts")
    assert error(sign_in(client, "ANN", "wrong password")) == (429, "too_many_attempts")
    # Other names go on from this address, up to the address's limit.
    for i in range(20):
        assert error(sign_in(client, f"Nobody {i}", "wrong password")) == (401, "bad_credentials")
    assert error(sign_in(client, "Somebody", "wrong password")) == (429, "too_many_attempts")
    # The failures are rows of the database (another server process counts them too), under
    # digests: no name or address in clear.
    address = address_throttle_key(origin_digest("testclient"))
    counts = client.portal.call(  # type: ignore[union-attr]
        store(client).sign_in_failures, [address, name_throttle_key("ann")], 900.0
    )
    assert counts == {address: 30, name_throttle_key("ann"): 10}


#: Every POST route of the accounts, with a body to send (tests/test_server_throttle.py checks
#: that the list is complete).
ACCOUNT_POSTS: dict[str, dict[str, Any] | None] = {
    "/api/account/signup": {"name": "Ann", "password": PASSWORD},
    "/api/account/signin": {"name": "Ann", "password": PASSWORD},
    "/api/account/signout": None,
    "/api/account/sessions/revoke": {"others": True},
    "/api/account/password": {"current": PASSWORD, "new": "another good one"},
    "/api/account/delete": {"password": "wrong password"},
    "/api/account/passkeys/options": None,
    "/api/account/passkeys": {"ceremony": "x", "credential": {}},
    "/api/account/passkeys/{credential_id}/delete": None,
    "/api/account/passkey-signin/options": None,
    "/api/account/passkey-signin": {"ceremony": "x", "credential": {}},
}


@pytest.mark.parametrize("path", ACCOUNT_POSTS)
def test_account_posts_are_throttled_per_address_like_the_others(
    tmp_path: Path, path: str
) -> None:
    app = create_app(SqliteStore(tmp_path / "g.sqlite3"), bot_delay=0, tune_gc=False,
                     rate=1e-9, burst=2)
    url = path.replace("{credential_id}", "abc")
    with TestClient(app) as client:
        client.headers["Origin"] = ORIGIN
        for _ in range(2):
            assert client.post(url, json=ACCOUNT_POSTS[path]).status_code != 429
        assert error(client.post(url, json=ACCOUNT_POSTS[path])) == (429, "too_many_requests")
        assert client.get("/api/account/session").status_code == 200  # reads are not limited


# -- sessions, password, deletion, export ----------------------------------------------------
def test_sessions_are_listed_and_revoked(tmp_path: Path) -> None:
    with make_client(tmp_path) as one, make_client(tmp_path) as two, make_client(tmp_path) as three:
        sign_up(one)
        sign_in(two)
        sign_in(three)
        listed = one.get("/api/account/sessions").json()["sessions"]
        assert len(listed) == 3 and sum(s["current"] for s in listed) == 1
        assert all(s["agent"] == "testclient" for s in listed)
        other = next(s["id"] for s in listed if not s["current"])
        revoked = one.post("/api/account/sessions/revoke", json={"session": other})
        assert revoked.status_code == 200 and revoked.json()["count"] == 1
        assert error(one.post("/api/account/sessions/revoke", json={"session": other})) == (
            404, "unknown_session"
        )
        assert [me(c).status_code for c in (one, two, three)].count(401) == 1
        one.post("/api/account/sessions/revoke", json={"others": True})
        assert [me(c).status_code for c in (one, two, three)] == [200, 401, 401]
        sign_in(two)
        everywhere = two.post("/api/account/signout", json={"everywhere": True})
        assert everywhere.json()["count"] == 2
        assert [me(c).status_code for c in (one, two)] == [401, 401]


def test_changing_the_password_ends_the_other_sessions(tmp_path: Path) -> None:
    with make_client(tmp_path) as one, make_client(tmp_path) as two:
        sign_up(one)
        sign_in(two)
        change = one.post("/api/account/password", json={"current": "nope", "new": "x" * 12})
        assert error(change) == (403, "bad_password")
        weak = one.post("/api/account/password", json={"current": PASSWORD, "new": "letmein1"})
        assert error(weak) == (422, "password_too_common")
        done = one.post(
            "/api/account/password", json={"current": PASSWORD, "new": "another good one"}
        )
        assert done.status_code == 200 and done.json()["count"] == 1
        assert (me(one).status_code, me(two).status_code) == (200, 401)
        assert error(sign_in(two)) == (401, "bad_credentials")
        assert sign_in(two, "Ann", "another good one").status_code == 200


def test_a_deleted_account_leaves_its_games_to_a_deleted_player(client: TestClient) -> None:
    table = create(client, players=3, seats=HUMANS3, seed=11)  # as a guest, then signed up
    account = sign_up(client).json()
    sql(client, "UPDATE seats SET account_id = {0} WHERE seat = 0", account["id"])
    play_to_end(client, table)
    exported = client.get("/api/account/export")
    assert exported.status_code == 200
    assert "attachment" in exported.headers["content-disposition"]
    data = exported.json()
    assert data["profile"]["name"] == "Ann" and data["ratings"] == {}
    assert [(g["table"], g["game"], g["seat"]) for g in data["games"]] == [
        (table["table_id"], 1, 0)
    ]
    replayed = Game.from_replay(data["games"][0]["record"])
    assert replayed.is_over
    replay_url = f"/api/tables/{table['table_id']}/games/1/replay"
    replay = client.get(replay_url, params={"token": table["spectator_token"]}).json()

    assert error(client.post("/api/account/delete", json={"password": "nope"})) == (
        403, "bad_password"
    )
    deleted = client.post("/api/account/delete", json={"password": PASSWORD})
    assert deleted.status_code == 200
    assert error(me(client)) == (401, "signed_out")
    assert error(sign_in(client)) == (401, "bad_credentials")
    # The server's copy of the table is read again (other servers are told by storage).
    assert seat_names(client, table)[:2] == ["deleted player", "Ben"]
    # The replay is the same game, still valid.
    after = client.get(replay_url, params={"token": table["spectator_token"]}).json()
    assert after == replay
    assert Game.from_replay(after).is_over
    # The name may be taken again.
    assert sign_up(client).status_code == 201


def seat_names(client: TestClient, table: dict[str, Any]) -> list[str]:
    summary = client.get(f"/api/tables/{table['table_id']}").json()
    return [s["name"] for s in summary["seats"]]


def test_an_unfinished_game_is_not_exported(client: TestClient) -> None:
    """Its record would show the deal (its seed) to one of its players."""
    table = create(client, players=3, seats=HUMANS3, seed=3)  # as a guest, then signed up
    account = sign_up(client).json()
    sql(client, "UPDATE seats SET account_id = {0} WHERE seat = 1", account["id"])
    assert client.get("/api/account/export").json()["games"] == []
    assert client.portal.call(  # type: ignore[union-attr]
        store(client).account_seats, account["id"]
    ) == [(table["table_id"], 1)]
