"""Accounts across two ``oriflamme serve`` processes sharing PostgreSQL: a session made on one
is recognised on the other (its CSRF token too), and sign-in failures are counted in the
database, so that the throttles per account and per address hold whichever process answers."""

from __future__ import annotations

from pathlib import Path

import httpx

from servers import running_server

PASSWORD = "correct horse battery"


def sign_in(client: httpx.Client, name: str, password: str) -> httpx.Response:
    return client.post("/api/account/signin", json={"name": name, "password": password})


def test_two_processes_share_sessions_and_throttles(pg_url: str, tmp_path: Path) -> None:
    log = tmp_path / "servers.log"
    with running_server(pg_url, log) as (_, one), running_server(pg_url, log) as (_, two):
        made = one.post("/api/account/signup", json={"name": "Ann", "password": PASSWORD})
        assert made.status_code == 201, made.text
        # The session cookie of one process signs in on the other.
        cookie = one.cookies["oriflamme_session"]
        two.cookies.set("oriflamme_session", cookie)
        seen = two.get("/api/account")
        assert seen.status_code == 200 and seen.json()["csrf"] == made.json()["csrf"]
        assert two.post("/api/account/signout").json()["error"]["code"] == "csrf"
        ended = two.post("/api/account/signout", headers={"X-CSRF-Token": made.json()["csrf"]})
        assert ended.json()["count"] == 1
        assert one.get("/api/account").status_code == 401
        one.cookies.clear()
        two.cookies.clear()

        # Ten failures for Ann, alternately on each process: the eleventh try is refused by
        # both, even with the right password.
        for i in range(10):
            answer = sign_in((one, two)[i % 2], "Ann", "wrong password")
            assert answer.status_code == 401, answer.text
        for client in (one, two):
            refused = sign_in(client, "Ann", PASSWORD)
            assert refused.json()["error"]["code"] == "too_many_attempts"
        # The address: 30 failures in all (Ann's ten, then other names), counted by both.
        for i in range(20):
            answer = sign_in((one, two)[i % 2], f"Nobody {i}", "wrong password")
            assert answer.status_code == 401, answer.text
        for client in (one, two):
            refused = sign_in(client, "Somebody", "wrong password")
            assert refused.json()["error"]["code"] == "too_many_attempts"
